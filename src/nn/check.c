/* Argument checks the neural-network calls share (see nn/check.h). */
#include "nn/check.h"

#include "base/error.h"
#include "kernels/table.h"

/* b is a usable float matrix of q's context with the dtype of ref (ref NULL: any float). */
int clrt__nn_operand(const clrt_queue *q, const clrt_buffer *b, const clrt_buffer *ref, const char *func,
                   const char *what)
{
    int status = clrt__check_buffer(b, func, what);
    if (status != CLRT_OK)
        return status;
    if (b->ctx != q->ctx)
        return clrt__fail(CLRT_EINVAL, func, "%s belongs to another context than the queue", what);
    if (b->dtype != CLRT_FLOAT32 && b->dtype != CLRT_FLOAT64)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "%s is %s; neural-network data is float32 or float64", what,
                          clrt__dtype_word((int)b->dtype));
    if (ref && b->dtype != ref->dtype)
        return clrt__fail(CLRT_ESHAPE, func, "dtypes differ (%s is %s, not %s)", what,
                          clrt__dtype_word((int)b->dtype), clrt__dtype_word((int)ref->dtype));
    return CLRT_OK;
}

int clrt__nn_operands(const clrt_queue *q, const clrt__nn_arg *ops, size_t count, const char *func)
{
    int st = clrt__check_queue(q, func);
    for (size_t i = 0; i < count && st == CLRT_OK; i++)
        st = clrt__nn_operand(q, ops[i].b, i ? ops[0].b : NULL, func, ops[i].name);
    return st;
}

int clrt__nn_shape(const clrt_buffer *b, size_t rows, size_t cols, const char *func, const char *what)
{
    if (b->rows != rows || b->cols != cols)
        return clrt__fail(CLRT_ESHAPE, func, "%s is %zux%zu; it must be %zux%zu", what, b->rows, b->cols, rows, cols);
    return CLRT_OK;
}

int clrt__nn_shapes(const clrt__nn_want *want, size_t count, const char *func)
{
    int st = CLRT_OK;
    for (size_t i = 0; i < count && st == CLRT_OK; i++)
        if (want[i].b)
            st = clrt__nn_shape(want[i].b, want[i].rows, want[i].cols, func, want[i].name);
    return st;
}

int clrt__nn_apart(const clrt_buffer *out, const clrt_buffer *in, const char *func, const char *o, const char *i)
{
    if (out && in && clrt__overlap(out, in))
        return clrt__fail(CLRT_EINVAL, func, "%s shares memory with %s", o, i);
    return CLRT_OK;
}

int clrt__nn_forward_operands(const clrt_queue *q, const clrt_buffer *y, const clrt_buffer *x, const clrt_buffer *w,
                              const clrt_buffer *b, const char *func)
{
    const clrt__nn_arg ops[] = {{x, "x"}, {w, "w"}, {y, "y"}};
    int st = clrt__nn_operands(q, ops, sizeof ops / sizeof *ops, func);
    if (st == CLRT_OK && b)
        st = clrt__nn_operand(q, b, x, func, "b");
    return st;
}

int clrt__nn_forward_apart(const clrt_buffer *y, const clrt_buffer *x, const clrt_buffer *w, const clrt_buffer *b,
                           const char *func)
{
    int st = clrt__nn_apart(y, x, func, "y", "x");
    if (st == CLRT_OK)
        st = clrt__nn_apart(y, w, func, "y", "w");
    if (st == CLRT_OK)
        st = clrt__nn_apart(y, b, func, "y", "b");
    return st;
}

int clrt__nn_grad_operands(const clrt_queue *q, const clrt_buffer *dx, const clrt_buffer *dw, const clrt_buffer *db,
                           const clrt_buffer *dy, const clrt_buffer *x, const clrt_buffer *w, const char *func)
{
    const clrt__nn_arg ops[] = {{dy, "dy"}, {x, "x"}, {w, "w"}};
    int st = clrt__nn_operands(q, ops, sizeof ops / sizeof *ops, func);
    if (st == CLRT_OK && !dx && !dw && !db)
        st = clrt__fail(CLRT_EINVAL, func, "dx, dw and db are all NULL: nothing to compute");
    if (st == CLRT_OK && dx)
        st = clrt__nn_operand(q, dx, dy, func, "dx");
    if (st == CLRT_OK && dw)
        st = clrt__nn_operand(q, dw, dy, func, "dw");
    if (st == CLRT_OK && db)
        st = clrt__nn_operand(q, db, dy, func, "db");
    return st;
}

int clrt__nn_grads_apart(const clrt_buffer *dx, const clrt_buffer *dw, const clrt_buffer *db, const clrt_buffer *dy,
                         const clrt_buffer *x, const clrt_buffer *w, const char *func)
{
    const clrt_buffer *ins[] = {dy, x, w}, *outs[] = {dx, dw, db};
    static const char *const in_names[] = {"dy", "x", "w"}, *const out_names[] = {"dx", "dw", "db"};
    int st = CLRT_OK;
    for (int o = 0; o < 3; o++) {
        for (int i = 0; i < 3 && st == CLRT_OK; i++)
            st = clrt__nn_apart(outs[o], ins[i], func, out_names[o], in_names[i]);
        for (int p = o + 1; p < 3 && st == CLRT_OK; p++)
            st = clrt__nn_apart(outs[o], outs[p], func, out_names[o], out_names[p]);
    }
    return st;
}
