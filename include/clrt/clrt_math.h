/*
 * clrt — the math family: BLAS-style GEMM, elementwise operations with
 * broadcasting, reductions, transposes; and views, a window of a buffer that
 * every operation accepts.
 *
 * Part of the clrt API; <clrt/clrt.h> includes it, so include that.
 */
#ifndef CLRT_CLRT_MATH_H
#define CLRT_CLRT_MATH_H

#include "clrt/clrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup math Math family
 *  Same conventions as clrt_add() and clrt_matmul(): destination first;
 *  enqueued on q, not waited for; a NULL, foreign or destroyed handle, or
 *  operands of another context than q's, is CLRT_EINVAL; an unknown op, trans
 *  or axis value is CLRT_EINVAL; operands of different dtypes are
 *  CLRT_ESHAPE. Every operation takes views (clrt_buffer_view()) as well as
 *  whole buffers, at any offset. Arguments are checked before the device's
 *  state (CLRT_EDEVICE on a failed context only once they are good).
 *
 *  dtypes: float32 and float64 everywhere; CLRT_INT32 only where a function
 *  says so (copy, fill, transpose, and as argmax's output), else
 *  CLRT_EUNSUPPORTED.
 *
 *  In place: clrt_binary, clrt_unary, clrt_axpby, clrt_scale and clrt_copy may
 *  write their output over an input when the two are the same buffer or the
 *  same window (c == a, or c == b for clrt_binary); an output that overlaps an
 *  input only in part is CLRT_EINVAL. clrt_gemm and clrt_transpose refuse any
 *  overlap of their output with an input (CLRT_EINVAL).
 *
 *  Floating-point: NaN and infinity propagate as IEEE arithmetic makes them
 *  (a NaN or infinite alpha too, as BLAS does; x / 0 is an infinity, 0 / 0
 *  NaN), except where a function says otherwise (gemm with beta == 0 never
 *  reads c, axpby with beta == 0 never reads y). Scalars (alpha, beta, a fill
 *  value) are rounded to the dtype.
 *
 *  The elementwise functions (clrt_add, clrt_binary, clrt_unary, clrt_axpby,
 *  clrt_scale, clrt_fill, clrt_copy) are one launch each; operands whose
 *  elements are one run of memory (whole buffers, one-row views, views as wide
 *  as their parent) are walked as one long row, others row by row.
 *  @{ */

/** Make *out a rows x cols window of parent starting at (row, col), sharing
 *  its memory: the view's row stride is the parent's. Views of views are
 *  windows of the same memory. A view keeps the memory alive: the parent may
 *  be destroyed first. clrt_buffer_write() and clrt_buffer_read() of a view
 *  touch only its window (count = rows * cols, host data dense).
 *  @return CLRT_OK; CLRT_EINVAL for a NULL out, a NULL, foreign or destroyed
 *          parent, a zero size, or a window that does not lie inside the
 *          parent; CLRT_ENOMEM. */
CLRT_API int clrt_buffer_view(clrt_buffer **out, clrt_buffer *parent, size_t row, size_t col, size_t rows,
                              size_t cols);

/** Make *out a rows x cols matrix over the same memory as src (a reshape:
 *  no copy), element k of src in row order being element k of *out. src must
 *  be one run of memory: a whole buffer, a one-row view, or a view as wide as
 *  its own parent (a strided window is not: copy it with clrt_copy() into a
 *  new buffer first). Like a view it keeps the memory alive, writes through
 *  it change src, and clrt_buffer_view() of it takes windows of the new
 *  shape. Operations treat it and other windows of the same memory as
 *  overlapping when their spans of memory meet (in place needs the very same
 *  window and shape).
 *  @return CLRT_OK; CLRT_EINVAL for a NULL out, a NULL, foreign or destroyed
 *          src, a zero size, or a src that is not one run of memory;
 *          CLRT_ESHAPE when rows * cols differs from src's element count;
 *          CLRT_ENOMEM. */
CLRT_API int clrt_buffer_reshape(clrt_buffer **out, clrt_buffer *src, size_t rows, size_t cols);

/** Whether op(x) is x or its transpose. */
typedef enum { CLRT_NO_TRANS = 0, CLRT_TRANS = 1 } clrt_trans;

/** c = alpha * op(a) * op(b) + beta * c. op(a) is M x K, op(b) K x N, c M x N
 *  (else CLRT_ESHAPE). float32/float64 (int32: CLRT_EUNSUPPORTED); alpha and
 *  beta are rounded to the dtype. beta == 0: c's old contents are not read
 *  (NaN or infinity there does not propagate: the BLAS rule). c sharing any
 *  memory with a or b: CLRT_EINVAL. M, N or K above 2^32-1: CLRT_EUNSUPPORTED.
 *  clrt_matmul(q, c, a, b) is clrt_gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, b, 0, c).
 *  On CPU devices a large product may first copy op(b), a slice at a time,
 *  into a scratch buffer that q keeps (see clrt_matmul()). */
CLRT_API int clrt_gemm(clrt_queue *q, clrt_trans ta, clrt_trans tb, double alpha, const clrt_buffer *a,
                       const clrt_buffer *b, double beta, clrt_buffer *c);

/** Binary elementwise operations. */
typedef enum {
    CLRT_OP_ADD = 1, /**< a + b */
    CLRT_OP_SUB,     /**< a - b */
    CLRT_OP_MUL,     /**< a * b */
    CLRT_OP_DIV,     /**< a / b */
    CLRT_OP_MIN,     /**< the smaller; NaN if either is NaN */
    CLRT_OP_MAX      /**< the larger; NaN if either is NaN */
} clrt_binary_op;

/** c = a op b elementwise. c and a have one shape; b has that shape, or is
 *  1 x cols (one row, applied to every row: a bias), rows x 1 (one column,
 *  applied to every column) or 1 x 1 (a scalar); anything else CLRT_ESHAPE.
 *  float32/float64 (int32: CLRT_EUNSUPPORTED). In place: c may be a's
 *  window, or b's when b has c's shape; a c that shares only part of its
 *  memory with an input (a broadcast b that is a row or column of c, say) is
 *  CLRT_EINVAL, as is an op outside clrt_binary_op. add, sub and mul are
 *  rounded once; div as the device's division (fp32: within 2.5 ulp on
 *  OpenCL devices, correctly rounded on most). */
CLRT_API int clrt_binary(clrt_queue *q, clrt_binary_op op, clrt_buffer *c, const clrt_buffer *a,
                         const clrt_buffer *b);

/** Unary elementwise operations. */
typedef enum {
    CLRT_OP_NEG = 1, /**< -a */
    CLRT_OP_ABS,     /**< |a| */
    CLRT_OP_EXP,     /**< e^a */
    CLRT_OP_LOG,     /**< natural logarithm (NaN below 0, -inf at 0) */
    CLRT_OP_SQRT,    /**< square root (NaN below 0) */
    CLRT_OP_RELU,    /**< max(a, 0); NaN stays NaN */
    CLRT_OP_TANH,    /**< hyperbolic tangent */
    CLRT_OP_SIGMOID  /**< 1 / (1 + e^-a) (logistic) */
} clrt_unary_op;

/** c = f(a) elementwise, c and a of one shape (else CLRT_ESHAPE).
 *  float32/float64 (int32: CLRT_EUNSUPPORTED). c may be a's window (in
 *  place); a partial overlap, or an op outside clrt_unary_op, is CLRT_EINVAL.
 *  The results are the device's built-ins: exp and log within 3 ulp, tanh 5,
 *  fp32 sqrt 3 (fp64 correctly rounded), as OpenCL C requires; sigmoid is
 *  computed as 1 / (1 + exp(-a)) (0 where exp(-a) overflows). */
CLRT_API int clrt_unary(clrt_queue *q, clrt_unary_op op, clrt_buffer *c, const clrt_buffer *a);

/** y = alpha * x + beta * y, x and y of one shape (else CLRT_ESHAPE).
 *  float32/float64 (int32: CLRT_EUNSUPPORTED). beta == 0: y's old contents
 *  are not read (y = alpha * x; NaN or infinity there does not propagate: the
 *  BLAS rule, as in clrt_gemm), so y may be a new buffer. x may be y's
 *  window; a partial overlap is CLRT_EINVAL. */
CLRT_API int clrt_axpby(clrt_queue *q, double alpha, const clrt_buffer *x, double beta, clrt_buffer *y);

/** c = alpha * a, c and a of one shape (else CLRT_ESHAPE). float32/float64
 *  (int32: CLRT_EUNSUPPORTED). c may be a's window; a partial overlap is
 *  CLRT_EINVAL. */
CLRT_API int clrt_scale(clrt_queue *q, clrt_buffer *c, double alpha, const clrt_buffer *a);

/** Every element of c = value. float32/float64 (value rounded to the dtype),
 *  and int32, where value must be an integer from INT32_MIN to INT32_MAX
 *  (else CLRT_EINVAL). */
CLRT_API int clrt_fill(clrt_queue *q, clrt_buffer *c, double value);

/** dst = src, one shape and dtype (else CLRT_ESHAPE), any dtype (int32
 *  too), bit for bit. dst the same window as src: nothing to do; a partial
 *  overlap is CLRT_EINVAL. */
CLRT_API int clrt_copy(clrt_queue *q, clrt_buffer *dst, const clrt_buffer *src);

/** c (cols x rows) = a (rows x cols) transposed; any dtype, int32 too
 *  (elements are moved bit for bit: NaN payloads stay). c sharing any memory
 *  with a: CLRT_EINVAL; another shape or dtype: CLRT_ESHAPE. */
CLRT_API int clrt_transpose(clrt_queue *q, clrt_buffer *c, const clrt_buffer *a);

/** Reductions. */
typedef enum {
    CLRT_REDUCE_SUM = 1, /**< the sum */
    CLRT_REDUCE_MAX,     /**< the largest; NaN if any element is NaN */
    CLRT_REDUCE_MIN      /**< the smallest; NaN if any element is NaN */
} clrt_reduce_op;

/** What a reduction runs over. */
typedef enum {
    CLRT_ALL = 0,      /**< every element: out is 1 x 1 */
    CLRT_EACH_ROW = 1, /**< one value per row: out is rows x 1 */
    CLRT_EACH_COL = 2  /**< one value per column: out is 1 x cols */
} clrt_axis;

/** out = op over axis of a; out has a's dtype (float32/float64) and the
 *  shape the axis says (else CLRT_ESHAPE); int32: CLRT_EUNSUPPORTED; out
 *  sharing any memory with a: CLRT_EINVAL. A sum is accumulated in the dtype:
 *  runs of a fixed length (set by the tuning parameters) added in sequence,
 *  their results joined by halving trees and further levels, so its error is
 *  at most about D * eps * sum |x| with a depth D that grows with the log of
 *  the count, not the count. The sum of elements that are all -0 is -0.
 *  Large reductions run in levels whose partial results live in a scratch
 *  buffer that q keeps (see clrt_matmul()). */
CLRT_API int clrt_reduce(clrt_queue *q, clrt_reduce_op op, clrt_axis axis, clrt_buffer *out, const clrt_buffer *a);

/** out (int32, rows x 1) = for each row of a (float32/float64), the column of
 *  its largest value: the first on ties; a row holding NaN gives its first
 *  NaN's column (NumPy's rule); a row of -inf gives 0. out not int32 or not
 *  rows x 1: CLRT_ESHAPE; a of int32: CLRT_EUNSUPPORTED; more than INT32_MAX
 *  columns: CLRT_EUNSUPPORTED. */
CLRT_API int clrt_argmax_rows(clrt_queue *q, clrt_buffer *out, const clrt_buffer *a);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLRT_CLRT_MATH_H */
