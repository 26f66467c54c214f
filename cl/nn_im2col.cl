/* The 2-D convolution's layout changes (src/nn/conv.c; src/kernels/nn.h lists the
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
 * work-items return). Each launch may do a slice of every work-item's run
 * (output rows oh0..oh1-1 in im2col, input columns w0..w1-1 in col2im): the
 * host slices where a work-item may loop only so far (parameter loops).
 *
 * Index arithmetic: in uint when the host says every index fits (small != 0),
 * else in ulong; one body, written once per type (a CPU has no vector 64-bit
 * division: in ulong the divisions that split a work-item's id cost more
 * than its copying). No %: with / and % both clang emits a freeze instruction
 * that Oclgrind cannot check (see transpose_plain.cl); remainders are
 * q - (q / d) * d. */

/* im2col: one work-item per (r, n), C*KH*KW * N of them in that order, writing
 * the OH x OW run of row r for image n (consecutive work-items write
 * consecutive runs), its output rows oh0..oh1-1. x is N rows of C*H*W at x_off
 * with row stride ldx (a view). Rows of the run that fall into the padding are
 * zeros. */
#define IM2COL_BODY(T, ST)                                                                      \
    {                                                                                           \
        const T g = (T)get_global_id(0);                                                        \
        const T r = g / (T)N, n = g - r * (T)N;                                                 \
        if (r >= (T)(C * KH * KW))                                                              \
            return;                                                                             \
        const T t1 = r / (T)KW, kw = r - t1 * (T)KW;                                            \
        const T c = t1 / (T)KH, kh = t1 - c * (T)KH;                                            \
        __global REAL *dst = cols + r * (T)(N * OH * OW) + n * (T)(OH * OW) + (T)(oh0 * OW);    \
        __global const REAL *src = x + x_off + n * (T)ldx + c * (T)(H * W);                     \
        for (T oh = (T)oh0; oh < (T)oh1; ++oh, dst += OW) {                                     \
            const ST ih = (ST)(oh * (T)S + kh) - (ST)P;                                         \
            if (ih < 0 || ih >= (ST)H) {                                                        \
                for (T ow = 0; ow < (T)OW; ++ow)                                                \
                    dst[ow] = (REAL)0;                                                          \
                continue;                                                                       \
            }                                                                                   \
            __global const REAL *row = src + (T)ih * (T)W;                                      \
            const ST iw0 = (ST)kw - (ST)P;                                                      \
            if (S == 1 && iw0 >= 0 && iw0 + (ST)OW <= (ST)W) {                                  \
                clrt_copy_run(row + iw0, dst, OW); /* the whole run inside the row */          \
                continue;                                                                       \
            }                                                                                   \
            for (T ow = 0; ow < (T)OW; ++ow) {                                                  \
                const ST iw = (ST)(ow * (T)S + kw) - (ST)P;                                     \
                dst[ow] = iw >= 0 && iw < (ST)W ? row[iw] : (REAL)0;                            \
            }                                                                                   \
        }                                                                                       \
    }

__kernel REQD_SG
void im2col(const ulong N, const ulong C, const ulong H, const ulong W, const ulong KH, const ulong KW,
            const ulong S, const ulong P, const ulong OH, const ulong OW, const ulong oh0, const ulong oh1,
            __global const REAL *x, const ulong x_off, const ulong ldx, __global REAL *cols,
            const int small)
{
    if (small)
        IM2COL_BODY(uint, int)
    else
        IM2COL_BODY(ulong, long)
}

/* col2im, the adjoint of im2col as a gather: dx (N rows of C*H*W at dx_off,
 * row stride lddx) = for each input element, the sum of the cols entries
 * im2col copied it to. One work-item per (n, c, h) input row, N * C * H of
 * them, writing its elements w0..w1-1; no two work-items write one element, so
 * no atomics, and every element is written (0 where nothing covers it).
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
        __global REAL *dst = dx + dx_off + n * (T)lddx + c * (T)(H * W) + h * (T)W;             \
        if (S == 1) {                                                                           \
            /* stride 1: tap (kh, kw) adds a shifted run of its row to dst's row (element by \
             * element: as vectors, each run's store and the next tap's load overlap in part, \
             * which the CPU cannot forward, and it measured slower) */                     \
            for (T w = (T)w0; w < (T)w1; ++w)                                                   \
                dst[w] = (REAL)0;                                                               \
            for (T kh = 0; kh < (T)KH; ++kh) {                                                  \
                if (kh > hp || hp - kh >= (T)OH)                                                \
                    continue;                                                                   \
                const T oh = hp - kh;                                                           \
                for (T kw = 0; kw < (T)KW; ++kw) {                                              \
                    /* ow = w + P - kw in [0, OW) */                                            \
                    const T w_lo = max(max(kw, (T)P) - (T)P, (T)w0); /* not ?: (usub.sat) */   \
                    const T w_end = min((T)w1, (T)OW + kw - (T)P);                              \
                    __global const REAL *run = cols + ((c * (T)KH + kh) * (T)KW + kw) * NP +    \
                                               n * (T)(OH * OW) + oh * (T)OW + (T)P - kw;       \
                    for (T w = w_lo; w < w_end; ++w)                                            \
                        dst[w] += run[w];                                                       \
                }                                                                               \
            }                                                                                   \
            return;                                                                             \
        }                                                                                       \
        /* outputs oh with 0 <= hp - oh * S < KH */                                             \
        const T oh_lo = hp >= (T)KH ? (hp - (T)KH) / (T)S + 1 : 0;                              \
        const T oh_hi = min(hp / (T)S, (T)OH - 1);                                              \
        __global const REAL *plane = cols + c * (T)(KH * KW) * NP + n * (T)(OH * OW);           \
        for (T w = (T)w0; w < (T)w1; ++w) {                                                     \
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

__kernel REQD_SG
void col2im(const ulong N, const ulong C, const ulong H, const ulong W, const ulong KH, const ulong KW,
            const ulong S, const ulong P, const ulong OH, const ulong OW, const ulong w0, const ulong w1,
            __global const REAL *cols, __global REAL *dx, const ulong dx_off, const ulong lddx,
            const int small)
{
    if (small)
        COL2IM_BODY(uint)
    else
        COL2IM_BODY(ulong)
}

/* ------------------------------------------------------------------------------------
 * The direct convolution (parameter conv=1, src/nn/conv.c): an implicit GEMM, the
 * product W cols computed without cols. Written for CPU drivers (POCL), where a
 * work-item is a loop iteration: like matmul_cpu.cl's micro-kernel, a work-item
 * holds a CTM x (CNV * VW) tile of the output in CTM * CNV vector registers:
 * CTM output positions (each its own image, row and column: the positions of the
 * whole batch in turn) by CNV * VW output channels. Per filter tap it loads CNV
 * vectors of the tap's row of wt (below) and broadcasts the CTM input values under
 * the tap, read from x through im2col's index arithmetic: what im2col would have
 * written to cols and the GEMM read back (8 MB for the article's conv2 at batch 64)
 * is read from x itself, which stays in cache. The output is written straight in
 * NCHW rows with the bias added: no conv_rows either.
 *
 * In general form, out (N x KO*OH*OW, a view) = sum over taps (ci, kh, kw) of
 * in(n, ci, oh*S + kh - PH, ow*S + kw - PW) * wt[(ci*KH + kh)*KW + kw][ko]
 * (0 outside the image), + b[ko]: the forward pass (in = x, KO = K) and, at stride
 * 1, the data gradient as the convolution of dy with the flipped, transposed
 * filters (in = dy, KO = C, padding KH-1-P / KW-1-P). wt is conv_wt's
 * CI*KH*KW x KP matrix, KP = KO rounded up to CNV * VW (zeros past KO), so its
 * vector loads need no guard.
 * Index arithmetic in uint: the host takes this path only when every index fits. */

#ifndef CTM
#define CTM 4
#endif
#ifndef CNV
#define CNV 1
#endif
#define CKB (CNV * VW) /* output channels per work-item */

/* wt = W^T padded (flip 0: wt[(c*KH + kh)*KW + kw][k] = W[k][(c*KH + kh)*KW + kw],
 * rows C*KH*KW, k < K) or the data gradient's filters (flip 1: wt[(k*KH + kh)*KW + kw][c]
 * = W[k][(c*KH + KH-1-kh)*KW + KW-1-kw], rows K*KH*KW, c < C); 0 in columns past
 * the valid ones. W is K x C*KH*KW at w_off, row stride ldw. One work-item per element
 * of wt (rows * KP). */
__kernel REQD_SG
void conv_wt(const uint K, const uint C, const uint KH, const uint KW, const uint KP, const int flip,
             __global const REAL *w, const ulong w_off, const ulong ldw, __global REAL *wt)
{
    const uint g = get_global_id(0);
    const uint r = g / KP, col = g - r * KP;
    const uint rows = (flip ? K : C) * KH * KW;
    if (r >= rows)
        return;
    const uint t1 = r / KW, kw = r - t1 * KW;
    const uint ci = t1 / KH, kh = t1 - ci * KH;
    REAL v = (REAL)0;
    if (!flip && col < K)
        v = w[w_off + col * (uint)ldw + r];
    else if (flip && col < C)
        v = w[w_off + ci * (uint)ldw + (col * KH + KH - 1 - kh) * KW + KW - 1 - kw];
    wt[g] = v;
}

/* The tap loop over every (ci, kh, kw); LOAD(i, off) is input value off past the
 * position i's window origin in channel ci. */
#define DIRECT_TAPS(LOAD)                                                                  \
    for (uint ci = 0; ci < CI; ++ci) {                                                     \
        for (uint kh = 0; kh < KH; ++kh)                                                   \
            for (uint kw = 0; kw < KW; ++kw, wp += KP) {                                   \
                REALV bv[CNV];                                                             \
                _Pragma("unroll") for (int j = 0; j < CNV; ++j) bv[j] = VLOAD(0, wp + j * VW); \
                _Pragma("unroll") for (int i = 0; i < CTM; ++i) {                          \
                    const REALV a = (REALV)(LOAD(i, kh, kw));                              \
                    _Pragma("unroll") for (int j = 0; j < CNV; ++j) acc[i][j] =            \
                        fma(a, bv[j], acc[i][j]);                                          \
                }                                                                          \
            }                                                                              \
        _Pragma("unroll") for (int i = 0; i < CTM; ++i) src[i] += HW;                      \
    }
/* no padding: every tap of a valid output is inside the image */
#define LOAD_IN(i, kh, kw) src[i][off[i] + (int)((kh) * W + (kw))]
/* padding: taps outside the image read 0 (ih, iw unsigned: below 0 wraps above H, W) */
#define LOAD_PAD(i, kh, kw) (ih0[i] + (kh) < H && iw0[i] + (kw) < W ? src[i][off[i] + (int)((kh) * W + (kw))] : (REAL)0)

/* How conv_direct stores its tile: a small one (GPUs: 4 x 2 vectors of 4) in
 * unrolled loops, so that the tile stays in registers (looped, the array indexed
 * at run time sat in scratch memory on AMD's GPUs: 128 bytes per work-item fp32,
 * .ci/gpu-isa.sh); a large one (CPUs: up to 6 x 4 vectors of 16) in loops, as
 * its hundreds of guarded stores unrolled took POCL seconds longer to compile. */
#if CTM * CKB <= 32
#define DIRECT_STORE_LOOP _Pragma("unroll")
#else
#define DIRECT_STORE_LOOP _Pragma("unroll 1")
#endif

__kernel REQD_SG
void conv_direct(const uint N, const uint CI, const uint H, const uint W, const uint KO, const uint KH,
                 const uint KW, const uint S, const uint PH, const uint PW, const uint OH, const uint OW,
                 const uint KP, __global const REAL *x, const ulong x_off, const ulong ldx,
                 __global const REAL *wt, __global REAL *y, const ulong y_off, const ulong ldy,
                 __global const REAL *b, const ulong b_off, const int has_bias)
{
    const uint g = get_global_id(0);
    const uint nkb = KP / CKB, PL = OH * OW, NP = N * PL, HW = H * W;
    const uint pt = g / nkb, kb = g - pt * nkb;
    const uint p0 = pt * CTM;
    if (p0 >= NP)
        return;
    /* each position's image (src, at channel ci in the tap loop), its window origin
     * (ih0, iw0: below 0 with padding, wrapped) and that origin's offset in a channel
     * (off, signed: a tap is read only once its offset is inside) */
    __global const REAL *src[CTM];
    uint ih0[CTM], iw0[CTM];
    int off[CTM];
    _Pragma("unroll") for (int i = 0; i < CTM; ++i) {
        const uint gp = min(p0 + (uint)i, NP - 1); /* past the end: the last one again, not stored */
        const uint n = gp / PL, q = gp - n * PL;
        const uint oh = q / OW, ow = q - oh * OW;
        ih0[i] = oh * S - PH;
        iw0[i] = ow * S - PW;
        off[i] = (int)ih0[i] * (int)W + (int)iw0[i];
        src[i] = x + x_off + n * (uint)ldx;
    }
    REALV acc[CTM][CNV];
    _Pragma("unroll") for (int i = 0; i < CTM; ++i)
        _Pragma("unroll") for (int j = 0; j < CNV; ++j) acc[i][j] = (REALV)0;
    __global const REAL *wp = wt + kb * CKB;
    if (PH == 0 && PW == 0)
        DIRECT_TAPS(LOAD_IN)
    else
        DIRECT_TAPS(LOAD_PAD)
    /* the tile's outputs, element by element (scattered, a channel plane apart) */
    REAL tile[CTM][CKB];
    _Pragma("unroll") for (int i = 0; i < CTM; ++i)
        _Pragma("unroll") for (int j = 0; j < CNV; ++j) VSTORE(acc[i][j], j, tile[i]);
    DIRECT_STORE_LOOP for (int i = 0; i < CTM; ++i) {
        const uint gp = p0 + (uint)i;
        if (gp < NP) {
            const uint n = gp / PL, q = gp - n * PL;
            __global REAL *dst = y + y_off + n * (uint)ldy + q;
            DIRECT_STORE_LOOP for (uint l = 0; l < CKB; ++l) {
                const uint ko = kb * CKB + l;
                if (ko < KO)
                    dst[ko * PL] = tile[i][l] + (has_bias ? b[b_off + ko] : (REAL)0);
            }
        }
    }
}
