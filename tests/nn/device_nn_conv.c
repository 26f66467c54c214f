/* 2-D convolution and max-pooling (clrt_nn.h) against double-precision host
 * references at odd shapes (batch 1 and 3, channels 1, 3 and 7, kernels 1, 3
 * and 5, strides 1 to 3, padding 0 to 2, the article's layers at batch 5),
 * float32 and (where the device has it) float64, on whole buffers with
 * canaries after them and on views inside larger matrices whose other
 * elements must stay as they were; finite-difference gradient checks of
 * conv -> relu -> max-pool in float64; every documented refusal. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

#include "base/debug.h"
#include "common/fake_device.h"
#include "kernels/nn.h"
#include "kernels/params.h"

enum { CANARY = 13 };
static const double OUTSIDE = 777.25; /* every element of a view's parent outside the view */

static double *alloc_d(size_t n)
{
    double *p = calloc(n ? n : 1, sizeof *p);
    assert_non_null(p);
    return p;
}

/* A device matrix: a whole padded buffer (canary after it), or (view) a
 * rows x cols window at (1, 2) of a (rows + 2) x (cols + 3) padded parent
 * whose other elements hold OUTSIDE. */
typedef struct mat {
    clrt_buffer *parent, *b;
    size_t rows, cols, pcols;
    int view;
} mat;

/* h NULL: the elements are set to OUTSIDE too (an output). */
static mat mk(clrt_dtype dt, size_t rows, size_t cols, const double *h, int view)
{
    mat m = {NULL, NULL, rows, cols, view ? cols + 3 : cols, view};
    const size_t prow = view ? rows + 2 : rows;
    m.parent = tu_padded_buffer(tu_fx->ctx, tu_fx->q, dt, prow, m.pcols, CANARY);
    double *all = alloc_d(prow * m.pcols);
    for (size_t i = 0; i < prow * m.pcols; i++)
        all[i] = OUTSIDE;
    for (size_t r = 0; h && r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            all[(r + (view ? 1 : 0)) * m.pcols + c + (view ? 2 : 0)] = h[r * cols + c];
    tu_write_doubles(tu_fx->q, m.parent, all, prow * m.pcols);
    free(all);
    if (view)
        TU_OK(clrt_buffer_view(&m.b, m.parent, 1, 2, rows, cols));
    else
        m.b = m.parent;
    return m;
}

/* Read m into h (rows x cols), checking the canary and, for a view, that
 * nothing outside it changed. */
static void rd(const mat *m, double *h, const char *what)
{
    const size_t prow = m->view ? m->rows + 2 : m->rows;
    double *all = alloc_d(prow * m->pcols);
    tu_read_doubles(tu_fx->q, m->parent, all, prow * m->pcols);
    assert_true(tu_canary_intact(tu_fx->q, m->parent, CANARY));
    for (size_t r = 0; r < prow; r++)
        for (size_t c = 0; c < m->pcols; c++) {
            const int in = !m->view || (r >= 1 && r <= m->rows && c >= 2 && c < m->cols + 2);
            if (in)
                h[(r - (m->view ? 1 : 0)) * m->cols + c - (m->view ? 2 : 0)] = all[r * m->pcols + c];
            else if (all[r * m->pcols + c] != OUTSIDE)
                fail_msg("%s: element (%zu, %zu) of the view's parent, outside the view, was written", what, r, c);
        }
    free(all);
}

static void rm(mat *m)
{
    if (m->view)
        clrt_buffer_destroy(m->b);
    clrt_buffer_destroy(m->parent);
    m->b = m->parent = NULL;
}

/* ---- convolution */

typedef struct conv_case {
    size_t n, c, h, w, k, kh, kw, stride, pad;
} conv_case;

static clrt_conv2d_shape shape_of(const conv_case *t)
{
    clrt_conv2d_shape s = {t->c, t->h, t->w, t->k, t->kh, t->kw, t->stride, t->pad};
    return s;
}

/* The host reference in double: y (and |terms| summed, for the bound), and
 * given dy the three gradients (and their bounds). */
typedef struct conv_ref {
    size_t oh, ow, in, out, ckk;
    double *y, *ay, *dx, *adx, *dw, *adw, *db, *adb;
} conv_ref;

static void conv_reference(const conv_case *t, const double *x, const double *w, const double *b, const double *dy,
                           conv_ref *r)
{
    r->oh = (t->h + 2 * t->pad - t->kh) / t->stride + 1;
    r->ow = (t->w + 2 * t->pad - t->kw) / t->stride + 1;
    r->in = t->c * t->h * t->w;
    r->out = t->k * r->oh * r->ow;
    r->ckk = t->c * t->kh * t->kw;
    r->y = alloc_d(t->n * r->out);
    r->ay = alloc_d(t->n * r->out);
    r->dx = alloc_d(t->n * r->in);
    r->adx = alloc_d(t->n * r->in);
    r->dw = alloc_d(t->k * r->ckk);
    r->adw = alloc_d(t->k * r->ckk);
    r->db = alloc_d(t->k);
    r->adb = alloc_d(t->k);
    for (size_t n = 0; n < t->n; n++)
        for (size_t k = 0; k < t->k; k++)
            for (size_t oh = 0; oh < r->oh; oh++)
                for (size_t ow = 0; ow < r->ow; ow++) {
                    const size_t yi = n * r->out + (k * r->oh + oh) * r->ow + ow;
                    double s = b ? b[k] : 0, a = b ? fabs(b[k]) : 0;
                    const double g = dy[yi];
                    r->db[k] += g;
                    r->adb[k] += fabs(g);
                    for (size_t c = 0; c < t->c; c++)
                        for (size_t i = 0; i < t->kh; i++)
                            for (size_t j = 0; j < t->kw; j++) {
                                const long ih = (long)(oh * t->stride + i) - (long)t->pad;
                                const long iw = (long)(ow * t->stride + j) - (long)t->pad;
                                if (ih < 0 || iw < 0 || ih >= (long)t->h || iw >= (long)t->w)
                                    continue;
                                const size_t xi = n * r->in + (c * t->h + (size_t)ih) * t->w + (size_t)iw;
                                const size_t wi = k * r->ckk + (c * t->kh + i) * t->kw + j;
                                s += x[xi] * w[wi];
                                a += fabs(x[xi] * w[wi]);
                                r->dx[xi] += g * w[wi];
                                r->adx[xi] += fabs(g * w[wi]);
                                r->dw[wi] += g * x[xi];
                                r->adw[wi] += fabs(g * x[xi]);
                            }
                    r->y[yi] = s;
                    r->ay[yi] = a;
                }
}

static void conv_ref_free(conv_ref *r)
{
    double *p[] = {r->y, r->ay, r->dx, r->adx, r->dw, r->adw, r->db, r->adb};
    for (size_t i = 0; i < sizeof p / sizeof *p; i++)
        free(p[i]);
}

/* The kernel launches of the last check_conv's forward [0] and backward [1] pass. */
static unsigned long conv_launches[2];

/* Forward and backward of one case; view puts x, y, dy, dx, b and db in views
 * (db a 1 x K row inside a wider parent: the bias gradient's sums go straight
 * into its K values, nothing around them touched);
 * which: 7 all gradients, else a bit set of dx (1), dw (2), db (4). */
static void check_conv(clrt_dtype dt, const conv_case *t, int bias, int view, int which)
{
    const clrt_conv2d_shape s = shape_of(t);
    size_t oh, ow;
    TU_OK(clrt_nn_conv2d_output(&s, &oh, &ow));
    const size_t in = t->c * t->h * t->w, ckk = t->c * t->kh * t->kw, out = t->k * oh * ow;
    const unsigned seed = (unsigned)(t->n * 131 + t->c * 17 + t->h * 5 + t->kh + t->stride * 3 + t->pad);
    double *x = tu_random_doubles(t->n * in, seed, dt), *w = tu_random_doubles(t->k * ckk, seed + 1, dt);
    double *b = tu_random_doubles(t->k, seed + 2, dt);
    double *dy = tu_random_doubles(t->n * out, seed + 3, dt);
    conv_ref r;
    conv_reference(t, x, w, bias ? b : NULL, dy, &r);
    assert_int_equal(oh, r.oh);
    assert_int_equal(ow, r.ow);
    mat mx = mk(dt, t->n, in, x, view), mw = mk(dt, t->k, ckk, w, 0), mb = mk(dt, 1, t->k, b, view);
    mat my = mk(dt, t->n, out, NULL, view), mdy = mk(dt, t->n, out, dy, view);
    mat mdx = mk(dt, t->n, in, NULL, view), mdw = mk(dt, t->k, ckk, NULL, 0), mdb = mk(dt, 1, t->k, NULL, view);
    char what[200];
    snprintf(what, sizeof what, "conv N%zu C%zu %zux%zu K%zu %zux%zu s%zu p%zu %s%s%s", t->n, t->c, t->h, t->w, t->k,
             t->kh, t->kw, t->stride, t->pad, tu_dtype_name(dt), bias ? "" : " no bias", view ? " views" : "");
    const unsigned long l0 = clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL);
    TU_OK(clrt_nn_conv2d_forward(tu_fx->q, my.b, mx.b, mw.b, bias ? mb.b : NULL, &s));
    const unsigned long l1 = clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL);
    TU_OK(clrt_nn_conv2d_backward(tu_fx->q, which & 1 ? mdx.b : NULL, which & 2 ? mdw.b : NULL,
                                  which & 4 ? mdb.b : NULL, mdy.b, mx.b, mw.b, &s));
    conv_launches[0] = l1 - l0;
    conv_launches[1] = clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL) - l1;
    const double eps = tu_epsilon(dt);
    double *got = alloc_d(t->n * (in > out ? in : out) + t->k * ckk);
    char w2[240];
    rd(&my, got, what);
    snprintf(w2, sizeof w2, "%s: y", what);
    tu_expect_close(w2, got, r.y, r.ay, t->n * out, 2.0 * (double)(ckk + 8) * eps);
    if (which & 1) {
        rd(&mdx, got, what);
        snprintf(w2, sizeof w2, "%s: dx", what);
        tu_expect_close(w2, got, r.dx, r.adx, t->n * in, 2.0 * (double)(t->k * t->kh * t->kw + 8) * eps);
    } else {
        rd(&mdx, got, what);
        for (size_t i = 0; i < t->n * in; i++)
            if (got[i] != OUTSIDE)
                fail_msg("%s: dx was not asked for, but written", what);
    }
    if (which & 2) {
        rd(&mdw, got, what);
        snprintf(w2, sizeof w2, "%s: dw", what);
        tu_expect_close(w2, got, r.dw, r.adw, t->k * ckk, 2.0 * (double)(t->n * oh * ow + 8) * eps);
    }
    if (which & 4) {
        rd(&mdb, got, what);
        snprintf(w2, sizeof w2, "%s: db", what);
        tu_expect_close(w2, got, r.db, r.adb, t->k, 2.0 * (double)(t->n * oh * ow + 8) * eps);
    }
    mat *all[] = {&mx, &mw, &mb, &my, &mdy, &mdx, &mdw, &mdb};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        rm(all[i]);
    conv_ref_free(&r);
    TU_FREE_ALL(got, x, w, b, dy);
}

static void conv(void **state)
{
    (void)state;
    static const conv_case cases[] = {
        /* n  c   h   w  k kh kw s p */
        {1, 1, 1, 1, 1, 1, 1, 1, 0},   /* one pixel */
        {1, 1, 5, 5, 1, 1, 1, 1, 0},   /* kernel 1 */
        {3, 3, 7, 9, 4, 3, 3, 1, 1},   /* kernel 3, padding 1 */
        {3, 7, 11, 6, 5, 5, 5, 2, 2},  /* kernel 5, stride 2, padding 2 */
        {1, 3, 6, 7, 2, 3, 5, 2, 0},   /* a rectangular filter */
        {2, 1, 4, 3, 3, 5, 5, 1, 2},   /* a filter larger than the image */
        {3, 2, 9, 8, 3, 3, 3, 3, 1},   /* stride 3 */
        {2, 2, 5, 5, 2, 1, 1, 2, 1},   /* stride over kernel: inputs no window reads */
        {5, 1, 28, 28, 20, 5, 5, 1, 0}, /* the article's conv1 */
        {5, 20, 12, 12, 50, 5, 5, 1, 0}, /* the article's conv2 */
        {3, 7, 13, 17, 9, 3, 3, 2, 1},
    };
    const size_t ncases = tu_small() ? 7 : sizeof cases / sizeof *cases;
    for (int d = 0; d < tu_n_dtypes(); d++)
        for (size_t i = 0; i < ncases; i++)
            check_conv(tu_dtype_at(d), &cases[i], i != 1, (int)(i & 1), 7);
}

/* Each gradient alone, the others NULL (not written), and views throughout. */
static void conv_partial(void **state)
{
    (void)state;
    static const conv_case t = {3, 3, 6, 5, 4, 3, 3, 1, 1};
    for (int d = 0; d < tu_n_dtypes(); d++)
        for (int which = 1; which < 7; which++)
            check_conv(tu_dtype_at(d), &t, which & 1, 1, which);
}

static void conv_output(void **state)
{
    (void)state;
    size_t oh = 0, ow = 0;
    clrt_conv2d_shape s = {20, 12, 12, 50, 5, 5, 1, 0};
    TU_OK(clrt_nn_conv2d_output(&s, &oh, &ow));
    assert_int_equal(oh, 8);
    assert_int_equal(ow, 8);
    s = (clrt_conv2d_shape){3, 7, 10, 4, 3, 4, 2, 1};
    TU_OK(clrt_nn_conv2d_output(&s, &oh, &ow));
    assert_int_equal(oh, 4); /* (7 + 2 - 3) / 2 + 1 */
    assert_int_equal(ow, 5); /* (10 + 2 - 4) / 2 + 1 */
    s = (clrt_conv2d_shape){1, 2, 2, 1, 4, 4, 1, 1};
    TU_OK(clrt_nn_conv2d_output(&s, &oh, &ow)); /* the padded image exactly */
    assert_int_equal(oh, 1);
    assert_int_equal(ow, 1);
    const char *fields[] = {"channels", "height", "width", "out_channels", "kernel_h", "kernel_w", "stride"};
    for (int f = 0; f < 7; f++) {
        clrt_conv2d_shape z = {3, 7, 10, 4, 3, 4, 2, 1};
        size_t *p[] = {&z.channels, &z.height, &z.width, &z.out_channels, &z.kernel_h, &z.kernel_w, &z.stride};
        *p[f] = 0;
        TU_REFUSED(CLRT_EINVAL, fields[f], clrt_nn_conv2d_output(&z, &oh, &ow));
    }
    s = (clrt_conv2d_shape){1, 4, 4, 1, 7, 3, 1, 1};
    TU_REFUSED(CLRT_ESHAPE, "larger", clrt_nn_conv2d_output(&s, &oh, &ow));
    s = (clrt_conv2d_shape){1, 4, 4, 1, 3, 3, 1, SIZE_MAX / 2};
    TU_REFUSED(CLRT_ESHAPE, "padding", clrt_nn_conv2d_output(&s, &oh, &ow));
    /* sides past SIZE_MAX / 4: refused, not a wrapped padding bound (out_h 2 once) */
    s = (clrt_conv2d_shape){1, SIZE_MAX - 1, 4, 1, 3, 3, 1, 3};
    TU_REFUSED(CLRT_ESHAPE, "too large", clrt_nn_conv2d_output(&s, &oh, &ow));
    s = (clrt_conv2d_shape){1, 4, SIZE_MAX / 4 + 1, 1, 3, 3, 1, 0};
    TU_REFUSED(CLRT_ESHAPE, "too large", clrt_nn_conv2d_output(&s, &oh, &ow));
    TU_REFUSED(CLRT_EINVAL, "NULL", clrt_nn_conv2d_output(NULL, &oh, &ow));
    TU_REFUSED(CLRT_EINVAL, "NULL", clrt_nn_conv2d_output(&s, NULL, &ow));
    TU_REFUSED(CLRT_EINVAL, "NULL", clrt_nn_conv2d_output(&s, &oh, NULL));
}

/* ---- max-pooling */

typedef struct pool_case {
    size_t n, c, h, w, size, stride;
} pool_case;

/* The first largest in row-major order; a NaN is taken over any number (the first NaN). */
static void pool_reference(const pool_case *t, const double *x, double *y, int32_t *am, size_t oh, size_t ow)
{
    for (size_t n = 0; n < t->n; n++)
        for (size_t c = 0; c < t->c; c++)
            for (size_t i = 0; i < oh; i++)
                for (size_t j = 0; j < ow; j++) {
                    const double *plane = x + n * t->c * t->h * t->w + c * t->h * t->w;
                    size_t at = i * t->stride * t->w + j * t->stride;
                    for (size_t a = 0; a < t->size; a++)
                        for (size_t b = 0; b < t->size; b++) {
                            const size_t pos = (i * t->stride + a) * t->w + j * t->stride + b;
                            if (plane[pos] > plane[at] || (isnan(plane[pos]) && !isnan(plane[at])))
                                at = pos;
                        }
                    const size_t yi = n * t->c * oh * ow + (c * oh + i) * ow + j;
                    y[yi] = plane[at];
                    am[yi] = (int32_t)at;
                }
}

/* quant: values from {-1, 0, 1} (ties everywhere); nans: a few NaN inputs. */
static void check_pool(clrt_dtype dt, const pool_case *t, int view, int quant, int nans)
{
    const clrt_pool2d_shape s = {t->c, t->h, t->w, t->size, t->stride};
    size_t oh, ow;
    TU_OK(clrt_nn_pool2d_output(&s, &oh, &ow));
    assert_int_equal(oh, (t->h - t->size) / t->stride + 1);
    assert_int_equal(ow, (t->w - t->size) / t->stride + 1);
    const size_t in = t->c * t->h * t->w, out = t->c * oh * ow;
    double *x = tu_random_doubles(t->n * in, (unsigned)(t->n * 7 + t->h * 3 + t->size), dt);
    double *dy = tu_random_doubles(t->n * out, (unsigned)(t->w * 11 + t->stride), dt);
    for (size_t i = 0; quant && i < t->n * in; i++)
        x[i] = floor(x[i] * 1.5 + 0.5);
    for (size_t i = 0; nans && i < t->n * in; i += 7)
        x[i] = NAN;
    double *ry = alloc_d(t->n * out), *rdx = alloc_d(t->n * in), *got = alloc_d(t->n * in);
    int32_t *ram = malloc(t->n * out * sizeof *ram), *gam = malloc(t->n * out * sizeof *gam);
    assert_true(ram && gam);
    pool_reference(t, x, ry, ram, oh, ow);
    for (size_t n = 0; n < t->n; n++)
        for (size_t c = 0; c < t->c; c++)
            for (size_t i = 0; i < oh * ow; i++) {
                const size_t yi = n * out + c * oh * ow + i;
                rdx[n * in + c * t->h * t->w + (size_t)ram[yi]] += dy[yi];
            }
    mat mx = mk(dt, t->n, in, x, view), my = mk(dt, t->n, out, NULL, view), mdy = mk(dt, t->n, out, dy, view);
    mat mdx = mk(dt, t->n, in, NULL, view);
    clrt_buffer *am = tu_padded_buffer(tu_fx->ctx, tu_fx->q, CLRT_INT32, t->n, out, CANARY);
    char what[160];
    snprintf(what, sizeof what, "maxpool N%zu C%zu %zux%zu size %zu stride %zu %s%s%s%s", t->n, t->c, t->h, t->w,
             t->size, t->stride, tu_dtype_name(dt), view ? " views" : "", quant ? " ties" : "", nans ? " NaN" : "");
    TU_OK(clrt_nn_maxpool_forward(tu_fx->q, my.b, am, mx.b, &s));
    TU_OK(clrt_nn_maxpool_backward(tu_fx->q, mdx.b, mdy.b, am, &s));
    rd(&my, got, what);
    for (size_t i = 0; i < t->n * out; i++)
        if (!(isnan(ry[i]) ? isnan(got[i]) : got[i] == ry[i]))
            fail_msg("%s: y[%zu] %g, expected %g", what, i, got[i], ry[i]);
    TU_OK(clrt_buffer_read(tu_fx->q, am, gam, t->n * out));
    assert_true(tu_canary_intact(tu_fx->q, am, CANARY));
    for (size_t i = 0; i < t->n * out; i++)
        if (gam[i] != ram[i])
            fail_msg("%s: argmax[%zu] %d, expected %d", what, i, (int)gam[i], (int)ram[i]);
    rd(&mdx, got, what);
    double *adx = alloc_d(t->n * in);
    for (size_t i = 0; i < t->n * in; i++)
        adx[i] = fabs(rdx[i]) + 1; /* sums of at most size^2 values */
    tu_expect_close(what, got, rdx, adx, t->n * in, (double)(t->size * t->size) * tu_epsilon(dt));
    /* without argmax: y alone */
    mat my2 = mk(dt, t->n, out, NULL, 0);
    TU_OK(clrt_nn_maxpool_forward(tu_fx->q, my2.b, NULL, mx.b, &s));
    rd(&my2, got, what);
    for (size_t i = 0; i < t->n * out; i++)
        if (!(isnan(ry[i]) ? isnan(got[i]) : got[i] == ry[i]))
            fail_msg("%s (no argmax): y[%zu] %g, expected %g", what, i, got[i], ry[i]);
    mat *all[] = {&mx, &my, &mdy, &mdx, &my2};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        rm(all[i]);
    clrt_buffer_destroy(am);
    TU_FREE_ALL(x, dy, ry, rdx, got, adx, ram, gam);
}

static void maxpool(void **state)
{
    (void)state;
    static const pool_case cases[] = {
        /* n  c  h   w size stride */
        {1, 1, 1, 1, 1, 1},   /* one pixel */
        {2, 3, 5, 35, 2, 2},  /* 17 windows a row: two runs of 8 side by side and one alone, odd sizes */
        {3, 3, 7, 9, 2, 2},   /* odd sizes: the last row and column are in no window */
        {2, 7, 8, 5, 3, 2},   /* overlapping windows */
        {3, 2, 9, 10, 3, 3},
        {1, 3, 6, 7, 2, 1},   /* stride 1: most inputs in four windows */
        {2, 1, 5, 5, 2, 3},   /* stride over size: gaps */
        {5, 20, 24, 24, 2, 2}, /* the article's pool1 */
        {5, 50, 8, 8, 2, 2},  /* the article's pool2 */
    };
    const size_t ncases = tu_small() ? 7 : sizeof cases / sizeof *cases;
    for (int d = 0; d < tu_n_dtypes(); d++)
        for (size_t i = 0; i < ncases; i++) {
            check_pool(tu_dtype_at(d), &cases[i], (int)(i & 1), 0, 0);
            check_pool(tu_dtype_at(d), &cases[i], (int)(~i & 1), 1, 0);
            check_pool(tu_dtype_at(d), &cases[i], 0, (int)(i & 1), 1);
        }
}

static void pool_output(void **state)
{
    (void)state;
    size_t oh = 0, ow = 0;
    clrt_pool2d_shape s = {20, 24, 24, 2, 2};
    TU_OK(clrt_nn_pool2d_output(&s, &oh, &ow));
    assert_int_equal(oh, 12);
    assert_int_equal(ow, 12);
    s = (clrt_pool2d_shape){1, 7, 9, 3, 2};
    TU_OK(clrt_nn_pool2d_output(&s, &oh, &ow));
    assert_int_equal(oh, 3);
    assert_int_equal(ow, 4);
    const char *fields[] = {"channels", "height", "width", "size", "stride"};
    for (int f = 0; f < 5; f++) {
        clrt_pool2d_shape z = {1, 7, 9, 3, 2};
        size_t *p[] = {&z.channels, &z.height, &z.width, &z.size, &z.stride};
        *p[f] = 0;
        TU_REFUSED(CLRT_EINVAL, fields[f], clrt_nn_pool2d_output(&z, &oh, &ow));
    }
    s = (clrt_pool2d_shape){1, 7, 2, 3, 2};
    TU_REFUSED(CLRT_ESHAPE, "larger", clrt_nn_pool2d_output(&s, &oh, &ow));
    TU_REFUSED(CLRT_EINVAL, "NULL", clrt_nn_pool2d_output(NULL, &oh, &ow));
    TU_REFUSED(CLRT_EINVAL, "NULL", clrt_nn_pool2d_output(&s, &oh, NULL));
}

/* Other parameters of the nn kernels give the same results: 64-bit index
 * arithmetic in im2col, col2im and pooling, the tiled backward pass too (the
 * path too large shapes take), groups of 1
 * and of 32, forced on the fixture's context and then cleared. The tuner has
 * no operation for these kernels and says so. */
static void conv_params(void **state)
{
    (void)state;
    static const conv_case cases[] = {{3, 3, 7, 9, 4, 3, 3, 1, 1}, {3, 7, 11, 6, 5, 5, 5, 2, 2},
                                      {2, 2, 5, 5, 2, 1, 1, 2, 1}};
    static const char *const kernels[] = {"nn_im2col", "nn_layout", "nn_pool", "nn_act"};
    static const char *const params[] = {"idx64=1", "wg=1", "wg=32 idx64=1"};
    for (int d = 0; d < tu_n_dtypes(); d++) {
        const clrt_dtype dt = tu_dtype_at(d);
        for (size_t p = 0; p < 3; p++) {
            for (int k = 0; k < 4; k++)
                tu_override(tu_fx->ctx, kernels[k], dt, params[p]);
            for (size_t i = 0; i < (tu_small() ? 1 : 3); i++)
                check_conv(dt, &cases[i], 1, (int)(i & 1), 7);
            const pool_case pc = {2, 3, 7, 9, 3, 2}, tiled = {2, 3, 8, 10, 2, 2};
            check_pool(dt, &pc, 1, 1, 0);
            check_pool(dt, &tiled, 0, 0, 1);
            for (int k = 0; k < 4; k++)
                TU_OK(clrt_tune_override(tu_fx->ctx, kernels[k], dt, NULL));
        }
    }
    clrt_tune_result r;
    for (int k = 0; k < 4; k++)
        TU_REFUSED(CLRT_EUNSUPPORTED, "no tuner operation",
                   clrt_tune_run(tu_fx->ctx, kernels[k], CLRT_FLOAT32, NULL, &r));
}

/* Each case (view and not, in turn) under each of params, forced on the
 * kernels named and then cleared, every gradient and the forward pass checked
 * against the reference; with a bias always, or (no_bias_odd) none in the odd
 * cases. params[0] is the unsliced baseline: under params[1], the finest
 * slicing, the forward and the backward pass of every case must each launch
 * more kernels than under it (each slice is a launch of its own). */
static void check_sliced(clrt_dtype dt, const char *const *kernels, int nk, const char *const *params, size_t np,
                         const conv_case *cases, size_t ncases, int no_bias_odd)
{
    static const char *const pass[2] = {"forward", "backward"};
    unsigned long whole[8][2] = {{0}};
    assert_true(ncases <= sizeof whole / sizeof *whole);
    for (size_t p = 0; p < np; p++) {
        for (int k = 0; k < nk; k++)
            tu_override(tu_fx->ctx, kernels[k], dt, params[p]);
        for (size_t i = 0; i < ncases; i++) {
            check_conv(dt, &cases[i], !(no_bias_odd && (i & 1)), (int)(i & 1), 7);
            for (int f = 0; f < 2; f++) {
                if (p == 0)
                    whole[i][f] = conv_launches[f];
                else if (p == 1 && conv_launches[f] <= whole[i][f])
                    fail_msg("%s, case %zu: the %s pass made %lu launches, no more than with %s (%lu)", params[1], i,
                             pass[f], conv_launches[f], params[0], whole[i][f]);
            }
        }
        for (int k = 0; k < nk; k++)
            TU_OK(clrt_tune_override(tu_fx->ctx, kernels[k], dt, NULL));
    }
}

/* The layout kernels of im2col + GEMM in slices (the parameter loops; set on
 * llvmpipe, whose work-items stop looping after a budget), forced on every
 * driver with conv=0: budgets that leave one output row (im2col), one input
 * column (col2im) and one plane position (conv_rows, conv_cols) per launch,
 * and a few of each; every slice is a launch of its own. Then planes of
 * 270 x 270 and rows of 7000 with the device's defaults: before rusticl sliced
 * them, llvmpipe got 16,710 of 145,800 outputs and 31,399 of 56,000 data
 * gradients wrong there (conv=0 is the emulators' default). */
static void conv_loop_slices(void **state)
{
    (void)state;
    static const conv_case cases[] = {{3, 3, 7, 9, 4, 3, 3, 1, 1}, {3, 7, 11, 6, 5, 5, 5, 2, 2},
                                      {2, 2, 5, 5, 2, 1, 1, 2, 1}};
    static const char *const params[] = {"conv=0 loops=0", "conv=0 loops=1", "conv=0 loops=45",
                                         "conv=0 loops=100 idx64=1"};
    static const char *const kernels[] = {"nn_im2col", "nn_layout"};
    for (int d = 0; d < tu_n_dtypes(); d++) {
        const clrt_dtype dt = tu_dtype_at(d);
        check_sliced(dt, kernels, 2, params, sizeof params / sizeof *params, cases, tu_small() ? 2 : 3, 0);
        if (!tu_small()) {
            const conv_case big[] = {{1, 1, 270, 270, 2, 3, 3, 1, 1}, {1, 1, 8, 7000, 2, 3, 3, 1, 1}};
            for (size_t i = 0; i < 2; i++)
                check_conv(dt, &big[i], 1, 0, 7);
        }
    }
}

/* im2col + GEMM in slices of the batch's images (the parameter slice: KiB of
 * cols per pass; the CPUs' default 4096), forced on every driver with conv=0,
 * every gradient and the forward pass against the reference, views and not:
 * one image per pass (slice=1), passes of two images then one (slice=300 with
 * the article's conv2 at 5 images, 125 KiB of cols per image in float32, one
 * a pass in float64, not under an emulator; and the stride-2 case at 3 images,
 * 12.3 KiB each: slice=25) and the whole batch at once (slice=0). One image a pass launches
 * more kernels than the whole batch: the slices are passes of their own. */
static void conv_image_slices(void **state)
{
    (void)state;
    static const conv_case cases[] = {{3, 7, 11, 6, 5, 5, 5, 2, 2}, {3, 3, 7, 9, 4, 3, 3, 1, 1},
                                      {5, 20, 12, 12, 50, 5, 5, 1, 0}};
    static const char *const params[] = {"conv=0 slice=0", "conv=0 slice=1", "conv=0 slice=300",
                                         "conv=0 slice=25"};
    static const char *const kernels[] = {"nn_im2col"};
    for (int d = 0; d < tu_n_dtypes(); d++) /* conv2: minutes under Oclgrind */
        check_sliced(tu_dtype_at(d), kernels, 1, params, sizeof params / sizeof *params, cases, tu_small() ? 2 : 3, 1);
}

/* Both convolution algorithms on every driver, whatever its default:
 * im2col + GEMM (conv=0), the direct kernel for the forward pass where the
 * channels fill its block (conv=1), always (conv=2) and for the data gradient
 * too (conv=3, stride 1), with the device's default
 * tile, the GPUs' (stored unrolled: 32 values) and with small odd tiles (several blocks of output channels, a block
 * wider than the channels, tiles of positions spanning two images and running
 * past the last one, groups of 1 and 4), forced on nn_im2col and then cleared. */
static void conv_algorithms(void **state)
{
    (void)state;
    static const conv_case cases[] = {
        /* n  c   h   w  k kh kw s p */
        {1, 1, 5, 5, 1, 1, 1, 1, 0},     /* kernel 1: the data gradient unpadded */
        {3, 3, 7, 9, 4, 3, 3, 1, 1},     /* kernel 3, padding 1 */
        {2, 3, 6, 7, 4, 3, 5, 1, 1},     /* rectangular at stride 1: the data gradient padded 1 x 3 */
        {3, 7, 8, 8, 9, 3, 3, 1, 2},     /* padding 2 = kernel - 1: the data gradient unpadded */
        {3, 7, 11, 6, 5, 5, 5, 2, 2},    /* stride 2: the data gradient by GEMM */
        {2, 1, 4, 3, 3, 5, 5, 1, 2},     /* a filter larger than the image */
        {5, 20, 12, 12, 50, 5, 5, 1, 0}, /* the article's conv2 */
        {3, 1, 28, 28, 20, 5, 5, 1, 0},  /* the article's conv1 */
        {17, 20, 12, 12, 50, 5, 5, 1, 0}, /* conv2 at 1088 positions: conv=1 takes the direct kernel on CPUs */
    };
    static const char *const params[] = {"conv=0", "conv=1", "conv=2", "conv=3", "conv=2 vw=4 ctm=5 cnv=2 cwg=4",
                                         "conv=3 vw=2 ctm=3 cnv=3 cwg=1", "conv=3 vw=16 ctm=7 cnv=1 cwg=4",
                                         "conv=2 vw=4 ctm=4 cnv=2 cwg=256" /* the GPUs' shipped tile */};
    const size_t ncases = tu_small() ? 4 : sizeof cases / sizeof *cases;
    for (int d = 0; d < tu_n_dtypes(); d++) {
        const clrt_dtype dt = tu_dtype_at(d);
        for (size_t p = 0; p < sizeof params / sizeof *params; p++) {
            tu_override(tu_fx->ctx, "nn_im2col", dt, params[p]);
            tu_assert_ran(tu_fx->ctx, "nn_im2col", dt, params[p]);
            for (size_t i = 0; i < ncases; i++)
                check_conv(dt, &cases[i], i != 0, (int)(i & 1), 7);
            const conv_case t = cases[2];
            check_conv(dt, &t, 1, 1, 1); /* the data gradient alone */
            check_conv(dt, &t, 0, 0, 6); /* the others without it */
            TU_OK(clrt_tune_override(tu_fx->ctx, "nn_im2col", dt, NULL));
        }
    }
}

/* The CNN kernels' parameters a real GPU gets, exactly as shipped, for NVIDIA's,
 * AMD's and Intel's classes (made-up devices of their drivers' facts; Intel's Data
 * Center GPU Max builds them at SIMD16: sg=16), forced on this device
 * through the tuning API: no CPU driver or emulator would pick them, so without
 * this they would first run on a user's GPU. Each kernel's shipped text must be
 * accepted and run the convolution (im2col + GEMM as shipped, then the direct
 * kernel with the GPUs' tile when asked for: conv=2) and max-pooling exactly. */
static void cnn_shipped_gpu_defaults(void **state)
{
    (void)state;
    static const tu_gpu_class classes[] = {TU_GPU_NVIDIA, TU_GPU_AMD, TU_GPU_INTEL};
    const clrt__kernel_def *const defs[] = {&clrt__k_nn_im2col, &clrt__k_nn_layout, &clrt__k_nn_pool,
                                            &clrt__k_nn_act};
    enum { NDEFS = sizeof defs / sizeof *defs };
    static const conv_case convs[] = {{3, 7, 11, 6, 5, 5, 5, 2, 2}, {2, 3, 6, 7, 4, 3, 5, 1, 1},
                                      {17, 20, 12, 12, 50, 5, 5, 1, 0}};
    static const pool_case pool = {2, 3, 5, 35, 2, 2};
    const size_t nconvs = tu_small() ? 2 : 3;
    for (size_t g = 0; g < sizeof classes / sizeof *classes; g++) {
        const clrt__device_facts f = tu_fake_gpu(classes[g]);
        for (int d = 0; d < tu_n_dtypes(); d++) {
            const clrt_dtype dt = tu_dtype_at(d);
            char text[NDEFS][256];
            for (int k = 0; k < NDEFS; k++) {
                clrt__pvals p;
                defs[k]->defaults(&f, tu_dtype_size(dt), &p);
                assert_int_equal(clrt__params_text(defs[k], &p, text[k], sizeof text[k]), 0);
                print_message("%s %s: %s %s\n", f.name, tu_dtype_name(dt), defs[k]->name, text[k]);
                char why[256] = "";
                if (clrt_tune_check(tu_fx->ctx, defs[k]->name, dt, text[k], why, sizeof why) != CLRT_OK)
                    fail_msg("%s's shipped %s defaults refused on this device: %s", f.name, defs[k]->name, why);
                tu_override(tu_fx->ctx, defs[k]->name, dt, text[k]);
            }
            for (size_t i = 0; i < nconvs; i++)
                check_conv(dt, &convs[i], 1, (int)(i & 1), 7);
            check_pool(dt, &pool, 1, 0, 0);
            check_pool(dt, &pool, 0, 1, 1);
            char direct[256], *c = strstr(strcpy(direct, text[0]), "conv=0 ");
            assert_non_null(c); /* im2col + GEMM shipped: the direct kernel only when asked for */
            c[5] = '2';
            tu_override(tu_fx->ctx, "nn_im2col", dt, direct);
            for (size_t i = 0; i < nconvs; i++)
                check_conv(dt, &convs[i], (int)(~i & 1), (int)(i & 1), 7);
            for (int k = 0; k < NDEFS; k++)
                TU_OK(clrt_tune_override(tu_fx->ctx, defs[k]->name, dt, NULL));
        }
    }
}

/* ---- finite differences in float64: L = sum(r . maxpool(relu(conv(x, W) + b))) */

/* A rows x cols buffer of dtype, zeros written from the host. */
static clrt_buffer *hbuf(clrt_dtype dt, size_t rows, size_t cols)
{
    clrt_buffer *b;
    TU_OK(clrt_buffer_create(&b, tu_fx->ctx, dt, rows, cols));
    void *z = calloc(rows * cols, 8);
    assert_non_null(z);
    TU_OK(clrt_buffer_write(tu_fx->q, b, z, rows * cols));
    free(z);
    return b;
}

typedef struct chain {
    clrt_conv2d_shape cs;
    clrt_pool2d_shape ps;
    size_t n, pout;
    clrt_buffer *x, *w, *b, *y, *a, *p, *am;
    const double *r;
} chain;

static double chain_loss(chain *c)
{
    TU_OK(clrt_nn_conv2d_forward(tu_fx->q, c->y, c->x, c->w, c->b, &c->cs));
    TU_OK(clrt_nn_relu_forward(tu_fx->q, c->a, c->y));
    TU_OK(clrt_nn_maxpool_forward(tu_fx->q, c->p, c->am, c->a, &c->ps));
    double *h = alloc_d(c->n * c->pout), l = 0;
    TU_OK(clrt_buffer_read(tu_fx->q, c->p, h, c->n * c->pout));
    for (size_t i = 0; i < c->n * c->pout; i++)
        l += c->r[i] * h[i];
    free(h);
    return l;
}

static void gradcheck_chain(void **state)
{
    (void)state;
    if (!tu_fx->dev.has_fp64)
        skip(); /* a device without fp64 has nothing to check this in */
    const clrt_dtype dt = CLRT_FLOAT64;
    chain c = {{2, 6, 5, 3, 3, 3, 1, 1}, {3, 6, 5, 2, 1}, 2, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    size_t oh, ow, ph, pw;
    TU_OK(clrt_nn_conv2d_output(&c.cs, &oh, &ow));
    TU_OK(clrt_nn_pool2d_output(&c.ps, &ph, &pw));
    const size_t in = 2 * 6 * 5, ckk = 2 * 9, out = 3 * oh * ow;
    c.pout = 3 * ph * pw;
    double *x = tu_random_doubles(c.n * in, 41, dt), *w = tu_random_doubles(3 * ckk, 42, dt);
    double *b = tu_random_doubles(3, 43, dt);
    double *r = tu_random_doubles(c.n * c.pout, 44, dt);
    c.r = r;
    /* every buffer written from the host first (Oclgrind: see docs/nn.md) */
    c.x = hbuf(dt, c.n, in);
    c.w = hbuf(dt, 3, ckk);
    c.b = hbuf(dt, 1, 3);
    c.y = hbuf(dt, c.n, out);
    c.a = hbuf(dt, c.n, out);
    c.p = hbuf(dt, c.n, c.pout);
    c.am = hbuf(CLRT_INT32, c.n, c.pout);
    TU_OK(clrt_buffer_write(tu_fx->q, c.x, x, c.n * in));
    TU_OK(clrt_buffer_write(tu_fx->q, c.w, w, 3 * ckk));
    TU_OK(clrt_buffer_write(tu_fx->q, c.b, b, 3));
    (void)chain_loss(&c);
    clrt_buffer *dp = hbuf(dt, c.n, c.pout), *da = hbuf(dt, c.n, out), *dyb = hbuf(dt, c.n, out),
                *gx = hbuf(dt, c.n, in), *gw = hbuf(dt, 3, ckk), *gb = hbuf(dt, 1, 3);
    TU_OK(clrt_buffer_write(tu_fx->q, dp, r, c.n * c.pout));
    TU_OK(clrt_nn_maxpool_backward(tu_fx->q, da, dp, c.am, &c.ps));
    TU_OK(clrt_nn_relu_backward(tu_fx->q, dyb, da, c.y));
    TU_OK(clrt_nn_conv2d_backward(tu_fx->q, gx, gw, gb, dyb, c.x, c.w, &c.cs));
    double *hg[3] = {alloc_d(c.n * in), alloc_d(3 * ckk), alloc_d(3)};
    TU_OK(clrt_buffer_read(tu_fx->q, gx, hg[0], c.n * in));
    TU_OK(clrt_buffer_read(tu_fx->q, gw, hg[1], 3 * ckk));
    TU_OK(clrt_buffer_read(tu_fx->q, gb, hg[2], 3));
    struct {
        clrt_buffer *buf;
        double *h;
        size_t n;
        const char *name;
    } ps[] = {{c.x, x, c.n * in, "dx"}, {c.w, w, 3 * ckk, "dw"}, {c.b, b, 3, "db"}};
    /* under Oclgrind a subset: every 7th element */
    const size_t step = tu_small() ? 7 : 1;
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < ps[k].n; i += (k == 2 ? 1 : step)) {
            const double e = 1e-6, keep = ps[k].h[i];
            ps[k].h[i] = keep + e;
            TU_OK(clrt_buffer_write(tu_fx->q, ps[k].buf, ps[k].h, ps[k].n));
            const double lp = chain_loss(&c);
            ps[k].h[i] = keep - e;
            TU_OK(clrt_buffer_write(tu_fx->q, ps[k].buf, ps[k].h, ps[k].n));
            const double lm = chain_loss(&c);
            ps[k].h[i] = keep;
            TU_OK(clrt_buffer_write(tu_fx->q, ps[k].buf, ps[k].h, ps[k].n));
            const double num = (lp - lm) / (2 * e);
            if (!(fabs(num - hg[k][i]) <= 1e-7 + 1e-6 * fabs(num)))
                fail_msg("gradient %s[%zu]: analytic %.12g, finite difference %.12g", ps[k].name, i, hg[k][i], num);
        }
    TU_DESTROY_BUFFERS(c.x, c.w, c.b, c.y, c.a, c.p, c.am, dp, da, dyb, gx, gw, gb);
    for (int i = 0; i < 3; i++)
        free(hg[i]);
    TU_FREE_ALL(x, w, b, r);
}

/* ---- threads: the queue's intermediates under its lock */

/* Threads running convolutions on one shared queue and on queues of their
 * own, each with its own operands: every result equals the one computed alone
 * first (the nn slots are taken under the queue's lock; the queue is in order). */
typedef struct thread_job {
    clrt_queue *q;
    clrt_buffer *x, *w, *b, *y, *dx, *dw, *db;
    const clrt_conv2d_shape *s;
    int rounds, status;
} thread_job;

static void *conv_worker(void *arg)
{
    thread_job *j = arg;
    for (int r = 0; r < j->rounds && j->status == CLRT_OK; r++) {
        j->status = clrt_nn_conv2d_forward(j->q, j->y, j->x, j->w, j->b, j->s);
        if (j->status == CLRT_OK) /* dy = y: the backward pass reads this thread's forward result */
            j->status = clrt_nn_conv2d_backward(j->q, j->dx, j->dw, j->db, j->y, j->x, j->w, j->s);
    }
    if (j->status == CLRT_OK)
        j->status = clrt_queue_finish(j->q);
    return NULL;
}

static void conv_threads(void **state)
{
    (void)state;
    enum { T = 4 };
    const clrt_conv2d_shape s = {3, 9, 8, 5, 3, 3, 1, 1};
    const size_t n = 3, in = 3 * 9 * 8, ckk = 27, out = 5 * 9 * 8;
    const size_t sizes[7][2] = {{n, in}, {5, ckk}, {1, 5}, {n, out}, {n, in}, {5, ckk}, {1, 5}};
    thread_job jobs[T];
    clrt_queue *own[T] = {NULL};
    double *want[T][4], *got = alloc_d(n * out);
    for (int t = 0; t < T; t++) {
        /* threads 0 and 1 share the fixture's queue; 2 and 3 have their own */
        if (t >= 2)
            TU_OK(clrt_queue_create(&own[t], tu_fx->ctx));
        clrt_buffer **bufs[7] = {&jobs[t].x, &jobs[t].w, &jobs[t].b, &jobs[t].y, &jobs[t].dx, &jobs[t].dw, &jobs[t].db};
        for (int i = 0; i < 7; i++) {
            TU_OK(clrt_buffer_create(bufs[i], tu_fx->ctx, CLRT_FLOAT32, sizes[i][0], sizes[i][1]));
            float *h = malloc(sizes[i][0] * sizes[i][1] * sizeof *h);
            assert_non_null(h);
            clrt__ref_fill(h, CLRT_FLOAT32, sizes[i][0] * sizes[i][1], (unsigned)(100 * t + i));
            TU_OK(clrt_buffer_write(tu_fx->q, *bufs[i], h, sizes[i][0] * sizes[i][1]));
            free(h);
        }
        jobs[t].q = t >= 2 ? own[t] : tu_fx->q;
        jobs[t].s = &s;
        jobs[t].rounds = 1;
        jobs[t].status = CLRT_OK;
        conv_worker(&jobs[t]); /* alone: the results to expect */
        TU_OK(jobs[t].status);
        clrt_buffer *outs[4] = {jobs[t].y, jobs[t].dx, jobs[t].dw, jobs[t].db};
        for (int o = 0; o < 4; o++) {
            const size_t cnt = clrt_buffer_rows(outs[o]) * clrt_buffer_cols(outs[o]);
            want[t][o] = alloc_d(cnt);
            tu_read_doubles(tu_fx->q, outs[o], want[t][o], cnt);
        }
        jobs[t].rounds = tu_small() ? 2 : 20;
    }
    /* Oclgrind runs one kernel at a time in the whole process (it asserts
     * otherwise; device_threads does not run there at all): there the jobs run
     * one after another (two of them on the shared queue, in turn) */
    if (clrt_device_is_emulator(&tu_fx->dev)) {
        for (int t = 0; t < T; t++)
            conv_worker(&jobs[t]);
    } else {
        tu_run_threads(T, conv_worker, jobs, sizeof *jobs);
    }
    for (int t = 0; t < T; t++) {
        TU_OK(jobs[t].status);
        clrt_buffer *outs[4] = {jobs[t].y, jobs[t].dx, jobs[t].dw, jobs[t].db};
        for (int o = 0; o < 4; o++) {
            const size_t cnt = clrt_buffer_rows(outs[o]) * clrt_buffer_cols(outs[o]);
            double *h = alloc_d(cnt);
            tu_read_doubles(tu_fx->q, outs[o], h, cnt);
            for (size_t i = 0; i < cnt; i++)
                if (h[i] != want[t][o][i])
                    fail_msg("thread %d, output %d [%zu]: %g, alone %g", t, o, i, h[i], want[t][o][i]);
            free(h);
            free(want[t][o]);
        }
        TU_DESTROY_BUFFERS(jobs[t].x, jobs[t].w, jobs[t].b, jobs[t].y, jobs[t].dx, jobs[t].dw, jobs[t].db);
        if (own[t])
            clrt_queue_destroy(own[t]);
    }
    free(got);
}

/* ---- refusals: each writes nothing */

/* Every element of b (float32, count of them) still holds mark. */
static void assert_marked(const clrt_buffer *b, size_t count, float mark)
{
    float *h = malloc(count * sizeof *h);
    assert_non_null(h);
    TU_OK(clrt_buffer_read(tu_fx->q, b, h, count));
    for (size_t i = 0; i < count; i++)
        if (h[i] != mark)
            fail_msg("a refused call wrote element %zu (%g)", i, (double)h[i]);
    free(h);
}

static void conv_refusals(void **state)
{
    (void)state;
    clrt_queue *q = tu_fx->q;
    const clrt_conv2d_shape s = {2, 5, 4, 3, 3, 3, 1, 1}; /* 5 x 4 out */
    clrt_conv2d_shape zero = s;
    zero.stride = 0;
    clrt_conv2d_shape big = s;
    big.kernel_h = 9;
    const size_t n = 2, in = 40, out = 60, ckk = 18;
    clrt_buffer *x64 = NULL;
    clrt_buffer *x = tu_buffer(CLRT_FLOAT32, n, in), *w = tu_buffer(CLRT_FLOAT32, 3, ckk);
    clrt_buffer *b = tu_buffer(CLRT_FLOAT32, 1, 3), *y = tu_buffer(CLRT_FLOAT32, n, out);
    clrt_buffer *dy = tu_buffer(CLRT_FLOAT32, n, out), *dx = tu_buffer(CLRT_FLOAT32, n, in);
    clrt_buffer *dw = tu_buffer(CLRT_FLOAT32, 3, ckk), *db = tu_buffer(CLRT_FLOAT32, 1, 3);
    clrt_buffer *wrong = tu_buffer(CLRT_FLOAT32, n, out + 1), *i32 = tu_buffer(CLRT_INT32, n, in);
    clrt_buffer *all = tu_buffer(CLRT_FLOAT32, 4, out + in);
    if (tu_fx->dev.has_fp64)
        x64 = tu_buffer(CLRT_FLOAT64, n, in);
    const float mark = 4242.0f;
    TU_OK(clrt_fill(q, y, mark));
    TU_OK(clrt_fill(q, dx, mark));
    /* forward */
    TU_REFUSED(CLRT_EINVAL, "queue", clrt_nn_conv2d_forward(NULL, y, x, w, b, &s));
    TU_REFUSED(CLRT_EINVAL, "y", clrt_nn_conv2d_forward(q, NULL, x, w, b, &s));
    TU_REFUSED(CLRT_EINVAL, "x", clrt_nn_conv2d_forward(q, y, NULL, w, b, &s));
    TU_REFUSED(CLRT_EINVAL, "w", clrt_nn_conv2d_forward(q, y, x, NULL, b, &s));
    TU_REFUSED(CLRT_EINVAL, "NULL", clrt_nn_conv2d_forward(q, y, x, w, b, NULL));
    TU_REFUSED(CLRT_EINVAL, "stride", clrt_nn_conv2d_forward(q, y, x, w, b, &zero));
    TU_REFUSED(CLRT_ESHAPE, "larger", clrt_nn_conv2d_forward(q, y, x, w, b, &big));
    TU_REFUSED(CLRT_ESHAPE, "y", clrt_nn_conv2d_forward(q, wrong, x, w, b, &s));
    TU_REFUSED(CLRT_ESHAPE, "x", clrt_nn_conv2d_forward(q, y, y, w, b, &s)); /* x 2 x 60 */
    TU_REFUSED(CLRT_ESHAPE, "w", clrt_nn_conv2d_forward(q, y, x, db, b, &s));
    TU_REFUSED(CLRT_ESHAPE, "b", clrt_nn_conv2d_forward(q, y, x, w, dw, &s));
    TU_REFUSED(CLRT_EUNSUPPORTED, "int32", clrt_nn_conv2d_forward(q, y, i32, w, b, &s));
    if (x64)
        TU_REFUSED(CLRT_ESHAPE, "dtypes", clrt_nn_conv2d_forward(q, y, x64, w, b, &s));
    clrt_buffer *yv, *xv;
    TU_OK(clrt_buffer_view(&yv, all, 0, 0, n, out));
    TU_OK(clrt_buffer_view(&xv, all, 1, out - 1, n, in)); /* shares (1, out-1) with yv */
    TU_REFUSED(CLRT_EINVAL, "shares memory", clrt_nn_conv2d_forward(q, yv, xv, w, b, &s));
    clrt_buffer_destroy(yv);
    clrt_buffer_destroy(xv);
    /* backward */
    TU_REFUSED(CLRT_EINVAL, "queue", clrt_nn_conv2d_backward(NULL, dx, dw, db, dy, x, w, &s));
    TU_REFUSED(CLRT_EINVAL, "all NULL", clrt_nn_conv2d_backward(q, NULL, NULL, NULL, dy, x, w, &s));
    TU_REFUSED(CLRT_EINVAL, "dy", clrt_nn_conv2d_backward(q, dx, dw, db, NULL, x, w, &s));
    TU_REFUSED(CLRT_EINVAL, "x", clrt_nn_conv2d_backward(q, dx, dw, db, dy, NULL, w, &s));
    TU_REFUSED(CLRT_EINVAL, "w", clrt_nn_conv2d_backward(q, dx, dw, db, dy, x, NULL, &s));
    TU_REFUSED(CLRT_EINVAL, "NULL", clrt_nn_conv2d_backward(q, dx, dw, db, dy, x, w, NULL));
    TU_REFUSED(CLRT_EINVAL, "stride", clrt_nn_conv2d_backward(q, dx, dw, db, dy, x, w, &zero));
    TU_REFUSED(CLRT_ESHAPE, "dy", clrt_nn_conv2d_backward(q, dx, dw, db, wrong, x, w, &s));
    TU_REFUSED(CLRT_ESHAPE, "dx", clrt_nn_conv2d_backward(q, y, dw, db, dy, x, w, &s));
    TU_REFUSED(CLRT_ESHAPE, "dw", clrt_nn_conv2d_backward(q, dx, db, NULL, dy, x, w, &s));
    TU_REFUSED(CLRT_ESHAPE, "db", clrt_nn_conv2d_backward(q, dx, NULL, dw, dy, x, w, &s));
    TU_REFUSED(CLRT_EINVAL, "shares memory", clrt_nn_conv2d_backward(q, x, dw, db, dy, x, w, &s)); /* dx is x */
    TU_REFUSED(CLRT_EINVAL, "shares memory", clrt_nn_conv2d_backward(q, dx, w, db, dy, x, w, &s)); /* dw is w */
    TU_REFUSED(CLRT_EUNSUPPORTED, "int32", clrt_nn_conv2d_backward(q, i32, NULL, NULL, dy, x, w, &s));
    if (x64)
        TU_REFUSED(CLRT_ESHAPE, "dtypes", clrt_nn_conv2d_backward(q, x64, NULL, NULL, dy, x, w, &s));
    /* another context's buffer */
    clrt_context *other = tu_context_on(&tu_fx->dev);
    clrt_buffer *ox;
    TU_OK(clrt_buffer_create(&ox, other, CLRT_FLOAT32, n, in));
    TU_REFUSED(CLRT_EINVAL, "context", clrt_nn_conv2d_forward(q, y, ox, w, b, &s));
    TU_REFUSED(CLRT_EINVAL, "context", clrt_nn_conv2d_backward(q, ox, NULL, NULL, dy, x, w, &s));
    clrt_buffer_destroy(ox);
    clrt_context_destroy(other);
    /* nothing was written */
    assert_marked(y, n * out, mark);
    assert_marked(dx, n * in, mark);
    TU_DESTROY_BUFFERS(x, w, b, y, dy, dx, dw, db, wrong, i32, x64, all);
}

static void pool_refusals(void **state)
{
    (void)state;
    clrt_queue *q = tu_fx->q;
    const clrt_pool2d_shape s = {3, 5, 4, 2, 2}; /* 2 x 2 out */
    clrt_pool2d_shape zero = s;
    zero.size = 0;
    clrt_pool2d_shape big = s;
    big.size = 5;
    const size_t n = 2, in = 60, out = 12;
    clrt_buffer *x64 = NULL;
    clrt_buffer *x = tu_buffer(CLRT_FLOAT32, n, in), *y = tu_buffer(CLRT_FLOAT32, n, out);
    clrt_buffer *am = tu_buffer(CLRT_INT32, n, out), *amw = tu_buffer(CLRT_INT32, n, out + 1);
    clrt_buffer *fam = tu_buffer(CLRT_FLOAT32, n, out), *dy = tu_buffer(CLRT_FLOAT32, n, out);
    clrt_buffer *dx = tu_buffer(CLRT_FLOAT32, n, in), *wrong = tu_buffer(CLRT_FLOAT32, n, out + 1);
    clrt_buffer *i32 = tu_buffer(CLRT_INT32, n, in);
    if (tu_fx->dev.has_fp64)
        x64 = tu_buffer(CLRT_FLOAT64, n, in);
    const float mark = 4242.0f;
    TU_OK(clrt_fill(q, y, mark));
    TU_OK(clrt_fill(q, dx, mark));
    TU_REFUSED(CLRT_EINVAL, "queue", clrt_nn_maxpool_forward(NULL, y, am, x, &s));
    TU_REFUSED(CLRT_EINVAL, "y", clrt_nn_maxpool_forward(q, NULL, am, x, &s));
    TU_REFUSED(CLRT_EINVAL, "x", clrt_nn_maxpool_forward(q, y, am, NULL, &s));
    TU_REFUSED(CLRT_EINVAL, "NULL", clrt_nn_maxpool_forward(q, y, am, x, NULL));
    TU_REFUSED(CLRT_EINVAL, "size", clrt_nn_maxpool_forward(q, y, am, x, &zero));
    TU_REFUSED(CLRT_ESHAPE, "larger", clrt_nn_maxpool_forward(q, y, am, x, &big));
    TU_REFUSED(CLRT_ESHAPE, "y", clrt_nn_maxpool_forward(q, wrong, am, x, &s));
    TU_REFUSED(CLRT_ESHAPE, "x", clrt_nn_maxpool_forward(q, y, am, y, &s));
    TU_REFUSED(CLRT_ESHAPE, "int32", clrt_nn_maxpool_forward(q, y, fam, x, &s));
    TU_REFUSED(CLRT_ESHAPE, "argmax", clrt_nn_maxpool_forward(q, y, amw, x, &s));
    TU_REFUSED(CLRT_EUNSUPPORTED, "int32", clrt_nn_maxpool_forward(q, y, am, i32, &s));
    if (x64)
        TU_REFUSED(CLRT_ESHAPE, "dtypes", clrt_nn_maxpool_forward(q, y, am, x64, &s));
    TU_REFUSED(CLRT_EINVAL, "queue", clrt_nn_maxpool_backward(NULL, dx, dy, am, &s));
    TU_REFUSED(CLRT_EINVAL, "dx", clrt_nn_maxpool_backward(q, NULL, dy, am, &s));
    TU_REFUSED(CLRT_EINVAL, "dy", clrt_nn_maxpool_backward(q, dx, NULL, am, &s));
    TU_REFUSED(CLRT_EINVAL, "argmax", clrt_nn_maxpool_backward(q, dx, dy, NULL, &s));
    TU_REFUSED(CLRT_EINVAL, "NULL", clrt_nn_maxpool_backward(q, dx, dy, am, NULL));
    TU_REFUSED(CLRT_ESHAPE, "dy", clrt_nn_maxpool_backward(q, dx, wrong, am, &s));
    TU_REFUSED(CLRT_ESHAPE, "dx", clrt_nn_maxpool_backward(q, dy, dy, am, &s));
    TU_REFUSED(CLRT_ESHAPE, "int32", clrt_nn_maxpool_backward(q, dx, dy, fam, &s));
    TU_REFUSED(CLRT_ESHAPE, "argmax", clrt_nn_maxpool_backward(q, dx, dy, amw, &s));
    TU_REFUSED(CLRT_EUNSUPPORTED, "int32", clrt_nn_maxpool_backward(q, i32, dy, am, &s));
    clrt_buffer *all, *v1, *v2;
    TU_OK(clrt_buffer_create(&all, tu_fx->ctx, CLRT_FLOAT32, n, in + out));
    TU_OK(clrt_buffer_view(&v1, all, 0, 0, n, in));
    TU_OK(clrt_buffer_view(&v2, all, 0, in - 1, n, out));
    TU_REFUSED(CLRT_EINVAL, "shares memory", clrt_nn_maxpool_forward(q, v2, NULL, v1, &s));
    TU_REFUSED(CLRT_EINVAL, "shares memory", clrt_nn_maxpool_backward(q, v1, v2, am, &s));
    TU_DESTROY_BUFFERS(v1, v2, all);
    clrt_context *other = tu_context_on(&tu_fx->dev);
    clrt_buffer *oam;
    TU_OK(clrt_buffer_create(&oam, other, CLRT_INT32, n, out));
    TU_REFUSED(CLRT_EINVAL, "context", clrt_nn_maxpool_forward(q, y, oam, x, &s));
    TU_REFUSED(CLRT_EINVAL, "context", clrt_nn_maxpool_backward(q, dx, dy, oam, &s));
    clrt_buffer_destroy(oam);
    clrt_context_destroy(other);
    assert_marked(y, n * out, mark);
    assert_marked(dx, n * in, mark);
    TU_DESTROY_BUFFERS(x, y, am, amw, fam, dy, dx, wrong, i32, x64);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_FIXTURE_TEST(conv_output),
        TU_FIXTURE_TEST(conv),
        TU_FIXTURE_TEST(conv_partial),
        TU_FIXTURE_TEST(pool_output),
        TU_FIXTURE_TEST(maxpool),
        TU_FIXTURE_TEST(gradcheck_chain),
        TU_FIXTURE_TEST(conv_params),
        TU_FIXTURE_TEST(conv_loop_slices),
        TU_FIXTURE_TEST(conv_image_slices),
        TU_FIXTURE_TEST(conv_algorithms),
        TU_FIXTURE_TEST(cnn_shipped_gpu_defaults),
        TU_FIXTURE_TEST(conv_threads),
        TU_FIXTURE_TEST(conv_refusals),
        TU_FIXTURE_TEST(pool_refusals),
    };
    return TU_RUN_FIXTURE_SUITE(tests);
}
