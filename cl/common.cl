/* clrt's kernel prelude: prepended to every other file of cl/ when it is
 * embedded in the library (cmake/EmbedCL.cmake), so that the element type,
 * vector types and loads mean the same in every kernel. OpenCL C 1.2.
 *
 * Build options every built-in kernel gets (src/kernels/params.c):
 *   REAL        float, double or int: the element type
 *   CLRT_DTYPE  1 float, 2 double, 3 int (clrt_dtype)
 *   CLRT_FP64   1 with double: enables cl_khr_fp64
 *   VW          vector width (1, 2, 4, 8, 16) where the kernel has one
 *   SG          Intel, where the kernel has it (REQD_SG below): the SIMD width
 *               IGC must compile it at; absent or 0, IGC's own choice
 * The defaults below only serve a kernel compiled on its own (a neutral
 * scalar float build); clrt always passes every value. */

#if defined(CLRT_FP64) && CLRT_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifndef REAL
#define REAL float
#endif
#ifndef VW
#define VW 1
#endif

/* REQD_SG on a kernel: with SG, Intel's compiler builds it at SIMD SG
 * (intel_reqd_sub_group_size; docs/gpu-isa.md: at IGC's own choice of SIMD32
 * on a Data Center GPU Max some kernels spill) */
#if defined(SG) && SG > 0
#define REQD_SG __attribute__((intel_reqd_sub_group_size(SG)))
#else
#define REQD_SG
#endif

#define CLRT_CAT_(a, b) a##b
#define CLRT_CAT(a, b) CLRT_CAT_(a, b)

/* REALV: VW elements as one value. VLOAD(i, p) / VSTORE(v, i, p): the i-th
 * vector at p, needing only element alignment (vloadn / vstoren). */
#if VW == 1
#define REALV REAL
#define VLOAD(i, p) ((p)[i])
#define VSTORE(v, i, p) ((p)[i] = (v))
#else
#define REALV CLRT_CAT(REAL, VW)
#define VLOAD(i, p) CLRT_CAT(vload, VW)((i), (p))
#define VSTORE(v, i, p) CLRT_CAT(vstore, VW)((v), (i), (p))
#endif

/* Lane q (a constant once loops are unrolled) of a private vector. */
#define LANE(v, q) (((REAL *)&(v))[q])

/* dst[0 .. n) = src[0 .. n): eight elements at a time as vectors, then one by
 * one. A run copied element by element inside a work-item is vectorised by
 * POCL across work-items, each element becoming a gather and a scatter
 * (im2col, conv_cols: conv2's backward pass at batch 256 about 1.7 ms slower
 * that way, 2 cores of an AVX-512 CPU). */
void clrt_copy_run(__global const REAL *src, __global REAL *dst, const ulong n)
{
    ulong i = 0;
    for (; i + 8 <= n; i += 8)
        vstore8(vload8(0, src + i), 0, dst + i);
    for (; i < n; ++i)
        dst[i] = src[i];
}

/* ---- end of the prelude */
