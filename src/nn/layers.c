/* clrt_nn_relu_forward and _backward, clrt_nn_linear_forward and _backward: argument
 * checks, then the math family (gemm with the bias in its epilogue, a column sum), or
 * for relu's gradient one kernel of its own (cl/nn_act.cl).
 * Every operand is checked here first so that a refused call enqueues
 * nothing (the math calls would otherwise refuse half-way). */
#include "base/error.h"
#include "kernels/table.h"
#include "nn/check.h"
#include "nn/launch.h"

int clrt_nn_relu_forward(clrt_queue *q, clrt_buffer *y, const clrt_buffer *x)
{
    static const char func[] = "clrt_nn_relu_forward";
    const clrt__nn_arg ops[] = {{x, "x"}, {y, "y"}};
    int st = clrt__nn_operands(q, ops, sizeof ops / sizeof *ops, func);
    if (st == CLRT_OK)
        st = clrt__nn_shape(y, x->rows, x->cols, func, "y");
    if (st != CLRT_OK)
        return st;
    return clrt_unary(q, CLRT_OP_RELU, y, x);
}

int clrt_nn_relu_backward(clrt_queue *q, clrt_buffer *dx, const clrt_buffer *dy, const clrt_buffer *x)
{
    static const char func[] = "clrt_nn_relu_backward";
    const clrt__nn_arg ops[] = {{x, "x"}, {dy, "dy"}, {dx, "dx"}};
    int st = clrt__nn_operands(q, ops, sizeof ops / sizeof *ops, func);
    if (st == CLRT_OK)
        st = clrt__nn_shape(dy, x->rows, x->cols, func, "dy");
    if (st == CLRT_OK)
        st = clrt__nn_shape(dx, x->rows, x->cols, func, "dx");
    /* one elementwise kernel (nn_act: relu_backward): dx may be dy or x itself */
    if (st == CLRT_OK)
        st = clrt__check_in_place(dx, x, "x", func);
    if (st == CLRT_OK)
        st = clrt__check_in_place(dx, dy, "dy", func);
    clrt__built *k;
    if (st == CLRT_OK)
        st = clrt__nn_kernel(q, CLRT__K_NN_ACT, x->dtype, func, &k);
    if (st != CLRT_OK)
        return st;
    clrt__args a = {0};
    clrt__arg_ulong(&a, x->rows);
    clrt__arg_ulong(&a, x->cols);
    clrt__arg_matrix(&a, dy);
    clrt__arg_matrix(&a, x);
    clrt__arg_matrix(&a, dx);
    return clrt__nn_launch_2d(q, k, -1, func, &a, x->cols, x->rows);
}

int clrt_nn_linear_forward(clrt_queue *q, clrt_buffer *y, const clrt_buffer *x, const clrt_buffer *w,
                           const clrt_buffer *b)
{
    static const char func[] = "clrt_nn_linear_forward";
    int st = clrt__nn_forward_operands(q, y, x, w, b, func);
    if (st != CLRT_OK)
        return st;
    const clrt__nn_want want[] = {{w, w->rows, x->cols, "w (out x in)"}, {y, x->rows, w->rows, "y"},
                                  {b, 1, w->rows, "b"}};
    if ((st = clrt__nn_shapes(want, sizeof want / sizeof *want, func)) != CLRT_OK ||
        (st = clrt__nn_forward_apart(y, x, w, b, func)) != CLRT_OK)
        return st;
    /* y = x w^T + b in one launch: the bias added as the product is stored */
    const clrt_epilogue ep = {b, CLRT_ACT_NONE};
    return clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_TRANS, 1.0, x, w, 0.0, y, &ep);
}

int clrt_nn_linear_backward(clrt_queue *q, clrt_buffer *dx, clrt_buffer *dw, clrt_buffer *db, const clrt_buffer *dy,
                            const clrt_buffer *x, const clrt_buffer *w)
{
    static const char func[] = "clrt_nn_linear_backward";
    int st = clrt__nn_grad_operands(q, dx, dw, db, dy, x, w, func);
    if (st != CLRT_OK)
        return st;
    const size_t n = dy->rows, out = dy->cols, in = x->cols;
    const clrt__nn_want want[] = {{x, n, in, "x"}, {w, out, in, "w (out x in)"},
                                  {dx, n, in, "dx"}, {dw, out, in, "dw"}, {db, 1, out, "db"}};
    if ((st = clrt__nn_shapes(want, sizeof want / sizeof *want, func)) != CLRT_OK ||
        (st = clrt__nn_grads_apart(dx, dw, db, dy, x, w, func)) != CLRT_OK)
        return st;
    if (dx)
        st = clrt_gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.0, dy, w, 0.0, dx);
    if (st == CLRT_OK && dw)
        st = clrt_gemm(q, CLRT_TRANS, CLRT_NO_TRANS, 1.0, dy, x, 0.0, dw);
    if (st == CLRT_OK && db)
        st = clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_EACH_COL, db, dy);
    return st;
}
