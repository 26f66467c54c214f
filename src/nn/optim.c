/* clrt_nn_sgd_step (one launch: nn_act's sgd_momentum, or axpby without
 * momentum) and clrt_nn_init_kaiming_uniform (host numbers, then written). */
#include <math.h>
#include <stdlib.h>

#include "base/error.h"
#include "kernels/table.h"
#include "nn/check.h"
#include "nn/launch.h"

int clrt_nn_sgd_step(clrt_queue *q, clrt_buffer *p, const clrt_buffer *g, clrt_buffer *v, double lr, double mu,
                     double wd)
{
    static const char func[] = "clrt_nn_sgd_step";
    const clrt__nn_arg ops[] = {{p, "p"}, {g, "g"}};
    int st = clrt__nn_operands(q, ops, sizeof ops / sizeof *ops, func);
    if (st == CLRT_OK && v)
        st = clrt__nn_operand(q, v, p, func, "v");
    if (st != CLRT_OK)
        return st;
    if (!isfinite(lr) || !isfinite(mu) || !isfinite(wd))
        return clrt__fail(CLRT_EINVAL, func, "lr %g, mu %g and wd %g must be finite", lr, mu, wd);
    if (mu != 0 && !v)
        return clrt__fail(CLRT_EINVAL, func, "momentum %g needs a velocity buffer v", mu);
    if ((st = clrt__nn_shape(g, p->rows, p->cols, func, "g")) != CLRT_OK ||
        (v && (st = clrt__nn_shape(v, p->rows, p->cols, func, "v")) != CLRT_OK))
        return st;
    if ((st = clrt__nn_apart(p, g, func, "p", "g")) != CLRT_OK || (st = clrt__nn_apart(v, g, func, "v", "g")) != CLRT_OK ||
        (st = clrt__nn_apart(v, p, func, "v", "p")) != CLRT_OK)
        return st;
    if (mu == 0) /* p = p - lr (g + wd p) */
        return clrt_axpby(q, -lr, g, 1.0 - lr * wd, p);
    /* v = mu v + g + wd p, p = p - lr v in one pass: a training step updates
     * every tensor, and on a CPU each launch saved is tens of microseconds */
    clrt__built *k;
    if ((st = clrt__nn_kernel(q, CLRT__K_NN_ACT, p->dtype, func, &k)) != CLRT_OK)
        return st;
    clrt__args a = {0};
    clrt__arg_ulong(&a, p->rows);
    clrt__arg_ulong(&a, p->cols);
    clrt__arg_matrix(&a, p);
    clrt__arg_matrix(&a, g);
    clrt__arg_matrix(&a, v);
    clrt__arg_real(&a, p->dtype, lr);
    clrt__arg_real(&a, p->dtype, mu);
    clrt__arg_real(&a, p->dtype, wd);
    return clrt__nn_launch_2d(q, k, CLRT__NN_AUX_SGD, func, &a, p->cols, p->rows);
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int fill_uniform(clrt_queue *q, clrt_buffer *b, double bound, uint64_t *state, const char *func)
{
    const size_t count = b->rows * b->cols, esz = b->dtype == CLRT_FLOAT64 ? 8 : 4;
    void *h = malloc(count * esz);
    if (!h)
        return clrt__fail(CLRT_ENOMEM, func, "no host memory for %zu values", count);
    for (size_t i = 0; i < count; i++) {
        const double u = (double)(splitmix64(state) >> 11) * 0x1p-53;
        const double x = bound * (2.0 * u - 1.0);
        if (esz == 8)
            ((double *)h)[i] = x;
        else
            ((float *)h)[i] = (float)x;
    }
    int st = clrt_buffer_write(q, b, h, count);
    free(h);
    return st;
}

int clrt_nn_init_kaiming_uniform(clrt_queue *q, clrt_buffer *w, clrt_buffer *b, uint64_t seed)
{
    static const char func[] = "clrt_nn_init_kaiming_uniform";
    int st = clrt__check_queue(q, func);
    if (st == CLRT_OK)
        st = clrt__nn_operand(q, w, NULL, func, "w");
    if (st == CLRT_OK && b)
        st = clrt__nn_operand(q, b, w, func, "b");
    if (st == CLRT_OK && b)
        st = clrt__nn_shape(b, 1, w->rows, func, "b");
    if (st == CLRT_OK)
        st = clrt__nn_apart(b, w, func, "b", "w");
    if (st != CLRT_OK)
        return st;
    /* gain sqrt(2 / (1 + a^2)) with a = sqrt(5) times sqrt(3 / fan_in): 1/sqrt(fan_in) */
    const double bound = 1.0 / sqrt((double)w->cols);
    uint64_t state = seed;
    st = fill_uniform(q, w, bound, &state, func);
    if (st == CLRT_OK && b)
        st = fill_uniform(q, b, bound, &state, func);
    return st;
}
