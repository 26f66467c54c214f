/* clrt_add: argument checks, then the context's kernel for the dtype
 * (kcache.h), launched with the geometry its parameters ask for. */
#include <stdio.h>

#include "context.h"
#include "debug.h"
#include "error.h"
#include "kcache.h"

/* Checks common to both ops, in the order that makes the status
 * predictable: live handles, then (matmul) c aliasing an input, then one
 * context, then one dtype. Shapes are the caller's. */
static int check_operands(const clrt_queue *q, const clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b,
                          int no_alias, const char *func)
{
    int status = clrt__check_queue(q, func);
    if (status == CLRT_OK)
        status = clrt__check_buffer(c, func, "c");
    if (status == CLRT_OK)
        status = clrt__check_buffer(a, func, "a");
    if (status == CLRT_OK)
        status = clrt__check_buffer(b, func, "b");
    if (status != CLRT_OK)
        return status;
    if (no_alias && (c == a || c == b))
        return clrt__fail(CLRT_EINVAL, func, "the output c is also an input; matmul cannot run in place");
    if (a->ctx != q->ctx || b->ctx != q->ctx || c->ctx != q->ctx)
        return clrt__fail(CLRT_EINVAL, func, "operands and queue belong to different contexts");
    if (a->dtype != b->dtype || a->dtype != c->dtype)
        return clrt__fail(CLRT_ESHAPE, func, "dtypes differ (c %d, a %d, b %d)", (int)c->dtype, (int)a->dtype,
                          (int)b->dtype);
    return CLRT_OK;
}

int clrt_add(clrt_queue *q, clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b)
{
    static const char func[] = "clrt_add";
    int status = check_operands(q, c, a, b, 0, func);
    if (status != CLRT_OK)
        return status;
    if (a->dtype == CLRT_INT32)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "arithmetic on int32 buffers is not supported");
    if (a->rows != b->rows || a->cols != b->cols || c->rows != a->rows || c->cols != a->cols)
        return clrt__fail(CLRT_ESHAPE, func, "shapes differ: c %zux%zu, a %zux%zu, b %zux%zu", c->rows, c->cols,
                          a->rows, a->cols, b->rows, b->cols);
    if ((status = clrt__check_in_place(c, a, "a", func)) != CLRT_OK ||
        (status = clrt__check_in_place(c, b, "b", func)) != CLRT_OK)
        return status;
    /* interim: the elementwise family's kernel (with offsets and strides) takes views */
    if (a->is_view || b->is_view || c->is_view)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "views are not supported by clrt_add yet");
    if ((status = clrt__check_usable(q->ctx, func)) != CLRT_OK)
        return status;
    clrt__built *k;
    status = clrt__kcache_get(q->ctx, CLRT__K_ADD, (int)a->dtype, 0, func, &k);
    if (status != CLRT_OK)
        return status;
    const clrt__add_params p = clrt__add(&k->p);
    cl_ulong n = (cl_ulong)a->rows * a->cols;
    size_t global[1], local[1];
    clrt__add_geometry(&p, (size_t)n, global, local);
    const size_t sizes[] = {sizeof n, sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem)};
    const void *const values[] = {&n, &a->cl, &b->cl, &c->cl};
    return clrt__launch(q, k, func, 4, sizes, values, 1, global, local);
}
