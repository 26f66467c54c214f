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

void ref_conv_forward(double *y, const double *x, const double *w, const double *b, size_t n, size_t c, size_t h,
                      size_t wd, size_t k, size_t kh, size_t kw, size_t stride, size_t pad)
{
    const size_t oh = out_size(h, kh, stride, pad), ow = out_size(wd, kw, stride, pad);
    for (size_t i = 0; i < n; i++)
        for (size_t o = 0; o < k; o++)
            for (size_t r = 0; r < oh; r++)
                for (size_t s = 0; s < ow; s++) {
                    double acc = b ? b[o] : 0;
                    for (size_t ch = 0; ch < c; ch++)
                        for (size_t u = 0; u < kh; u++)
                            for (size_t v = 0; v < kw; v++) {
                                long yy = (long)(r * stride + u) - (long)pad, xx = (long)(s * stride + v) - (long)pad;
                                if (yy < 0 || xx < 0 || yy >= (long)h || xx >= (long)wd)
                                    continue;
                                acc += w[(o * c + ch) * kh * kw + u * kw + v] *
                                       x[i * c * h * wd + ch * h * wd + (size_t)yy * wd + (size_t)xx];
                            }
                    y[i * k * oh * ow + o * oh * ow + r * ow + s] = acc;
                }
}

void ref_conv_backward(double *dx, double *dw, double *db, const double *dy, const double *x, const double *w,
                       size_t n, size_t c, size_t h, size_t wd, size_t k, size_t kh, size_t kw, size_t stride,
                       size_t pad)
{
    const size_t oh = out_size(h, kh, stride, pad), ow = out_size(wd, kw, stride, pad);
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
                    for (size_t ch = 0; ch < c; ch++)
                        for (size_t u = 0; u < kh; u++)
                            for (size_t v = 0; v < kw; v++) {
                                long yy = (long)(r * stride + u) - (long)pad, xx = (long)(s * stride + v) - (long)pad;
                                if (yy < 0 || xx < 0 || yy >= (long)h || xx >= (long)wd)
                                    continue;
                                size_t xi = i * c * h * wd + ch * h * wd + (size_t)yy * wd + (size_t)xx;
                                size_t wi = (o * c + ch) * kh * kw + u * kw + v;
                                dw[wi] += g * x[xi];
                                if (dx)
                                    dx[xi] += g * w[wi];
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

void ref_net_logits(double *logits, const double *const p[REF_TENSORS], const double *x, size_t n)
{
    double *c1 = calloc(n * 11520, sizeof *c1), *p1 = calloc(n * 2880, sizeof *p1);
    double *c2 = calloc(n * 3200, sizeof *c2), *p2 = calloc(n * 800, sizeof *p2), *hh = calloc(n * 500, sizeof *hh);
    ref_conv_forward(c1, x, p[0], p[1], n, 1, 28, 28, 20, 5, 5, 1, 0);
    relu(c1, n * 11520);
    ref_pool_forward(p1, NULL, c1, n, 20, 24, 24, 2, 2);
    ref_conv_forward(c2, p1, p[2], p[3], n, 20, 12, 12, 50, 5, 5, 1, 0);
    relu(c2, n * 3200);
    ref_pool_forward(p2, NULL, c2, n, 50, 8, 8, 2, 2);
    linear(hh, p2, p[4], p[5], n, 800, 500);
    relu(hh, n * 500);
    linear(logits, hh, p[6], p[7], n, 500, 10);
    free(c1);
    free(p1);
    free(c2);
    free(p2);
    free(hh);
}

double ref_net_grads(double *const g[REF_TENSORS], const double *const p[REF_TENSORS], const double *x,
                     const int32_t *labels, size_t n)
{
    double *c1 = calloc(n * 11520, sizeof *c1), *p1 = calloc(n * 2880, sizeof *p1);
    double *c2 = calloc(n * 3200, sizeof *c2), *p2 = calloc(n * 800, sizeof *p2);
    double *hh = calloc(n * 500, sizeof *hh), *lg = calloc(n * 10, sizeof *lg);
    int32_t *am1 = calloc(n * 2880, sizeof *am1), *am2 = calloc(n * 800, sizeof *am2);
    double *dc1 = calloc(n * 11520, sizeof *dc1), *dp1 = calloc(n * 2880, sizeof *dp1);
    double *dc2 = calloc(n * 3200, sizeof *dc2), *dp2 = calloc(n * 800, sizeof *dp2);
    double *dh = calloc(n * 500, sizeof *dh), *dl = calloc(n * 10, sizeof *dl);
    ref_conv_forward(c1, x, p[0], p[1], n, 1, 28, 28, 20, 5, 5, 1, 0);
    relu(c1, n * 11520);
    ref_pool_forward(p1, am1, c1, n, 20, 24, 24, 2, 2);
    ref_conv_forward(c2, p1, p[2], p[3], n, 20, 12, 12, 50, 5, 5, 1, 0);
    relu(c2, n * 3200);
    ref_pool_forward(p2, am2, c2, n, 50, 8, 8, 2, 2);
    linear(hh, p2, p[4], p[5], n, 800, 500);
    relu(hh, n * 500);
    linear(lg, hh, p[6], p[7], n, 500, 10);
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
    linear_backward(dh, g[6], g[7], dl, hh, p[6], n, 500, 10);
    relu_backward(dh, hh, n * 500);
    linear_backward(dp2, g[4], g[5], dh, p2, p[4], n, 800, 500);
    ref_pool_backward(dc2, dp2, am2, n, 50, 8, 8, 2, 2);
    relu_backward(dc2, c2, n * 3200);
    ref_conv_backward(dp1, g[2], g[3], dc2, p1, p[2], n, 20, 12, 12, 50, 5, 5, 1, 0);
    ref_pool_backward(dc1, dp1, am1, n, 20, 24, 24, 2, 2);
    relu_backward(dc1, c1, n * 11520);
    ref_conv_backward(NULL, g[0], g[1], dc1, x, p[0], n, 1, 28, 28, 20, 5, 5, 1, 0);
    double *all[] = {c1, p1, c2, p2, hh, lg, dc1, dp1, dc2, dp2, dh, dl};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        free(all[i]);
    free(am1);
    free(am2);
    return loss;
}
