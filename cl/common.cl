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

/* The epilogue of a GEMM's store (clrt_gemm_ex, clrt_gemm_strided_batched):
 * epi = act << 2 | bias, bias 0 none, 1 one value per column j (a 1 x N row,
 * bias[j]), 2 one value per row i (an M x 1 column, bias[i * bias_ld]); act a
 * clrt_activation (1 relu, 2 gelu's tanh form, 3 sigmoid, 4 tanh): clrt_bias and
 * clrt_act below. */
#define CLRT_EPI_BIAS(epi) ((epi) & 3u)
#define CLRT_EPI_ACT(epi) ((epi) >> 2)

#if !defined(CLRT_DTYPE) || CLRT_DTYPE != 3
/* The epilogue's two steps for one element or VW along a row: clrt_act applies
 * the activation (CLRT_EPI_ACT: 0 none), clrt_bias adds the bias of C's element
 * (i, j) (mode CLRT_EPI_BIAS, nonzero: 1 bias[j], 2 bias[i * ld]). The stores add
 * the bias, store, and apply the activation to what they stored: Oclgrind 21.10
 * computed the two together wrong (the bias lost, or the last column of C given
 * another value), inlined as a macro and as one function alike, where POCL and
 * rusticl got them right. The activations are compiled only into the products
 * built for them (MM_ACT: their tanh and exp, inlined at every store, made each
 * matmul program about a quarter slower to build on POCL). */
REAL clrt_bias(const REAL v, const uint mode, const __global REAL *bias, const size_t i, const size_t j,
               const uint ld)
{
    return v + (mode == 1u ? bias[j] : bias[i * ld]);
}
REALV clrt_bias_v(const REALV v, const uint mode, const __global REAL *bias, const size_t i, const size_t j,
                  const uint ld)
{
    return v + (mode == 1u ? VLOAD(0, bias + j) : (REALV)(bias[i * ld]));
}

#if defined(MM_ACT) && MM_ACT /* a product built for activations (src/kernels/matmul.c) */
REAL clrt_act(const REAL v, const uint act)
{
    switch (act) {
    case 1u:
        return v < (REAL)(0) ? (REAL)(0) : v; /* NaN stays NaN */
    case 2u:
        return (REAL)(0.5) * v * ((REAL)(1) + tanh((REAL)(0.7978845608028654) * (v + (REAL)(0.044715) * v * v * v)));
    case 3u:
        return (REAL)(1) / ((REAL)(1) + exp(-v));
    case 4u:
        return tanh(v);
    default:
        return v;
    }
}
REALV clrt_act_v(const REALV v, const uint act)
{
    switch (act) {
    case 1u:
        return v < (REALV)(0) ? (REALV)(0) : v;
    case 2u:
        return (REALV)(0.5) * v *
               ((REALV)(1) + tanh((REALV)(0.7978845608028654) * (v + (REALV)(0.044715) * v * v * v)));
    case 3u:
        return (REALV)(1) / ((REALV)(1) + exp(-v));
    case 4u:
        return tanh(v);
    default:
        return v;
    }
}
#endif
#endif

/* CLRT_BF16_DEFINE(NAME, U, W): W NAME(U b), the bfloat16 words of the float
 * (or floats) whose bits are b (U uint or uintN, W ushort or ushortN), rounded
 * to nearest even by integer arithmetic: the rounding bias 0x7fff plus the
 * kept half's last bit, its carry running into the exponent (so the largest
 * finite values round to infinity); NaN stays a (quiet) NaN. From the bits, so
 * that a subnormal float is never flushed on the way. select's mask is a
 * comparison: 1 for a scalar, -1 per lane of a vector, nonzero with the top
 * bit set in both. Defined where a kernel needs it (cl/convert.cl,
 * cl/elementwise.cl). */
#define CLRT_BF16_DEFINE(NAME, U, W)                                                                    \
    W NAME(const U b)                                                                                   \
    {                                                                                                   \
        const U rounded = (b + 0x7fffu + ((b >> 16) & 1u)) >> 16;                                       \
        const U nan = (b >> 16) | 0x40u;                                                                \
        return CLRT_CAT(convert_, W)(select(rounded, nan, CLRT_CAT(as_, U)((b & 0x7fffffffu) > 0x7f800000u))); \
    }

/* ---- end of the prelude */
