/* clrt_nn_softmax_xent: softmax cross-entropy through the math family.
 * The labels come to the host (to check their range and make the one-hot
 * matrix), so the call waits for q; the rest is enqueued:
 *   m = row maxima; z = logits - m; e = exp(z); s = row sums of e
 *   logp = z - log(s); p = e / s
 *   loss = -(1/N) sum(onehot * logp); dlogits = (p - onehot) / N
 * Subtracting m keeps exp from overflowing (the largest term is exp(0)). */
#include <stdint.h>
#include <stdlib.h>

#include "error.h"
#include "kernels.h"
#include "nn_check.h"

static int temp(clrt_buffer **out, clrt_queue *q, clrt_dtype dt, size_t rows, size_t cols)
{
    return clrt_buffer_create(out, q->ctx, dt, rows, cols);
}

static int compute(clrt_queue *q, clrt_buffer *loss, clrt_buffer *p, const clrt_buffer *logits, clrt_buffer *onehot,
                   clrt_buffer *z, clrt_buffer *e, clrt_buffer *m, clrt_buffer *s)
{
    const double n = (double)logits->rows;
    int st = clrt_reduce(q, CLRT_REDUCE_MAX, CLRT_EACH_ROW, m, logits);
    if (st == CLRT_OK)
        st = clrt_binary(q, CLRT_OP_SUB, z, logits, m);
    if (st == CLRT_OK)
        st = clrt_unary(q, CLRT_OP_EXP, e, z);
    if (st == CLRT_OK)
        st = clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_EACH_ROW, s, e);
    if (st == CLRT_OK)
        st = clrt_binary(q, CLRT_OP_DIV, p, e, s);
    if (st == CLRT_OK)
        st = clrt_unary(q, CLRT_OP_LOG, s, s);
    if (st == CLRT_OK)
        st = clrt_binary(q, CLRT_OP_SUB, z, z, s); /* log softmax */
    if (st == CLRT_OK)
        st = clrt_binary(q, CLRT_OP_MUL, z, z, onehot);
    if (st == CLRT_OK)
        st = clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_ALL, loss, z);
    if (st == CLRT_OK)
        st = clrt_scale(q, loss, -1.0 / n, loss);
    if (st == CLRT_OK)
        st = clrt_binary(q, CLRT_OP_SUB, p, p, onehot);
    if (st == CLRT_OK)
        st = clrt_scale(q, p, 1.0 / n, p);
    return st;
}

int clrt_nn_softmax_xent(clrt_queue *q, clrt_buffer *loss, clrt_buffer *dlogits, const clrt_buffer *logits,
                         const clrt_buffer *labels)
{
    static const char func[] = "clrt_nn_softmax_xent";
    int st = clrt__check_queue(q, func);
    if (st == CLRT_OK)
        st = clrt__nn_operand(q, logits, NULL, func, "logits");
    if (st == CLRT_OK)
        st = clrt__nn_operand(q, loss, logits, func, "loss");
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
    const size_t esz = logits->dtype == CLRT_FLOAT64 ? 8 : 4;
    int32_t *lab = malloc(n * sizeof *lab);
    unsigned char *oh = calloc(n * c, esz);
    if (!lab || !oh) {
        free(lab);
        free(oh);
        return clrt__fail(CLRT_ENOMEM, func, "no host memory for %zu labels", n);
    }
    st = clrt_buffer_read(q, labels, lab, n);
    for (size_t i = 0; st == CLRT_OK && i < n; i++) {
        if (lab[i] < 0 || (size_t)lab[i] >= c)
            st = clrt__fail(CLRT_EINVAL, func, "label %zu is %ld; with %zu classes it must be 0..%zu", i, (long)lab[i],
                            c, c - 1);
        else if (esz == 8)
            ((double *)(void *)oh)[i * c + (size_t)lab[i]] = 1.0;
        else
            ((float *)(void *)oh)[i * c + (size_t)lab[i]] = 1.0f;
    }
    free(lab);
    clrt_buffer *onehot = NULL, *z = NULL, *e = NULL, *m = NULL, *s = NULL, *p = NULL;
    const clrt_dtype dt = logits->dtype;
    if (st == CLRT_OK && (st = temp(&onehot, q, dt, n, c)) == CLRT_OK && (st = temp(&z, q, dt, n, c)) == CLRT_OK &&
        (st = temp(&e, q, dt, n, c)) == CLRT_OK && (st = temp(&m, q, dt, n, 1)) == CLRT_OK &&
        (st = temp(&s, q, dt, n, 1)) == CLRT_OK && (dlogits || (st = temp(&p, q, dt, n, c)) == CLRT_OK))
        st = clrt_buffer_write(q, onehot, oh, n * c);
    free(oh);
    if (st == CLRT_OK)
        st = compute(q, loss, dlogits ? dlogits : p, logits, onehot, z, e, m, s);
    clrt_buffer *tmp[] = {onehot, z, e, m, s, p};
    for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++)
        if (tmp[i])
            clrt_buffer_destroy(tmp[i]);
    return st;
}
