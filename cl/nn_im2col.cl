/* The 2-D convolution's layout changes (src/nn_conv.c; src/k_nn.h lists the
 * parameters). OpenCL C 1.2.
 *
 * Geometry, every kernel: N images of C x H x W, filters of KH x KW, stride S,
 * padding P, output planes OH x OW; NP = N * OH * OW.
 * cols is the contiguous (C * KH * KW) x NP matrix of im2col: row
 * r = (c * KH + kh) * KW + kw, column n * OH * OW + oh * OW + ow holds the input
 * value under filter tap (kh, kw) of output (oh, ow) of image n in channel c,
 * 0 where that falls into the padding. Then W (K x C*KH*KW) times cols is
 * every output at once, one GEMM for the whole batch.
 *
 * Launch: 1-D, any work-group size, global >= the items named below (extra
 * work-items return). Indices are ulong: no size limit but memory.
 *
 * No %: with / and % both clang emits a freeze instruction that Oclgrind
 * cannot check (see transpose_plain.cl); remainders are q - (q / d) * d. */

/* im2col: one work-item per (r, n, oh), N * OH * C*KH*KW of them, in that
 * order (consecutive work-items write consecutive runs of OW). x is N rows of
 * C*H*W at x_off with row stride ldx (a view). */
__kernel void im2col(const ulong N, const ulong C, const ulong H, const ulong W, const ulong KH, const ulong KW,
                     const ulong S, const ulong P, const ulong OH, const ulong OW, __global const REAL *x,
                     const ulong x_off, const ulong ldx, __global REAL *cols)
{
    const ulong g = get_global_id(0);
    const ulong t0 = g / OH, oh = g - t0 * OH;
    const ulong r = t0 / N, n = t0 - r * N;
    if (r >= C * KH * KW)
        return;
    const ulong t1 = r / KW, kw = r - t1 * KW;
    const ulong c = t1 / KH, kh = t1 - c * KH;
    __global REAL *dst = cols + r * (N * OH * OW) + n * (OH * OW) + oh * OW;
    const long ih = (long)(oh * S + kh) - (long)P;
    if (ih < 0 || ih >= (long)H) {
        for (ulong ow = 0; ow < OW; ++ow)
            dst[ow] = (REAL)0;
        return;
    }
    __global const REAL *src = x + x_off + n * ldx + c * H * W + (ulong)ih * W;
    for (ulong ow = 0; ow < OW; ++ow) {
        const long iw = (long)(ow * S + kw) - (long)P;
        dst[ow] = iw >= 0 && iw < (long)W ? src[iw] : (REAL)0;
    }
}

/* col2im, the adjoint of im2col as a gather: dx (N rows of C*H*W at dx_off,
 * row stride lddx) = for each input element, the sum of the cols entries
 * im2col copied it to. One work-item per (n, c, h) input row, N * C * H of
 * them, writing its W elements; no two work-items write one element, so no
 * atomics, and every element is written (0 where nothing covers it).
 * The outputs (oh, ow) whose window covers (h, w) are walked directly, tap
 * (h + P - oh * S, w + P - ow * S): no division in the inner loops (64-bit
 * divisions there made this kernel 20x slower on CPUs). */
__kernel void col2im(const ulong N, const ulong C, const ulong H, const ulong W, const ulong KH, const ulong KW,
                     const ulong S, const ulong P, const ulong OH, const ulong OW, __global const REAL *cols,
                     __global REAL *dx, const ulong dx_off, const ulong lddx)
{
    const ulong g = get_global_id(0);
    const ulong t0 = g / H, h = g - t0 * H;
    const ulong n = t0 / C, c = t0 - n * C;
    if (n >= N)
        return;
    const ulong NP = N * OH * OW, hp = h + P;
    /* outputs oh with 0 <= hp - oh * S < KH */
    const ulong oh_lo = hp >= KH ? (hp - KH) / S + 1 : 0, oh_hi = min(hp / S, OH - 1);
    __global const REAL *plane = cols + c * KH * KW * NP + n * (OH * OW);
    __global REAL *dst = dx + dx_off + n * lddx + c * H * W + h * W;
    for (ulong w = 0; w < W; ++w) {
        const ulong wp = w + P;
        const ulong ow_lo = wp >= KW ? (wp - KW) / S + 1 : 0, ow_hi = min(wp / S, OW - 1);
        REAL sum = (REAL)0;
        for (ulong oh = oh_lo; oh <= oh_hi; ++oh) {
            __global const REAL *tap = plane + (hp - oh * S) * KW * NP + oh * OW;
            for (ulong ow = ow_lo; ow <= ow_hi; ++ow)
                sum += tap[(wp - ow * S) * NP + ow];
        }
        dst[w] = sum;
    }
}
