/* clrt_convert: dst = src converted element by element between float32,
 * float64, float16 and bfloat16 (clrt_dtype values 1, 2, 4, 5), rounded to
 * nearest even, NaN and infinities kept, overflow to infinity, subnormals kept.
 * OpenCL C 1.2, no cl_khr_fp16: float16 is read and written by the core
 * vload_half / vstore_half_rte, bfloat16 as 16-bit words by integer arithmetic.
 *
 * Build options (src/kernels/convert.c): SRC_DT, DST_DT the dtypes (equal: the
 * bits moved as they are, NaN payloads too); CLRT_FP64 when either is float64.
 * Launch: 2-D, dimension 0 over columns, 1 over rows; both matrices at their
 * offsets with their row strides (views). */

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

/* float (its bits b) to bfloat16, rounded to nearest even by integer arithmetic:
 * the carry of the discarded half-word's rounding runs into the exponent, so the
 * largest finite values round to infinity; NaN stays a (quiet) NaN */
ushort bf16_of_bits(const uint b)
{
    if ((b & 0x7fffffffu) > 0x7f800000u)
        return (ushort)((b >> 16) | 0x0040u);
    return (ushort)((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}

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

__kernel void convert(const ulong rows, const ulong cols, __global const SRC_WORD *src, const ulong s_off,
                      const ulong s_ld, __global DST_WORD *dst, const ulong d_off, const ulong d_ld)
{
    const size_t j = get_global_id(0), i = get_global_id(1);
    if (i >= rows || j >= cols)
        return;
    src += s_off + i * s_ld + j;
    dst += d_off + i * d_ld + j;
#if SRC_DT == DST_DT
    *dst = *src;
#elif SRC_DT == 1 && DST_DT == 5
    *dst = bf16_of_bits(*src); /* from the bits: a subnormal float stays one */
#else
    store(load(src), dst);
#endif
}
