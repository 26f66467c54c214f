/* matmul, local-memory variant (use_local = 1, GPUs): the GEMM
 * C = alpha op(A) op(B) + beta C, op(A) M x K, op(B) K x N, C M x N, every matrix
 * row-major with its own start offset and row stride (views). OpenCL C 1.2; REAL,
 * VW, REALV, VLOAD/VSTORE and LANE come from the prelude (cl/common.cl).
 *
 * Build options (src/kernels/matmul_params.h lists the tuning ones; src/kernels/matmul.c
 * picks them and checks the constraints relied on here: TN, TK and WGY*TM multiples of VW):
 *   TM, TN    rows / columns of C per work-item
 *   TK        local tile depth along k
 *   WGX, WGY  work-group shape; dim 0 runs over columns, dim 1 over rows
 *   TA, TB    1: op(A) = A^T, op(B) = B^T (the launch variant, not a tuning value)
 *   MM_ACT    1: the epilogue's activations compiled in (the launch variant of a
 *             product with one)
 *   SG        Intel: the SIMD width IGC must compile both kernels at (REQD_SG,
 *             cl/common.cl); absent, its own choice
 * Launch: global = {roundup(ceil(N/TN), WGX), roundup(ceil(M/TM), WGY), splits},
 * local = {WGX, WGY, 1}. The last argument, the register-tile variant's bpacked (so
 * that the host launches both alike), is here ksplit: with ksplit != 0 the product is
 * cut into splits of ksplit along k, group z = get_group_id(2) computing split z,
 * k from z*ksplit, into the partial C + c_off + z*M*ldc (matmul_sum adds them up).
 * beta == 0: C is only written. After ldc both kernels take a batch and an epilogue:
 * without ksplit, group z = get_group_id(2) computes matrix z of a batch, whose A, B
 * and C start sa, sb, sc elements after the one before; epi (the prelude's CLRT_EPI_*:
 * 0 none) adds bias (at bias_off, column stride bias_ld) and applies the activation
 * before the store (with k splits, matmul_sum applies it).
 *
 * Written against the GPUs' instruction sets: clrt-isa (tools/isa/, .ci/gpu-isa.sh)
 * shows what NVIDIA's, AMD's and Intel's compilers make of it (registers, spills,
 * occupancy, the main loop's FMA share), docs/gpu-isa.md has its table.
 *  - The group computes a BM x BN tile of C (BM = WGY*TM, BN = WGX*TN). Both operands
 *    are staged k-major in local memory, As[k][m] and Bs[k][n], so that at each k a
 *    work-item reads its TM values of A and its TN of B as VW-vectors (128-bit local
 *    loads with VW = 4 floats or 2 doubles): TM/VW + TN/VW loads for TM*TN FMAs. A's
 *    vectors are the same for a row of work-items (a broadcast); B's vectors j*WGX + tx
 *    are consecutive across a row (no bank conflicts), and so are C's stores.
 *  - Two kernels. matmul_fast, the main loop, keeps two buffers of each tile: while
 *    tile t is multiplied out of one, tile t+1's global loads are in flight into
 *    registers, stored into the other afterwards; one barrier per tile. It runs two
 *    tiles per pass, so that the buffers' addresses are constants, and takes K a
 *    multiple of 2*TK. Its global addresses are the buffer (a kernel argument, the same
 *    for every work-item) plus each work-item's 32-bit offset, advanced by one step
 *    per tile: rows of A (columns of B) past M (N) are read clamped to the last one
 *    (they only feed rows and columns of C never stored). That takes aligned operands
 *    (rows on a VW boundary), the dimension a vector runs along a multiple of VW (a
 *    clamped vector is a whole one), and offsets below 2^32; then no load needs a
 *    guard. The host (clrt__matmul_fast_k) checks this and cuts k.
 *  - matmul takes everything else (unaligned views, odd shapes, the k the fast kernel
 *    left): one buffer, two barriers per tile, element loads with every index clamped
 *    inside, and in the last, partial tile elements past K read as zero.
 *  - An operand stored along k (A, B^T) is read as vectors along k and written
 *    transposed into its k-major tile, VW scalar local stores; one stored along m or n
 *    (A^T, B) is read and stored as vectors.
 * ---------------------------------------------------------------------------------- */

#ifndef TM
#define TM 1
#endif
#ifndef TN
#define TN VW
#endif
#ifndef TK
#define TK VW
#endif
#ifndef WGX
#define WGX 1
#endif
#ifndef WGY
#define WGY 1
#endif
#ifndef TA
#define TA 0
#endif
#ifndef TB
#define TB 0
#endif
#ifndef MM_ACT
#define MM_ACT 0 /* 1: the epilogue's activations compiled in (cl/common.cl) */
#endif

#define NV (TN / VW) /* vectors per row of the work-item's tile */
#define BM (WGY * TM)
#define BN (WGX * TN)
#define WGS (WGX * WGY)
#define KV (TK / VW)     /* vectors along k per row of a tile stored along k */
#define A_VECS (BM * KV) /* VW-vectors in an A tile, either way round */
#define B_VECS (BN * KV)
#define A_SLOTS ((A_VECS + WGS - 1) / WGS) /* vectors each work-item moves per tile */
#define B_SLOTS ((B_VECS + WGS - 1) / WGS)
#define A_SIZE (TK * BM) /* elements of one buffer of the A tile */
#define B_SIZE (TK * BN)

/* An operand's tile loads. KC: the operand is stored along k (A, B^T), else along x
 * (x = m for A, n for B: A^T, B). Its TK x BX tile is R stored rows of RV VW-vectors
 * (along k: R = BX, RV = KV; along x: R = TK, RV = BX/VW), SL of them per work-item.
 * Where they divide evenly (the shipped tiles) a work-item's SL vectors lie along one
 * stored row, RV/SL apart, at constant distances from each other (and a warp's loads
 * still cover whole 32-byte sectors); otherwise it moves vector lid + s*WGS of the
 * tile, stored row (lid + s*WGS) / RV. */
#define A_KC (!TA)
#define B_KC (TB)
#define A_RV (A_KC ? KV : BM / VW)
#define B_RV (B_KC ? KV : BN / VW)
#define EVEN(R, RV, SL) ((R) * (RV) == WGS * (SL) && (RV) % (SL) == 0)
#define A_EVEN EVEN(A_KC ? BM : TK, A_RV, A_SLOTS)
#define B_EVEN EVEN(B_KC ? BN : TK, B_RV, B_SLOTS)

/* Work-item lid's slot s of a tile of nvec vectors, rv per stored row, sl per
 * work-item: its stored row *r and vector *v in it; 0 when it has none there (the
 * last slot of a share may run past the tile). */
int slot_at(const uint lid, const int s, const uint rv, const uint sl, const int even, const uint nvec, uint *r,
            uint *v)
{
    if (even) {
        *r = lid / (rv / sl);
        *v = lid - *r * (rv / sl) + s * (rv / sl);
        return 1;
    }
    const uint e = min(lid + s * WGS, nvec - 1); /* in range even when not live */
    *r = e / rv;
    *v = e - *r * rv;
    return nvec % WGS == 0 || lid + s * WGS < nvec;
}
#define SLOT(X, s, r, v) slot_at(lid, (s), X##_RV, X##_SLOTS, X##_EVEN, X##_VECS, &(r), &(v))

/* The fast path's offset of slot (r, v) of the tile at (x0, 0) from the operand's
 * buffer (off: the operand's own offset in it): (x0 + r)*ld + v*VW along k, r*ld + x0 +
 * v*VW along x, with x clamped inside X (the clamped vector of a row along x stays
 * whole: X is a multiple of VW there). The caller has checked that every offset of the
 * operand fits in 32 bits. */
uint fast_off(const ulong off, const uint r, const uint v, const uint ld, const size_t x0, const uint X, const int kc)
{
    /* in 32 bits (they fit): nothing shared with the general loop's 64-bit
     * addresses, which would then live through the fast loop */
    const uint x = (uint)x0;
    if (kc)
        return (uint)off + min(x + r, X - 1) * ld + v * VW;
    return (uint)off + r * ld + min(x + v * VW, X - VW);
}
/* The general kernel's vector of slot (r, v), the tile at (x0, k0) of an operand with
 * X rows of x: rows past X read the last one; elements past K read 0 (the last tile
 * may be partial); along x, lanes past X read the last column. Element loads (any
 * alignment), every address clamped inside. */
REALV general_load(const __global REAL *P, const uint ld, const uint X, const size_t x0, const uint K,
                   const size_t k0, const uint r, const uint v, const int kc)
{
    /* indices in 32 bits, clamped: where x0 + ... wraps, the element is past X or K
     * anyway, its value unused, and the wrapped index still inside */
    REALV out;
    if (kc) {
        const size_t k = k0 + v * VW;
        const __global REAL *row = P + (size_t)min((uint)x0 + r, X - 1) * ld;
#pragma unroll
        for (int q = 0; q < VW; ++q) {
            const REAL e = row[min((uint)k + q, K - 1)];
            LANE(out, q) = k + q < K ? e : (REAL)(0);
        }
        return out;
    }
    const size_t k = k0 + r;
    const __global REAL *row = P + min(k, (size_t)K - 1) * ld;
#pragma unroll
    for (int q = 0; q < VW; ++q) {
        const REAL e = row[min((uint)x0 + v * VW + q, X - 1)];
        LANE(out, q) = k < K ? e : (REAL)(0);
    }
    return out;
}

/* Slot (r, v)'s vector into the k-major tile T (TK x bx): along k, VW scalars down
 * a column of T; along x, one vector along a row. */
void slot_store(__local REAL *T, const uint r, const uint v, const REALV val, const int kc, const uint bx)
{
    if (kc) {
        __local REAL *t = T + r + v * VW * bx;
#pragma unroll
        for (int q = 0; q < VW; ++q)
            t[q * bx] = LANE(val, q);
    } else {
        *(__local REALV *)(T + r * bx + v * VW) = val;
    }
}

/* acc += the tiles Ac (TK x BM) and Bc (TK x BN): at each k, the work-item's TM values
 * of A (TM/VW vectors when TM is a multiple of VW) times its NV vectors of B, column
 * vector by column vector (AMD's gfx11 pairs more of these FMAs for dual issue than
 * row by row). always_inline: the arrays must stay in registers. */
__attribute__((always_inline)) void tile_fma(REALV acc[TM][NV], const __local REAL *Ac, const __local REAL *Bc,
                                             const uint tx, const uint ty)
{
#pragma unroll
    for (int k = 0; k < TK; ++k) {
        REAL a[TM];
#if TM % VW == 0
#pragma unroll
        for (int i = 0; i < TM / VW; ++i) {
            const REALV v = *(const __local REALV *)(Ac + k * BM + ty * TM + i * VW);
#pragma unroll
            for (int q = 0; q < VW; ++q)
                a[i * VW + q] = LANE(v, q);
        }
#else
#pragma unroll
        for (int i = 0; i < TM; ++i)
            a[i] = Ac[k * BM + ty * TM + i];
#endif
        REALV b[NV];
#pragma unroll
        for (int j = 0; j < NV; ++j)
            b[j] = *(const __local REALV *)(Bc + k * BN + (j * WGX + tx) * VW);
#pragma unroll
        for (int j = 0; j < NV; ++j)
#pragma unroll
            for (int i = 0; i < TM; ++i)
                acc[i][j] = fma((REALV)(a[i]), b[j], acc[i][j]);
    }
}

/* Each operand's share of a tile into its registers rA / rB: the fast path's, at
 * the offsets oA / oB from the buffers A0 / B0 (kernel arguments: the same for every
 * work-item, so a load's address is one multiply-add), ... */
#define FAST_LOAD(X)                                                              \
    _Pragma("unroll") for (int s = 0; s < X##_SLOTS; ++s) {                       \
        uint r, v;                                                                \
        if (SLOT(X, s, r, v))                                                     \
            r##X[s] = *(const __global REALV *)(X##0 + o##X[s]);                  \
    }
/* ... the general kernel's, from the operands at A, B (their offsets added), each
 * vector stored into the tile T (bx wide) as soon as it is loaded (no registers held) */
#define GENERAL_LOAD_STORE(X, P, ld, x0, XN, k0, KN, T, bx)                       \
    _Pragma("unroll") for (int s = 0; s < X##_SLOTS; ++s) {                       \
        uint r, v;                                                                \
        if (SLOT(X, s, r, v))                                                     \
            slot_store((T), r, v, general_load(P, ld, XN, x0, KN, k0, r, v, X##_KC), X##_KC, bx); \
    }
/* ... and from them into the tile's buffer T (bx wide). */
#define STORE(X, T, bx)                                                           \
    _Pragma("unroll") for (int s = 0; s < X##_SLOTS; ++s) {                       \
        uint r, v;                                                                \
        if (SLOT(X, s, r, v))                                                     \
            slot_store((T), r, v, r##X[s], X##_KC, bx);                           \
    }
/* One step of the fast loop: tile t is in buffer cb; while it is multiplied out,
 * the tile `ahead` tiles on (0 or 1) is loaded and then stored into buffer nb. With
 * ahead = 0, in the last step, that is the last tile again, written where nothing
 * reads it any more: the step has no branch, so that the compilers keep each step's
 * loads, multiplies and stores in one block, in this order. */
#define FAST_STEP(cb, nb, ahead)                                                  \
    _Pragma("unroll") for (int s = 0; s < A_SLOTS; ++s) oA[s] += (ahead) * A_STEP; \
    _Pragma("unroll") for (int s = 0; s < B_SLOTS; ++s) oB[s] += (ahead) * B_STEP; \
    FAST_LOAD(B)                                                                  \
    FAST_LOAD(A)                                                                  \
    tile_fma(acc, As + (cb) * A_SIZE, Bs + (cb) * B_SIZE, tx, ty);                \
    STORE(A, As + (nb) * A_SIZE, BM)                                              \
    STORE(B, Bs + (nb) * B_SIZE, BN)                                              \
    barrier(CLK_LOCAL_MEM_FENCE);

/* v stored at C's vector or element p, (i, j), with the epilogue (the prelude's
 * CLRT_EPI_*; epi 0: none): the bias added, then the activation applied to what
 * was stored (cl/common.cl says why). */
#define STORE_V(v, p, i, j)                                                       \
    do {                                                                          \
        REALV v_ = (v);                                                           \
        if (CLRT_EPI_BIAS(epi))                                                   \
            v_ = clrt_bias_v(v_, CLRT_EPI_BIAS(epi), bias, (i), (j), bias_ld);    \
        VSTORE(v_, 0, (p));                                                       \
        if (MM_ACT && CLRT_EPI_ACT(epi))                                          \
            VSTORE(ACT_V(VLOAD(0, (p)), CLRT_EPI_ACT(epi)), 0, (p));              \
    } while (0)
#define STORE_S(v, p, i, j)                                                       \
    do {                                                                          \
        REAL v_ = (v);                                                            \
        if (CLRT_EPI_BIAS(epi))                                                   \
            v_ = clrt_bias(v_, CLRT_EPI_BIAS(epi), bias, (i), (j), bias_ld);      \
        *(p) = v_;                                                                \
        if (MM_ACT && CLRT_EPI_ACT(epi))                                          \
            *(p) = ACT_S(*(p), CLRT_EPI_ACT(epi));                                \
    } while (0)
/* the activations where the program has them (MM_ACT), else never reached */
#if MM_ACT
#define ACT_V(v, a) clrt_act_v((v), (a))
#define ACT_S(v, a) clrt_act((v), (a))
#else
#define ACT_V(v, a) (v)
#define ACT_S(v, a) (v)
#endif

/* The epilogue over the work-item's TM x TN block of C, as store_c left it: the bias
 * added and the activation applied (STORE_V, STORE_S). A pass of its own after the
 * store, not inside it: while the store runs every accumulator is live, and the
 * epilogue's loads and arithmetic there cost registers the GPUs' fp32 tiles do not
 * have (clrt-isa: 24-56 bytes spilled on sm_90, on Arc and Iris Xe too); here the
 * accumulators are dead, and the elements the same work-item just stored. */
__attribute__((always_inline)) void epilogue_c(const uint M, const uint N, __global REAL *C, const uint ldc,
                                               const size_t gr0, const size_t gc0, const uint tx,
                                               const uint ty, const __global REAL *bias, const uint bias_ld,
                                               const uint epi)
{
    for (int i = 0; i < TM; ++i) {
        const size_t row = gr0 + ty * TM + i;
        if (row >= M)
            break;
        __global REAL *Cr = C + row * ldc;
        for (int j = 0; j < NV; ++j) {
            const size_t col = gc0 + (j * WGX + tx) * VW;
            if (col + VW <= N) {
                STORE_V(VLOAD(0, Cr + col), Cr + col, row, col);
            } else {
                for (int q = 0; q < VW; ++q)
                    if (col + q < N)
                        STORE_S(Cr[col + q], Cr + col + q, row, col + q);
            }
        }
    }
}

/* C = act(alpha acc + beta C + bias) for the work-item's TM x TN block (beta == 0: C only
 * written), its rows and columns past M and N left out: alpha acc + beta C stored, then
 * the epilogue (epi != 0) in a pass of its own (epilogue_c). */
__attribute__((always_inline)) void store_c(REALV acc[TM][NV], const uint M, const uint N, const REAL alpha,
                                            const REAL beta, __global REAL *C, const ulong c_off, const uint ldc,
                                            const size_t gr0, const size_t gc0, const uint tx, const uint ty,
                                            const __global REAL *bias, const uint bias_ld, const uint epi)
{
    C += c_off;
    const int use_beta = beta != (REAL)(0); /* uniform: beta == 0 never reads C */
    const int cvec = ldc % VW == 0 && c_off % VW == 0;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const size_t row = gr0 + ty * TM + i;
        if (row >= M)
            break;
        __global REAL *Cr = C + row * ldc;
#pragma unroll
        for (int j = 0; j < NV; ++j) {
            const size_t col = gc0 + (j * WGX + tx) * VW;
            if (col + VW <= N) {
                REALV v = alpha * acc[i][j];
                if (cvec) {
                    __global REALV *cv = (__global REALV *)(Cr + col);
                    *cv = use_beta ? fma((REALV)(beta), *cv, v) : v;
                } else {
                    VSTORE(use_beta ? fma((REALV)(beta), VLOAD(0, Cr + col), v) : v, 0, Cr + col);
                }
            } else {
#pragma unroll
                for (int q = 0; q < VW; ++q)
                    if (col + q < N) {
                        REAL v = alpha * LANE(acc[i][j], q);
                        Cr[col + q] = use_beta ? fma(beta, Cr[col + q], v) : v;
                    }
            }
        }
    }
    if (epi)
        epilogue_c(M, N, C, ldc, gr0, gc0, tx, ty, bias, bias_ld, epi);
}

/* C's place for the group: its k split's partial C, or its matrix of a batch. Worked
 * out at the store, not kept in registers across the main loop: the general kernel's
 * fp32 tile is at NVIDIA's 128-register cap, and that one value more spilled 36-48
 * bytes on sm_90 (clrt-isa). */
#define CZ (c_off + (ksplit ? (ulong)get_group_id(2) * M * ldc : (ulong)get_group_id(2) * sc))

/* What both kernels start with: the group's place, the work-item's, zero sums; the
 * group's split of k (ksplit != 0): its first k, k_lo, and its length, Kz. */
#define PROLOGUE                                                                                  \
    const uint tx = get_local_id(0), ty = get_local_id(1);                                        \
    const uint lid = ty * WGX + tx;                                                               \
    const size_t gr0 = get_group_id(1) * (size_t)BM;                                              \
    const size_t gc0 = get_group_id(0) * (size_t)BN;                                              \
    const uint k_lo = ksplit ? (uint)get_group_id(2) * ksplit : 0;                               \
    const uint Kz = ksplit ? min(ksplit, K - k_lo) : K;                                           \
    const size_t zb = ksplit ? 0 : get_group_id(2); /* matrix zb of a batch */                    \
    REALV acc[TM][NV];                                                                            \
    _Pragma("unroll") for (int i = 0; i < TM; ++i)                                                \
        _Pragma("unroll") for (int j = 0; j < NV; ++j) acc[i][j] = (REALV)(0);

/* The general kernel: any operands, any K (the launch's whole k range, or what the
 * fast kernel left). One buffer, two barriers per tile. */
__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1))) REQD_SG
void matmul(const uint M, const uint N, const uint K, const REAL alpha,
            __global const REAL *A, const ulong a_off, const uint lda,
            __global const REAL *B, const ulong b_off, const uint ldb, const REAL beta,
            __global REAL *C, const ulong c_off, const uint ldc, const ulong sa, const ulong sb,
            const ulong sc, __global const REAL *bias, const ulong bias_off, const uint bias_ld, const uint epi,
            const uint ksplit)
{
    __local REALV As_[A_SIZE / VW]; /* declared as vectors for their alignment */
    __local REALV Bs_[B_SIZE / VW];
    __local REAL *As = (__local REAL *)As_;
    __local REAL *Bs = (__local REAL *)Bs_;
    PROLOGUE
    /* the split's operands: k from k_lo, Kz of it */
    A += a_off + zb * sa + (size_t)k_lo * (A_KC ? 1 : lda);
    B += b_off + zb * sb + (size_t)k_lo * (B_KC ? 1 : ldb);
    for (size_t k0 = 0; k0 < Kz; k0 += TK) {
        GENERAL_LOAD_STORE(B, B, ldb, gc0, N, k0, Kz, Bs, BN)
        GENERAL_LOAD_STORE(A, A, lda, gr0, M, k0, Kz, As, BM)
        barrier(CLK_LOCAL_MEM_FENCE);
        tile_fma(acc, As, Bs, tx, ty);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    store_c(acc, M, N, alpha, beta, C, CZ, ldc, gr0, gc0, tx, ty, bias + bias_off, bias_ld, epi);
}

/* The fast kernel: K (and ksplit) a positive multiple of 2*TK, and for each operand
 * (the host's clrt__matmul_fast_k checks it): rows on a VW boundary (ld and offset
 * multiples of VW), along x (A^T, B) X a multiple of VW, and every offset it reads
 * below 2^32. Two buffers of each tile, one barrier per tile, loads without guards. */
__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1))) REQD_SG
void matmul_fast(const uint M, const uint N, const uint K, const REAL alpha,
                 __global const REAL *A0, const ulong a_off, const uint lda,
                 __global const REAL *B0, const ulong b_off, const uint ldb, const REAL beta,
                 __global REAL *C, const ulong c_off, const uint ldc, const ulong sa, const ulong sb,
                 const ulong sc, __global const REAL *bias, const ulong bias_off, const uint bias_ld,
                 const uint epi, const uint ksplit)
{
    __local REALV As_[2 * A_SIZE / VW];
    __local REALV Bs_[2 * B_SIZE / VW];
    __local REAL *As = (__local REAL *)As_;
    __local REAL *Bs = (__local REAL *)Bs_;
    PROLOGUE
    REALV rA[A_SLOTS], rB[B_SLOTS];
    uint oA[A_SLOTS], oB[B_SLOTS];
    A0 += zb * sa; /* the batch's matrix: its offsets from there are matrix 0's */
    B0 += zb * sb;
#pragma unroll
    for (int s = 0; s < A_SLOTS; ++s) {
        uint r, v;
        SLOT(A, s, r, v);
        oA[s] = fast_off(a_off, r, v, lda, gr0, M, A_KC) + k_lo * (A_KC ? 1 : lda);
    }
#pragma unroll
    for (int s = 0; s < B_SLOTS; ++s) {
        uint r, v;
        SLOT(B, s, r, v);
        oB[s] = fast_off(b_off, r, v, ldb, gc0, N, B_KC) + k_lo * (B_KC ? 1 : ldb);
    }
#define A_STEP (A_KC ? TK : TK * lda)
#define B_STEP (B_KC ? TK : TK * ldb)
    FAST_LOAD(A)
    FAST_LOAD(B)
    STORE(A, As, BM)
    STORE(B, Bs, BN)
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k0 = 0; k0 < Kz; k0 += 2 * TK) {
        FAST_STEP(0, 1, 1)
        FAST_STEP(1, 0, (uint)(k0 + 2 * TK < Kz))
    }
    store_c(acc, M, N, alpha, beta, C, CZ, ldc, gr0, gc0, tx, ty, bias + bias_off, bias_ld, epi);
}

/* C = the sum of the S partial products at P (each M x N, rows of N, one after the
 * other: the k splits' C, alpha applied) + beta C (beta == 0: C only written), in
 * order of the splits, then the epilogue. One work-item per element of C, dim 0 over columns. */
__kernel void matmul_sum(const uint M, const uint N, const uint S, __global const REAL *P, const REAL beta,
                         __global REAL *C, const ulong c_off, const uint ldc, __global const REAL *bias,
                         const ulong bias_off, const uint bias_ld, const uint epi)
{
    bias += bias_off;
    const size_t j = get_global_id(0), i = get_global_id(1);
    if (i >= M || j >= N)
        return;
    const size_t mn = (size_t)M * N;
    P += i * N + j;
    REAL s = P[0];
    for (uint z = 1; z < S; ++z)
        s += P[z * mn];
    __global REAL *c = C + c_off + i * ldc + j;
    s = beta != (REAL)(0) ? fma(beta, *c, s) : s;
    STORE_S(s, c, i, j);
}
