/* elementwise: c = f(a, b) over a rows x cols window, one op chosen by an
 * argument: copy, fill, the binary and unary ops, axpby, scale. OpenCL C 1.2.
 *
 * Build options (src/k_elementwise.h lists them; src/k_elementwise.c picks them
 * per device; REAL, VW and the vector macros come from the prelude, cl/common.cl):
 *   VW     vector width (1, 2, 4, 8, 16): explicit vectors, since POCL's implicit
 *          vectorisation of the scalar form was measured 1.7x slower
 *   ITEMS  vectors per work-item along a row
 *   WG     work-group size (the launch's local size has WG work-items in all)
 * With REAL = int (int32 buffers) only copy and fill exist.
 *
 * Why the op is an argument and not a -D option: measured on POCL at 1e7 floats
 * (medians of 41 interleaved runs, AVX2), the op as a uniform argument ran as fast as
 * a kernel built for that op alone on add and mul (3.2 ms both, 1.2-1.4x a 2-thread
 * host loop) and sigmoid, 5% slower on tanh and 10% on exp (still 3.2x and 8x the
 * host loop), while a program per op costs each op's first use a ~240 ms build
 * against ~300 ms once for all of them (and a binary-cache entry per op).
 *
 * Operands: element (r, j) of x is x[x_off + r * ldx + j]. A contiguous operation
 * runs as one row of rows*cols elements (the flat path: local size WG x 1); a view
 * or a broadcast runs row by row (dimension 1 over rows, local size chosen by the
 * host, k_elementwise.c). b is read per bmode: 0 not at all, 1 as a row of
 * vectors (ldb = 0: one row applied to every row), 2 as one value per row
 * (b[b_off + r * ldb], ldb = 0: one scalar).
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

/* The op codes: the same numbers as clrt__ew_op in src/k_elementwise.h. */
#define EW_COPY 0
#define EW_FILL 1
#define EW_ADD 2
#define EW_SUB 3
#define EW_MUL 4
#define EW_DIV 5
#define EW_MIN 6
#define EW_MAX 7
#define EW_NEG 8
#define EW_ABS 9
#define EW_EXP 10
#define EW_LOG 11
#define EW_SQRT 12
#define EW_RELU 13
#define EW_TANH 14
#define EW_SIGMOID 15
#define EW_AXPBY 16
#define EW_SCALE 17

/* One op on x and y of type T (REALV or REAL): a function per type, since
 * OpenCL C 1.2 has no overloading of user functions. The built-ins used are
 * defined for both. min/max: NaN when either is; relu: NaN stays NaN. */
#if CLRT_DTYPE == 3
#define EW_DEFINE(name, T)                                                             \
    T name(const int op, const T x, const T y, const REAL alpha, const REAL beta) \
    {                                                                                  \
        (void)y;                                                                       \
        (void)beta;                                                                    \
        return op == EW_FILL ? (T)(alpha) : x;                                         \
    }
#else
#define EW_DEFINE(name, T)                                                             \
    T name(const int op, const T x, const T y, const REAL alpha, const REAL beta) \
    {                                                                                  \
        switch (op) {                                                                  \
        case EW_FILL: return (T)(alpha);                                               \
        case EW_ADD: return x + y;                                                     \
        case EW_SUB: return x - y;                                                     \
        case EW_MUL: return x * y;                                                     \
        case EW_DIV: return x / y;                                                     \
        case EW_MIN: return ((x < y) | isnan(x)) ? x : y;                              \
        case EW_MAX: return ((x > y) | isnan(x)) ? x : y;                              \
        case EW_NEG: return -x;                                                        \
        case EW_ABS: return fabs(x);                                                   \
        case EW_EXP: return exp(x);                                                    \
        case EW_LOG: return log(x);                                                    \
        case EW_SQRT: return sqrt(x);                                                  \
        case EW_RELU: return ((x > (T)(0)) | isnan(x)) ? x : (T)(0);                   \
        case EW_TANH: return tanh(x);                                                  \
        case EW_SIGMOID: return (T)(1) / ((T)(1) + exp(-x));                           \
        case EW_AXPBY: return (T)(alpha) * x + (T)(beta) * y;                          \
        case EW_SCALE: return (T)(alpha) * x;                                          \
        }                                                                              \
        return x; /* EW_COPY */                                                        \
    }
#endif
EW_DEFINE(ew_vector, REALV)
EW_DEFINE(ew_scalar, REAL)

__kernel void elementwise(const int op, const ulong rows, const ulong cols, __global REAL *c, const ulong c_off,
                          const ulong ldc, __global const REAL *a, const ulong a_off, const ulong lda,
                          __global const REAL *b, const ulong b_off, const ulong ldb, const int bmode,
                          const REAL alpha, const REAL beta)
{
    const ulong r = get_global_id(1);
    if (r >= rows)
        return;
    __global REAL *cr = c + c_off + r * ldc;
    __global const REAL *ar = a + a_off + r * lda;
    __global const REAL *br = b + b_off + r * ldb;
    const int use_a = op != EW_FILL;
    const REAL bs = bmode == 2 ? *br : (REAL)(0);
    const ulong nv = cols / VW; /* whole vectors; the cols % VW rest is the tail */
    const ulong lx = get_local_size(0);
    const ulong base = (ulong)get_group_id(0) * (lx * ITEMS) + get_local_id(0);
    /* Buffers normally start on a large alignment, so vector-typed accesses (one wide
     * load on every GPU) are legal where the row starts on one; vloadn covers the rest. */
    const size_t addr = (size_t)cr | (use_a ? (size_t)ar : 0) | (bmode == 1 ? (size_t)br : 0);
    const int aligned = addr % (VW * sizeof(REAL)) == 0;
    for (uint j = 0; j < ITEMS; ++j) {
        const ulong v = base + (ulong)j * lx;
        if (v < nv) {
            REALV x = (REALV)(0), y = (REALV)(bs);
            if (use_a)
                x = aligned ? ((__global const REALV *)ar)[v] : VLOAD(v, ar);
            if (bmode == 1)
                y = aligned ? ((__global const REALV *)br)[v] : VLOAD(v, br);
            const REALV z = ew_vector(op, x, y, alpha, beta);
            if (aligned)
                ((__global REALV *)cr)[v] = z;
            else
                VSTORE(z, v, cr);
        } else if (v == nv) {
            for (ulong i = nv * VW; i < cols; ++i)
                cr[i] = ew_scalar(op, use_a ? ar[i] : (REAL)(0), bmode == 1 ? br[i] : bs, alpha, beta);
        }
    }
}
