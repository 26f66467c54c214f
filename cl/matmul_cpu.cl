/* matmul, register-tile variant (use_local = 0, CPU devices): the GEMM
 * C = alpha op(A) op(B) + beta C, op(A) M x K, op(B) K x N, C M x N, every matrix
 * row-major with its own start offset and row stride (views). OpenCL C 1.2; REAL,
 * VW, REALV, VLOAD/VSTORE and LANE come from the prelude (cl/common.cl).
 *
 * Build options (src/kernels/matmul_params.h lists the tuning ones; src/kernels/matmul.c picks them):
 *   TM, TN    rows / columns of C per work-item (TN a multiple of VW)
 *   TK        k block (cache block) when B is read in place
 *   TKP       k block when B is packed (packed bit 0); 0 = TK
 *   WGX, WGY  work-group shape; dim 0 runs over columns, dim 1 over rows
 *   TA, TB    1: op(A) = A^T (A is K x M), op(B) = B^T (B is N x K); the launch
 *             variant, not a tuning value
 *   NARROW    1: the tile is NARROW_TM x NARROW_TN (for C thinner than TN: the
 *             launch variant, not tuned)
 *   MM_ACT    1: the epilogue's activations are compiled in (the launch variant of a
 *             product with one; without, epi's activation must be 0)
 *   FIT_TM    > 0: the tile has FIT_TM rows instead (C with few rows: the launch
 *             variant, src/kernels/matmul_plan.c clrt__matmul_fit_rows)
 *   DOT_TM, DOT_NV  > 0: matmul_dot's tile, rows x columns of C (0: TM x NV); with
 *             DOT_TM, FIT_TM fits that tile's rows instead of matmul's
 *   MM_SUFFIX this text is one of several copies in one program (src/kernels/matmul.c,
 *             parameter merged): each copy names its kernels with its suffix (matmul_nt,
 *             pack_b_nt, ...), TA and TB defined around it (cmake/EmbedCL.cmake)
 * Launch: global = {roundup(ceil(N/TN), WGX), roundup(ceil(M/TM), WGY)}, local = {WGX, WGY}.
 * Offsets are formed in size_t so that matrices beyond 2^32 elements index correctly.
 * beta == 0: C is only written (its old contents, NaN or not, never read).
 * After ldc, matmul and matmul_dot take a batch and an epilogue: with a 3-D launch,
 * dimension 2 over the matrices of a batch, matrix z's A, B and C start sa, sb, sc
 * elements after the one before (never with packed operands); epi (the prelude's
 * CLRT_EPI_*: 0 none) adds bias (at bias_off, column stride bias_ld) and applies
 * the activation to alpha op(A) op(B) + beta C before the store.
 *
 * matmul's last argument, packed (only nonzero when M >= TM and N >= TN):
 *   bit 0  B is pack_b's panel copy of op(B); the launch may cover a range of column
 *          panels through the global offset of dimension 0
 *   bit 1  A is pack_a's panel copy of op(A); the launch may cover a range of row
 *          panels through the global offset of dimension 1
 *   bit 2  (WGX == WGY only) the dimensions swap roles: dimension 0 runs over row
 *          tiles, 1 over column tiles (below)
 * A clear bit: that operand is read in place.
 */

#ifndef TM
#define TM 1
#endif
#ifndef TN
#define TN VW
#endif
#ifndef TK
#define TK 16
#endif
#if !defined(TKP) || TKP == 0
#undef TKP
#define TKP TK
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
#ifndef NARROW
#define NARROW 0
#endif
#ifndef MM_ACT
#define MM_ACT 0 /* 1: the epilogue's activations compiled in (cl/common.cl) */
#endif
#if NARROW
/* C thinner than TN columns: the launch variant's own tile, NARROW_TM x NARROW_TN
 * (one vector of columns; src/kernels/matmul.c picks it for both sides) */
#undef TM
#undef TN
#define TM NARROW_TM
#define TN NARROW_TN
#endif
#if defined(FIT_TM) && FIT_TM > 0
/* C with few rows: as many row tiles as TM rows make, each no taller than needed */
#undef TM
#define TM FIT_TM
#endif

#define NV (TN / VW) /* accumulator vectors per row of the work-item's tile */

/* a kernel's name: with several copies in one program, the copy's suffix added */
#ifdef MM_SUFFIX
#define MM_KERNEL(name) CLRT_CAT(name, MM_SUFFIX)
#else
#define MM_KERNEL(name) name
#endif

/* op(A)(i, k) and op(B)(k, j), A and B already at their offsets */
#if TA
#define OPA(i, k) A[(size_t)(k) * lda + (i)]
#else
#define OPA(i, k) A[(size_t)(i) * lda + (k)]
#endif
#if TB
#define OPB(k, j) B[(size_t)(j) * ldb + (k)]
#else
#define OPB(k, j) B[(size_t)(k) * ldb + (j)]
#endif

/* ------------------------------------------------------------------------------------
 * CPU variant. A CPU OpenCL driver (POCL) runs a work-group as a loop over its
 * work-items, so the register tile of one work-item is the micro-kernel: TM x TN of C
 * held in TM*NV vectors (8 x 3 float16 = 24 of the 32 zmm registers on AVX-512), per k
 * NV vector loads of B and TM broadcasts of A feed TM*NV FMAs. The WGY work-items of a
 * group share the same TN-column panel of B; the barrier after every TK steps of k
 * makes them all walk the same TK x TN block of that panel while it is in cache
 * (measured on POCL at 2048^3: TK=256 ~30% faster than no k blocking). Once B is
 * packed (below) that sharing no longer pays for the barrier: the CPU default is a
 * group of one work-item (src/kernels/matmul.c), the sharing stays for the tuner to try.
 * No local memory: on CPU drivers it is ordinary memory, and staging the B block in
 * __local (a packed copy) measured half the speed on POCL.
 *
 * Edges: when M >= TM and N >= TN every tile is made full by moving the last tile
 * back inside the matrix (it overlaps its neighbour); such a tile computes at full
 * speed and stores only the part its neighbour does not own. Only matrices thinner
 * than a tile take the guarded path (clamped loads). k needs no padding.
 *
 * Transposes: with A stored transposed (ta = 1) the TM values of op(A) a work-item
 * needs at one k are consecutive in memory (one row of the stored matrix), so they
 * load as a vector; op(B) = B^T read in place is a gather per lane, so the host packs
 * it (pack_b reads the transpose) whenever the tiles are full.
 *
 * Packed B (packed bit 0): read in place, a TN-column panel of B is TK rows at a stride
 * of N; when N is a multiple of a large power of two those rows all fall in a few
 * cache sets (and each in its own page), so the block the group shares does not stay
 * in L1/L2 and the 16 work-items fetch it again from L3 (measured: N=4032 ~10% faster
 * than 4096; the kernel at 0.85x OpenBLAS at 2048 and 4096). pack_b (below) first copies
 * each panel to a contiguous K x TN block; the loop below is the same with a stride of
 * TN. Panel p holds the columns this kernel's tile p computes (the last one moved back
 * inside the matrix), so it needs no padding. The host packs only when the tiles are
 * full (M >= TM, N >= TN) and the product is large enough to pay for the copy.
 * The packed panel wants a deeper k block (TKP) than B in place (TK), measured on POCL
 * at 1024-4096: packed TKP=1024 5-8% faster than 256; in place TK=1024 up to 14% slower.
 *
 * Packed A (packed bit 1): op(A) = A^T read in place takes TM elements of one row of the
 * stored matrix per k, a row apart (lda): a quarter of each cache line used, and with
 * lda a multiple of a large power of two every row of the k block in the same few cache
 * sets, so the block does not stay in cache (measured on POCL, AVX2, 2048: A^T B at 0.19x
 * the speed of A B). pack_a (below) first copies each row panel to a contiguous K x TM
 * block (for A^T a plain copy of TM-element rows); the loop reads it at a stride of TM.
 * Panel q holds the rows this kernel's row tile q computes (the last one moved back
 * inside the matrix).
 * ---------------------------------------------------------------------------------- */

/* The full-tile k loop over [k0, kend): B at Bp (bstep per k), op(A)(r + i, k) read
 * as A_AT(i, k), A_NEXT after each k. One body for A in place and packed. */
#define FULL_K_LOOP(A_AT, A_NEXT)                                                       \
    for (uint k = k0; k < kend; ++k, Bp += bstep) {                                    \
        REALV b[NV];                                                                   \
        _Pragma("unroll") for (int j = 0; j < NV; ++j) b[j] = VLOAD(0, Bp + j * VW);   \
        _Pragma("unroll") for (int i = 0; i < TM; ++i) {                               \
            const REALV a = (REALV)(A_AT(i, k));                                       \
            _Pragma("unroll") for (int j = 0; j < NV; ++j) acc[i][j] =                 \
                fma(a, b[j], acc[i][j]);                                               \
        }                                                                              \
        A_NEXT;                                                                        \
    }
#define A_IN_PLACE(i, k) OPA(r + (i), k)
#define A_PACKED(i, k) Ap[i]


__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1)))
void MM_KERNEL(matmul)(const uint M, const uint N, const uint K, const REAL alpha,
            __global const REAL *A, const ulong a_off, const uint lda,
            __global const REAL *B, const ulong b_off, const uint ldb, const REAL beta,
            __global REAL *C, const ulong c_off, const uint ldc, const ulong sa, const ulong sb,
            const ulong sc, __global const REAL *bias, const ulong bias_off, const uint bias_ld, const uint epi,
            const uint packed)
{
    const uint bpacked = packed & 1u, apacked = packed & 2u, swap = packed & 4u;
    /* a batch: matrix z of each operand sa, sb, sc elements on (never packed) */
    const size_t z = get_global_id(2);
    A += a_off + z * sa;
    B += b_off + z * sb;
    C += c_off + z * sc;
    bias += bias_off;
    /* the work-item's column and row tile, and the launch's first ones (constant
     * dimensions: POCL 3.1 cannot link get_global_offset of a variable one) */
    const size_t g0 = get_global_id(0), g1 = get_global_id(1);
    const size_t o0 = get_global_offset(0), o1 = get_global_offset(1);
    const size_t tx = swap ? g1 : g0, ty = swap ? g0 : g1, tx0 = swap ? o1 : o0, ty0 = swap ? o0 : o1;
    const size_t col0 = tx * (size_t)TN; /* tile this work-item owns */
    const size_t row0 = ty * (size_t)TM;
    const int active = row0 < M && col0 < N;
    const int full = M >= TM && N >= TN; /* uniform over the launch */
    const size_t r = full ? min(row0, (size_t)(M - TM)) : row0; /* tile it computes */
    const size_t c = full ? min(col0, (size_t)(N - TN)) : col0;

    REALV acc[TM][NV];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < NV; ++j)
            acc[i][j] = (REALV)(0);

    const uint kb = bpacked ? TKP : TK;
    /* B^T takes the full-tile path only packed (bpacked is 0 or 1; a bitwise
     * or, since `bpacked || !TB` makes clang warn of a constant operand) */
    const uint b_full_ok = bpacked | (uint)!TB;
    uint k0 = 0;
    while (k0 < K) {
        const uint kend = (K - k0 > kb) ? k0 + kb : K; /* no uint overflow near 2^32 */
        if (active && full && b_full_ok) {
            /* packed: the launch's first panel is the scratch's first (global offset) */
            const size_t bstep = bpacked ? (size_t)TN : (size_t)ldb;
            const __global REAL *Bp =
                bpacked ? B + ((tx - tx0) * K + k0) * TN
                        : B + (size_t)k0 * ldb + c;
            if (apacked) {
                /* the launch's first row panel is the scratch's first (global offset) */
                const __global REAL *Ap = A + ((ty - ty0) * K + k0) * TM;
                FULL_K_LOOP(A_PACKED, Ap += TM)
            } else {
                FULL_K_LOOP(A_IN_PLACE, (void)0)
            }
        } else if (active) {
            /* thin matrix (or B^T in place): rows past M and columns past N read a
             * valid neighbour (clamped index); those results are never stored. The
             * host packs A only where the loop above runs. */
            for (uint k = k0; k < kend; ++k) {
                REALV b[NV];
#pragma unroll
                for (int j = 0; j < NV; ++j) {
                    const size_t cj = c + j * VW;
                    if (!TB && cj + VW <= N) {
                        b[j] = VLOAD(0, B + (size_t)k * ldb + cj);
                    } else {
#pragma unroll
                        for (int q = 0; q < VW; ++q)
                            LANE(b[j], q) = OPB(k, min(cj + q, (size_t)N - 1));
                    }
                }
#pragma unroll
                for (int i = 0; i < TM; ++i) {
                    const REALV a = (REALV)(OPA(min(r + i, (size_t)M - 1), k));
#pragma unroll
                    for (int j = 0; j < NV; ++j)
                        acc[i][j] = fma(a, b[j], acc[i][j]);
                }
            }
        }
        k0 = kend;
#if WGX * WGY > 1
        barrier(CLK_LOCAL_MEM_FENCE); /* keep the group on the same k block */
#endif
    }
    if (!active)
        return;

    const int use_beta = beta != (REAL)(0); /* uniform: beta == 0 never reads C */
    /* The accumulators go to a private tile first, then a loop (not unrolled)
     * stores what this work-item owns: whole vectors where they lie inside C,
     * element by element at its edges. Unrolled over TM x NV x VW guarded
     * stores, the epilogue made POCL take seconds to compile each variant;
     * storing straight from the accumulators in a rolled loop would index
     * them with a variable and take them out of registers for the k loop. */
    REAL tile[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < NV; ++j)
            VSTORE(acc[i][j], j, tile[i]);
#pragma unroll 1
    for (int i = 0; i < TM; ++i) {
        const size_t rr = r + i;
        if (rr < row0 || rr >= M) /* owned by the tile above / outside C */
            continue;
        __global REAL *Cr = C + rr * ldc;
#pragma unroll 1
        for (int j = 0; j < NV; ++j) {
            const size_t cj = c + j * VW;
            if (cj >= col0 && cj + VW <= N) {
                REALV v = alpha * VLOAD(j, tile[i]);
                if (use_beta)
                    v = fma((REALV)(beta), VLOAD(0, Cr + cj), v);
                if (CLRT_EPI_BIAS(epi))
                    v = clrt_bias_v(v, CLRT_EPI_BIAS(epi), bias, rr, cj, bias_ld);
                VSTORE(v, 0, Cr + cj);
#if MM_ACT
                if (CLRT_EPI_ACT(epi)) /* on what was stored (cl/common.cl says why) */
                    VSTORE(clrt_act_v(VLOAD(0, Cr + cj), CLRT_EPI_ACT(epi)), 0, Cr + cj);
#endif
            } else {
#pragma unroll 1
                for (int q = 0; q < VW; ++q)
                    if (cj + q >= col0 && cj + q < N) {
                        REAL v = alpha * tile[i][j * VW + q];
                        if (use_beta)
                            v = fma(beta, Cr[cj + q], v);
                        if (CLRT_EPI_BIAS(epi))
                            v = clrt_bias(v, CLRT_EPI_BIAS(epi), bias, rr, cj + q, bias_ld);
                        Cr[cj + q] = v;
#if MM_ACT
                        if (CLRT_EPI_ACT(epi))
                            Cr[cj + q] = clrt_act(Cr[cj + q], CLRT_EPI_ACT(epi));
#endif
                    }
            }
        }
    }
}

/* ------------------------------------------------------------------------------------
 * pack_b: op(B) (K x N, N >= TN) to the panels matmul reads with packed bit 0.
 * Panel p holds columns c .. c+TN-1 of op(B), c = min(p*TN, N-TN) (the column tile
 * matmul's work-item column p computes), as K contiguous rows of TN:
 * P[(p - p0)*K*TN + k*TN + j] for the `panels` panels p0 .. of this launch.
 * Neighbouring work-items (dimension 0) read neighbouring memory:
 *   B (not TB): work-item (p, k) copies row k of panel p, NV vectors along a row of
 *     B; over p, one row of B is read in order (over k, as before, each work-item
 *     read a row of B in another page: 32% of a 50x4096x500 product's time).
 *     Launch: global = {roundup(panels, L), K}, offset {p0, 0}.
 *   B^T (TB): work-item (kb, p) copies rows kb*VW .. kb*VW+VW-1 of panel p (below).
 *     Launch: global = {roundup(ceil(K / VW), L), panels}, offset {0, p0}.
 * local = {L, 1} (k_matmul.c).
 * ---------------------------------------------------------------------------------- */
__kernel void MM_KERNEL(pack_b)(const uint N, const uint K, __global const REAL *B, const ulong b_off, const uint ldb,
                     __global REAL *P, const uint panels)
{
    B += b_off;
#if TB
    /* op(B) = B^T: work-item (kb, p) moves rows k0 .. k0+VW-1 of panel p, read as one
     * vector along each of the TN rows of B and turned in registers VW x VW at a time
     * (an element at a time, each work-item read TN rows a row apart per k and POCL
     * ran this copy at ~3 GB/s, longer than the product it fed at 50x500x4096) */
    const size_t k0 = get_global_id(0) * VW, p = get_global_id(1);
    if (k0 >= K)
        return;
    const size_t c = min(p * TN, (size_t)(N - TN));
    __global REAL *dst = P + ((p - get_global_offset(1)) * K + k0) * TN;
    if (k0 + VW <= K) {
        /* one VW x VW block of the panel at a time (a loop: unrolled over the
         * panel's NV blocks it tripled the kernel's compile time) */
#pragma unroll 1
        for (int jv = 0; jv < NV; ++jv) {
            REALV v[VW];
#pragma unroll
            for (int q = 0; q < VW; ++q)
                v[q] = VLOAD(0, B + (c + jv * VW + q) * ldb + k0);
#pragma unroll
            for (int kk = 0; kk < VW; ++kk) {
                REAL o[VW];
#pragma unroll
                for (int q = 0; q < VW; ++q)
                    o[q] = LANE(v[q], kk);
                VSTORE(VLOAD(0, o), 0, dst + kk * TN + jv * VW);
            }
        }
    } else {
        for (size_t kk = 0; k0 + kk < K; ++kk)
            for (int j = 0; j < TN; ++j)
                dst[kk * TN + j] = OPB(k0 + kk, c + j);
    }
#else
    const size_t p = get_global_id(0), k = get_global_id(1), p0 = get_global_offset(0);
    if (p - p0 >= panels)
        return;
    const size_t c = min(p * TN, (size_t)(N - TN));
    __global REAL *dst = P + ((p - p0) * K + k) * TN;
    const __global REAL *src = B + k * ldb + c;
#pragma unroll
    for (int j = 0; j < NV; ++j)
        VSTORE(VLOAD(0, src + j * VW), 0, dst + j * VW);
#endif
}

/* ------------------------------------------------------------------------------------
 * pack_a: op(A) (M x K, M >= TM) to the row panels matmul reads with packed bit 1.
 * Panel q holds rows r .. r+TM-1 of op(A), r = min(q*TM, M-TM) (the row tile matmul's
 * work-item row q computes), as K contiguous columns of TM:
 * P[p_off + (q - q0)*K*TM + k*TM + i] for the `panels` panels q0 .. of this launch.
 * Work-item (k, q) copies column k of panel q. Neighbouring work-items (dimension 0)
 * read neighbouring memory: with A^T (TA) they run over panels, each copying TM
 * consecutive elements of a row of A (over k they would each read a row apart, the
 * access packing exists to avoid); else over k, down TM rows of A.
 * Launch (k_matmul.c): TA global = {roundup(panels, L), K}, offset {q0, 0}; else
 * global = {roundup(K, L), panels}, offset {0, q0}; local = {L, 1}.
 * ---------------------------------------------------------------------------------- */
__kernel void MM_KERNEL(pack_a)(const uint M, const uint K, __global const REAL *A, const ulong a_off, const uint lda,
                     __global REAL *P, const ulong p_off, const uint panels)
{
#if TA
    const size_t q = get_global_id(0), k = get_global_id(1), q0 = get_global_offset(0);
#else
    const size_t k = get_global_id(0), q = get_global_id(1), q0 = get_global_offset(1);
#endif
    if (k >= K || q - q0 >= panels)
        return;
    A += a_off;
    const size_t r = min(q * TM, (size_t)(M - TM));
    __global REAL *dst = P + p_off + ((q - q0) * K + k) * TM;
#pragma unroll
    for (int i = 0; i < TM; ++i)
        dst[i] = OPA(r + i, k);
}

#if TB && !TA
/* ------------------------------------------------------------------------------------
 * matmul_dot: the dot form of A B^T (built with TB and not TA; same arguments as
 * matmul but packed). Rows of A and rows of B both run along k, so a work-item
 * computes C's DTM x DNV tile (DNV columns) as DTM*DNV dot products, each held as a
 * vector of VW partial sums along k: per VW steps of k, DNV vector loads of B rows
 * and DTM of A rows feed DTM*DNV FMAs. Its tile is its own (DOT_TM, DOT_NV; else
 * matmul's TM x NV): the loads per FMA are DTM + DNV per DTM*DNV, so a square tile
 * needs fewest (src/kernels/matmul.c has the measurements). Nothing is packed:
 * for small M and a long K (the weight gradients of a network) packing B^T cost
 * more than the product. A kernel of its own: as a branch of
 * matmul that returned before matmul's barriers, POCL ran it wrong in groups of 4.
 * Launch: global = {roundup(ceil(N/DNV), WGX), roundup(ceil(M/DTM), WGY)}, over a range
 * of columns through the global offset of dimension 0. Tiles past an edge move back
 * inside the matrix (as in matmul) when it is at least a tile, else read clamped
 * rows; either way each element of C is stored by the work-item owning it.
 * ---------------------------------------------------------------------------------- */
/* The sum of v's lanes, through a private copy (lanes read through a pointer to
 * the vector, or its halves, made Oclgrind 21.10's uninitialised-value check crash
 * with 8 lanes) */
REAL lane_sum(REALV v)
{
    REAL t[VW];
    VSTORE(v, 0, t);
    REAL s = t[0];
#pragma unroll
    for (int q = 1; q < VW; ++q)
        s += t[q];
    return s;
}

#if defined(DOT_TM) && DOT_TM > 0 && defined(FIT_TM) && FIT_TM > 0
#define DTM FIT_TM /* fitted to C's rows (the host fits this tile, not matmul's) */
#elif defined(DOT_TM) && DOT_TM > 0
#define DTM DOT_TM
#else
#define DTM TM
#endif
#if defined(DOT_NV) && DOT_NV > 0
#define DNV DOT_NV
#else
#define DNV NV
#endif

__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1)))
void MM_KERNEL(matmul_dot)(const uint M, const uint N, const uint K, const REAL alpha,
                __global const REAL *A, const ulong a_off, const uint lda,
                __global const REAL *B, const ulong b_off, const uint ldb, const REAL beta,
                __global REAL *C, const ulong c_off, const uint ldc, const ulong sa, const ulong sb,
                const ulong sc, __global const REAL *bias, const ulong bias_off, const uint bias_ld, const uint epi)
{
    const size_t z = get_global_id(2); /* matrix z of a batch */
    A += a_off + z * sa;
    B += b_off + z * sb;
    C += c_off + z * sc;
    bias += bias_off;
    const size_t col0 = get_global_id(0) * (size_t)DNV, row0 = get_global_id(1) * (size_t)DTM;
    if (row0 >= M || col0 >= N)
        return;
    const size_t r = M >= DTM ? min(row0, (size_t)(M - DTM)) : row0;
    const size_t c = N >= DNV ? min(col0, (size_t)(N - DNV)) : col0;
    const __global REAL *Ar[DTM];
    const __global REAL *Br[DNV];
#pragma unroll
    for (int i = 0; i < DTM; ++i)
        Ar[i] = A + min(r + i, (size_t)M - 1) * lda;
#pragma unroll
    for (int j = 0; j < DNV; ++j)
        Br[j] = B + min(c + j, (size_t)N - 1) * ldb;

    REALV acc[DTM][DNV];
#pragma unroll
    for (int i = 0; i < DTM; ++i)
#pragma unroll
        for (int j = 0; j < DNV; ++j)
            acc[i][j] = (REALV)(0);
    const uint kv = K / VW * VW;
    for (uint k = 0; k < kv; k += VW) {
        REALV b[DNV];
#pragma unroll
        for (int j = 0; j < DNV; ++j)
            b[j] = VLOAD(0, Br[j] + k);
#pragma unroll
        for (int i = 0; i < DTM; ++i) {
            const REALV a = VLOAD(0, Ar[i] + k);
#pragma unroll
            for (int j = 0; j < DNV; ++j)
                acc[i][j] = fma(a, b[j], acc[i][j]);
        }
    }
    const int use_beta = beta != (REAL)(0);
#pragma unroll
    for (int i = 0; i < DTM; ++i) {
        const size_t rr = r + i;
        if (rr < row0 || rr >= M)
            continue;
#pragma unroll
        for (int j = 0; j < DNV; ++j) {
            const size_t cc = c + j;
            if (cc < col0 || cc >= N)
                continue;
            REAL s = lane_sum(acc[i][j]);
            for (uint k = kv; k < K; ++k) /* the last K % VW steps */
                s = fma(Ar[i][k], Br[j][k], s);
            REAL v = alpha * s;
            if (use_beta)
                v = fma(beta, C[rr * ldc + cc], v);
            if (CLRT_EPI_BIAS(epi))
                v = clrt_bias(v, CLRT_EPI_BIAS(epi), bias, rr, cc, bias_ld);
            C[rr * ldc + cc] = v;
#if MM_ACT
            if (CLRT_EPI_ACT(epi))
                C[rr * ldc + cc] = clrt_act(C[rr * ldc + cc], CLRT_EPI_ACT(epi));
#endif
        }
    }
}
#endif

/* The macros this text defines from its transposes: undefined, so that the next
 * copy of it in the same program (MM_SUFFIX) defines them for its own */
#undef NV
#undef MM_KERNEL
#undef OPA
#undef OPB
#undef FULL_K_LOOP
#undef A_IN_PLACE
#undef A_PACKED
#undef DTM
#undef DNV
