/* Built-in math: argument checks, then the kernel for (op, dtype) of this
 * context, built on first use with parameters fitted to the device. */
#include <limits.h>
#include <stdio.h>

#include "debug.h"
#include "internal.h"
#include "tuned.h"

static const char *const op_kernel_name[CLRT_OP_COUNT] = {"add", "matmul"};

static const char *op_source(int op) { return op == CLRT_OP_ADD ? clrt_cl_add : clrt_cl_matmul; }

/* The device's default parameters for op. */
static void device_defaults(const clrt_context *ctx, int op, size_t elem, clrt_op_kernel *k)
{
    if (op == CLRT_OP_ADD)
        clrt_add_params_default(&ctx->facts, elem, &k->params.add);
    else
        clrt_matmul_params_default(&ctx->facts, elem, &k->params.matmul);
}

/* The parameters to build with: the test seam's override if set, else the
 * device's tuned parameters when it has valid ones (tuned.h: read from disk,
 * every value checked), else the defaults. Sets k->tuned. */
static void choose_params(const clrt_context *ctx, int op, size_t elem, clrt_op_kernel *k)
{
    const clrt_dtype dtype = elem == 8 ? CLRT_FLOAT64 : CLRT_FLOAT32;
    k->tuned = 0;
    if (op == CLRT_OP_ADD ? clrt__override_add(&k->params.add) : clrt__override_matmul(&k->params.matmul))
        return;
    device_defaults(ctx, op, elem, k);
    k->tuned = op == CLRT_OP_ADD ? clrt__tuned_params(ctx, op, dtype, &k->params.add)
                                 : clrt__tuned_params(ctx, op, dtype, &k->params.matmul);
}

static int options_for(const clrt_op_kernel *k, int op, size_t elem, char *buf, size_t cap)
{
    return op == CLRT_OP_ADD ? clrt_add_options(&k->params.add, elem, buf, cap)
                             : clrt_matmul_options(&k->params.matmul, elem, buf, cap);
}

/* Fit the parameters to what the built kernel can really do: drivers may
 * allow fewer work-items per group for a given kernel than the device maximum
 * (registers), and local memory is a hard limit. 1 = changed, rebuild. */
static int fit(clrt_context *ctx, int op, size_t elem, clrt_op_kernel *k, size_t kernel_wg)
{
    if (op == CLRT_OP_ADD)
        return clrt_add_params_shrink(&k->params.add, kernel_wg);
    return clrt_matmul_params_shrink(&k->params.matmul, kernel_wg, (size_t)ctx->facts.local_mem, elem);
}

/* matmul with B packing: pack_b, from the same program (same tile sizes). */
static int create_pack(clrt_context *ctx, cl_program program, clrt_op_kernel *k, const char *func)
{
    cl_int err = clrt__fault(CLRT_FAULT_CREATE_KERNEL);
    cl_kernel pack = NULL;
    if (err == CL_SUCCESS)
        pack = clCreateKernel(program, "pack_b", &err);
    if (err != CL_SUCCESS || !pack)
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clCreateKernel", ctx,
                             "cannot create kernel 'pack_b'");
    clrt__live(CLRT_LIVE_KERNEL, +1);
    size_t wg = 0;
    if (clGetKernelWorkGroupInfo(pack, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL) != CL_SUCCESS)
        wg = ctx->facts.max_work_group;
    k->pack = pack;
    k->pack_wg = wg;
    return CLRT_OK;
}

/* Build the kernel with k's parameters, shrinking them (and rebuilding)
 * until the built kernel accepts them. On success k->kernel (and k->pack)
 * are set. */
static int build_fitted(clrt_context *ctx, int op, size_t elem, clrt_op_kernel *k, const char *func)
{
    for (int attempt = 0; attempt < 16; attempt++) {
        char options[512];
        if (options_for(k, op, elem, options, sizeof options) != 0)
            return clrt__fail(CLRT_EOPENCL, func, "kernel options too long");
        cl_program program;
        int status = clrt__program_get(ctx, op_source(op), 1, options, func, &program);
        if (status != CLRT_OK)
            return status;
        cl_int err = clrt__fault(CLRT_FAULT_CREATE_KERNEL);
        cl_kernel kernel = NULL;
        if (err == CL_SUCCESS)
            kernel = clCreateKernel(program, op_kernel_name[op], &err);
        if (err != CL_SUCCESS || !kernel)
            return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clCreateKernel", ctx,
                                 "cannot create kernel '%s'", op_kernel_name[op]);
        clrt__live(CLRT_LIVE_KERNEL, +1);
        size_t kernel_wg = 0;
        if (clGetKernelWorkGroupInfo(kernel, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_wg, &kernel_wg,
                                     NULL) != CL_SUCCESS)
            kernel_wg = ctx->facts.max_work_group;
        int changed = fit(ctx, op, elem, k, kernel_wg);
        if (changed == 0 && op == CLRT_OP_MATMUL && k->params.matmul.pack && !k->params.matmul.use_local)
            status = create_pack(ctx, program, k, func);
        if (changed == 0 && status == CLRT_OK) {
            k->kernel = kernel;
            return CLRT_OK;
        }
        clReleaseKernel(kernel);
        clrt__live(CLRT_LIVE_KERNEL, -1);
        if (status != CLRT_OK)
            return status;
        if (changed < 0)
            return clrt__fail(CLRT_EUNSUPPORTED, func, "kernel '%s' cannot fit device '%s' (%zu work-items per group)",
                              op_kernel_name[op], ctx->info.name, kernel_wg);
    }
    return clrt__fail(CLRT_EUNSUPPORTED, func, "no kernel parameters fit device '%s'", ctx->info.name);
}

/* Build (once) the kernel of op for dtype and settle its parameters. */
static int resolve(clrt_context *ctx, int op, clrt_dtype dtype, const char *func, clrt_op_kernel **out)
{
    clrt_op_kernel *k = &ctx->ops[op][dtype - 1];
    *out = k;
    if (atomic_load_explicit(&k->ready, memory_order_acquire))
        return CLRT_OK;

    clrt_mutex_lock(&k->launch_lock);
    int status = CLRT_OK;
    if (!atomic_load_explicit(&k->ready, memory_order_relaxed)) {
        size_t elem = clrt__dtype_size((int)dtype);
        choose_params(ctx, op, elem, k);
        status = build_fitted(ctx, op, elem, k, func);
        if (status != CLRT_OK && k->tuned) {
            /* tuned parameters that do not build or fit: the defaults instead */
            clrt__tuned_rejected(ctx, op, dtype, clrt_error_message());
            k->tuned = 0;
            device_defaults(ctx, op, elem, k);
            status = build_fitted(ctx, op, elem, k, func);
        }
        if (status == CLRT_OK)
            atomic_store_explicit(&k->ready, 1, memory_order_release);
    }
    clrt_mutex_unlock(&k->launch_lock);
    return status;
}

void clrt__ops_release(clrt_context *ctx)
{
    for (int op = 0; op < CLRT_OP_COUNT; op++)
        for (int t = 0; t < 2; t++)
            for (int w = 0; w < 2; w++) {
                cl_kernel *kp = w ? &ctx->ops[op][t].pack : &ctx->ops[op][t].kernel;
                if (*kp) {
                    clReleaseKernel(*kp);
                    clrt__live(CLRT_LIVE_KERNEL, -1);
                    *kp = NULL;
                }
            }
}

/* Set the arguments and enqueue; the caller holds the op's launch lock, so
 * that no other thread changes the kernel's arguments in between. */
static int enqueue_locked(clrt_queue *q, cl_kernel kernel, const char *func, unsigned nargs, const size_t *sizes,
                          const void *const *values, cl_uint dims, const size_t *offset, const size_t *global,
                          const size_t *local)
{
    cl_int err = clrt__fault(CLRT_FAULT_SET_ARG);
    for (cl_uint i = 0; i < nargs && err == CL_SUCCESS; i++)
        err = clSetKernelArg(kernel, i, sizes[i], values[i]);
    if (err != CL_SUCCESS) {
        /* CL_OUT_OF_RESOURCES / CL_OUT_OF_HOST_MEMORY are memory, like everywhere else */
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clSetKernelArg", q->ctx,
                             "cannot set arguments");
    }
    err = clrt__fault(CLRT_FAULT_ENQUEUE_KERNEL);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(q->cl, kernel, dims, offset, global, local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        return CLRT_OK;
    int status = clrt__status_from_cl(err);
    if (status == CLRT_EDEVICE)
        return clrt__context_fail_late(q->ctx, func, err, "clEnqueueNDRangeKernel");
    return clrt__fail_cl(status, func, err, "clEnqueueNDRangeKernel", q->ctx, "cannot launch");
}

static int launch(clrt_queue *q, clrt_op_kernel *k, const char *func, unsigned nargs, const size_t *sizes,
                  const void *const *values, cl_uint dims, const size_t *global, const size_t *local)
{
    clrt_mutex_lock(&k->launch_lock);
    int status = enqueue_locked(q, k->kernel, func, nargs, sizes, values, dims, NULL, global, local);
    clrt_mutex_unlock(&k->launch_lock);
    return status;
}

/* Checks common to both ops, in the order that makes the status
 * predictable: live handles, then (matmul) c aliasing an input, then one
 * context, then one dtype. Shapes are the caller's. */
static int check_operands(const clrt_queue *q, const clrt_buffer *c, const clrt_buffer *a,
                          const clrt_buffer *b, int no_alias, const char *func)
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
        return clrt__fail(CLRT_ESHAPE, func, "dtypes differ (c %d, a %d, b %d)", (int)c->dtype,
                          (int)a->dtype, (int)b->dtype);
    return CLRT_OK;
}

int clrt_add(clrt_queue *q, clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b)
{
    static const char func[] = "clrt_add";
    int status = check_operands(q, c, a, b, 0, func);
    if (status != CLRT_OK)
        return status;
    if (a->rows != b->rows || a->cols != b->cols || c->rows != a->rows || c->cols != a->cols)
        return clrt__fail(CLRT_ESHAPE, func, "shapes differ: c %zux%zu, a %zux%zu, b %zux%zu", c->rows,
                          c->cols, a->rows, a->cols, b->rows, b->cols);
    if ((status = clrt__check_usable(q->ctx, func)) != CLRT_OK)
        return status;
    clrt_op_kernel *k;
    status = resolve(q->ctx, CLRT_OP_ADD, a->dtype, func, &k);
    if (status != CLRT_OK)
        return status;
    cl_ulong n = (cl_ulong)a->rows * a->cols;
    size_t global[1], local[1];
    clrt_add_geometry(&k->params.add, (size_t)n, global, local);
    const size_t sizes[] = {sizeof n, sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem)};
    const void *const values[] = {&n, &a->cl, &b->cl, &c->cl};
    return launch(q, k, func, 4, sizes, values, 1, global, local);
}

/* matmul on a packed copy of B (cl/matmul.cl pack_b), per panels of columns at a time.
 * *done = 0 when the scratch cannot be had: the caller runs on B in place instead
 * (packing only makes it faster). */
static int matmul_packed(clrt_queue *q, clrt_op_kernel *k, const char *func, cl_uint M, cl_uint N, cl_uint K,
                         const clrt_buffer *a, const clrt_buffer *b, const clrt_buffer *c, size_t per, size_t elem,
                         int *done)
{
    const clrt_matmul_params *p = &k->params.matmul;
    const size_t panels = ((size_t)N + p->tn - 1) / p->tn;
    const size_t need = (per < panels ? per : panels) * K * p->tn * elem;
    *done = 0;
    clrt_mutex_lock(&q->scratch_lock);
    if (q->scratch_bytes < need) {
        /* grow: commands already queued keep the old buffer alive until they finish */
        if (q->scratch) {
            clReleaseMemObject(q->scratch);
            clrt__live(CLRT_LIVE_SCRATCH, -1);
            q->scratch = NULL;
            q->scratch_bytes = 0;
        }
        cl_int err = clrt__fault(CLRT_FAULT_CREATE_BUFFER);
        cl_mem s = NULL;
        if (err == CL_SUCCESS)
            s = clCreateBuffer(q->ctx->cl, CL_MEM_READ_WRITE, need, NULL, &err);
        if (err != CL_SUCCESS || !s) {
            clrt_mutex_unlock(&q->scratch_lock);
            return CLRT_OK;
        }
        clrt__live(CLRT_LIVE_SCRATCH, +1);
        q->scratch = s;
        q->scratch_bytes = need;
    }
    *done = 1;
    size_t global[2], local[2];
    clrt_matmul_geometry(p, M, N, global, local);
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
        clrt_matmul_pack_geometry(K, n, k->pack_wg, q->ctx->facts.max_work_item[0], pglobal, plocal);
        const size_t poffset[2] = {0, p0};
        status = enqueue_locked(q, k->pack, func, 4, psizes, pvalues, 2, poffset, pglobal, plocal);
        if (status != CLRT_OK)
            break;
        /* this slice's column tiles: panels p0 .. p0+n-1, whole work-groups */
        const size_t moffset[2] = {p0, 0};
        global[0] = (n + p->wgx - 1) / p->wgx * p->wgx;
        status = enqueue_locked(q, k->kernel, func, 7, msizes, mvalues, 2, moffset, global, local);
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
        return clrt__fail(CLRT_ESHAPE, func, "c(%zux%zu) = a(%zux%zu) b(%zux%zu): need a MxK, b KxN, c MxN",
                          c->rows, c->cols, a->rows, a->cols, b->rows, b->cols);
    if (a->rows > UINT_MAX || a->cols > UINT_MAX || b->cols > UINT_MAX)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "matmul dimensions above %u are not supported", UINT_MAX);
    if ((status = clrt__check_usable(q->ctx, func)) != CLRT_OK)
        return status;
    clrt_op_kernel *k;
    status = resolve(q->ctx, CLRT_OP_MATMUL, a->dtype, func, &k);
    if (status != CLRT_OK)
        return status;
    cl_uint M = (cl_uint)a->rows, K = (cl_uint)a->cols, N = (cl_uint)b->cols;
    if (k->pack) {
        size_t max_scratch = clrt__pack_scratch_max(&q->ctx->facts);
        size_t elem = clrt__dtype_size((int)a->dtype);
        size_t per = clrt_matmul_pack_panels(&k->params.matmul, M, N, K, elem, max_scratch);
        int done = 0;
        if (per)
            status = matmul_packed(q, k, func, M, N, K, a, b, c, per, elem, &done);
        if (done)
            return status;
    }
    size_t global[2], local[2];
    clrt_matmul_geometry(&k->params.matmul, M, N, global, local);
    cl_uint bpacked = 0;
    const size_t sizes[] = {sizeof M, sizeof N, sizeof K, sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem),
                            sizeof bpacked};
    const void *const values[] = {&M, &N, &K, &a->cl, &b->cl, &c->cl, &bpacked};
    return launch(q, k, func, 7, sizes, values, 2, global, local);
}
