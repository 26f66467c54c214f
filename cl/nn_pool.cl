/* 2-D max-pooling, forward and backward (src/nn_pool.c; src/k_nn.h lists the
 * parameters). OpenCL C 1.2.
 *
 * Geometry: N images of C x H x W (one row each, NCHW), windows of SZ x SZ,
 * stride S, no padding, outputs OH x OW per channel. Every matrix has its
 * start offset and row stride (views); argmax is int32 and holds, for each
 * output, the position h * W + w of the chosen value within its plane.
 *
 * Launch: 1-D, any work-group size (extra work-items return).
 * Index arithmetic in uint when the host says every index fits (small != 0),
 * else in ulong (see nn_im2col.cl). No %: see nn_im2col.cl. */

/* One work-item per output row (n, c, oh), N * C * OH of them. The largest
 * value of each window, the first in row-major order on ties; a NaN is taken
 * over any number (the first NaN), so a window holding NaN gives NaN.
 * has_argmax 0: argmax is not written. */
#define POOL_FWD_BODY(T)                                                                        \
    {                                                                                           \
        const T g = (T)get_global_id(0);                                                        \
        const T t0 = g / (T)OH, oh = g - t0 * (T)OH;                                            \
        const T n = t0 / (T)C, c = t0 - n * (T)C;                                               \
        if (n >= (T)N)                                                                          \
            return;                                                                             \
        __global const REAL *plane = x + x_off + n * (T)ldx + c * (T)(H * W);                   \
        const T out = c * (T)(OH * OW) + oh * (T)OW;                                            \
        __global REAL *yr = y + y_off + n * (T)ldy + out;                                       \
        __global int *ar = am + am_off + n * (T)ldam + out;                                     \
        for (T ow = 0; ow < (T)OW; ++ow) {                                                      \
            const T first = oh * (T)S * (T)W + ow * (T)S;                                       \
            T at = first;                                                                       \
            REAL best = plane[first];                                                           \
            for (T i = 0; i < (T)SZ; ++i)                                                       \
                for (T j = 0; j < (T)SZ; ++j) {                                                 \
                    const T pos = first + i * (T)W + j;                                         \
                    const REAL v = plane[pos];                                                  \
                    if (v > best || (isnan(v) && !isnan(best))) {                               \
                        best = v;                                                               \
                        at = pos;                                                               \
                    }                                                                           \
                }                                                                               \
            yr[ow] = best;                                                                      \
            if (has_argmax)                                                                     \
                ar[ow] = (int)at;                                                               \
        }                                                                                       \
    }

__kernel void maxpool_forward(const ulong N, const ulong C, const ulong H, const ulong W, const ulong SZ,
                              const ulong S, const ulong OH, const ulong OW, __global const REAL *x,
                              const ulong x_off, const ulong ldx, __global REAL *y, const ulong y_off,
                              const ulong ldy, __global int *am, const ulong am_off, const ulong ldam,
                              const int has_argmax, const int small)
{
    if (small)
        POOL_FWD_BODY(uint)
    else
        POOL_FWD_BODY(ulong)
}

/* One work-item per input row (n, c, h), N * C * H of them, writing its W
 * elements of dx: each the sum of the dy values of the windows that cover it
 * and chose it (a gather: no atomics, and overlapping windows, S < SZ, add up). */
#define POOL_BWD_BODY(T)                                                                        \
    {                                                                                           \
        const T g = (T)get_global_id(0);                                                        \
        const T t0 = g / (T)H, h = g - t0 * (T)H;                                               \
        const T n = t0 / (T)C, c = t0 - n * (T)C;                                               \
        if (n >= (T)N)                                                                          \
            return;                                                                             \
        /* windows oh with oh * S <= h < oh * S + SZ */                                         \
        const T oh_lo = h < (T)SZ ? 0 : (h - (T)SZ) / (T)S + 1;                                 \
        const T oh_hi = min(h / (T)S, (T)OH - 1);                                               \
        __global const REAL *dyp = dy + dy_off + n * (T)lddy + c * (T)(OH * OW);                \
        __global const int *amp = am + am_off + n * (T)ldam + c * (T)(OH * OW);                 \
        __global REAL *dst = dx + dx_off + n * (T)lddx + c * (T)(H * W) + h * (T)W;             \
        for (T w = 0; w < (T)W; ++w) {                                                          \
            const T ow_lo = w < (T)SZ ? 0 : (w - (T)SZ) / (T)S + 1;                             \
            const T ow_hi = min(w / (T)S, (T)OW - 1);                                           \
            const int me = (int)(h * (T)W + w);                                                 \
            REAL sum = (REAL)0;                                                                 \
            for (T oh = oh_lo; oh <= oh_hi; ++oh)                                               \
                for (T ow = ow_lo; ow <= ow_hi; ++ow)                                           \
                    if (amp[oh * (T)OW + ow] == me)                                             \
                        sum += dyp[oh * (T)OW + ow];                                            \
            dst[w] = sum;                                                                       \
        }                                                                                       \
    }

__kernel void maxpool_backward(const ulong N, const ulong C, const ulong H, const ulong W, const ulong SZ,
                               const ulong S, const ulong OH, const ulong OW, __global const REAL *dy,
                               const ulong dy_off, const ulong lddy, __global const int *am, const ulong am_off,
                               const ulong ldam, __global REAL *dx, const ulong dx_off, const ulong lddx,
                               const int small)
{
    if (small)
        POOL_BWD_BODY(uint)
    else
        POOL_BWD_BODY(ulong)
}

/* The backward pass when windows tile the image (S == SZ: PyTorch's default):
 * each input lies in at most one window, so one work-item per output row
 * (n, c, oh), N * C * OH of them, writes its windows' SZ rows of dx whole
 * (dy at the chosen position, 0 elsewhere), the columns right of the last
 * window, and (the last row of windows) the rows below it: every element of
 * dx once, in runs, with no search. */
#define POOL_BWD_TILED_BODY(T)                                                                  \
    {                                                                                           \
        const T g = (T)get_global_id(0);                                                        \
        const T t0 = g / (T)OH, oh = g - t0 * (T)OH;                                            \
        const T n = t0 / (T)C, c = t0 - n * (T)C;                                               \
        if (n >= (T)N)                                                                          \
            return;                                                                             \
        __global const REAL *dyp = dy + dy_off + n * (T)lddy + c * (T)(OH * OW) + oh * (T)OW;   \
        __global const int *amp = am + am_off + n * (T)ldam + c * (T)(OH * OW) + oh * (T)OW;    \
        __global REAL *plane = dx + dx_off + n * (T)lddx + c * (T)(H * W);                      \
        for (T i = 0; i < (T)S; ++i) {                                                          \
            const T h = oh * (T)S + i;                                                          \
            __global REAL *dst = plane + h * (T)W;                                              \
            for (T ow = 0; ow < (T)OW; ++ow) {                                                  \
                const int at = amp[ow];                                                         \
                const REAL v = dyp[ow];                                                         \
                for (T j = 0; j < (T)S; ++j) {                                                  \
                    const T w = ow * (T)S + j;                                                  \
                    dst[w] = at == (int)(h * (T)W + w) ? v : (REAL)0;                           \
                }                                                                               \
            }                                                                                   \
            for (T w = (T)OW * (T)S; w < (T)W; ++w)                                             \
                dst[w] = (REAL)0;                                                               \
        }                                                                                       \
        if (oh + 1 == (T)OH)                                                                    \
            for (T h = (T)OH * (T)S; h < (T)H; ++h)                                             \
                for (T w = 0; w < (T)W; ++w)                                                    \
                    plane[h * (T)W + w] = (REAL)0;                                              \
    }

__kernel void maxpool_backward_tiled(const ulong N, const ulong C, const ulong H, const ulong W, const ulong SZ,
                                     const ulong S, const ulong OH, const ulong OW, __global const REAL *dy,
                                     const ulong dy_off, const ulong lddy, __global const int *am,
                                     const ulong am_off, const ulong ldam, __global REAL *dx, const ulong dx_off,
                                     const ulong lddx, const int small)
{
    (void)SZ;
    if (small)
        POOL_BWD_TILED_BODY(uint)
    else
        POOL_BWD_TILED_BODY(ulong)
}
