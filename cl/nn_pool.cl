/* 2-D max-pooling, forward and backward (src/nn_pool.c; src/k_nn.h lists the
 * parameters). OpenCL C 1.2.
 *
 * Geometry: N images of C x H x W (one row each, NCHW), windows of SZ x SZ,
 * stride S, no padding, outputs OH x OW per channel. Every matrix has its
 * start offset and row stride (views); argmax is int32 and holds, for each
 * output, the position h * W + w of the chosen value within its plane.
 *
 * Launch: 1-D, any work-group size (extra work-items return).
 * No %: see nn_im2col.cl. */

/* One work-item per output row (n, c, oh), N * C * OH of them. The largest
 * value of each window, the first in row-major order on ties; a NaN is taken
 * over any number (the first NaN), so a window holding NaN gives NaN.
 * has_argmax 0: argmax is not written. */
__kernel void maxpool_forward(const ulong N, const ulong C, const ulong H, const ulong W, const ulong SZ,
                              const ulong S, const ulong OH, const ulong OW, __global const REAL *x,
                              const ulong x_off, const ulong ldx, __global REAL *y, const ulong y_off,
                              const ulong ldy, __global int *am, const ulong am_off, const ulong ldam,
                              const int has_argmax)
{
    const ulong g = get_global_id(0);
    const ulong t0 = g / OH, oh = g - t0 * OH;
    const ulong n = t0 / C, c = t0 - n * C;
    if (n >= N)
        return;
    __global const REAL *plane = x + x_off + n * ldx + c * H * W;
    const ulong out = c * OH * OW + oh * OW;
    for (ulong ow = 0; ow < OW; ++ow) {
        ulong at = oh * S * W + ow * S;
        REAL best = plane[at];
        for (ulong i = 0; i < SZ; ++i)
            for (ulong j = 0; j < SZ; ++j) {
                const ulong pos = (oh * S + i) * W + ow * S + j;
                const REAL v = plane[pos];
                if (v > best || (isnan(v) && !isnan(best))) {
                    best = v;
                    at = pos;
                }
            }
        y[y_off + n * ldy + out + ow] = best;
        if (has_argmax)
            am[am_off + n * ldam + out + ow] = (int)at;
    }
}

/* One work-item per input row (n, c, h), N * C * H of them, writing its W
 * elements of dx: each the sum of the dy values of the windows that cover it
 * and chose it (a gather: no atomics, and overlapping windows, S < SZ, add up). */
__kernel void maxpool_backward(const ulong N, const ulong C, const ulong H, const ulong W, const ulong SZ,
                               const ulong S, const ulong OH, const ulong OW, __global const REAL *dy,
                               const ulong dy_off, const ulong lddy, __global const int *am, const ulong am_off,
                               const ulong ldam, __global REAL *dx, const ulong dx_off, const ulong lddx)
{
    const ulong g = get_global_id(0);
    const ulong t0 = g / H, h = g - t0 * H;
    const ulong n = t0 / C, c = t0 - n * C;
    if (n >= N)
        return;
    /* windows oh with oh * S <= h < oh * S + SZ */
    const ulong oh_lo = h < SZ ? 0 : (h - SZ) / S + 1;
    const ulong oh_hi = h / S < OH ? h / S : OH - 1;
    __global const REAL *dyp = dy + dy_off + n * lddy + c * OH * OW;
    __global const int *amp = am + am_off + n * ldam + c * OH * OW;
    __global REAL *dst = dx + dx_off + n * lddx + c * H * W + h * W;
    for (ulong w = 0; w < W; ++w) {
        const ulong ow_lo = w < SZ ? 0 : (w - SZ) / S + 1;
        const ulong ow_hi = w / S < OW ? w / S : OW - 1;
        const int me = (int)(h * W + w);
        REAL sum = (REAL)0;
        for (ulong oh = oh_lo; oh <= oh_hi; ++oh)
            for (ulong ow = ow_lo; ow <= ow_hi; ++ow)
                if (amp[oh * OW + ow] == me)
                    sum += dyp[oh * OW + ow];
        dst[w] = sum;
    }
}
