/* clrt_nn_softmax_xent: one kernel (nn_act: xent_rows, cl/nn_act.cl) makes
 * each row's loss / N and its row of the gradient, the labels checked there
 * (no host round trip: a training step never waits for the device); then
 * clrt_reduce sums the rows' losses into loss. Each row's maximum is
 * subtracted before exp, so exp never overflows. Rows longer than the
 * parameter loops allows one work-item (set on llvmpipe, whose work-items stop
 * looping after a budget) run in slices of columns instead: xent_stats carries
 * each row's maximum and sum from slice to slice, xent_grad writes the
 * gradient's. */
#include <stdint.h>

#include "base/error.h"
#include "kernels/table.h"
#include "nn/check.h"
#include "nn/launch.h"

/* The loss's rows (into rows) and the gradient in slices of `slice` columns. */
static int sliced(clrt_queue *q, clrt__built *k, const char *func, const clrt_buffer *dlogits,
                  const clrt_buffer *logits, const clrt_buffer *labels, const clrt_buffer *rows, size_t slice)
{
    const size_t n = logits->rows, c = logits->cols;
    clrt_buffer *stats = NULL;
    int st = clrt__scratch_matrix(q, CLRT__SCRATCH_PLANES, logits->dtype, n, 3, func, &stats);
    for (size_t c0 = 0; st == CLRT_OK && c0 < c; c0 += slice) {
        clrt__args a = {0};
        clrt__arg_ulong(&a, n);
        clrt__arg_ulong(&a, c);
        clrt__arg_ulong(&a, c0);
        clrt__arg_ulong(&a, c - c0 > slice ? c0 + slice : c);
        clrt__arg_matrix(&a, logits);
        clrt__arg_matrix(&a, labels);
        clrt__arg_mem(&a, stats->cl);
        clrt__arg_mem(&a, rows->cl);
        clrt__arg_real(&a, logits->dtype, 1.0 / (double)n);
        st = clrt__nn_launch(q, k, CLRT__NN_AUX_XSTATS, func, &a, n);
    }
    for (size_t c0 = 0; st == CLRT_OK && dlogits && c0 < c; c0 += slice) {
        clrt__args a = {0};
        clrt__arg_ulong(&a, n);
        clrt__arg_ulong(&a, c0);
        clrt__arg_ulong(&a, c - c0 > slice ? c0 + slice : c);
        clrt__arg_matrix(&a, logits);
        clrt__arg_matrix(&a, labels);
        clrt__arg_mem(&a, stats->cl);
        clrt__arg_matrix(&a, dlogits);
        clrt__arg_real(&a, logits->dtype, 1.0 / (double)n);
        st = clrt__nn_launch(q, k, CLRT__NN_AUX_XGRAD, func, &a, n);
    }
    return st;
}

int clrt_nn_softmax_xent(clrt_queue *q, clrt_buffer *loss, clrt_buffer *dlogits, const clrt_buffer *logits,
                         const clrt_buffer *labels)
{
    static const char func[] = "clrt_nn_softmax_xent";
    const clrt__nn_arg ops[] = {{logits, "logits"}, {loss, "loss"}};
    int st = clrt__nn_operands(q, ops, sizeof ops / sizeof *ops, func);
    if (st == CLRT_OK && dlogits)
        st = clrt__nn_operand(q, dlogits, logits, func, "dlogits");
    if (st == CLRT_OK)
        st = clrt__check_buffer(labels, func, "labels");
    if (st != CLRT_OK)
        return st;
    if (labels->ctx != q->ctx)
        return clrt__fail(CLRT_EINVAL, func, "labels belong to another context than the queue");
    if (labels->dtype != CLRT_INT32)
        return clrt__fail(CLRT_ESHAPE, func, "labels are %s; they must be int32", clrt__dtype_word((int)labels->dtype));
    const size_t n = logits->rows, c = logits->cols;
    if ((st = clrt__nn_shape(labels, n, 1, func, "labels")) != CLRT_OK ||
        (st = clrt__nn_shape(loss, 1, 1, func, "loss")) != CLRT_OK ||
        (dlogits && (st = clrt__nn_shape(dlogits, n, c, func, "dlogits")) != CLRT_OK))
        return st;
    if ((st = clrt__nn_apart(loss, logits, func, "loss", "logits")) != CLRT_OK ||
        (st = clrt__nn_apart(dlogits, logits, func, "dlogits", "logits")) != CLRT_OK ||
        (st = clrt__nn_apart(dlogits, loss, func, "dlogits", "loss")) != CLRT_OK)
        return st;
    if (c > INT32_MAX)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "%zu classes do not fit int32 labels", c);
    clrt__built *k;
    if ((st = clrt__nn_kernel(q, CLRT__K_NN_ACT, logits->dtype, func, &k)) != CLRT_OK)
        return st;
    /* xent_rows passes over a row three times: twice for the statistics, once for the gradient */
    const clrt__nn_params p = clrt__nnp(&k->p);
    const size_t slice = clrt__nn_slice(&p, 3, 0, c);
    clrt_buffer *rows = NULL;
    clrt__scratch_begin(q);
    st = clrt__scratch_matrix(q, CLRT__SCRATCH_SMALL, logits->dtype, n, 1, func, &rows);
    if (st == CLRT_OK && slice < c) {
        st = sliced(q, k, func, dlogits, logits, labels, rows, slice);
    } else if (st == CLRT_OK) {
        clrt__args a = {0};
        clrt__arg_ulong(&a, n);
        clrt__arg_ulong(&a, c);
        clrt__arg_matrix(&a, logits);
        clrt__arg_matrix(&a, labels);
        clrt__arg_mem(&a, rows->cl);
        clrt__arg_matrix(&a, dlogits ? dlogits : rows); /* not written without dlogits */
        clrt__arg_int(&a, dlogits != NULL);
        clrt__arg_real(&a, logits->dtype, 1.0 / (double)n);
        st = clrt__nn_launch(q, k, CLRT__NN_AUX, func, &a, n);
    }
    if (st == CLRT_OK)
        st = clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_ALL, loss, rows);
    clrt__scratch_end(q);
    return st;
}
