/* Built-in math: argument checks, then the context's kernel for the op and
 * dtype (kcache.h), launched with the geometry its parameters ask for. */
#include <limits.h>
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
    if (a->rows != b->rows || a->cols != b->cols || c->rows != a->rows || c->cols != a->cols)
        return clrt__fail(CLRT_ESHAPE, func, "shapes differ: c %zux%zu, a %zux%zu, b %zux%zu", c->rows, c->cols,
                          a->rows, a->cols, b->rows, b->cols);
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

/* matmul on a packed copy of B (cl/matmul_cpu.cl pack_b), per panels of columns at a time.
 * *done = 0 when the scratch cannot be had: the caller runs on B in place instead
 * (packing only makes it faster). */
static int matmul_packed(clrt_queue *q, clrt__built *k, const char *func, cl_uint M, cl_uint N, cl_uint K,
                         const clrt_buffer *a, const clrt_buffer *b, const clrt_buffer *c, size_t per, size_t elem,
                         int *done)
{
    const clrt__matmul_params p = clrt__mm(&k->p);
    const size_t panels = ((size_t)N + p.tn - 1) / p.tn;
    const size_t need = (per < panels ? per : panels) * K * p.tn * elem;
    *done = 0;
    clrt_mutex_lock(&q->scratch_lock);
    if (q->scratch_bytes < need) {
        /* grow: commands already queued keep the old buffer alive until they finish */
        if (q->scratch) {
            clReleaseMemObject(q->scratch);
            clrt__live(CLRT__LIVE_SCRATCH, -1);
            q->scratch = NULL;
            q->scratch_bytes = 0;
        }
        cl_int err = clrt__fault(CLRT__FAULT_CREATE_BUFFER);
        cl_mem s = NULL;
        if (err == CL_SUCCESS)
            s = clCreateBuffer(q->ctx->cl, CL_MEM_READ_WRITE, need, NULL, &err);
        if (err != CL_SUCCESS || !s) {
            clrt_mutex_unlock(&q->scratch_lock);
            return CLRT_OK;
        }
        clrt__live(CLRT__LIVE_SCRATCH, +1);
        q->scratch = s;
        q->scratch_bytes = need;
    }
    *done = 1;
    size_t global[2], local[2];
    clrt__matmul_geometry(&p, M, N, global, local);
    cl_uint bpacked = 1;
    const size_t msizes[] = {sizeof M, sizeof N, sizeof K, sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem),
                             sizeof bpacked};
    const void *const mvalues[] = {&M, &N, &K, &a->cl, &q->scratch, &c->cl, &bpacked};
    const size_t psizes[] = {sizeof N, sizeof K, sizeof(cl_mem), sizeof(cl_mem)};
    const void *const pvalues[] = {&N, &K, &b->cl, &q->scratch};
    int status = CLRT_OK;
    clrt_mutex_lock(&k->launch_lock);
    for (size_t p0 = 0; p0 < panels && status == CLRT_OK; p0 += per) {
        const size_t n = panels - p0 < per ? panels - p0 : per;
        size_t pglobal[2], plocal[2];
        clrt__matmul_pack_geometry(K, n, k->aux_wg, q->ctx->facts.max_work_item[0], pglobal, plocal);
        const size_t poffset[2] = {0, p0};
        status = clrt__enqueue_locked(q, k->aux, func, 4, psizes, pvalues, 2, poffset, pglobal, plocal);
        if (status != CLRT_OK)
            break;
        /* this slice's column tiles: panels p0 .. p0+n-1, whole work-groups */
        const size_t moffset[2] = {p0, 0};
        global[0] = (n + p.wgx - 1) / p.wgx * p.wgx;
        status = clrt__enqueue_locked(q, k->main, func, 7, msizes, mvalues, 2, moffset, global, local);
    }
    clrt_mutex_unlock(&k->launch_lock);
    clrt_mutex_unlock(&q->scratch_lock);
    return status;
}

int clrt_matmul(clrt_queue *q, clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b)
{
    static const char func[] = "clrt_matmul";
    int status = check_operands(q, c, a, b, 1, func);
    if (status != CLRT_OK)
        return status;
    if (a->cols != b->rows || c->rows != a->rows || c->cols != b->cols)
        return clrt__fail(CLRT_ESHAPE, func, "c(%zux%zu) = a(%zux%zu) b(%zux%zu): need a MxK, b KxN, c MxN", c->rows,
                          c->cols, a->rows, a->cols, b->rows, b->cols);
    if (a->rows > UINT_MAX || a->cols > UINT_MAX || b->cols > UINT_MAX)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "matmul dimensions above %u are not supported", UINT_MAX);
    if ((status = clrt__check_usable(q->ctx, func)) != CLRT_OK)
        return status;
    clrt__built *k;
    status = clrt__kcache_get(q->ctx, CLRT__K_MATMUL, (int)a->dtype, 0, func, &k);
    if (status != CLRT_OK)
        return status;
    const clrt__matmul_params p = clrt__mm(&k->p);
    cl_uint M = (cl_uint)a->rows, K = (cl_uint)a->cols, N = (cl_uint)b->cols;
    if (k->aux) {
        size_t elem = clrt__dtype_size((int)a->dtype);
        size_t per = clrt__matmul_pack_panels(&p, M, N, K, elem, clrt__matmul_pack_scratch_max(&q->ctx->facts, &p));
        int done = 0;
        if (per)
            status = matmul_packed(q, k, func, M, N, K, a, b, c, per, elem, &done);
        if (done)
            return status;
    }
    size_t global[2], local[2];
    clrt__matmul_geometry(&p, M, N, global, local);
    cl_uint bpacked = 0;
    const size_t sizes[] = {sizeof M, sizeof N, sizeof K, sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem),
                            sizeof bpacked};
    const void *const values[] = {&M, &N, &K, &a->cl, &b->cl, &c->cl, &bpacked};
    return clrt__launch(q, k, func, 7, sizes, values, 2, global, local);
}
