/* Launching the neural-network kernels (see launch.h). */
#include "nn/launch.h"

#include "kernels/nn.h"

int clrt__nn_kernel(clrt_queue *q, int kernel, clrt_dtype dtype, const char *func, clrt__built **out)
{
    int st = clrt__check_usable(q->ctx, func);
    if (st == CLRT_OK)
        st = clrt__kcache_get(q->ctx, kernel, (int)dtype, 0, func, out);
    return st;
}

int clrt__nn_launch(clrt_queue *q, clrt__built *k, int aux, const char *func, const clrt__args *a, size_t items)
{
    return clrt__nn_launch_wg(q, k, aux, func, a, items, clrt__nnp(&k->p).wg);
}

/* Enqueue k's main entry (aux < 0) or auxiliary entry aux under its launch lock. */
static int enqueue(clrt_queue *q, clrt__built *k, int aux, const char *func, const clrt__args *a, cl_uint dims,
                   const size_t *global, const size_t *local)
{
    clrt_mutex_lock(&k->launch_lock);
    const int st = clrt__enqueue_locked(q, aux < 0 ? k->main : k->aux[aux], func, a, dims, NULL, global, local);
    clrt_mutex_unlock(&k->launch_lock);
    return st;
}

int clrt__nn_launch_wg(clrt_queue *q, clrt__built *k, int aux, const char *func, const clrt__args *a, size_t items,
                       unsigned wg)
{
    clrt__nn_params p = clrt__nnp(&k->p);
    p.wg = wg;
    size_t global, local;
    /* the main entry's group was fitted to it; an auxiliary one may take fewer */
    clrt__nn_geometry(&p, aux < 0 ? 0 : k->aux_wg[aux], items, &global, &local);
    return enqueue(q, k, aux, func, a, 1, &global, &local);
}

int clrt__nn_launch_2d(clrt_queue *q, clrt__built *k, int aux, const char *func, const clrt__args *a, size_t cols,
                       size_t rows)
{
    const clrt__nn_params p = clrt__nnp(&k->p);
    size_t global[2], local[2] = {1, 1};
    clrt__nn_geometry(&p, aux < 0 ? 0 : k->aux_wg[aux], cols, &global[0], &local[0]);
    global[1] = rows;
    return enqueue(q, k, aux, func, a, 2, global, local);
}
