/* Launching the neural-network kernels (see nn_launch.h). */
#include "nn_launch.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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
    const clrt__nn_params p = clrt__nnp(&k->p);
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

int clrt__nn_temp(clrt_queue *q, clrt_dtype dtype, size_t rows, size_t cols, const char *func, clrt_buffer **out)
{
    *out = NULL;
    int st = clrt_buffer_create(out, q->ctx, dtype, rows, cols);
    if (st != CLRT_OK) {
        /* name the layer, keep the buffer's reason */
        char why[256];
        snprintf(why, sizeof why, "%s", clrt_error_message());
        return clrt__fail(st, func, "cannot make a %zu x %zu intermediate: %s", rows, cols, why);
    }
    /* Oclgrind (21.10) never frees the shadow memory of a released buffer: a
     * new buffer that gets the released one's id keeps its size, and what a
     * kernel writes past that size still reads as uninitialised (a false
     * report; docs/nn.md has the reproducer). A host write sizes the shadow
     * anew, so on an emulator every intermediate starts as zeros from the host. */
    if (q->ctx->facts.emulator) {
        void *zeros = calloc(rows * cols, clrt__dtype_size((int)dtype));
        if (!zeros)
            st = clrt__fail(CLRT_ENOMEM, func, "no host memory for a %zu x %zu intermediate", rows, cols);
        else
            st = clrt_buffer_write(q, *out, zeros, rows * cols);
        free(zeros);
        if (st != CLRT_OK) {
            clrt_buffer_destroy(*out);
            *out = NULL;
        }
    }
    return st;
}
