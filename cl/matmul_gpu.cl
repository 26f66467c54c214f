/* matmul, local-memory variant (use_local = 1, GPUs): the GEMM
 * C = alpha op(A) op(B) + beta C, op(A) M x K, op(B) K x N, C M x N, every matrix
 * row-major with its own start offset and row stride (views). OpenCL C 1.2; REAL,
 * VW, REALV, VLOAD/VSTORE and LANE come from the prelude (cl/common.cl).
 *
 * Build options (src/k_matmul.h lists the tuning ones; src/k_matmul.c picks them):
 *   TM, TN    rows / columns of C per work-item (TN a multiple of VW)
 *   TK        local tile depth along k (a multiple of VW)
 *   WGX, WGY  work-group shape; dim 0 runs over columns, dim 1 over rows
 *   TA, TB    1: op(A) = A^T, op(B) = B^T (the launch variant, not a tuning value)
 * Launch: global = {roundup(ceil(N/TN), WGX), roundup(ceil(M/TM), WGY)}, local = {WGX, WGY}.
 * The last argument, bpacked, is always 0 here (the local tiles are the packing); it
 * keeps the signature of the register-tile variant, so the host launches both alike.
 * beta == 0: C is only written.
 */

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

#define NV (TN / VW) /* accumulator vectors per row of the work-item's tile */

/* ------------------------------------------------------------------------------------
 * GPU variant. The group computes a BM x BN tile of C (BM = WGY*TM, BN = WGX*TN); per
 * step of TK along k it stages A (BM x TK) and B (TK x BN) in local memory, then each
 * work-item accumulates TM x TN in registers.
 *  - Loads to local memory: consecutive work-items take consecutive VW-vectors of a
 *    row (coalesced global reads, conflict-free local writes). Out-of-range elements
 *    are stored as zero, so the compute loop needs no guards and k needs no tail.
 *    Vector-typed (aligned) global loads are used when the row stride and the start
 *    offset are multiples of VW; otherwise vloadn, which only needs element
 *    alignment. A transposed operand is read lane by lane (down a column of the
 *    stored matrix), still into the same tiles.
 *  - Work-item (tx, ty) owns rows ty*TM .. ty*TM+TM-1 (so A is read as vectors along
 *    k, one address per half-warp: a broadcast) and the column vectors j*WGX + tx
 *    (consecutive work-items read consecutive vectors of B: no bank conflicts; the
 *    stores of C are coalesced).
 *  - Two barriers per step: tiles complete before use, used before overwrite.
 * ---------------------------------------------------------------------------------- */

#define BM (WGY * TM)
#define BN (WGX * TN)
#define WGS (WGX * WGY)
#define KV (TK / VW) /* vectors per row of the A tile */
#define NB (BN / VW) /* vectors per row of the B tile */
#define A_SLOTS ((BM * KV + WGS - 1) / WGS)
#define B_SLOTS ((TK * NB + WGS - 1) / WGS)

/* The VW elements at p, row `col` .. col+VW-1 of a row of ncols, as one vector;
 * elements past the row's end, or of a row past the matrix (!row_ok), read as
 * zero. aligned: the row stride is a multiple of VW, so a vector load is legal. */
REALV load_edge(const __global REAL *p, int row_ok, size_t col, size_t ncols, int aligned)
{
    if (row_ok && col + VW <= ncols)
        return aligned ? *(const __global REALV *)p : VLOAD(0, p);
    REALV v;
#pragma unroll
    for (int q = 0; q < VW; ++q)
        LANE(v, q) = (row_ok && col + q < ncols) ? p[q] : (REAL)(0);
    return v;
}

/* The same for a transposed operand: lane q is p[q * stride] (down a column of the
 * stored matrix). */
REALV load_edge_t(const __global REAL *p, int row_ok, size_t col, size_t ncols, size_t stride)
{
    REALV v;
#pragma unroll
    for (int q = 0; q < VW; ++q)
        LANE(v, q) = (row_ok && col + q < ncols) ? p[q * stride] : (REAL)(0);
    return v;
}

__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1)))
void matmul(const uint M, const uint N, const uint K, const REAL alpha,
            __global const REAL *A, const ulong a_off, const uint lda,
            __global const REAL *B, const ulong b_off, const uint ldb, const REAL beta,
            __global REAL *C, const ulong c_off, const uint ldc,
            const uint bpacked) /* always 0 here: the local tiles are the packing */
{
    A += a_off;
    B += b_off;
    C += c_off;
    __local REALV As[BM * KV]; /* As[row][k] */
    __local REALV Bs[TK * NB]; /* Bs[k][col] */
    const uint tx = get_local_id(0), ty = get_local_id(1);
    const uint lid = ty * WGX + tx;
    const size_t gr0 = get_group_id(1) * (size_t)BM;
    const size_t gc0 = get_group_id(0) * (size_t)BN;
    /* rows start on a vector boundary: vector-typed loads and stores are legal */
    const int avec = lda % VW == 0 && a_off % VW == 0;
    const int bvec = ldb % VW == 0 && b_off % VW == 0;
    const int cvec = ldc % VW == 0 && c_off % VW == 0;

    REALV acc[TM][NV];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < NV; ++j)
            acc[i][j] = (REALV)(0);

    for (size_t k0 = 0; k0 < K; k0 += TK) {
#pragma unroll
        for (int s = 0; s < A_SLOTS; ++s) {
            const uint e = lid + s * WGS;
            if ((BM * KV) % WGS == 0 || e < BM * KV) {
                /* remainder written as e - q*d: a '/' and '%' pair on the same operands
                 * makes LLVM emit 'freeze', which Oclgrind 21.10's uninitialized-value
                 * check aborts on (non-power-of-two KV or NB) */
                const uint er = e / KV;
                const size_t gr = gr0 + er;
                const size_t gk = k0 + (e - er * KV) * VW;
#if TA
                As[e] = load_edge_t(A + gk * lda + gr, gr < M, gk, K, lda);
#else
                As[e] = load_edge(A + gr * lda + gk, gr < M, gk, K, avec);
#endif
            }
        }
#pragma unroll
        for (int s = 0; s < B_SLOTS; ++s) {
            const uint e = lid + s * WGS;
            if ((TK * NB) % WGS == 0 || e < TK * NB) {
                const uint ek = e / NB;
                const size_t gk = k0 + ek;
                const size_t gc = gc0 + (e - ek * NB) * VW;
#if TB
                Bs[e] = load_edge_t(B + gc * ldb + gk, gk < K, gc, N, ldb);
#else
                Bs[e] = load_edge(B + gk * ldb + gc, gk < K, gc, N, bvec);
#endif
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll
        for (int kv = 0; kv < KV; ++kv) {
            REALV a[TM];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                a[i] = As[(ty * TM + i) * KV + kv];
#pragma unroll
            for (int q = 0; q < VW; ++q) {
                REALV b[NV];
#pragma unroll
                for (int j = 0; j < NV; ++j)
                    b[j] = Bs[(kv * VW + q) * NB + j * WGX + tx];
#pragma unroll
                for (int i = 0; i < TM; ++i) {
                    const REALV av = (REALV)(LANE(a[i], q));
#pragma unroll
                    for (int j = 0; j < NV; ++j)
                        acc[i][j] = fma(av, b[j], acc[i][j]);
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    const int use_beta = beta != (REAL)(0); /* uniform: beta == 0 never reads C */
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
}
