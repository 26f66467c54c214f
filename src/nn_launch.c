/* Launching the neural-network kernels (see nn_launch.h). */
#include "nn_launch.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "error.h"
#include "k_nn.h"
#include "kernels.h"

static void push(clrt__nn_args *a, size_t size, const void *value)
{
    /* the callers' argument lists are fixed and shorter than the array */
    if (a->n < CLRT__NN_MAX_ARGS) {
        a->sizes[a->n] = size;
        a->values[a->n] = value;
        a->n++;
    }
}

void clrt__nn_ulong(clrt__nn_args *a, size_t v)
{
    const unsigned at = a->n < CLRT__NN_MAX_ARGS ? a->n : 0;
    a->u[at] = (cl_ulong)v;
    push(a, sizeof(cl_ulong), &a->u[at]);
}

void clrt__nn_int(clrt__nn_args *a, int v)
{
    const unsigned at = a->n < CLRT__NN_MAX_ARGS ? a->n : 0;
    a->i[at] = (cl_int)v;
    push(a, sizeof(cl_int), &a->i[at]);
}

void clrt__nn_uint(clrt__nn_args *a, size_t v)
{
    const unsigned at = a->n < CLRT__NN_MAX_ARGS ? a->n : 0;
    a->i[at] = (cl_int)(cl_uint)v;
    push(a, sizeof(cl_uint), &a->i[at]);
}

void clrt__nn_real(clrt__nn_args *a, clrt_dtype dtype, double v)
{
    const unsigned at = a->n < CLRT__NN_MAX_ARGS ? a->n : 0;
    if (dtype == CLRT_FLOAT64) {
        a->d[at] = v;
        push(a, sizeof(cl_double), &a->d[at]);
    } else {
        a->f[at] = (cl_float)v;
        push(a, sizeof(cl_float), &a->f[at]);
    }
}

void clrt__nn_mem(clrt__nn_args *a, const clrt_buffer *b) { push(a, sizeof(cl_mem), &b->cl); }

void clrt__nn_matrix(clrt__nn_args *a, const clrt_buffer *b)
{
    clrt__nn_mem(a, b);
    clrt__nn_ulong(a, b->offset);
    clrt__nn_ulong(a, b->ld);
}

int clrt__nn_kernel(clrt_queue *q, int kernel, clrt_dtype dtype, const char *func, clrt__built **out)
{
    int st = clrt__check_usable(q->ctx, func);
    if (st == CLRT_OK)
        st = clrt__kcache_get(q->ctx, kernel, (int)dtype, 0, func, out);
    return st;
}

int clrt__nn_launch(clrt_queue *q, clrt__built *k, int aux, const char *func, const clrt__nn_args *a, size_t items)
{
    return clrt__nn_launch_wg(q, k, aux, func, a, items, clrt__nnp(&k->p).wg);
}

int clrt__nn_launch_wg(clrt_queue *q, clrt__built *k, int aux, const char *func, const clrt__nn_args *a, size_t items,
                       unsigned wg)
{
    clrt__nn_params p = clrt__nnp(&k->p);
    p.wg = wg;
    size_t global, local;
    /* the main entry's group was fitted to it; an auxiliary one may take fewer */
    clrt__nn_geometry(&p, aux < 0 ? 0 : k->aux_wg[aux], items, &global, &local);
    clrt_mutex_lock(&k->launch_lock);
    int st = clrt__enqueue_locked(q, aux < 0 ? k->main : k->aux[aux], func, a->n, a->sizes, a->values, 1, NULL,
                                  &global, &local);
    clrt_mutex_unlock(&k->launch_lock);
    return st;
}

int clrt__nn_launch_2d(clrt_queue *q, clrt__built *k, const char *func, const clrt__nn_args *a, size_t cols,
                       size_t rows)
{
    const clrt__nn_params p = clrt__nnp(&k->p);
    size_t global[2], local[2] = {1, 1};
    clrt__nn_geometry(&p, 0, cols, &global[0], &local[0]);
    global[1] = rows;
    return clrt__launch(q, k, func, a->n, a->sizes, a->values, 2, global, local);
}

struct clrt__nn_scratch {
    cl_mem mem[CLRT__NN_SLOTS];
    size_t bytes[CLRT__NN_SLOTS];
    clrt_buffer window[CLRT__NN_SLOTS]; /* the shape a call asked for, over mem */
};

void clrt__nn_begin(clrt_queue *q) { clrt_mutex_lock(&q->nn_lock); }

void clrt__nn_end(clrt_queue *q) { clrt_mutex_unlock(&q->nn_lock); }

void clrt__nn_scratch_free(clrt_queue *q)
{
    if (!q->nn)
        return;
    for (int i = 0; i < CLRT__NN_SLOTS; i++)
        if (q->nn->mem[i]) {
            clReleaseMemObject(q->nn->mem[i]);
            clrt__live(CLRT__LIVE_SCRATCH, -1);
        }
    free(q->nn);
    q->nn = NULL;
}

/* A buffer handle of rows x cols over mem, for the calls below (never given out). */
static clrt_buffer *window(clrt_queue *q, int slot, clrt_dtype dtype, size_t rows, size_t cols)
{
    clrt_buffer *w = &q->nn->window[slot];
    memset(w, 0, sizeof *w);
    w->tag = CLRT__TAG_BUFFER;
    w->ctx = q->ctx;
    w->cl = q->nn->mem[slot];
    w->dtype = dtype;
    w->rows = rows;
    w->cols = cols;
    w->ld = cols;
    w->elem = clrt__dtype_size((int)dtype);
    w->is_view = 1; /* it owns nothing */
    return w;
}

/* Grow slot to bytes; on an emulator the new memory is zeroed from the host
 * (clrt__zero_on_emulator says why). */
static int grow(clrt_queue *q, int slot, size_t bytes, const char *func)
{
    struct clrt__nn_scratch *s = q->nn;
    if (s->bytes[slot] >= bytes)
        return CLRT_OK;
    if (s->mem[slot]) {
        clReleaseMemObject(s->mem[slot]);
        clrt__live(CLRT__LIVE_SCRATCH, -1);
        s->mem[slot] = NULL;
        s->bytes[slot] = 0;
    }
    if ((uint64_t)bytes > q->ctx->info.max_alloc)
        return clrt__fail(CLRT_ENOMEM, func, "an intermediate of %zu bytes is above the largest buffer device '%s' allows",
                          bytes, q->ctx->info.name);
    cl_int err = clrt__fault(CLRT__FAULT_CREATE_BUFFER);
    cl_mem m = NULL;
    if (err == CL_SUCCESS)
        m = clCreateBuffer(q->ctx->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS || !m)
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clCreateBuffer", &q->ctx->info,
                             "cannot allocate an intermediate of %zu bytes", bytes);
    clrt__live(CLRT__LIVE_SCRATCH, +1);
    s->mem[slot] = m;
    s->bytes[slot] = bytes;
    err = clrt__zero_on_emulator(q, m, bytes);
    if (err != CL_SUCCESS)
        return clrt__context_fail_late(q->ctx, func, err, "clEnqueueWriteBuffer");
    return CLRT_OK;
}

int clrt__nn_temp(clrt_queue *q, int slot, clrt_dtype dtype, size_t rows, size_t cols, const char *func,
                  clrt_buffer **out)
{
    *out = NULL;
    size_t bytes;
    if (clrt__matrix_bytes(rows, cols, clrt__dtype_size((int)dtype), &bytes) != 0)
        return clrt__fail(CLRT_ESHAPE, func, "a %zu x %zu intermediate overflows", rows, cols);
    if (!q->nn && !(q->nn = calloc(1, sizeof *q->nn)))
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    int st = grow(q, slot, bytes, func);
    if (st == CLRT_OK)
        *out = window(q, slot, dtype, rows, cols);
    return st;
}
