/* clrt_gemm_strided_batched and clrt_gemm_batched: the batch's checks (windows
 * inside their buffers, outputs apart from every input window and from each
 * other), then one launch of the matmul kernels over the whole batch
 * (math/gemm.h: dimension 2 of the NDRange over its matrices, matrix i of each
 * operand a constant number of elements after matrix i - 1). */
#include <limits.h>
#include <stdint.h>

#include "base/error.h"
#include "kernels/table.h"
#include "math/gemm.h"

/* count windows of rows x (all of x's columns) of x, window i from row i * stride
 * of x (stride 0: one window for the whole batch). */
typedef struct stack {
    const clrt_buffer *x;
    size_t rows, stride, count;
} stack;

/* Its last row + 1, within x's rows: 0 past them, SIZE_MAX when the arithmetic
 * overflows. */
static size_t stack_end(const stack *s)
{
    const size_t n = s->count - 1;
    if (s->stride && n > (SIZE_MAX - s->rows) / s->stride)
        return SIZE_MAX;
    const size_t end = n * s->stride + s->rows;
    return end <= s->x->rows ? end : 0;
}

/* Whether an element of a window of s is an element of a window of t. Windows of
 * one allocation with one row stride compare as rows and columns of it (each of
 * t's windows against the first of s's that could reach it); with different
 * strides (a reshape), the spans from first to last element. */
static int stacks_meet(const stack *s, const stack *t)
{
    const clrt_buffer *x = s->x, *y = t->x;
    if (x->cl != y->cl)
        return 0;
    const size_t xn = s->stride ? s->count : 1, yn = t->stride ? t->count : 1;
    if (x->ld != y->ld) {
        const size_t x_end = x->offset + ((xn - 1) * s->stride + s->rows - 1) * x->ld + x->cols;
        const size_t y_end = y->offset + ((yn - 1) * t->stride + t->rows - 1) * y->ld + y->cols;
        return x->offset < y_end && y->offset < x_end;
    }
    const size_t xr = x->offset / x->ld, xc = x->offset % x->ld, yr = y->offset / y->ld, yc = y->offset % y->ld;
    if (!(xc < yc + y->cols && yc < xc + x->cols))
        return 0;
    for (size_t j = 0; j < yn; j++) {
        const size_t y0 = yr + j * t->stride; /* t's window j: rows y0 .. y0 + t->rows - 1 */
        size_t i = 0;                        /* the first of s's windows that ends past y0 */
        if (y0 >= xr + s->rows) {
            if (xn == 1)
                continue;
            i = (y0 - xr - s->rows) / s->stride + 1;
        }
        if (i < xn && xr + i * s->stride < y0 + t->rows)
            return 1;
    }
    return 0;
}

/* The windows: each stack's columns, its rows' arithmetic, inside its buffer,
 * c's apart from each other and from a's and b's. */
static int check_stacks(const stack st[3], size_t m, const char *func)
{
    static const char *const names[3] = {"a", "b", "c"};
    for (int i = 0; i < 3; i++)
        if (stack_end(&st[i]) == SIZE_MAX)
            return clrt__fail(CLRT_EINVAL, func, "%zu matrices of %s, %zu rows apart, overflow size_t", st[i].count,
                              names[i], st[i].stride);
    if (st[2].count > 1 && st[2].stride < m)
        return clrt__fail(CLRT_ESHAPE, func, "stride_c %zu is below m = %zu: c's matrices would overlap",
                          st[2].stride, m);
    for (int i = 0; i < 3; i++)
        if (stack_end(&st[i]) == 0)
            return clrt__fail(CLRT_ESHAPE, func,
                              "%zu matrices of %s, %zu rows each, %zu rows apart, run past its %zu rows",
                              st[i].count, names[i], st[i].rows, st[i].stride, st[i].x->rows);
    if (stacks_meet(&st[0], &st[2]) || stacks_meet(&st[1], &st[2]))
        return clrt__fail(CLRT_EINVAL, func, "a matrix of c shares memory with a matrix of %s",
                          stacks_meet(&st[0], &st[2]) ? "a" : "b");
    return CLRT_OK;
}

/* A checked strided batch with 16-bit operands whose c windows leave rows of c
 * between or after them: a product each, on views of its windows, each widened
 * to float32 by clrt__gemm_run (math/widen.h). (Widened whole, c's float32
 * copy would be narrowed over those rows too: a signalling NaN there would come
 * back quiet.) */
static int strided_16bit(clrt_queue *q, clrt_trans ta, clrt_trans tb, const clrt__gemm_op *op, const stack st[3],
                         const char *func)
{
    int status = CLRT_OK;
    for (size_t i = 0; i < op->count && status == CLRT_OK; i++) {
        clrt_buffer *v[3] = {NULL, NULL, NULL};
        for (int j = 0; j < 3 && status == CLRT_OK; j++)
            status = clrt_buffer_view(&v[j], (clrt_buffer *)st[j].x, i * st[j].stride, 0, st[j].rows,
                                      st[j].x->cols);
        clrt__gemm_op one = *op;
        one.count = 1;
        one.a = v[0];
        one.b = v[1];
        one.c = v[2];
        if (status == CLRT_OK)
            status = clrt__gemm_run(q, ta, tb, &one, func);
        for (int j = 0; j < 3; j++)
            clrt_buffer_destroy(v[j]);
    }
    return status;
}

int clrt_gemm_strided_batched(clrt_queue *q, clrt_trans ta, clrt_trans tb, size_t m, size_t n, size_t k,
                              double alpha, const clrt_buffer *a, size_t stride_a, const clrt_buffer *b,
                              size_t stride_b, double beta, clrt_buffer *c, size_t stride_c, size_t count)
{
    static const char func[] = "clrt_gemm_strided_batched";
    int st = clrt__gemm_live(q, ta, tb, a, b, c, func);
    if (st != CLRT_OK || count == 0)
        return st;
    if ((st = clrt__gemm_same_kind(q, a, b, c, func)) != CLRT_OK)
        return st;
    if (m == 0 || n == 0 || k == 0)
        return clrt__fail(CLRT_EINVAL, func, "m, n and k must be positive (m %zu, n %zu, k %zu)", m, n, k);
    const size_t a_cols = ta ? m : k, b_cols = tb ? k : n;
    if (a->cols != a_cols || b->cols != b_cols || c->cols != n)
        return clrt__fail(CLRT_ESHAPE, func,
                          "with m %zu, n %zu, k %zu (ta %d, tb %d) a needs %zu columns (has %zu), b %zu (%zu), "
                          "c %zu (%zu)",
                          m, n, k, (int)ta, (int)tb, a_cols, a->cols, b_cols, b->cols, n, c->cols);
    const stack stacks[3] = {{a, ta ? k : m, stride_a, count}, {b, tb ? n : k, stride_b, count},
                             {c, m, stride_c, count}};
    if ((st = check_stacks(stacks, m, func)) != CLRT_OK)
        return st;
    if (m > UINT_MAX || n > UINT_MAX || k > UINT_MAX || a->ld > UINT_MAX || b->ld > UINT_MAX || c->ld > UINT_MAX)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "matrix dimensions above %u are not supported", UINT_MAX);
    if ((st = clrt__check_usable(q->ctx, func)) != CLRT_OK)
        return st;
    /* strides in elements (within each buffer: the windows are inside it) */
    const clrt__gemm_op op = {.M = m, .N = n, .K = k, .alpha = alpha, .beta = beta, .a = a, .b = b, .c = c,
                              .count = count, .sa = count > 1 ? stride_a * a->ld : 0,
                              .sb = count > 1 ? stride_b * b->ld : 0, .sc = count > 1 ? stride_c * c->ld : 0};
    /* 16-bit: one launch, the stacks widened whole, where c's windows are all of c */
    const int c_whole = count == 1 ? c->rows == m : stride_c == m && c->rows / m == count && c->rows % m == 0;
    if ((clrt__is_16bit(a->dtype) || clrt__is_16bit(c->dtype)) && !c_whole)
        return strided_16bit(q, ta, tb, &op, stacks, func);
    return clrt__gemm_run(q, ta, tb, &op, func);
}

/* Every x[i] in x[0]'s allocation with its row stride and shape, x[i]'s first
 * element *step elements after x[i - 1]'s (0 for one matrix, or the same matrix
 * every time): the batch launches as one stride. */
static int progression(const clrt_buffer *const *x, size_t count, size_t *step)
{
    *step = count > 1 && x[1]->offset >= x[0]->offset ? x[1]->offset - x[0]->offset : 0;
    if (count > 1 && x[1]->offset < x[0]->offset)
        return 0;
    for (size_t i = 1; i < count; i++)
        if (x[i]->cl != x[0]->cl || x[i]->ld != x[0]->ld || x[i]->offset != x[0]->offset + i * *step)
            return 0;
    return 1;
}

/* Each product as clrt_gemm checks it, its shapes and dtypes those of the first,
 * and no c[i] sharing memory with a c[j], a[j] or b[j]. */
static int check_arrays(const clrt_queue *q, clrt_trans ta, clrt_trans tb, const clrt_buffer *const *a,
                        const clrt_buffer *const *b, clrt_buffer *const *c, size_t count, const char *func)
{
    for (size_t i = 0; i < count; i++) {
        int st = clrt__gemm_live(q, ta, tb, a[i], b[i], c[i], func);
        if (st != CLRT_OK)
            return st;
    }
    for (size_t i = 0; i < count; i++) {
        const clrt_buffer *x[3] = {a[i], b[i], c[i]}, *x0[3] = {a[0], b[0], c[0]};
        for (int j = 0; j < 3; j++)
            if (x[j]->rows != x0[j]->rows || x[j]->cols != x0[j]->cols || x[j]->dtype != x0[j]->dtype)
                return clrt__fail(CLRT_ESHAPE, func, "%c[%zu] is %zux%zu %s, %c[0] %zux%zu %s: one shape and dtype "
                                  "for the batch", "abc"[j], i, x[j]->rows, x[j]->cols,
                                  clrt__dtype_word((int)x[j]->dtype), "abc"[j], x0[j]->rows, x0[j]->cols,
                                  clrt__dtype_word((int)x0[j]->dtype));
        int st = clrt__gemm_check(q, ta, tb, a[i], b[i], c[i], func);
        if (st != CLRT_OK)
            return st;
    }
    for (size_t i = 0; i < count; i++)
        for (size_t j = 0; j < count; j++)
            if ((j > i && clrt__overlap(c[i], c[j])) || clrt__overlap(c[i], a[j]) || clrt__overlap(c[i], b[j]))
                return clrt__fail(CLRT_EINVAL, func, "c[%zu] shares memory with %s[%zu]", i,
                                  j > i && clrt__overlap(c[i], c[j]) ? "c" : clrt__overlap(c[i], a[j]) ? "a" : "b",
                                  j);
    return CLRT_OK;
}

int clrt_gemm_batched(clrt_queue *q, clrt_trans ta, clrt_trans tb, double alpha, const clrt_buffer *const *a,
                      const clrt_buffer *const *b, double beta, clrt_buffer *const *c, size_t count)
{
    static const char func[] = "clrt_gemm_batched";
    int st = clrt__check_queue(q, func);
    if (st != CLRT_OK || count == 0)
        return st;
    if (!a || !b || !c)
        return clrt__fail(CLRT_EINVAL, func, "the array %s is NULL", !a ? "a" : !b ? "b" : "c");
    if ((st = check_arrays(q, ta, tb, a, b, c, count, func)) != CLRT_OK ||
        (st = clrt__check_usable(q->ctx, func)) != CLRT_OK)
        return st;
    clrt__gemm_op op = {.M = c[0]->rows, .N = c[0]->cols, .K = ta ? a[0]->rows : a[0]->cols, .alpha = alpha,
                        .beta = beta, .a = a[0], .b = b[0], .c = c[0], .count = count};
    /* 16-bit operands: a product each, widened by clrt__gemm_run (math/widen.h) */
    const int half = clrt__is_16bit(a[0]->dtype) || clrt__is_16bit(c[0]->dtype);
    if (!half && progression(a, count, &op.sa) && progression(b, count, &op.sb) &&
        progression((const clrt_buffer *const *)c, count, &op.sc))
        return clrt__gemm_run(q, ta, tb, &op, func);
    /* matrices scattered over allocations or strides, or 16-bit: a launch each */
    op.count = 1;
    for (size_t i = 0; i < count && st == CLRT_OK; i++) {
        op.a = a[i];
        op.b = b[i];
        op.c = c[i];
        st = clrt__gemm_run(q, ta, tb, &op, func);
    }
    return st;
}
