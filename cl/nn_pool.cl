/* 2-D max-pooling, forward and backward (src/nn/pool.c; src/kernels/nn.h lists the
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

/* best, at = v, pos where v is larger, or NaN over a number: selects, not a
 * branch on the data (branches made POCL run pool1's forward pass, 2 x 2 at
 * batch 256, at 2 GB/s) */
#define POOL_TAKE(v, pos)                                                                       \
    {                                                                                           \
        const int take_ = ((v) > best) | (isnan(v) & !isnan(best));                             \
        best = take_ ? (v) : best;                                                              \
        at = take_ ? (pos) : at;                                                                \
    }

/* Eight 2 x 2 windows at stride 2 side by side, their top-left corners at
 * plane[p0], plane[p0 + 2], ...: two rows of 16 loaded as vectors, split into
 * even and odd columns, compared lane by lane in the scalar order. POCL
 * vectorises the scalar loop across work-items, a gather for every value:
 * pool1 at batch 256 took 3.9 ms that way (5.9 ms with branches for the
 * comparisons), 1.2 ms this way (2 cores, AVX-512). Positions fit int:
 * argmax is int32. */
#if CLRT_DTYPE == 2
typedef long8 pool_mask8; /* what comparing two double8 gives */
#define POOL_MASK8(m) convert_int8(m)
#define POOL_RMASK8(m) convert_long8(m)
#else
typedef int8 pool_mask8;
#define POOL_MASK8(m) (m)
#define POOL_RMASK8(m) (m)
#endif
#define POOL_TAKE8(v, pos)                                                                      \
    {                                                                                           \
        const pool_mask8 take_ = ((v) > best) | (isnan(v) & ~isnan(best));                      \
        best = select(best, (v), take_);                                                        \
        at = select(at, (pos), POOL_MASK8(take_));                                              \
    }
/* p[0], p[2], ..., p[14] as one vector (vload16 and .even measured the same
 * on POCL, but Oclgrind took the lanes it selected for uninitialised) */
#define POOL_EVERY_OTHER8(p) ((REAL8_)((p)[0], (p)[2], (p)[4], (p)[6], (p)[8], (p)[10], (p)[12], (p)[14]))
void pool_2x2_by8(__global const REAL *plane, const int p0, const int W, __global REAL *yr, __global int *ar,
                  const int has_argmax)
{
    typedef CLRT_CAT(REAL, 8) REAL8_;
    const __global REAL *t = plane + p0, *b = t + W;
    const int8 at0 = (int8)(p0) + (int8)(0, 2, 4, 6, 8, 10, 12, 14);
    REAL8_ best = POOL_EVERY_OTHER8(t);
    int8 at = at0;
    const REAL8_ v1 = POOL_EVERY_OTHER8(t + 1), v2 = POOL_EVERY_OTHER8(b), v3 = POOL_EVERY_OTHER8(b + 1);
    POOL_TAKE8(v1, at0 + 1);
    POOL_TAKE8(v2, at0 + W);
    POOL_TAKE8(v3, at0 + W + 1);
    vstore8(best, 0, yr);
    if (has_argmax)
        vstore8(at, 0, ar);
}

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
        if (SZ == 2) {                                                                          \
            /* the common 2 x 2 window, unrolled: the same comparisons in the same order */   \
            T ow = 0;                                                                           \
            if (S == 2)                                                                         \
                for (; ow + 8 <= (T)OW; ow += 8)                                                \
                    pool_2x2_by8(plane, (int)(oh * 2 * (T)W + 2 * ow), (int)W, yr + ow,         \
                                 ar + ow, has_argmax);                                          \
            for (; ow < (T)OW; ++ow) {                                                          \
                const T p0 = oh * (T)S * (T)W + ow * (T)S, p2 = p0 + (T)W;                      \
                const REAL v0 = plane[p0], v1 = plane[p0 + 1], v2 = plane[p2], v3 = plane[p2 + 1]; \
                REAL best = v0;                                                                 \
                T at = p0;                                                                      \
                POOL_TAKE(v1, p0 + 1);                                                          \
                POOL_TAKE(v2, p2);                                                              \
                POOL_TAKE(v3, p2 + 1);                                                          \
                yr[ow] = best;                                                                  \
                if (has_argmax)                                                                 \
                    ar[ow] = (int)at;                                                           \
            }                                                                                   \
            return;                                                                             \
        }                                                                                       \
        for (T ow = 0; ow < (T)OW; ++ow) {                                                      \
            const T first = oh * (T)S * (T)W + ow * (T)S;                                       \
            T at = first;                                                                       \
            REAL best = plane[first];                                                           \
            for (T i = 0; i < (T)SZ; ++i)                                                       \
                for (T j = 0; j < (T)SZ; ++j) {                                                 \
                    const T pos = first + i * (T)W + j;                                         \
                    const REAL v = plane[pos];                                                  \
                    POOL_TAKE(v, pos);                                                          \
                }                                                                               \
            yr[ow] = best;                                                                      \
            if (has_argmax)                                                                     \
                ar[ow] = (int)at;                                                               \
        }                                                                                       \
    }

__kernel REQD_SG
void maxpool_forward(const ulong N, const ulong C, const ulong H, const ulong W, const ulong SZ,
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

__kernel REQD_SG
void maxpool_backward(const ulong N, const ulong C, const ulong H, const ulong W, const ulong SZ,
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

/* One row of eight 2-wide windows of the tiled backward pass: dy at the chosen
 * positions, 0 elsewhere, 16 values of dx from two vector selects (the
 * scalar loop, vectorised across work-items by POCL, scattered them: pool1's
 * backward pass at batch 256 took 1.7 ms, 0.8 ms this way). p0: the position
 * of dst[0] within its plane. */
void unpool_2_by8(__global const REAL *dyp, __global const int *amp, const int p0, __global REAL *dst)
{
    typedef CLRT_CAT(REAL, 8) REAL8_;
    const REAL8_ v = vload8(0, dyp), zero = (REAL8_)(0);
    const int8 at = vload8(0, amp), left = (int8)(p0) + (int8)(0, 2, 4, 6, 8, 10, 12, 14);
    const REAL8_ l = select(zero, v, POOL_RMASK8(at == left)), r = select(zero, v, POOL_RMASK8(at == left + 1));
    /* interleaved lane by lane (a 16-lane vector built through .even and .odd
     * crashed Oclgrind 21.10's uninitialised-value check) */
    dst[0] = l.s0, dst[1] = r.s0, dst[2] = l.s1, dst[3] = r.s1, dst[4] = l.s2, dst[5] = r.s2;
    dst[6] = l.s3, dst[7] = r.s3, dst[8] = l.s4, dst[9] = r.s4, dst[10] = l.s5, dst[11] = r.s5;
    dst[12] = l.s6, dst[13] = r.s6, dst[14] = l.s7, dst[15] = r.s7;
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
            T ow = 0;                                                                           \
            if (S == 2)                                                                         \
                for (; ow + 8 <= (T)OW; ow += 8)                                                \
                    unpool_2_by8(dyp + ow, amp + ow, (int)(h * (T)W + 2 * ow), dst + 2 * ow);   \
            for (; ow < (T)OW; ++ow) {                                                          \
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

__kernel REQD_SG
void maxpool_backward_tiled(const ulong N, const ulong C, const ulong H, const ulong W, const ulong SZ,
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
