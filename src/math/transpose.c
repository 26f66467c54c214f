/* clrt_transpose: argument checks, the context's transpose kernel (the
 * float32 one for int32: it moves 4-byte words), and its launch. */
#include "base/error.h"
#include "math/widen.h"
#include "runtime/context.h"
#include "runtime/kcache.h"

int clrt_transpose(clrt_queue *q, clrt_buffer *c, const clrt_buffer *a)
{
    static const char func[] = "clrt_transpose";
    int status = clrt__check_queue(q, func);
    if (status == CLRT_OK)
        status = clrt__check_buffer(c, func, "c");
    if (status == CLRT_OK)
        status = clrt__check_buffer(a, func, "a");
    if (status != CLRT_OK)
        return status;
    /* c's elements are written while other work-items still read a's */
    if (clrt__overlap(c, a))
        return clrt__fail(CLRT_EINVAL, func, "the output c shares memory with a; a transpose cannot run in place");
    if (a->ctx != q->ctx || c->ctx != q->ctx)
        return clrt__fail(CLRT_EINVAL, func, "operands and queue belong to different contexts");
    if (a->dtype != c->dtype)
        return clrt__fail(CLRT_ESHAPE, func, "dtypes differ (c %s, a %s)", clrt__dtype_word((int)c->dtype),
                          clrt__dtype_word((int)a->dtype));
    if (c->rows != a->cols || c->cols != a->rows)
        return clrt__fail(CLRT_ESHAPE, func, "c is %zux%zu; the transpose of a %zux%zu matrix is %zux%zu", c->rows,
                          c->cols, a->rows, a->cols, a->cols, a->rows);
    if ((status = clrt__check_usable(q->ctx, func)) != CLRT_OK)
        return status;
    if (clrt__is_16bit(a->dtype)) { /* widened to float32 and back, exact both ways (math/widen.h) */
        clrt__widening w = {0};
        const clrt_buffer *wa, *wc;
        status = clrt__widen(q, &w, a, 1, func, &wa);
        if (status == CLRT_OK)
            status = clrt__widen(q, &w, c, 0, func, &wc);
        if (status == CLRT_OK)
            status = clrt_transpose(q, (clrt_buffer *)wc, wa);
        status = clrt__narrow(q, c, wc, status, func);
        clrt__widen_done(&w);
        return status;
    }
    clrt__built *k;
    const int dtype = a->dtype == CLRT_FLOAT64 ? CLRT_FLOAT64 : CLRT_FLOAT32;
    status = clrt__kcache_get(q->ctx, CLRT__K_TRANSPOSE, dtype, 0, func, &k);
    if (status != CLRT_OK)
        return status;
    const clrt__transpose_params p = clrt__tp(&k->p);
    size_t global[2], local[2];
    const cl_uint dims = clrt__transpose_geometry(&p, a->rows, a->cols, global, local);
    clrt__args args = {0};
    clrt__arg_ulong(&args, a->rows);
    clrt__arg_ulong(&args, a->cols);
    clrt__arg_matrix(&args, a);
    clrt__arg_matrix(&args, c);
    return clrt__launch(q, k, func, &args, dims, global, local);
}
