/* The elementwise family: clrt_add, clrt_binary, clrt_unary, clrt_axpby,
 * clrt_scale, clrt_fill and clrt_copy. Each checks its arguments, then makes
 * one launch of the context's elementwise kernel for the dtype, op and way of
 * reading b (runtime/kcache.h, kernels/elementwise.h): over every element as one run when the operands are
 * contiguous (the flat path), else row by row with offsets and row strides
 * (views, and b broadcast along rows or columns). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/error.h"
#include "math/convert.h"
#include "math/widen.h"
#include "runtime/kcache.h"

/* How b relates to c's shape. */
typedef enum { B_NONE, B_SAME, B_ROW, B_COL, B_ONE } bform;

/* An operand's name in messages, and the buffer. */
typedef struct operand {
    const char *name;
    const clrt_buffer *buf;
} operand;

/* Checks every call makes, in the order that makes the status predictable
 * (clrt_add's from the start): live handles, a known op, one context, one
 * dtype, a dtype the op takes (arith: not int32). Shapes, the in-place rule
 * and the device's state follow (same_shape, launch). */
static int check_common(const clrt_queue *q, const char *func, const operand *ops, size_t nops, int op_known,
                        const char *op_what, int op, int arith)
{
    int status = clrt__check_queue(q, func);
    for (size_t i = 0; i < nops && status == CLRT_OK; i++)
        status = clrt__check_buffer(ops[i].buf, func, ops[i].name);
    if (status != CLRT_OK)
        return status;
    if (!op_known)
        return clrt__fail(CLRT_EINVAL, func, "unknown %s op %d", op_what, op);
    for (size_t i = 0; i < nops; i++)
        if (ops[i].buf->ctx != q->ctx)
            return clrt__fail(CLRT_EINVAL, func, "operands and queue belong to different contexts");
    /* 16-bit inputs: one dtype, ops[0] (the output) that dtype or float32 (math/widen.h) */
    int half = 0;
    for (size_t i = 0; i < nops; i++)
        half |= clrt__is_16bit(ops[i].buf->dtype);
    const int wide_out = half && arith && nops > 1 && ops[0].buf->dtype == CLRT_FLOAT32;
    for (size_t i = 1; i < nops; i++)
        if (ops[i].buf->dtype != ops[wide_out ? 1 : 0].buf->dtype) {
            clrt__fail(CLRT_ESHAPE, func, "dtypes differ (");
            for (size_t j = 0; j < nops; j++) {
                clrt__error_append(j ? ", " : "");
                clrt__error_append(ops[j].name);
                clrt__error_append(" ");
                clrt__error_append(clrt__dtype_word((int)ops[j].buf->dtype));
            }
            clrt__error_append(")");
            return CLRT_ESHAPE;
        }
    if (arith && ops[0].buf->dtype == CLRT_INT32)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "arithmetic on int32 buffers is not supported");
    return CLRT_OK;
}

static int same_shape(const char *func, const operand *x, const operand *y)
{
    if (x->buf->rows == y->buf->rows && x->buf->cols == y->buf->cols)
        return CLRT_OK;
    return clrt__fail(CLRT_ESHAPE, func, "shapes differ: %s %zux%zu, %s %zux%zu", x->name, x->buf->rows,
                      x->buf->cols, y->name, y->buf->rows, y->buf->cols);
}

static int launch(clrt_queue *q, const char *func, clrt__ew_op op, const operand *c, const operand *a,
                  const operand *b, bform form, double alpha, double beta);

/* launch with 16-bit inputs and a float32 c: a and b widened to float32, c too
 * (loaded when b is c, axpby's y), the float32 launch, c narrowed
 * (math/widen.h). Operands all of one 16-bit dtype never come here: the kernel
 * reads and writes them as they are (launch). */
static int launch_widened(clrt_queue *q, const char *func, clrt__ew_op op, const operand *c, const operand *a,
                          const operand *b, bform form, double alpha, double beta)
{
    clrt__widening w = {0};
    operand wc = *c, wa = a ? *a : *c, wb = b ? *b : *c;
    const int b_is_c = b && b->buf == c->buf;
    int st = clrt__widen(q, &w, c->buf, b_is_c, func, &wc.buf);
    if (st == CLRT_OK && a)
        st = clrt__widen(q, &w, a->buf, 1, func, &wa.buf);
    if (st == CLRT_OK && b)
        st = b_is_c ? CLRT_OK : clrt__widen(q, &w, b->buf, 1, func, &wb.buf);
    if (b_is_c)
        wb.buf = wc.buf;
    if (st == CLRT_OK)
        st = launch(q, func, op, &wc, a ? &wa : NULL, b ? &wb : NULL, form, alpha, beta);
    st = clrt__narrow(q, (clrt_buffer *)c->buf, wc.buf, st, func);
    clrt__widen_done(&w);
    return st;
}

/* The in-place rule for c and its inputs, the device's state, then the
 * launch: c = op(a, b) with b read as form says (a, b may be NULL when the op
 * does not read them). */
static int launch(clrt_queue *q, const char *func, clrt__ew_op op, const operand *c, const operand *a,
                  const operand *b, bform form, double alpha, double beta)
{
    int status = CLRT_OK;
    if (a)
        status = clrt__check_in_place(c->buf, a->buf, a->name, func);
    if (status == CLRT_OK && b)
        status = clrt__check_in_place(c->buf, b->buf, b->name, func);
    if (status == CLRT_OK)
        status = clrt__check_usable(q->ctx, func);
    if (status != CLRT_OK)
        return status;
    const clrt_buffer *cb = c->buf, *ab = a ? a->buf : cb, *bb = b ? b->buf : cb;
    const int dtype = (int)cb->dtype;
    /* operands of two dtypes (check_common lets only 16-bit inputs with a float32 c
     * through) are widened; all of one 16-bit dtype run the kernel built for that
     * storage (cl/elementwise.cl, CLRT_STORE), the arithmetic in float32 */
    if (ab->dtype != cb->dtype || bb->dtype != cb->dtype)
        return launch_widened(q, func, op, c, a, b, form, alpha, beta);
    const int store16 = clrt__is_16bit(cb->dtype);
    const int bread = form == B_NONE ? CLRT__EW_B_NONE
                      : (form == B_SAME || form == B_ROW) ? CLRT__EW_B_ROW
                                                          : CLRT__EW_B_ONE;
    clrt__built *k;
    status = clrt__kcache_get(q->ctx, CLRT__K_ELEMENTWISE, dtype, clrt__ew_variant(op, bread), func, &k);
    if (status != CLRT_OK)
        return status;
    /* one run of rows*cols elements when every operand read as a matrix is one
     * run; a broadcast row or column needs the rows */
    const int flat = clrt__contiguous(cb) && clrt__contiguous(ab) &&
                     (form == B_NONE || form == B_ONE || (form == B_SAME && clrt__contiguous(bb)));
    cl_ulong rows = flat ? 1 : cb->rows, cols = flat ? (cl_ulong)cb->rows * cb->cols : cb->cols;
    cl_ulong c_off = cb->offset, ldc = flat ? cols : cb->ld;
    cl_ulong a_off = ab->offset, lda = flat ? cols : ab->ld;
    cl_ulong b_off = bb->offset, ldb = (form == B_SAME || form == B_COL) && !flat ? bb->ld : 0;
    const clrt__ew_params p = clrt__ew(&k->p);
    size_t global[2], local[2];
    clrt__ew_geometry(&p, &q->ctx->facts, (size_t)rows, (size_t)cols, global, local);
    clrt__args args = {0};
    clrt__arg_ulong(&args, rows);
    clrt__arg_ulong(&args, cols);
    clrt__arg_mem(&args, cb->cl);
    clrt__arg_ulong(&args, c_off);
    clrt__arg_ulong(&args, ldc);
    clrt__arg_mem(&args, ab->cl);
    clrt__arg_ulong(&args, a_off);
    clrt__arg_ulong(&args, lda);
    clrt__arg_mem(&args, bb->cl);
    clrt__arg_ulong(&args, b_off);
    clrt__arg_ulong(&args, ldb);
    const clrt_dtype arith = store16 ? CLRT_FLOAT32 : (clrt_dtype)dtype;
    clrt__arg_real(&args, arith, alpha);
    clrt__arg_real(&args, arith, beta);
    return clrt__launch(q, k, func, &args, 2, global, local);
}

/* c = a op b, b broadcast as its shape says; clrt_add allows only one shape. */
static int binary(clrt_queue *q, clrt_binary_op op, clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b,
                  int broadcast, const char *func)
{
    const operand oc = {"c", c}, oa = {"a", a}, ob = {"b", b}, ops[3] = {oc, oa, ob};
    int status = check_common(q, func, ops, 3, op >= CLRT_OP_ADD && op <= CLRT_OP_MAX, "binary", (int)op, 1);
    if (status != CLRT_OK)
        return status;
    if (!broadcast) {
        if (a->rows != b->rows || a->cols != b->cols || c->rows != a->rows || c->cols != a->cols)
            return clrt__fail(CLRT_ESHAPE, func, "shapes differ: c %zux%zu, a %zux%zu, b %zux%zu", c->rows,
                              c->cols, a->rows, a->cols, b->rows, b->cols);
    } else if ((status = same_shape(func, &oc, &oa)) != CLRT_OK) {
        return status;
    }
    bform form = B_SAME;
    if (b->rows == c->rows && b->cols == c->cols)
        form = B_SAME;
    else if (b->rows == 1 && b->cols == 1)
        form = B_ONE;
    else if (b->rows == 1 && b->cols == c->cols)
        form = B_ROW;
    else if (b->cols == 1 && b->rows == c->rows)
        form = B_COL;
    else
        return clrt__fail(CLRT_ESHAPE, func,
                          "b is %zux%zu: it must have c's shape %zux%zu, be one row 1x%zu, one column %zux1 or 1x1",
                          b->rows, b->cols, c->rows, c->cols, c->cols, c->rows);
    return launch(q, func, (clrt__ew_op)(CLRT__EW_ADD + (op - CLRT_OP_ADD)), &oc, &oa, &ob, form, 0, 0);
}

int clrt_add(clrt_queue *q, clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b)
{
    return binary(q, CLRT_OP_ADD, c, a, b, 0, "clrt_add");
}

int clrt_binary(clrt_queue *q, clrt_binary_op op, clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b)
{
    return binary(q, op, c, a, b, 1, "clrt_binary");
}

int clrt_unary(clrt_queue *q, clrt_unary_op op, clrt_buffer *c, const clrt_buffer *a)
{
    static const char func[] = "clrt_unary";
    const operand oc = {"c", c}, oa = {"a", a}, ops[2] = {oc, oa};
    int status = check_common(q, func, ops, 2, op >= CLRT_OP_NEG && op <= CLRT_OP_SIGMOID, "unary", (int)op, 1);
    if (status == CLRT_OK)
        status = same_shape(func, &oc, &oa);
    if (status != CLRT_OK)
        return status;
    return launch(q, func, (clrt__ew_op)(CLRT__EW_NEG + (op - CLRT_OP_NEG)), &oc, &oa, NULL, B_NONE, 0, 0);
}

int clrt_axpby(clrt_queue *q, double alpha, const clrt_buffer *x, double beta, clrt_buffer *y)
{
    static const char func[] = "clrt_axpby";
    const operand ox = {"x", x}, oy = {"y", y}, ops[2] = {oy, ox}; /* y first: the output */
    int status = check_common(q, func, ops, 2, 1, NULL, 0, 1);
    if (status == CLRT_OK)
        status = same_shape(func, &oy, &ox);
    if (status != CLRT_OK)
        return status;
    /* beta == 0: y is not read (NaN or infinity there does not propagate, the BLAS
     * rule gemm follows too), so a y of undefined contents can be written */
    if (beta == 0.0)
        return launch(q, func, CLRT__EW_SCALE, &oy, &ox, NULL, B_NONE, alpha, 0);
    /* y is both the output and b: the very same window, read before written */
    return launch(q, func, CLRT__EW_AXPBY, &oy, &ox, &oy, B_SAME, alpha, beta);
}

int clrt_scale(clrt_queue *q, clrt_buffer *c, double alpha, const clrt_buffer *a)
{
    static const char func[] = "clrt_scale";
    const operand oc = {"c", c}, oa = {"a", a}, ops[2] = {oc, oa};
    int status = check_common(q, func, ops, 2, 1, NULL, 0, 1);
    if (status == CLRT_OK)
        status = same_shape(func, &oc, &oa);
    if (status != CLRT_OK)
        return status;
    return launch(q, func, CLRT__EW_SCALE, &oc, &oa, NULL, B_NONE, alpha, 0);
}

int clrt_fill(clrt_queue *q, clrt_buffer *c, double value)
{
    static const char func[] = "clrt_fill";
    const operand oc = {"c", c};
    int status = check_common(q, func, &oc, 1, 1, NULL, 0, 0);
    if (status != CLRT_OK)
        return status;
    if (c->dtype == CLRT_INT32 && !(value >= INT32_MIN && value <= INT32_MAX && value == floor(value)))
        return clrt__fail(CLRT_EINVAL, func, "%g is not an int32 value (an integer from %d to %d)", value,
                          INT32_MIN, INT32_MAX);
    /* rounded here, once: the float32 fill of a 16-bit value is exact, so is its narrowing */
    return launch(q, func, CLRT__EW_FILL, &oc, NULL, NULL, B_NONE, clrt__round_16bit(c->dtype, value), 0);
}

int clrt_copy(clrt_queue *q, clrt_buffer *dst, const clrt_buffer *src)
{
    static const char func[] = "clrt_copy";
    const operand od = {"dst", dst}, os = {"src", src}, ops[2] = {od, os};
    /* 16-bit storage: moved by clrt_convert's kernel (its same-dtype form, bits kept),
     * which checks the rest as clrt_copy does */
    if (clrt__check_buffer(dst, func, "dst") == CLRT_OK && clrt__check_buffer(src, func, "src") == CLRT_OK &&
        clrt__is_16bit(src->dtype) && dst->dtype == src->dtype)
        return clrt__convert(q, dst, src, 1, func);
    int status = check_common(q, func, ops, 2, 1, NULL, 0, 0);
    if (status == CLRT_OK)
        status = same_shape(func, &od, &os);
    if (status == CLRT_OK && clrt__same_window(dst, src))
        return clrt__check_usable(q->ctx, func); /* in place: nothing to move */
    if (status != CLRT_OK)
        return status;
    return launch(q, func, CLRT__EW_COPY, &od, &os, NULL, B_NONE, 0, 0);
}
