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
 *  says so (copy, fill, transpose, and as argmax's output); else
 *  CLRT_EUNSUPPORTED. CLRT_FLOAT16 and CLRT_BFLOAT16 in clrt_copy(),
 *  clrt_convert(), clrt_fill(), clrt_transpose(), and, computed in float32
 *  (docs/half.md), in every product (batched too), the elementwise calls,
 *  clrt_reduce() and clrt_argmax_rows(): inputs of one 16-bit dtype, the
 *  output that dtype or CLRT_FLOAT32 (else CLRT_ESHAPE), a 16-bit result
 *  rounded once to nearest even. The elementwise calls on operands all of one
 *  16-bit dtype read and write them in one pass; the rest go through float32
 *  copies.
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

/** The activation of a GEMM's epilogue (clrt_gemm_ex()). */
typedef enum {
    CLRT_ACT_NONE = 0, /**< none: the value as it is */
    CLRT_ACT_RELU,     /**< max(x, 0); NaN stays NaN */
    CLRT_ACT_GELU,     /**< 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))): PyTorch's gelu with
                            approximate="tanh" */
    CLRT_ACT_SIGMOID,  /**< 1 / (1 + e^-x) */
    CLRT_ACT_TANH      /**< tanh(x) */
} clrt_activation;

/** What clrt_gemm_ex() does to each element of the product before storing it. */
typedef struct {
    const clrt_buffer *bias; /**< NULL, or added: 1 x n (to every row) or m x 1 (to every column),
                                  c's dtype */
    clrt_activation act;     /**< applied last */
} clrt_epilogue;

/** GEMM with an epilogue applied in the product's store, one pass over c:
 *  c = act(alpha op(a) op(b) + beta c + bias). Operands, dtypes, beta == 0 and
 *  every refusal as clrt_gemm(); ep NULL is clrt_gemm(). bias (when not NULL) is
 *  1 x n, added to every row of c, or m x 1, added to every column (a 1 x 1 bias
 *  with c 1 x 1 is both), in c's dtype (else CLRT_ESHAPE), a live buffer or view of
 *  q's context (else CLRT_EINVAL); bias sharing memory with c: CLRT_EINVAL; an act
 *  outside clrt_activation: CLRT_EINVAL. The activation is the device's built-in
 *  tanh and exp on the value computed in the dtype (OpenCL's bounds: tanh within 5
 *  ulp, exp 3 ulp), so its error is the product's (clrt_gemm()) carried through the
 *  function (whose slope is at most 1.13) plus a few ulp of the result, and for gelu
 *  a few ulp of x where tanh's 1 cancels.
 *  @code
 *  // y = relu(x w^T + b): a linear layer's forward pass in one launch
 *  clrt_epilogue ep = {b, CLRT_ACT_RELU};   // b: 1 x out
 *  clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_TRANS, 1.0, x, w, 0.0, y, &ep);
 *  @endcode */
CLRT_API int clrt_gemm_ex(clrt_queue *q, clrt_trans ta, clrt_trans tb, double alpha, const clrt_buffer *a,
                          const clrt_buffer *b, double beta, clrt_buffer *c, const clrt_epilogue *ep);

/** Strided batched GEMM: for i < count, c_i = alpha op(a_i) op(b_i) + beta c_i,
 *  where x_i is the window of x's rows [i * stride_x, i * stride_x + rows of x_i)
 *  and all of its columns: the batch is stacked by rows (a is (count * a_rows) x
 *  a_cols when stride_a == a_rows). op(a_i) is m x k, op(b_i) k x n, c_i m x n; so
 *  a_i has m rows (k when ta), b_i k rows (n when tb), and a's columns must be k (m
 *  when ta), b's n (k when tb), c's n, else CLRT_ESHAPE.
 *
 *  stride_a or stride_b 0: one matrix for the whole batch (broadcast). stride_c
 *  must be at least m when count > 1 (c's matrices never overlap), else
 *  CLRT_ESHAPE; input windows may overlap each other. A window past its buffer's
 *  last row: CLRT_ESHAPE; a count or stride whose row arithmetic overflows size_t:
 *  CLRT_EINVAL; m, n or k 0: CLRT_EINVAL. An element of any c window that is also
 *  an element of any a or b window: CLRT_EINVAL. count 0: CLRT_OK once the handles
 *  are checked, nothing done. Dtypes, alpha, beta (beta == 0 never reads c) and the
 *  error bound as clrt_gemm(); a refused call writes nothing. One launch for the
 *  whole batch (dimension 2 of the NDRange runs over its matrices).
 *  @code
 *  // 64 products of 128 x 128 matrices stacked by rows: a, b, c are 8192 x 128
 *  clrt_gemm_strided_batched(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 128, 128, 128,
 *                            1.0, a, 128, b, 128, 0.0, c, 128, 64);
 *  @endcode */
CLRT_API int clrt_gemm_strided_batched(clrt_queue *q, clrt_trans ta, clrt_trans tb, size_t m, size_t n, size_t k,
                                       double alpha, const clrt_buffer *a, size_t stride_a, const clrt_buffer *b,
                                       size_t stride_b, double beta, clrt_buffer *c, size_t stride_c,
                                       size_t count);

/** Batched GEMM over arrays of buffers or views of one context: c[i] = alpha
 *  op(a[i]) op(b[i]) + beta c[i] for i < count, every i with the shapes and dtypes
 *  of i = 0 (else CLRT_ESHAPE), each product's shapes and dtypes as clrt_gemm()
 *  wants them. a, b, c NULL (with count > 0) or holding a NULL, foreign or destroyed
 *  handle: CLRT_EINVAL; a c[i] sharing memory with another c[j] or with any a[j] or
 *  b[j]: CLRT_EINVAL; count 0: CLRT_OK, nothing done. One launch for the batch when
 *  each array's matrices lie in one allocation with one row stride, one matrix
 *  start a constant number of elements after the one before (views stepping
 *  through a parent, broadcast included: the same matrix every time); otherwise a
 *  launch per product. A refused call writes nothing. */
CLRT_API int clrt_gemm_batched(clrt_queue *q, clrt_trans ta, clrt_trans tb, double alpha,
                               const clrt_buffer *const *a, const clrt_buffer *const *b, double beta,
                               clrt_buffer *const *c, size_t count);

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

/** dst = src, one shape and dtype (else CLRT_ESHAPE), any dtype (int32,
 *  float16 and bfloat16 too), bit for bit. dst the same window as src: nothing to do; a partial
 *  overlap is CLRT_EINVAL. */
CLRT_API int clrt_copy(clrt_queue *q, clrt_buffer *dst, const clrt_buffer *src);

/** dst = src converted element by element, one shape (else CLRT_ESHAPE), any
 *  pair of CLRT_FLOAT32, CLRT_FLOAT64, CLRT_FLOAT16 and CLRT_BFLOAT16: rounded to
 *  nearest even, NaN stays NaN, infinities stay, a finite value beyond the
 *  destination's range becomes an infinity, subnormals of every dtype kept (not
 *  flushed). Exact where the destination holds every value of the source
 *  (float16 or bfloat16 to float32, anything to float64). Same dtypes: a copy, bit
 *  for bit. dst sharing memory with src: CLRT_EINVAL; CLRT_INT32 on either side:
 *  CLRT_EUNSUPPORTED. Runs on every device: float16 through OpenCL's core
 *  vload_half and vstore_half, bfloat16 as 16-bit words (docs/half.md).
 *  @code
 *  // float32 weights stored as bfloat16, and back for arithmetic
 *  clrt_convert(q, w16, w32);
 *  clrt_convert(q, w32, w16);
 *  @endcode */
CLRT_API int clrt_convert(clrt_queue *q, clrt_buffer *dst, const clrt_buffer *src);

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
