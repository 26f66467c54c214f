/* clrt_nn_conv2d_output, _forward and _backward: 2-D convolution as im2col +
 * GEMM (docs/nn.md says why). For N images, K filters of C x KH x KW and
 * output planes of OH x OW, NP = N * OH * OW:
 *   forward   cols (C*KH*KW x NP) = im2col(x)           nn_im2col: im2col
 *             yc (K x NP) = W cols                      clrt_gemm
 *             y = yc's planes in NCHW rows, + b         nn_layout: conv_rows
 *   backward  dyc (K x NP) = dy's planes as yc's        nn_layout: conv_cols
 *             db = row sums of dyc (K x 1, then 1 x K)  clrt_reduce, clrt_transpose
 *             dW = dyc cols^T (cols made again)         im2col, clrt_gemm
 *             dcols = W^T dyc; dx = col2im(dcols)       clrt_gemm, nn_im2col: col2im
 * The whole batch is one GEMM, K x NP x C*KH*KW: long and thin, the shapes
 * the matmul kernel handles well. The intermediates live in the queue's nn
 * slots (nn_launch.h: kept between calls); the queue is in order, so dcols
 * reuses cols' memory. */
#include <stdint.h>

#include "error.h"
#include "k_nn.h"
#include "kernels.h"
#include "nn_check.h"
#include "nn_launch.h"

/* *out = a * b, 0 on overflow. */
static int mul(size_t a, size_t b, size_t *out)
{
    if (a && b > SIZE_MAX / a)
        return 0;
    *out = a * b;
    return 1;
}

/* The sizes a convolution works with. */
typedef struct dims {
    size_t oh, ow;
    size_t in;   /* C*H*W: a row of x */
    size_t ckk;  /* C*KH*KW: a row of w, a column of cols */
    size_t out;  /* K*OH*OW: a row of y */
    size_t plane; /* OH*OW */
} dims;

static int geometry(const clrt_conv2d_shape *s, size_t *out_h, size_t *out_w, const char *func)
{
    if (!s)
        return clrt__fail(CLRT_EINVAL, func, "the shape s is NULL");
    const struct {
        size_t v;
        const char *name;
    } fields[] = {{s->channels, "channels"}, {s->height, "height"},     {s->width, "width"},
                  {s->out_channels, "out_channels"}, {s->kernel_h, "kernel_h"}, {s->kernel_w, "kernel_w"},
                  {s->stride, "stride"}};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        if (fields[i].v == 0)
            return clrt__fail(CLRT_EINVAL, func, "s->%s is 0", fields[i].name);
    if (s->padding > (SIZE_MAX / 4 - s->height) / 2 || s->padding > (SIZE_MAX / 4 - s->width) / 2)
        return clrt__fail(CLRT_ESHAPE, func, "s->padding %zu is too large", s->padding);
    const size_t ph = s->height + 2 * s->padding, pw = s->width + 2 * s->padding;
    if (s->kernel_h > ph || s->kernel_w > pw)
        return clrt__fail(CLRT_ESHAPE, func, "a %zu x %zu filter is larger than the padded %zu x %zu image",
                          s->kernel_h, s->kernel_w, ph, pw);
    *out_h = (ph - s->kernel_h) / s->stride + 1;
    *out_w = (pw - s->kernel_w) / s->stride + 1;
    return CLRT_OK;
}

int clrt_nn_conv2d_output(const clrt_conv2d_shape *s, size_t *out_h, size_t *out_w)
{
    static const char func[] = "clrt_nn_conv2d_output";
    if (!out_h || !out_w)
        return clrt__fail(CLRT_EINVAL, func, "%s is NULL", out_h ? "out_w" : "out_h");
    return geometry(s, out_h, out_w, func);
}

/* The geometry and every size it implies for n images, or a refusal. */
static int sizes(const clrt_conv2d_shape *s, size_t n, dims *d, const char *func)
{
    int st = geometry(s, &d->oh, &d->ow, func);
    if (st != CLRT_OK)
        return st;
    size_t t, np;
    if (!mul(s->channels, s->height, &t) || !mul(t, s->width, &d->in) || !mul(s->channels, s->kernel_h, &t) ||
        !mul(t, s->kernel_w, &d->ckk) || !mul(d->oh, d->ow, &d->plane) || !mul(s->out_channels, d->plane, &d->out) ||
        !mul(n, d->plane, &np) || !mul(np, d->ckk, &t) || !mul(np, s->out_channels, &t))
        return clrt__fail(CLRT_ESHAPE, func, "the convolution's sizes overflow");
    return CLRT_OK;
}

/* Whether every index the im2col kernels form (of cols, of the image matrix m
 * with its view's offset and stride, and of the work-items, a group more than
 * needed) fits the kernels' 32-bit path, unless the parameters ask for 64 bits. */
static int small_indices(const clrt__built *k, const dims *d, size_t n, const clrt_buffer *m, size_t items)
{
    if (clrt__nnp(&k->p).idx64)
        return 0;
    const size_t lim = (size_t)1 << 30; /* margin below int's range for the signed taps */
    const size_t extent = m->offset + m->rows * m->ld;
    return d->ckk * n * d->plane < lim && extent < lim && items < lim && d->in < lim;
}

/* cols (ckk x N*plane, contiguous) = im2col(x). */
static int im2col(clrt_queue *q, clrt__built *k, const clrt_conv2d_shape *s, const dims *d, const clrt_buffer *x,
                  clrt_buffer *cols, const char *func)
{
    clrt__nn_args a = {0};
    const size_t v[] = {x->rows, s->channels, s->height, s->width, s->kernel_h, s->kernel_w, s->stride, s->padding,
                        d->oh, d->ow};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        clrt__nn_ulong(&a, v[i]);
    clrt__nn_matrix(&a, x);
    clrt__nn_mem(&a, cols);
    const size_t items = d->ckk * x->rows;
    clrt__nn_int(&a, small_indices(k, d, x->rows, x, items));
    return clrt__nn_launch(q, k, -1, func, &a, items);
}

static int col2im(clrt_queue *q, clrt__built *k, const clrt_conv2d_shape *s, const dims *d, const clrt_buffer *cols,
                  clrt_buffer *dx, const char *func)
{
    clrt__nn_args a = {0};
    const size_t v[] = {dx->rows, s->channels, s->height, s->width, s->kernel_h, s->kernel_w, s->stride, s->padding,
                        d->oh, d->ow};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        clrt__nn_ulong(&a, v[i]);
    clrt__nn_mem(&a, cols);
    clrt__nn_matrix(&a, dx);
    const size_t items = dx->rows * s->channels * s->height;
    clrt__nn_int(&a, small_indices(k, d, dx->rows, dx, items));
    return clrt__nn_launch(q, k, CLRT__NN_AUX, func, &a, items);
}

int clrt_nn_conv2d_forward(clrt_queue *q, clrt_buffer *y, const clrt_buffer *x, const clrt_buffer *w,
                           const clrt_buffer *b, const clrt_conv2d_shape *s)
{
    static const char func[] = "clrt_nn_conv2d_forward";
    dims d = {0};
    int st = clrt__check_queue(q, func);
    if (st == CLRT_OK)
        st = clrt__nn_operand(q, x, NULL, func, "x");
    if (st == CLRT_OK)
        st = clrt__nn_operand(q, w, x, func, "w");
    if (st == CLRT_OK)
        st = clrt__nn_operand(q, y, x, func, "y");
    if (st == CLRT_OK && b)
        st = clrt__nn_operand(q, b, x, func, "b");
    if (st == CLRT_OK)
        st = sizes(s, x->rows, &d, func);
    if (st != CLRT_OK)
        return st;
    const size_t n = x->rows, kk = s->out_channels;
    if ((st = clrt__nn_shape(x, n, d.in, func, "x (N x channels*height*width)")) != CLRT_OK ||
        (st = clrt__nn_shape(w, kk, d.ckk, func, "w (out_channels x channels*kernel_h*kernel_w)")) != CLRT_OK ||
        (st = clrt__nn_shape(y, n, d.out, func, "y (N x out_channels*out_h*out_w)")) != CLRT_OK ||
        (b && (st = clrt__nn_shape(b, 1, kk, func, "b")) != CLRT_OK))
        return st;
    if ((st = clrt__nn_apart(y, x, func, "y", "x")) != CLRT_OK || (st = clrt__nn_apart(y, w, func, "y", "w")) != CLRT_OK ||
        (st = clrt__nn_apart(y, b, func, "y", "b")) != CLRT_OK)
        return st;
    clrt__built *ki, *kl;
    if ((st = clrt__nn_kernel(q, CLRT__K_NN_IM2COL, x->dtype, func, &ki)) != CLRT_OK ||
        (st = clrt__nn_kernel(q, CLRT__K_NN_LAYOUT, x->dtype, func, &kl)) != CLRT_OK)
        return st;
    clrt_buffer *cols = NULL, *yc = NULL;
    const size_t np = n * d.plane;
    clrt__nn_begin(q);
    st = clrt__nn_temp(q, CLRT__NN_SLOT_COLS, x->dtype, d.ckk, np, func, &cols);
    if (st == CLRT_OK)
        st = clrt__nn_temp(q, CLRT__NN_SLOT_PLANES, x->dtype, kk, np, func, &yc);
    if (st == CLRT_OK)
        st = im2col(q, ki, s, &d, x, cols, func);
    if (st == CLRT_OK)
        st = clrt_gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.0, w, cols, 0.0, yc);
    if (st == CLRT_OK) {
        clrt__nn_args a = {0};
        clrt__nn_ulong(&a, n);
        clrt__nn_ulong(&a, kk);
        clrt__nn_ulong(&a, d.plane);
        clrt__nn_mem(&a, yc);
        clrt__nn_matrix(&a, y);
        clrt__nn_mem(&a, b ? b : yc); /* not read without a bias */
        clrt__nn_ulong(&a, b ? b->offset : 0);
        clrt__nn_int(&a, b != NULL);
        st = clrt__nn_launch(q, kl, -1, func, &a, n * kk);
    }
    clrt__nn_end(q);
    return st;
}

int clrt_nn_conv2d_backward(clrt_queue *q, clrt_buffer *dx, clrt_buffer *dw, clrt_buffer *db, const clrt_buffer *dy,
                            const clrt_buffer *x, const clrt_buffer *w, const clrt_conv2d_shape *s)
{
    static const char func[] = "clrt_nn_conv2d_backward";
    dims d = {0};
    int st = clrt__nn_grad_operands(q, dx, dw, db, dy, x, w, func);
    if (st == CLRT_OK)
        st = sizes(s, dy->rows, &d, func);
    if (st != CLRT_OK)
        return st;
    const size_t n = dy->rows, kk = s->out_channels;
    if ((st = clrt__nn_shape(dy, n, d.out, func, "dy (N x out_channels*out_h*out_w)")) != CLRT_OK ||
        (st = clrt__nn_shape(x, n, d.in, func, "x (N x channels*height*width)")) != CLRT_OK ||
        (st = clrt__nn_shape(w, kk, d.ckk, func, "w (out_channels x channels*kernel_h*kernel_w)")) != CLRT_OK ||
        (dx && (st = clrt__nn_shape(dx, n, d.in, func, "dx")) != CLRT_OK) ||
        (dw && (st = clrt__nn_shape(dw, kk, d.ckk, func, "dw")) != CLRT_OK) ||
        (db && (st = clrt__nn_shape(db, 1, kk, func, "db")) != CLRT_OK))
        return st;
    if ((st = clrt__nn_grads_apart(dx, dw, db, dy, x, w, func)) != CLRT_OK)
        return st;
    clrt__built *ki, *kl;
    if ((st = clrt__nn_kernel(q, CLRT__K_NN_IM2COL, dy->dtype, func, &ki)) != CLRT_OK ||
        (st = clrt__nn_kernel(q, CLRT__K_NN_LAYOUT, dy->dtype, func, &kl)) != CLRT_OK)
        return st;
    const size_t np = n * d.plane;
    clrt_buffer *dyc = NULL, *cols = NULL, *sums = NULL;
    clrt__nn_begin(q);
    st = clrt__nn_temp(q, CLRT__NN_SLOT_PLANES, dy->dtype, kk, np, func, &dyc);
    if (st == CLRT_OK && (dw || dx))
        st = clrt__nn_temp(q, CLRT__NN_SLOT_COLS, dy->dtype, d.ckk, np, func, &cols);
    if (st == CLRT_OK && db)
        st = clrt__nn_temp(q, CLRT__NN_SLOT_SMALL, dy->dtype, kk, 1, func, &sums);
    if (st == CLRT_OK) {
        clrt__nn_args a = {0};
        clrt__nn_ulong(&a, n);
        clrt__nn_ulong(&a, kk);
        clrt__nn_ulong(&a, d.plane);
        clrt__nn_matrix(&a, dy);
        clrt__nn_mem(&a, dyc);
        st = clrt__nn_launch(q, kl, CLRT__NN_AUX, func, &a, n * kk);
    }
    if (st == CLRT_OK && db)
        st = clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_EACH_ROW, sums, dyc);
    if (st == CLRT_OK && db)
        st = clrt_transpose(q, db, sums);
    if (st == CLRT_OK && dw)
        st = im2col(q, ki, s, &d, x, cols, func);
    if (st == CLRT_OK && dw)
        st = clrt_gemm(q, CLRT_NO_TRANS, CLRT_TRANS, 1.0, dyc, cols, 0.0, dw);
    if (st == CLRT_OK && dx)
        st = clrt_gemm(q, CLRT_TRANS, CLRT_NO_TRANS, 1.0, w, dyc, 0.0, cols);
    if (st == CLRT_OK && dx)
        st = col2im(q, ki, s, &d, cols, dx, func);
    clrt__nn_end(q);
    return st;
}
