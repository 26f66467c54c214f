/* matmul: C(MxN) = A(MxK) * B(KxN), all dense row-major.
 * draft 1 (lab) */

#if defined(CLRT_FP64) && CLRT_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifndef REAL
#define REAL float
#endif
#ifndef USE_LOCAL
#define USE_LOCAL 0
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 32
#endif
#ifndef TK
#define TK 256
#endif
#ifndef WGX
#define WGX 1
#endif
#ifndef WGY
#define WGY 16
#endif
#ifndef VW
#define VW 16
#endif

#define CLRT_CAT_(a, b) a##b
#define CLRT_CAT(a, b) CLRT_CAT_(a, b)

#if VW == 1
#define REALV REAL
#define VLOAD(p) (*(p))
#define VSTORE(v, p) (*(p) = (v))
#else
#define REALV CLRT_CAT(REAL, VW)
#define VLOAD(p) CLRT_CAT(vload, VW)(0, (p))
#define VSTORE(v, p) CLRT_CAT(vstore, VW)((v), 0, (p))
#endif

#define NV (TN / VW)

#if USE_LOCAL == 0

__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1)))
void matmul(const uint M, const uint N, const uint K,
            __global const REAL *A, __global const REAL *B, __global REAL *C)
{
    const size_t col0 = get_global_id(0) * (size_t)TN;
    const size_t row0 = get_global_id(1) * (size_t)TM;
    const int active = row0 < M && col0 < N;
    const int full = M >= TM && N >= TN;
    /* full tiles: the last tile is shifted back so that it lies inside */
    const size_t r = full ? min(row0, (size_t)(M - TM)) : row0;
    const size_t c = full ? min(col0, (size_t)(N - TN)) : col0;

    REALV acc[TM][NV];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < NV; ++j)
            acc[i][j] = (REALV)(0);

    const __global REAL *Ar = A + r * K;
    for (uint k0 = 0; k0 < K; k0 += TK) {
        const uint kend = (K - k0 > TK) ? k0 + TK : K;
        if (active) {
            if (full) {
                const __global REAL *Bp = B + (size_t)k0 * N + c;
                for (uint k = k0; k < kend; ++k, Bp += N) {
                    REALV b[NV];
#pragma unroll
                    for (int j = 0; j < NV; ++j)
                        b[j] = VLOAD(Bp + j * VW);
#pragma unroll
                    for (int i = 0; i < TM; ++i) {
                        const REAL a = Ar[(size_t)i * K + k];
#pragma unroll
                        for (int j = 0; j < NV; ++j)
                            acc[i][j] = fma((REALV)(a), b[j], acc[i][j]);
                    }
                }
            } else {
                for (uint k = k0; k < kend; ++k) {
                    const __global REAL *Bk = B + (size_t)k * N;
                    REALV b[NV];
#pragma unroll
                    for (int j = 0; j < NV; ++j) {
                        REAL *bs = (REAL *)&b[j];
#pragma unroll
                        for (int q = 0; q < VW; ++q) {
                            size_t cc = c + j * VW + q;
                            bs[q] = Bk[cc < N ? cc : N - 1];
                        }
                    }
#pragma unroll
                    for (int i = 0; i < TM; ++i) {
                        size_t rr = r + i;
                        const REAL a = A[(rr < M ? rr : M - 1) * K + k];
#pragma unroll
                        for (int j = 0; j < NV; ++j)
                            acc[i][j] = fma((REALV)(a), b[j], acc[i][j]);
                    }
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (!active)
        return;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const size_t rr = r + i;
        if (rr < row0 || rr >= M)
            continue;
        __global REAL *Cr = C + rr * N;
#pragma unroll
        for (int j = 0; j < NV; ++j) {
            const size_t cj = c + j * VW;
            if (cj >= col0 && cj + VW <= N) {
                VSTORE(acc[i][j], Cr + cj);
            } else {
                REAL *as = (REAL *)&acc[i][j];
#pragma unroll
                for (int q = 0; q < VW; ++q)
                    if (cj + q >= col0 && cj + q < N)
                        Cr[cj + q] = as[q];
            }
        }
    }
}

#endif
