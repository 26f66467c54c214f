/* clrt_convert: dst = src converted element by element between float32,
 * float64, float16 and bfloat16 (clrt_dtype values 1, 2, 4, 5), rounded to
 * nearest even, NaN and infinities kept, overflow to infinity, subnormals kept.
 * OpenCL C 1.2, no cl_khr_fp16: float16 is read and written by the core
 * vload_half / vstore_half_rte, bfloat16 as 16-bit words by integer arithmetic.
 *
 * Build options (src/kernels/convert.c): SRC_DT, DST_DT the dtypes (equal: the
 * bits moved as they are, NaN payloads too); CLRT_FP64 when either is float64.
 * Launch: 2-D, dimension 0 over runs of CV columns, 1 over rows; both matrices
 * at their offsets with their row strides (views). A work-item moves CV
 * consecutive elements of a row as one vector where it can: measured on POCL
 * (2 cores, AVX-512), a float32 to float16 conversion of 2048 x 2048 took
 * 10 ms one element per work-item (each vstore_half_rte a call of its own) and
 * about a float32 copy's 2 ms as vectors. */

#define CV 8

#ifndef SRC_DT
#define SRC_DT 1
#endif
#ifndef DST_DT
#define DST_DT 1
#endif

/* each dtype's storage word */
#define WORD_1 uint
#define WORD_2 ulong
#define WORD_4 ushort
#define WORD_5 ushort
#define SRC_WORD CLRT_CAT(WORD_, SRC_DT)
#define DST_WORD CLRT_CAT(WORD_, DST_DT)

#if SRC_DT == 2 || DST_DT == 2
#define WIDE double /* holds every value of both exactly */
#else
#define WIDE float
#endif

/* the element at p as WIDE, exactly */
WIDE load(const __global SRC_WORD *p)
{
#if SRC_DT == 1
    return (WIDE)as_float(*p);
#elif SRC_DT == 2
    return as_double(*p);
#elif SRC_DT == 4
    return (WIDE)vload_half(0, (const __global half *)p);
#else
    return (WIDE)as_float((uint)*p << 16);
#endif
}

/* float (its bits) to bfloat16, rounded to nearest even (the prelude's
 * CLRT_BF16_DEFINE), one and CV at a time */
CLRT_BF16_DEFINE(bf16_of_bits, uint, ushort)
CLRT_BF16_DEFINE(bf16_of_bits_v, CLRT_CAT(uint, CV), CLRT_CAT(ushort, CV))

void store(const WIDE v, __global DST_WORD *p)
{
#if DST_DT == 1
    *p = as_uint(convert_float_rte(v));
#elif DST_DT == 2
    *p = as_ulong((double)v);
#elif DST_DT == 4
    vstore_half_rte(v, 0, (__global half *)p);
#elif SRC_DT == 2
    /* double to bfloat16 through float rounded to odd (toward zero, the last bit
     * set when inexact): float keeps 16 bits more than bfloat16, so rounding that
     * to nearest even gives the double's own rounding (no double rounding) */
    const float f = convert_float_rtz(v);
    uint b = as_uint(f);
    if (!isnan(v) && (double)f != v)
        b |= 1u;
    *p = bf16_of_bits(b);
#else
    *p = bf16_of_bits(as_uint(v));
#endif
}

/* one element */
void move1(const __global SRC_WORD *src, __global DST_WORD *dst)
{
#if SRC_DT == DST_DT
    *dst = *src;
#elif SRC_DT == 1 && DST_DT == 5
    *dst = bf16_of_bits(*src); /* from the bits: a subnormal float stays one */
#else
    store(load(src), dst);
#endif
}

#define WIDEV CLRT_CAT(WIDE, CV)

/* CV elements as one vector: load_v exactly as WIDEV, store_v rounded as store
 * does (float64 to bfloat16, whose rounding to odd is scalar, moves one by one) */
#if SRC_DT != DST_DT && !(SRC_DT == 2 && DST_DT == 5)
WIDEV load_v(const __global SRC_WORD *p)
{
#if SRC_DT == 1
    return CLRT_CAT(convert_, WIDEV)(CLRT_CAT(as_float, CV)(CLRT_CAT(vload, CV)(0, p)));
#elif SRC_DT == 2
    return CLRT_CAT(as_double, CV)(CLRT_CAT(vload, CV)(0, p));
#elif SRC_DT == 4
    return CLRT_CAT(convert_, WIDEV)(CLRT_CAT(vload_half, CV)(0, (const __global half *)p));
#else
    return CLRT_CAT(convert_, WIDEV)(CLRT_CAT(as_float, CV)(CLRT_CAT(convert_uint, CV)(CLRT_CAT(vload, CV)(0, p)) << 16));
#endif
}

void store_v(const WIDEV v, __global DST_WORD *p)
{
#if DST_DT == 1
    CLRT_CAT(vstore, CV)(CLRT_CAT(as_uint, CV)(CLRT_CAT(CLRT_CAT(convert_float, CV), _rte)(v)), 0, p);
#elif DST_DT == 2
    CLRT_CAT(vstore, CV)(CLRT_CAT(as_ulong, CV)(CLRT_CAT(convert_double, CV)(v)), 0, p);
#elif DST_DT == 4
    CLRT_CAT(CLRT_CAT(vstore_half, CV), _rte)(v, 0, (__global half *)p);
#else
    CLRT_CAT(vstore, CV)(bf16_of_bits_v(CLRT_CAT(as_uint, CV)(v)), 0, p);
#endif
}
#endif

__kernel void convert(const ulong rows, const ulong cols, __global const SRC_WORD *src, const ulong s_off,
                      const ulong s_ld, __global DST_WORD *dst, const ulong d_off, const ulong d_ld)
{
    const size_t j = get_global_id(0) * CV, i = get_global_id(1);
    if (i >= rows || j >= cols)
        return;
    src += s_off + i * s_ld + j;
    dst += d_off + i * d_ld + j;
    if (j + CV <= cols) {
#if SRC_DT == DST_DT
        CLRT_CAT(vstore, CV)(CLRT_CAT(vload, CV)(0, src), 0, dst);
        return;
#elif SRC_DT == 1 && DST_DT == 5
        CLRT_CAT(vstore, CV)(bf16_of_bits_v(CLRT_CAT(vload, CV)(0, src)), 0, dst);
        return;
#elif !(SRC_DT == 2 && DST_DT == 5)
        store_v(load_v(src), dst);
        return;
#endif
    }
    const size_t n = cols - j < CV ? cols - j : CV;
    for (size_t t = 0; t < n; ++t)
        move1(src + t, dst + t);
}
