/* The host reference of the network (see train_ref.h). */
#include "train_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const size_t ref_tensor_size[REF_TENSORS] = {20 * 25, 20, 50 * 500, 50, 500 * 800, 500, 10 * 500, 10};

static size_t out_size(size_t in, size_t k, size_t stride, size_t pad)
{
    return (in + 2 * pad - k) / stride + 1;
}

/* A convolution's input and filters: c channels of h x wd, kh x kw filters. */
typedef struct conv_geometry {
    size_t c, h, wd, kh, kw, stride, pad;
} conv_geometry;

/* The element of x (n x c*h*wd) that filter tap t (channel, row and column
 * in a filter's c*kh*kw, in that order) meets at output (r, s) of image i:
 * its index, or -1 in the padding. */
static long tap_input(const conv_geometry *g, size_t i, size_t r, size_t s, size_t t)
{
    const size_t ch = t / (g->kh * g->kw), u = t / g->kw % g->kh, v = t % g->kw;
    const long yy = (long)(r * g->stride + u) - (long)g->pad, xx = (long)(s * g->stride + v) - (long)g->pad;
    if (yy < 0 || xx < 0 || yy >= (long)g->h || xx >= (long)g->wd)
        return -1;
    return (long)(i * g->c * g->h * g->wd + ch * g->h * g->wd + (size_t)yy * g->wd + (size_t)xx);
}

void ref_conv_forward(double *y, const double *x, const double *w, const double *b, size_t n, size_t c, size_t h,
                      size_t wd, size_t k, size_t kh, size_t kw, size_t stride, size_t pad)
{
    const conv_geometry g = {c, h, wd, kh, kw, stride, pad};
    const size_t oh = out_size(h, kh, stride, pad), ow = out_size(wd, kw, stride, pad), taps = c * kh * kw;
    for (size_t i = 0; i < n; i++)
        for (size_t o = 0; o < k; o++)
            for (size_t r = 0; r < oh; r++)
                for (size_t s = 0; s < ow; s++) {
                    double acc = b ? b[o] : 0;
                    for (size_t t = 0; t < taps; t++) {
                        const long xi = tap_input(&g, i, r, s, t);
                        if (xi >= 0)
                            acc += w[o * taps + t] * x[xi];
                    }
                    y[i * k * oh * ow + o * oh * ow + r * ow + s] = acc;
                }
}

void ref_conv_backward(double *dx, double *dw, double *db, const double *dy, const double *x, const double *w,
                       size_t n, size_t c, size_t h, size_t wd, size_t k, size_t kh, size_t kw, size_t stride,
                       size_t pad)
{
    const conv_geometry geo = {c, h, wd, kh, kw, stride, pad};
    const size_t oh = out_size(h, kh, stride, pad), ow = out_size(wd, kw, stride, pad), taps = c * kh * kw;
    if (dx)
        memset(dx, 0, n * c * h * wd * sizeof *dx);
    memset(dw, 0, k * c * kh * kw * sizeof *dw);
    memset(db, 0, k * sizeof *db);
    for (size_t i = 0; i < n; i++)
        for (size_t o = 0; o < k; o++)
            for (size_t r = 0; r < oh; r++)
                for (size_t s = 0; s < ow; s++) {
                    const double g = dy[i * k * oh * ow + o * oh * ow + r * ow + s];
                    db[o] += g;
                    for (size_t t = 0; t < taps; t++) {
                        const long xi = tap_input(&geo, i, r, s, t);
                        if (xi < 0)
                            continue;
                        dw[o * taps + t] += g * x[xi];
                        if (dx)
                            dx[xi] += g * w[o * taps + t];
                    }
                }
}

void ref_pool_forward(double *y, int32_t *am, const double *x, size_t n, size_t c, size_t h, size_t wd, size_t size,
                      size_t stride)
{
    const size_t oh = (h - size) / stride + 1, ow = (wd - size) / stride + 1;
    for (size_t i = 0; i < n * c; i++)
        for (size_t r = 0; r < oh; r++)
            for (size_t s = 0; s < ow; s++) {
                size_t best = r * stride * wd + s * stride;
                for (size_t u = 0; u < size; u++)
                    for (size_t v = 0; v < size; v++) {
                        size_t pos = (r * stride + u) * wd + s * stride + v;
                        if (x[i * h * wd + pos] > x[i * h * wd + best])
                            best = pos;
                    }
                y[i * oh * ow + r * ow + s] = x[i * h * wd + best];
                if (am)
                    am[i * oh * ow + r * ow + s] = (int32_t)best;
            }
}

void ref_pool_backward(double *dx, const double *dy, const int32_t *am, size_t n, size_t c, size_t h, size_t wd,
                       size_t size, size_t stride)
{
    const size_t oh = (h - size) / stride + 1, ow = (wd - size) / stride + 1;
    memset(dx, 0, n * c * h * wd * sizeof *dx);
    for (size_t i = 0; i < n * c; i++)
        for (size_t j = 0; j < oh * ow; j++)
            dx[i * h * wd + (size_t)am[i * oh * ow + j]] += dy[i * oh * ow + j];
}

/* y (n x out) = x (n x in) w^T + b */
static void linear(double *y, const double *x, const double *w, const double *b, size_t n, size_t in, size_t out)
{
    for (size_t i = 0; i < n; i++)
        for (size_t o = 0; o < out; o++) {
            double acc = b[o];
            for (size_t k = 0; k < in; k++)
                acc += x[i * in + k] * w[o * in + k];
            y[i * out + o] = acc;
        }
}

static void linear_backward(double *dx, double *dw, double *db, const double *dy, const double *x, const double *w,
                            size_t n, size_t in, size_t out)
{
    memset(dw, 0, in * out * sizeof *dw);
    memset(db, 0, out * sizeof *db);
    memset(dx, 0, n * in * sizeof *dx);
    for (size_t i = 0; i < n; i++)
        for (size_t o = 0; o < out; o++) {
            const double g = dy[i * out + o];
            db[o] += g;
            for (size_t k = 0; k < in; k++) {
                dw[o * in + k] += g * x[i * in + k];
                dx[i * in + k] += g * w[o * in + k];
            }
        }
}

static void relu(double *a, size_t count)
{
    for (size_t i = 0; i < count; i++)
        a[i] = a[i] > 0 ? a[i] : 0;
}

/* dy where the (post-relu) activation is positive, else 0, in place */
static void relu_backward(double *d, const double *a, size_t count)
{
    for (size_t i = 0; i < count; i++)
        d[i] = a[i] > 0 ? d[i] : 0;
}

/* The forward pass's activations for n images: conv1 (after relu), pool1,
 * conv2 (after relu), pool2, the hidden layer (after relu), and the pools'
 * argmax (NULL when the backward pass is not needed). */
typedef struct activations {
    double *c1, *p1, *c2, *p2, *hh;
    int32_t *am1, *am2;
} activations;

static void activations_alloc(activations *a, size_t n, int argmax)
{
    a->c1 = calloc(n * 11520, sizeof *a->c1);
    a->p1 = calloc(n * 2880, sizeof *a->p1);
    a->c2 = calloc(n * 3200, sizeof *a->c2);
    a->p2 = calloc(n * 800, sizeof *a->p2);
    a->hh = calloc(n * 500, sizeof *a->hh);
    a->am1 = argmax ? calloc(n * 2880, sizeof *a->am1) : NULL;
    a->am2 = argmax ? calloc(n * 800, sizeof *a->am2) : NULL;
}

static void activations_free(activations *a)
{
    double *all[] = {a->c1, a->p1, a->c2, a->p2, a->hh};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        free(all[i]);
    free(a->am1);
    free(a->am2);
}

/* logits (n x 10) of x through the network, keeping the activations in a. */
static void forward(activations *a, double *logits, const double *const p[REF_TENSORS], const double *x, size_t n)
{
    ref_conv_forward(a->c1, x, p[0], p[1], n, 1, 28, 28, 20, 5, 5, 1, 0);
    relu(a->c1, n * 11520);
    ref_pool_forward(a->p1, a->am1, a->c1, n, 20, 24, 24, 2, 2);
    ref_conv_forward(a->c2, a->p1, p[2], p[3], n, 20, 12, 12, 50, 5, 5, 1, 0);
    relu(a->c2, n * 3200);
    ref_pool_forward(a->p2, a->am2, a->c2, n, 50, 8, 8, 2, 2);
    linear(a->hh, a->p2, p[4], p[5], n, 800, 500);
    relu(a->hh, n * 500);
    linear(logits, a->hh, p[6], p[7], n, 500, 10);
}

void ref_net_logits(double *logits, const double *const p[REF_TENSORS], const double *x, size_t n)
{
    activations a;
    activations_alloc(&a, n, 0);
    forward(&a, logits, p, x, n);
    activations_free(&a);
}

double ref_net_grads(double *const g[REF_TENSORS], const double *const p[REF_TENSORS], const double *x,
                     const int32_t *labels, size_t n)
{
    activations a;
    activations_alloc(&a, n, 1);
    double *lg = calloc(n * 10, sizeof *lg);
    double *dc1 = calloc(n * 11520, sizeof *dc1), *dp1 = calloc(n * 2880, sizeof *dp1);
    double *dc2 = calloc(n * 3200, sizeof *dc2), *dp2 = calloc(n * 800, sizeof *dp2);
    double *dh = calloc(n * 500, sizeof *dh), *dl = calloc(n * 10, sizeof *dl);
    forward(&a, lg, p, x, n);
    double loss = 0;
    for (size_t i = 0; i < n; i++) {
        double m = lg[i * 10];
        for (size_t k = 1; k < 10; k++)
            m = fmax(m, lg[i * 10 + k]);
        double s = 0;
        for (size_t k = 0; k < 10; k++)
            s += exp(lg[i * 10 + k] - m);
        loss -= lg[i * 10 + (size_t)labels[i]] - m - log(s);
        for (size_t k = 0; k < 10; k++)
            dl[i * 10 + k] = (exp(lg[i * 10 + k] - m) / s - (k == (size_t)labels[i])) / (double)n;
    }
    loss /= (double)n;
    linear_backward(dh, g[6], g[7], dl, a.hh, p[6], n, 500, 10);
    relu_backward(dh, a.hh, n * 500);
    linear_backward(dp2, g[4], g[5], dh, a.p2, p[4], n, 800, 500);
    ref_pool_backward(dc2, dp2, a.am2, n, 50, 8, 8, 2, 2);
    relu_backward(dc2, a.c2, n * 3200);
    ref_conv_backward(dp1, g[2], g[3], dc2, a.p1, p[2], n, 20, 12, 12, 50, 5, 5, 1, 0);
    ref_pool_backward(dc1, dp1, a.am1, n, 20, 24, 24, 2, 2);
    relu_backward(dc1, a.c1, n * 11520);
    ref_conv_backward(NULL, g[0], g[1], dc1, x, p[0], n, 1, 28, 28, 20, 5, 5, 1, 0);
    double *all[] = {lg, dc1, dp1, dc2, dp2, dh, dl};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        free(all[i]);
    activations_free(&a);
    return loss;
}
