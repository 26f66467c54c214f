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
 * work-items return).
 *
 * Index arithmetic: in uint when the host says every index fits (small != 0),
 * else in ulong; one body, written once per type (a CPU has no vector 64-bit
 * division: in ulong the divisions that split a work-item's id cost more
 * than its copying). No %: with / and % both clang emits a freeze instruction
 * that Oclgrind cannot check (see transpose_plain.cl); remainders are
 * q - (q / d) * d. */

/* im2col: one work-item per (r, n), C*KH*KW * N of them in that order, writing
 * the OH x OW run of row r for image n (consecutive work-items write
 * consecutive runs). x is N rows of C*H*W at x_off with row stride ldx (a
 * view). Rows of the run that fall into the padding are zeros. */
#define IM2COL_BODY(T, ST)                                                                      \
    {                                                                                           \
        const T g = (T)get_global_id(0);                                                        \
        const T r = g / (T)N, n = g - r * (T)N;                                                 \
        if (r >= (T)(C * KH * KW))                                                              \
            return;                                                                             \
        const T t1 = r / (T)KW, kw = r - t1 * (T)KW;                                            \
        const T c = t1 / (T)KH, kh = t1 - c * (T)KH;                                            \
        __global REAL *dst = cols + r * (T)(N * OH * OW) + n * (T)(OH * OW);                    \
        __global const REAL *src = x + x_off + n * (T)ldx + c * (T)(H * W);                     \
        for (T oh = 0; oh < (T)OH; ++oh, dst += OW) {                                           \
            const ST ih = (ST)(oh * (T)S + kh) - (ST)P;                                         \
            if (ih < 0 || ih >= (ST)H) {                                                        \
                for (T ow = 0; ow < (T)OW; ++ow)                                                \
                    dst[ow] = (REAL)0;                                                          \
                continue;                                                                       \
            }                                                                                   \
            __global const REAL *row = src + (T)ih * (T)W;                                      \
            for (T ow = 0; ow < (T)OW; ++ow) {                                                  \
                const ST iw = (ST)(ow * (T)S + kw) - (ST)P;                                     \
                dst[ow] = iw >= 0 && iw < (ST)W ? row[iw] : (REAL)0;                            \
            }                                                                                   \
        }                                                                                       \
    }

__kernel void im2col(const ulong N, const ulong C, const ulong H, const ulong W, const ulong KH, const ulong KW,
                     const ulong S, const ulong P, const ulong OH, const ulong OW, __global const REAL *x,
                     const ulong x_off, const ulong ldx, __global REAL *cols, const int small)
{
    if (small)
        IM2COL_BODY(uint, int)
    else
        IM2COL_BODY(ulong, long)
}

/* col2im, the adjoint of im2col as a gather: dx (N rows of C*H*W at dx_off,
 * row stride lddx) = for each input element, the sum of the cols entries
 * im2col copied it to. One work-item per (n, c, h) input row, N * C * H of
 * them, writing its W elements; no two work-items write one element, so no
 * atomics, and every element is written (0 where nothing covers it).
 * The outputs (oh, ow) whose window covers (h, w) are walked directly, tap
 * (h + P - oh * S, w + P - ow * S): no division in the inner loops. */
#define COL2IM_BODY(T)                                                                          \
    {                                                                                           \
        const T g = (T)get_global_id(0);                                                        \
        const T t0 = g / (T)H, h = g - t0 * (T)H;                                               \
        const T n = t0 / (T)C, c = t0 - n * (T)C;                                               \
        if (n >= (T)N)                                                                          \
            return;                                                                             \
        const T NP = (T)(N * OH * OW), hp = h + (T)P;                                           \
        /* outputs oh with 0 <= hp - oh * S < KH */                                             \
        const T oh_lo = hp >= (T)KH ? (hp - (T)KH) / (T)S + 1 : 0;                              \
        const T oh_hi = min(hp / (T)S, (T)OH - 1);                                              \
        __global const REAL *plane = cols + c * (T)(KH * KW) * NP + n * (T)(OH * OW);           \
        __global REAL *dst = dx + dx_off + n * (T)lddx + c * (T)(H * W) + h * (T)W;             \
        for (T w = 0; w < (T)W; ++w) {                                                          \
            const T wp = w + (T)P;                                                              \
            const T ow_lo = wp >= (T)KW ? (wp - (T)KW) / (T)S + 1 : 0;                          \
            const T ow_hi = min(wp / (T)S, (T)OW - 1);                                          \
            REAL sum = (REAL)0;                                                                 \
            for (T oh = oh_lo; oh <= oh_hi; ++oh) {                                             \
                __global const REAL *tap = plane + (hp - oh * (T)S) * (T)KW * NP + oh * (T)OW;  \
                for (T ow = ow_lo; ow <= ow_hi; ++ow)                                           \
                    sum += tap[(wp - ow * (T)S) * NP + ow];                                     \
            }                                                                                   \
            dst[w] = sum;                                                                       \
        }                                                                                       \
    }

__kernel void col2im(const ulong N, const ulong C, const ulong H, const ulong W, const ulong KH, const ulong KW,
                     const ulong S, const ulong P, const ulong OH, const ulong OW, __global const REAL *cols,
                     __global REAL *dx, const ulong dx_off, const ulong lddx, const int small)
{
    if (small)
        COL2IM_BODY(uint)
    else
        COL2IM_BODY(ulong)
}
