/* elementwise: c = f(a, b) over a rows x cols window, for one op and one way of
 * reading b chosen at build time: copy, fill, the binary and unary ops, axpby,
 * scale. OpenCL C 1.2.
 *
 * Build options (src/kernels/elementwise.h lists them; src/kernels/elementwise.c picks them
 * per device and makes the op's; REAL, VW and the vector macros come from the
 * prelude, cl/common.cl):
 *   VW     vector width (1, 2, 4, 8, 16): explicit vectors, since POCL's implicit
 *          vectorisation of the scalar form was measured 1.7x slower
 *   ITEMS  vectors per work-item along a row
 *   WG     work-group size (the launch's local size has WG work-items in all)
 *   EW_ALL 1: every op the library launches in one program, a kernel each named
 *          ew_<op>_<b> (ew_0_0: add with b read as rows); 0: one op, the kernel
 *          `elementwise`, chosen by
 *   EW_OP  the op (EW_* below)
 *   EW_B   how b is read: EW_B_ROW a row of vectors (ldb = 0: one row applied to
 *          every row), EW_B_ONE one value per row (b[b_off + r * ldb]; ldb = 0: one
 *          scalar), EW_B_NONE not at all
 *   CLRT_STORE 4 (float16) or 5 (bfloat16), the clrt_dtype of 16-bit storage:
 *          every operand is that dtype, REAL is float and does the arithmetic
 *          (the loads and stores below); absent or 0, the operands are REAL
 * With REAL = int (int32 buffers) only copy and fill are built.
 *
 * Why the op is a build option and not an argument: measured on POCL at 1e7 floats
 * (AVX2, the fastest of 61 interleaved runs), a kernel choosing the op (and whether
 * it reads a and b) at run time took 8-15% longer than the add kernel it replaced
 * on c = a + b, and a kernel built for add alone took the same time as that kernel;
 * exp and tanh were 5-10% faster built alone. The price, with EW_ALL 0, is a
 * program per op used, each its own build. On a driver that compiles a program's
 * kernels one by one at their first launch (POCL: the program's build is the
 * front end, clang over opencl-c.h, about 0.1 s cold and 25 ms from POCL's cache
 * whatever the source), EW_ALL 1 makes that one build for every op, each kernel
 * still built alone (src/kernels/elementwise.c says where).
 *
 * Operands: element (r, j) of x is x[x_off + r * ldx + j]. A contiguous operation
 * runs as one row of rows*cols elements (the flat path: local size WG x 1); a view
 * or a broadcast runs row by row (dimension 1 over rows, local size chosen by the
 * host, k_elementwise.c). Measured alike: the row index costs nothing on one row.
 *
 * Mapping in a row: group g covers the lx*ITEMS vectors starting at g*lx*ITEMS (lx
 * its width); its work-item l takes vectors l, l+lx, l+2*lx, ..., so at every step
 * consecutive work-items touch consecutive vectors (coalesced on GPUs) and each
 * group streams one contiguous block (good for CPU prefetchers). On POCL (1e7
 * floats) this ran at the speed of a 2-thread host loop; grid-stride reached only
 * ~55% of it, and ITEMS > 1 gained nothing there. The last cols % VW elements of
 * a row are done one by one by the work-item after the last whole vector.
 *
 * In place (c the same window as a or b): every element is read before it is
 * written, by the same work-item; no restrict is used.
 */

#ifndef ITEMS
#define ITEMS 1
#endif
#ifndef WG
#define WG 64
#endif

/* The op codes: the same numbers as clrt__ew_op in src/kernels/elementwise.h. */
#define EW_ADD 0
#define EW_SUB 1
#define EW_MUL 2
#define EW_DIV 3
#define EW_MIN 4
#define EW_MAX 5
#define EW_NEG 6
#define EW_ABS 7
#define EW_EXP 8
#define EW_LOG 9
#define EW_SQRT 10
#define EW_RELU 11
#define EW_TANH 12
#define EW_SIGMOID 13
#define EW_AXPBY 14
#define EW_SCALE 15
#define EW_COPY 16
#define EW_FILL 17
#define EW_B_ROW 0
#define EW_B_ONE 1
#define EW_B_NONE 2

#ifndef EW_ALL
#define EW_ALL 0
#endif
#ifndef EW_OP
#define EW_OP EW_ADD
#endif
#ifndef EW_B
#define EW_B EW_B_ROW
#endif
#if !EW_ALL && CLRT_DTYPE == 3 && EW_OP != EW_COPY && EW_OP != EW_FILL
#error "int32 has copy and fill only"
#endif

#if CLRT_DTYPE == 2 && (EW_ALL || EW_OP == EW_SIGMOID)
/* The fp64 sigmoid with its exponential written out: measured on POCL 3.1
 * (AVX-512, 1e7 doubles, a bare kernel), 1 / (1 + exp(-x)) with the built-in
 * exp took 5.3 ms and this 4.5 ms (4.56 ms is clrt's copy-bound floor: relu), the
 * built-in's range and special-case handling being most of the difference.
 * e = e^-|x| in (0, 1] never overflows; sigmoid(x) = 1 / (1 + e) for x >= 0,
 * e / (1 + e) below, so results down to the smallest subnormal are right.
 * e^t: t = n ln2 + r with n = round(t / ln2) (adding 1.5 * 2^52 rounds to an
 * integer, whose low bits are then n) and r by Cody-Waite (n * LN2_HI exact);
 * e^r on |r| <= ln2/2 by a degree-11 polynomial, the Chebyshev interpolant
 * computed in 60 digits (relative error 1.6e-17 with these doubles); 2^n as
 * 2^(n + 54) 2^-54, the first normal for n down to -1076 (t clamped at -746,
 * where e^t rounds to 0), the product rounded once into the subnormals. (Two
 * variable factors 2^h 2^(n-h) took 5% longer; degree 10 was 5% faster at
 * 3 units of rounding instead of 2: not taken.) A comparison clamp keeps NaN,
 * which then propagates.
 * Accuracy against a long-double reference: within 2 units of rounding. */
#define EW_SIGMOID64_DEFINE(T, L)                                                                                  \
    T CLRT_CAT(ew_sigmoid64_, T)(const T x)                                                                       \
    {                                                                                                              \
        const T round = 0x1.8p52;                                                                                  \
        T t = -fabs(x);                                                                                            \
        t = t < -746.0 ? (T)(-746.0) : t;                                                                          \
        const T big = t * 0x1.71547652b82fep+0 + round;                                                            \
        const T n = big - round;                                                                                   \
        const T r = (t - n * 0x1.62e42feep-1) - n * 0x1.a39ef35793c76p-33;                                         \
        T p = 0x1.af632a0f7e2cep-26;                                                                               \
        p = p * r + 0x1.28b4101c77212p-22;                                                                         \
        p = p * r + 0x1.71ddf56d8deb5p-19;                                                                         \
        p = p * r + 0x1.a01991a10d9aep-16;                                                                         \
        p = p * r + 0x1.a01a01b1461c5p-13;                                                                         \
        p = p * r + 0x1.6c16c1880029fp-10;                                                                         \
        p = p * r + 0x1.111111110f21ep-7;                                                                          \
        p = p * r + 0x1.555555554f0bap-5;                                                                          \
        p = p * r + 0x1.555555555555ap-3;                                                                          \
        p = p * r + 0x1.0000000000011p-1;                                                                          \
        p = p * r + 1.0;                                                                                           \
        p = p * r + 1.0;                                                                                           \
        /* big's bits are those of round plus n: 2^(n + 54), normal, then 2^-54 (unsigned: NaN's bits must \
         * not overflow a shift; its p is NaN already) */                                                          \
        const CLRT_CAT(u, L) scale = (CLRT_CAT(as_u, L)(big) - (0x4338000000000000UL - 1077)) << 52;               \
        const T e = p * CLRT_CAT(as_, T)(scale) * 0x1p-54;                                                         \
        return (x >= 0 ? (T)(1.0) : e) / (1.0 + e);                                                                \
    }
EW_SIGMOID64_DEFINE(double, long)
#if VW > 1
EW_SIGMOID64_DEFINE(REALV, CLRT_CAT(long, VW))
#endif
#endif

/* How operands are stored and moved: STORE_T the element in memory; EW_LOADV
 * and EW_STOREV the v-th vector at p (al: the window starts on a vector's
 * alignment, which only REAL storage uses), EW_LOADS and EW_STORES the i-th
 * element.
 *
 * 16-bit storage (CLRT_STORE) is read into float exactly and each result
 * rounded once, to nearest even, as it is stored: the same bits as the float32
 * operation between two conversions (clrt_convert, cl/convert.cl), in one pass
 * over memory instead of one per operand and conversion. float16 moves through
 * the core vload_half / vstore_half_rte (no cl_khr_fp16 needed), their aligned
 * forms (vloada_half) where the row starts on a vector's alignment; bfloat16
 * as 16-bit words, a float's top half: widened by a shift, narrowed by the
 * prelude's CLRT_BF16_DEFINE. STORE_SIZE: an element's bytes in memory. */
#if defined(CLRT_STORE) && CLRT_STORE == 4
#define STORE_T half
#define STORE_SIZE 2
#if VW == 1
#define EW_LOADV(al, v, p) ((void)(al), vload_half((v), (p)))
#define EW_STOREV(al, z, v, p) ((void)(al), vstore_half_rte((z), (v), (p)))
#else
#define EW_LOADV(al, v, p) ((al) ? CLRT_CAT(vloada_half, VW)((v), (p)) : CLRT_CAT(vload_half, VW)((v), (p)))
#define EW_STOREV(al, z, v, p)                                                                          \
    do {                                                                                                \
        if (al)                                                                                         \
            CLRT_CAT(CLRT_CAT(vstorea_half, VW), _rte)((z), (v), (p));                                  \
        else                                                                                            \
            CLRT_CAT(CLRT_CAT(vstore_half, VW), _rte)((z), (v), (p));                                   \
    } while (0)
#endif
#define EW_LOADS(i, p) vload_half((i), (p))
#define EW_STORES(z, i, p) vstore_half_rte((z), (i), (p))
#elif defined(CLRT_STORE) && CLRT_STORE == 5
#define STORE_T ushort
#define STORE_SIZE 2
/* the bfloat16 words of floats (the prelude's CLRT_BF16_DEFINE, on their bits) */
CLRT_BF16_DEFINE(ew_bf16_bits_s, uint, ushort)
#define ew_bf16_s(x) ew_bf16_bits_s(as_uint(x))
#if VW == 1
#define EW_LOADV(al, v, p) ((void)(al), EW_LOADS(v, p))
#define EW_STOREV(al, z, v, p) ((void)(al), EW_STORES(z, v, p))
#else
CLRT_BF16_DEFINE(ew_bf16_bits_v, CLRT_CAT(uint, VW), CLRT_CAT(ushort, VW))
#define ew_bf16_v(x) ew_bf16_bits_v(CLRT_CAT(as_uint, VW)(x))
/* aligned: one vector access (POCL moves vstoren's 16-bit words one by one) */
#define EW_WORDS(al, v, p) ((al) ? ((__global const CLRT_CAT(ushort, VW) *)(p))[v] : VLOAD((v), (p)))
#define EW_LOADV(al, v, p) CLRT_CAT(as_, REALV)(CLRT_CAT(convert_uint, VW)(EW_WORDS(al, v, p)) << 16)
#define EW_STOREV(al, z, v, p)                                                                          \
    do {                                                                                                \
        if (al)                                                                                         \
            ((__global CLRT_CAT(ushort, VW) *)(p))[v] = ew_bf16_v(z);                                   \
        else                                                                                            \
            VSTORE(ew_bf16_v(z), (v), (p));                                                             \
    } while (0)
#endif
#define EW_LOADS(i, p) as_float((uint)(p)[i] << 16)
#define EW_STORES(z, i, p) ((p)[i] = ew_bf16_s(z))
#else
#define STORE_T REAL
#define STORE_SIZE sizeof(REAL)
#define EW_LOADV(al, v, p) ((al) ? ((__global const REALV *)(p))[v] : VLOAD((v), (p)))
#define EW_STOREV(al, z, v, p)                                                                          \
    do {                                                                                                \
        if (al)                                                                                         \
            ((__global REALV *)(p))[v] = (z);                                                           \
        else                                                                                            \
            VSTORE((z), (v), (p));                                                                      \
    } while (0)
#define EW_LOADS(i, p) ((p)[i])
#define EW_STORES(z, i, p) ((p)[i] = (z))
#endif

/* The ops' expressions in x and y of type T (REALV or REAL): EW_EXPR_<op>. The
 * built-ins used are defined for both. min/max: NaN when either is; relu: NaN
 * stays NaN. */
#define EW_EXPR_0(T) (x + y)
#define EW_EXPR_1(T) (x - y)
#define EW_EXPR_2(T) (x * y)
#define EW_EXPR_3(T) (x / y)
#define EW_EXPR_4(T) (((x < y) | isnan(x)) ? x : y)
#define EW_EXPR_5(T) (((x > y) | isnan(x)) ? x : y)
#define EW_EXPR_6(T) (-x)
#define EW_EXPR_7(T) fabs(x)
#define EW_EXPR_8(T) exp(x)
#define EW_EXPR_9(T) log(x)
#define EW_EXPR_10(T) sqrt(x)
#define EW_EXPR_11(T) (((x > (T)(0)) | isnan(x)) ? x : (T)(0))
#define EW_EXPR_12(T) tanh(x)
#if CLRT_DTYPE == 2
#define EW_EXPR_13(T) CLRT_CAT(ew_sigmoid64_, T)(x)
#else
#define EW_EXPR_13(T) ((T)(1) / ((T)(1) + exp(-x)))
#endif
#define EW_EXPR_14(T) ((T)(alpha) * x + (T)(beta) * y)
#define EW_EXPR_15(T) ((T)(alpha) * x)
#define EW_EXPR_16(T) (x)
#define EW_EXPR_17(T) ((T)(alpha))

/* The op on x and y as a function per type (OpenCL C 1.2 has no overloading of
 * user functions): ew_<op>_v on vectors, ew_<op>_s on scalars. */
#define EW_DEFINE(OP, T, SUFFIX)                                                    \
    T CLRT_CAT(CLRT_CAT(ew_, OP), SUFFIX)(const T x, const T y, const REAL alpha, const REAL beta) \
    {                                                                               \
        (void)x;                                                                    \
        (void)y;                                                                    \
        (void)alpha;                                                                \
        (void)beta;                                                                 \
        return CLRT_CAT(EW_EXPR_, OP)(T);                                           \
    }

#define EW_FUNCS(OP) EW_DEFINE(OP, REALV, _v) EW_DEFINE(OP, REAL, _s)

/* The kernel NAME for op OP (its EW_FUNCS before it) reading b as B (the body is
 * the same for every op; the constants OP and B fold away what it does not need). */
#define EW_KERNEL(NAME, OP, B)                                                                                      \
    __kernel void NAME(const ulong rows, const ulong cols, __global STORE_T *c, const ulong c_off,              \
                       const ulong ldc, __global const STORE_T *a, const ulong a_off, const ulong lda,          \
                       __global const STORE_T *b, const ulong b_off, const ulong ldb, const REAL alpha,         \
                       const REAL beta)                                                                         \
    {                                                                                                           \
        const ulong r = get_global_id(1);                                                                       \
        if (r >= rows)                                                                                          \
            return;                                                                                             \
        const int reads_a = (OP) != EW_FILL;                                                                    \
        __global STORE_T *cr = c + c_off + r * ldc;                                                             \
        __global const STORE_T *ar = a + a_off + r * lda;                                                       \
        __global const STORE_T *br = b + b_off + r * ldb;                                                       \
        const REAL bs = (B) == EW_B_ONE ? EW_LOADS(0, br) : (REAL)(0);                                          \
        const ulong nv = cols / VW; /* whole vectors; the cols % VW rest is the tail */                         \
        const ulong lx = get_local_size(0);                                                                     \
        const ulong base = (ulong)get_group_id(0) * (lx * ITEMS) + get_local_id(0);                             \
        /* Buffers normally start on a large alignment, so vector-typed accesses (one wide \
         * load on every GPU) are legal where the row starts on one; vloadn covers the rest. */                 \
        const size_t addr = (size_t)cr | (reads_a ? (size_t)ar : 0) | ((B) == EW_B_ROW ? (size_t)br : 0);     \
        const int aligned = addr % (VW * STORE_SIZE) == 0;                                                      \
        for (uint j = 0; j < ITEMS; ++j) {                                                                      \
            const ulong v = base + (ulong)j * lx;                                                               \
            if (v < nv) {                                                                                       \
                REALV x = (REALV)(0), y = (REALV)(bs);                                                          \
                if (reads_a)                                                                                    \
                    x = EW_LOADV(aligned, v, ar);                                                               \
                if ((B) == EW_B_ROW)                                                                            \
                    y = EW_LOADV(aligned, v, br);                                                               \
                EW_STOREV(aligned, CLRT_CAT(CLRT_CAT(ew_, OP), _v)(x, y, alpha, beta), v, cr);                  \
            } else if (v == nv) {                                                                               \
                for (ulong i = nv * VW; i < cols; ++i)                                                          \
                    EW_STORES(CLRT_CAT(CLRT_CAT(ew_, OP), _s)(reads_a ? EW_LOADS(i, ar) : (REAL)(0),            \
                                                             (B) == EW_B_ROW ? EW_LOADS(i, br) : bs, alpha,    \
                                                             beta),                                             \
                              i, cr);                                                                           \
            }                                                                                                   \
        }                                                                                                       \
    }

#if !EW_ALL
EW_FUNCS(EW_OP)
EW_KERNEL(elementwise, EW_OP, EW_B)
#else
/* The ops as the library launches them (src/math/elementwise.c): the binary ops
 * with b as rows or one value per row, axpby with b as rows, the rest without b;
 * int32: copy and fill only. */
#if CLRT_DTYPE != 3
EW_FUNCS(0) EW_KERNEL(ew_0_0, 0, 0) EW_KERNEL(ew_0_1, 0, 1)
EW_FUNCS(1) EW_KERNEL(ew_1_0, 1, 0) EW_KERNEL(ew_1_1, 1, 1)
EW_FUNCS(2) EW_KERNEL(ew_2_0, 2, 0) EW_KERNEL(ew_2_1, 2, 1)
EW_FUNCS(3) EW_KERNEL(ew_3_0, 3, 0) EW_KERNEL(ew_3_1, 3, 1)
EW_FUNCS(4) EW_KERNEL(ew_4_0, 4, 0) EW_KERNEL(ew_4_1, 4, 1)
EW_FUNCS(5) EW_KERNEL(ew_5_0, 5, 0) EW_KERNEL(ew_5_1, 5, 1)
EW_FUNCS(6) EW_KERNEL(ew_6_2, 6, 2)
EW_FUNCS(7) EW_KERNEL(ew_7_2, 7, 2)
EW_FUNCS(8) EW_KERNEL(ew_8_2, 8, 2)
EW_FUNCS(9) EW_KERNEL(ew_9_2, 9, 2)
EW_FUNCS(10) EW_KERNEL(ew_10_2, 10, 2)
EW_FUNCS(11) EW_KERNEL(ew_11_2, 11, 2)
EW_FUNCS(12) EW_KERNEL(ew_12_2, 12, 2)
EW_FUNCS(13) EW_KERNEL(ew_13_2, 13, 2)
EW_FUNCS(14) EW_KERNEL(ew_14_0, 14, 0)
EW_FUNCS(15) EW_KERNEL(ew_15_2, 15, 2)
#endif
EW_FUNCS(16) EW_KERNEL(ew_16_2, 16, 2)
EW_FUNCS(17) EW_KERNEL(ew_17_2, 17, 2)
#endif
