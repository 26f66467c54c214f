/* matmul, local-memory variant (use_local = 1, GPUs): C(MxN) = A(MxK) * B(KxN), all
 * dense row-major. OpenCL C 1.2; REAL, VW, REALV, VLOAD/VSTORE and LANE come from the
 * prelude (cl/common.cl).
 *
 * Build options (src/k_matmul.h lists them; src/k_matmul.c picks them per device):
 *   TM, TN    rows / columns of C per work-item (TN a multiple of VW)
 *   TK        local tile depth along k (a multiple of VW)
 *   WGX, WGY  work-group shape; dim 0 runs over columns, dim 1 over rows
 * Launch: global = {roundup(ceil(N/TN), WGX), roundup(ceil(M/TM), WGY)}, local = {WGX, WGY}.
 * The last argument, bpacked, is always 0 here (the local tiles are the packing); it
 * keeps the signature of the register-tile variant, so the host launches both alike.
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

#define NV (TN / VW) /* accumulator vectors per row of the work-item's tile */

/* ------------------------------------------------------------------------------------
 * GPU variant. The group computes a BM x BN tile of C (BM = WGY*TM, BN = WGX*TN); per
 * step of TK along k it stages A (BM x TK) and B (TK x BN) in local memory, then each
 * work-item accumulates TM x TN in registers.
 *  - Loads to local memory: consecutive work-items take consecutive VW-vectors of a
 *    row (coalesced global reads, conflict-free local writes). Out-of-range elements
 *    are stored as zero, so the compute loop needs no guards and k needs no tail.
 *    Vector-typed (aligned) global loads are used when the row stride is a multiple
 *    of VW; otherwise vloadn, which only needs element alignment.
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

__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1)))
void matmul(const uint M, const uint N, const uint K,
            __global const REAL *A, __global const REAL *B, __global REAL *C,
            const uint bpacked) /* always 0 here: the local tiles are the packing */
{
    __local REALV As[BM * KV]; /* As[row][k] */
    __local REALV Bs[TK * NB]; /* Bs[k][col] */
    const uint tx = get_local_id(0), ty = get_local_id(1);
    const uint lid = ty * WGX + tx;
    const size_t gr0 = get_group_id(1) * (size_t)BM;
    const size_t gc0 = get_group_id(0) * (size_t)BN;
    const int avec = (K % VW) == 0; /* rows of A start on a vector boundary */
    const int bvec = (N % VW) == 0; /* rows of B and C likewise */

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
                As[e] = load_edge(A + gr * K + gk, gr < M, gk, K, avec);
            }
        }
#pragma unroll
        for (int s = 0; s < B_SLOTS; ++s) {
            const uint e = lid + s * WGS;
            if ((TK * NB) % WGS == 0 || e < TK * NB) {
                const uint ek = e / NB;
                const size_t gk = k0 + ek;
                const size_t gc = gc0 + (e - ek * NB) * VW;
                Bs[e] = load_edge(B + gk * N + gc, gk < K, gc, N, bvec);
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

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const size_t row = gr0 + ty * TM + i;
        if (row >= M)
            break;
        __global REAL *Cr = C + row * N;
#pragma unroll
        for (int j = 0; j < NV; ++j) {
            const size_t col = gc0 + (j * WGX + tx) * VW;
            if (col + VW <= N) {
                if (bvec)
                    *(__global REALV *)(Cr + col) = acc[i][j];
                else
                    VSTORE(acc[i][j], 0, Cr + col);
            } else {
#pragma unroll
                for (int q = 0; q < VW; ++q)
                    if (col + q < N)
                        Cr[col + q] = LANE(acc[i][j], q);
            }
        }
    }
}
