/* clrt_nn_pool2d_output, clrt_nn_maxpool_forward and _backward: argument
 * checks and one launch each of nn_pool's kernels (cl/nn_pool.cl): the
 * forward pass one work-item per output row, the backward pass a gather, one
 * work-item per row of dx summing the dy of every window that chose each of
 * its elements (no atomics; overlapping windows are right), or, when the
 * windows tile the image (stride == size), one work-item per row of windows
 * writing their rows of dx whole. */
#include <stdint.h>

#include "base/error.h"
#include "kernels/nn.h"
#include "kernels/table.h"
#include "nn/check.h"
#include "nn/launch.h"

static int geometry(const clrt_pool2d_shape *s, size_t *out_h, size_t *out_w, const char *func)
{
    if (!s)
        return clrt__fail(CLRT_EINVAL, func, "the shape s is NULL");
    const struct {
        size_t v;
        const char *name;
    } fields[] = {{s->channels, "channels"}, {s->height, "height"}, {s->width, "width"}, {s->size, "size"},
                  {s->stride, "stride"}};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        if (fields[i].v == 0)
            return clrt__fail(CLRT_EINVAL, func, "s->%s is 0", fields[i].name);
    if (s->size > s->height || s->size > s->width)
        return clrt__fail(CLRT_ESHAPE, func, "a %zu x %zu window is larger than the %zu x %zu image", s->size,
                          s->size, s->height, s->width);
    /* argmax holds positions within a plane as int32 */
    if (s->height > INT32_MAX / s->width)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "a %zu x %zu plane has more positions than int32 holds",
                          s->height, s->width);
    *out_h = (s->height - s->size) / s->stride + 1;
    *out_w = (s->width - s->size) / s->stride + 1;
    return CLRT_OK;
}

int clrt_nn_pool2d_output(const clrt_pool2d_shape *s, size_t *out_h, size_t *out_w)
{
    static const char func[] = "clrt_nn_pool2d_output";
    if (!out_h || !out_w)
        return clrt__fail(CLRT_EINVAL, func, "%s is NULL", out_h ? "out_w" : "out_h");
    return geometry(s, out_h, out_w, func);
}

/* Row lengths of x (channels*height*width) and y (channels*out_h*out_w). */
static int row_sizes(const clrt_pool2d_shape *s, size_t *oh, size_t *ow, size_t *in, size_t *out, const char *func)
{
    int st = geometry(s, oh, ow, func);
    if (st != CLRT_OK)
        return st;
    const size_t plane = s->height * s->width; /* fits int32 (geometry) */
    if (s->channels > SIZE_MAX / plane)
        return clrt__fail(CLRT_ESHAPE, func, "%zu channels of %zu x %zu overflow", s->channels, s->height, s->width);
    *in = s->channels * plane;
    *out = s->channels * *oh * *ow;
    return CLRT_OK;
}

/* argmax: a live int32 matrix of q's context, rows x cols. */
static int argmax_operand(const clrt_queue *q, const clrt_buffer *am, size_t rows, size_t cols, const char *func)
{
    int st = clrt__check_buffer(am, func, "argmax");
    if (st != CLRT_OK)
        return st;
    if (am->ctx != q->ctx)
        return clrt__fail(CLRT_EINVAL, func, "argmax belongs to another context than the queue");
    if (am->dtype != CLRT_INT32)
        return clrt__fail(CLRT_ESHAPE, func, "argmax is %s; it must be int32", clrt__dtype_word((int)am->dtype));
    return clrt__nn_shape(am, rows, cols, func, "argmax");
}

/* Whether every index the kernels form (in each matrix, with its view's
 * offset and stride, and of the work-items, a group more than needed) fits
 * their 32-bit path, unless the parameters ask for 64 bits. */
static int small_indices(const clrt__built *k, const clrt_buffer *const *m, size_t count, size_t items)
{
    const size_t lim = (size_t)1 << 30;
    if (clrt__nnp(&k->p).idx64 || items >= lim)
        return 0;
    for (size_t i = 0; i < count; i++)
        if (m[i] && m[i]->offset + m[i]->rows * m[i]->ld >= lim)
            return 0;
    return 1;
}

static void geometry_args(clrt__args *a, size_t n, const clrt_pool2d_shape *s, size_t oh, size_t ow)
{
    const size_t v[] = {n, s->channels, s->height, s->width, s->size, s->stride, oh, ow};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        clrt__arg_ulong(a, v[i]);
}

int clrt_nn_maxpool_forward(clrt_queue *q, clrt_buffer *y, clrt_buffer *argmax, const clrt_buffer *x,
                            const clrt_pool2d_shape *s)
{
    static const char func[] = "clrt_nn_maxpool_forward";
    size_t oh = 0, ow = 0, in = 0, out = 0;
    const clrt__nn_arg ops[] = {{x, "x"}, {y, "y"}};
    int st = clrt__nn_operands(q, ops, sizeof ops / sizeof *ops, func);
    if (st == CLRT_OK)
        st = row_sizes(s, &oh, &ow, &in, &out, func);
    if (st != CLRT_OK)
        return st;
    const size_t n = x->rows;
    if ((st = clrt__nn_shape(x, n, in, func, "x (N x channels*height*width)")) != CLRT_OK ||
        (st = clrt__nn_shape(y, n, out, func, "y (N x channels*out_h*out_w)")) != CLRT_OK ||
        (argmax && (st = argmax_operand(q, argmax, n, out, func)) != CLRT_OK) ||
        (st = clrt__nn_apart(y, x, func, "y", "x")) != CLRT_OK ||
        (st = clrt__nn_apart(argmax, x, func, "argmax", "x")) != CLRT_OK ||
        (st = clrt__nn_apart(argmax, y, func, "argmax", "y")) != CLRT_OK)
        return st;
    clrt__built *k;
    if ((st = clrt__nn_kernel(q, CLRT__K_NN_POOL, x->dtype, func, &k)) != CLRT_OK)
        return st;
    clrt__args a = {0};
    geometry_args(&a, n, s, oh, ow);
    clrt__arg_matrix(&a, x);
    clrt__arg_matrix(&a, y);
    clrt__arg_matrix(&a, argmax ? argmax : y); /* not written without argmax */
    clrt__arg_int(&a, argmax != NULL);
    const clrt_buffer *const ms[] = {x, y, argmax};
    const size_t items = n * s->channels * oh;
    clrt__arg_int(&a, small_indices(k, ms, 3, items));
    return clrt__nn_launch(q, k, -1, func, &a, items);
}

int clrt_nn_maxpool_backward(clrt_queue *q, clrt_buffer *dx, const clrt_buffer *dy, const clrt_buffer *argmax,
                             const clrt_pool2d_shape *s)
{
    static const char func[] = "clrt_nn_maxpool_backward";
    size_t oh = 0, ow = 0, in = 0, out = 0;
    const clrt__nn_arg ops[] = {{dy, "dy"}, {dx, "dx"}};
    int st = clrt__nn_operands(q, ops, sizeof ops / sizeof *ops, func);
    if (st == CLRT_OK)
        st = row_sizes(s, &oh, &ow, &in, &out, func);
    if (st != CLRT_OK)
        return st;
    const size_t n = dy->rows;
    if ((st = clrt__nn_shape(dy, n, out, func, "dy (N x channels*out_h*out_w)")) != CLRT_OK ||
        (st = clrt__nn_shape(dx, n, in, func, "dx (N x channels*height*width)")) != CLRT_OK ||
        (st = argmax_operand(q, argmax, n, out, func)) != CLRT_OK ||
        (st = clrt__nn_apart(dx, dy, func, "dx", "dy")) != CLRT_OK ||
        (st = clrt__nn_apart(dx, argmax, func, "dx", "argmax")) != CLRT_OK)
        return st;
    clrt__built *k;
    if ((st = clrt__nn_kernel(q, CLRT__K_NN_POOL, dy->dtype, func, &k)) != CLRT_OK)
        return st;
    clrt__args a = {0};
    geometry_args(&a, n, s, oh, ow);
    clrt__arg_matrix(&a, dy);
    clrt__arg_matrix(&a, argmax);
    clrt__arg_matrix(&a, dx);
    const clrt_buffer *const ms[] = {dy, argmax, dx};
    /* windows that tile the image: each input in at most one, written whole */
    const int tiled = s->stride == s->size;
    const size_t items = n * s->channels * (tiled ? oh : s->height);
    clrt__arg_int(&a, small_indices(k, ms, 3, items));
    return clrt__nn_launch(q, k, tiled ? CLRT__NN_AUX_TILED : CLRT__NN_AUX, func, &a, items);
}
