/* The neural-network calls (clrt_nn.h) against double-precision host
 * references at odd shapes, float32 and (where the device has it) float64,
 * with canaries after every output; finite-difference gradient checks in
 * float64; every documented refusal. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

#include "base/debug.h"

enum { CANARY = 13 };

/* A padded device matrix holding h (doubles, rounded to dt). */
static clrt_buffer *up(clrt_dtype dt, size_t rows, size_t cols, const double *h)
{
    clrt_buffer *b = tu_padded_buffer(tu_fx->ctx, tu_fx->q, dt, rows, cols, CANARY);
    if (h)
        tu_write_doubles(tu_fx->q, b, h, rows * cols);
    return b;
}

/* Read b into h (doubles) and check its canary. */
static void down(const clrt_buffer *b, double *h)
{
    tu_read_doubles(tu_fx->q, b, h, clrt_buffer_rows(b) * clrt_buffer_cols(b));
    assert_true(tu_canary_intact(tu_fx->q, b, CANARY));
}

/* ---- linear and relu */

static void check_linear(clrt_dtype dt, size_t n, size_t in, size_t out, int bias)
{
    char what[120];
    double *x = tu_random_doubles(n * in, (unsigned)(n * 7 + in), dt);
    double *w = tu_random_doubles(out * in, (unsigned)(out + 3), dt);
    double *b = tu_random_doubles(out, (unsigned)(out + 11), dt);
    double *dy = tu_random_doubles(n * out, (unsigned)(n + out), dt);
    double *y = malloc(n * out * 8), *ry = malloc(n * out * 8), *ay = malloc(n * out * 8);
    double *dx = malloc(n * in * 8), *rdx = malloc(n * in * 8), *adx = malloc(n * in * 8);
    double *dw = malloc(out * in * 8), *rdw = malloc(out * in * 8), *adw = malloc(out * in * 8);
    double *db = malloc(out * 8), *rdb = malloc(out * 8), *adb = malloc(out * 8);
    assert_true(y && ry && ay && dx && rdx && adx && dw && rdw && adw && db && rdb && adb);
    for (size_t i = 0; i < n; i++)
        for (size_t o = 0; o < out; o++) {
            double s = bias ? b[o] : 0, a = bias ? fabs(b[o]) : 0;
            for (size_t k = 0; k < in; k++) {
                s += x[i * in + k] * w[o * in + k];
                a += fabs(x[i * in + k] * w[o * in + k]);
            }
            ry[i * out + o] = s;
            ay[i * out + o] = a;
        }
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < in; k++) {
            double s = 0, a = 0;
            for (size_t o = 0; o < out; o++) {
                s += dy[i * out + o] * w[o * in + k];
                a += fabs(dy[i * out + o] * w[o * in + k]);
            }
            rdx[i * in + k] = s;
            adx[i * in + k] = a;
        }
    for (size_t o = 0; o < out; o++) {
        for (size_t k = 0; k < in; k++) {
            double s = 0, a = 0;
            for (size_t i = 0; i < n; i++) {
                s += dy[i * out + o] * x[i * in + k];
                a += fabs(dy[i * out + o] * x[i * in + k]);
            }
            rdw[o * in + k] = s;
            adw[o * in + k] = a;
        }
        double s = 0, a = 0;
        for (size_t i = 0; i < n; i++) {
            s += dy[i * out + o];
            a += fabs(dy[i * out + o]);
        }
        rdb[o] = s;
        adb[o] = a;
    }
    clrt_buffer *dX = up(dt, n, in, x), *dW = up(dt, out, in, w), *dB = up(dt, 1, out, b), *dY = up(dt, n, out, NULL);
    clrt_buffer *dDY = up(dt, n, out, dy), *dDX = up(dt, n, in, NULL), *dDW = up(dt, out, in, NULL),
                *dDB = up(dt, 1, out, NULL);
    /* the bias is added in the product's store: the forward pass launches what the
     * product alone does (one kernel where the bias was a second) */
    clrt__debug_fault_clear();
    TU_OK(clrt_gemm(tu_fx->q, CLRT_NO_TRANS, CLRT_TRANS, 1.0, dX, dW, 0.0, dY));
    const size_t product = clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL);
    clrt__debug_fault_clear();
    TU_OK(clrt_nn_linear_forward(tu_fx->q, dY, dX, dW, bias ? dB : NULL));
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), product);
    TU_OK(clrt_nn_linear_backward(tu_fx->q, dDX, dDW, dDB, dDY, dX, dW));
    down(dY, y);
    down(dDX, dx);
    down(dDW, dw);
    down(dDB, db);
    const double tol = 4.0 * (double)(in > n ? (in > out ? in : out) : (n > out ? n : out)) * tu_epsilon(dt);
    const char *dn = tu_dtype_name(dt);
    snprintf(what, sizeof what, "linear forward %zux%zu -> %zu %s%s", n, in, out, dn, bias ? "" : " no bias");
    tu_expect_close(what, y, ry, ay, n * out, tol);
    snprintf(what, sizeof what, "linear dx %zux%zu -> %zu %s", n, in, out, dn);
    tu_expect_close(what, dx, rdx, adx, n * in, tol);
    snprintf(what, sizeof what, "linear dw %zux%zu -> %zu %s", n, in, out, dn);
    tu_expect_close(what, dw, rdw, adw, out * in, tol);
    snprintf(what, sizeof what, "linear db %zux%zu -> %zu %s", n, in, out, dn);
    tu_expect_close(what, db, rdb, adb, out, tol);
    /* relu in place over y, then against the host */
    TU_OK(clrt_nn_relu_forward(tu_fx->q, dY, dY));
    double *r = malloc(n * out * 8), *one = malloc(n * out * 8);
    assert_true(r && one);
    for (size_t i = 0; i < n * out; i++) {
        r[i] = y[i] > 0 ? y[i] : 0;
        one[i] = 1;
    }
    down(dY, y);
    snprintf(what, sizeof what, "relu forward in place %zux%zu %s", n, out, dn);
    tu_expect_close(what, y, r, one, n * out, 0);
    TU_DESTROY_BUFFERS(dX, dW, dB, dY, dDY, dDX, dDW, dDB);
    double *hs[] = {x, w, b, dy, y, ry, ay, dx, rdx, adx, dw, rdw, adw, db, rdb, adb, r, one};
    for (size_t i = 0; i < sizeof hs / sizeof *hs; i++)
        free(hs[i]);
}

static void linear(void **state)
{
    (void)state;
    static const size_t big[][3] = {{1, 1, 1}, {3, 7, 5}, {1, 17, 10}, {3, 1, 7}, {17, 65, 10}, {65, 127, 3}};
    static const size_t small[][3] = {{1, 1, 1}, {3, 7, 5}, {1, 17, 10}, {3, 1, 7}};
    const size_t (*s)[3] = tu_small() ? small : big;
    const size_t ns = tu_small() ? 4 : 6;
    for (int d = 0; d < tu_n_dtypes(); d++)
        for (size_t i = 0; i < ns; i++)
            check_linear(tu_dtype_at(d), s[i][0], s[i][1], s[i][2], (int)(i & 1) || i == 0);
}

/* relu's gradient: exact, at zeros (both signs), subnormals, huge values and
 * negatives included. */
static void check_relu_backward(clrt_dtype dt, size_t rows, size_t cols)
{
    const size_t n = rows * cols;
    double *x = tu_random_doubles(n, (unsigned)(rows * 3 + cols), dt);
    double *dy = tu_random_doubles(n, (unsigned)(rows + 9 * cols), dt);
    double *ref = malloc(n * 8), *got = malloc(n * 8), *zero = calloc(n, 8);
    assert_true(ref && got && zero);
    const double specials[] = {0.0, -0.0, dt == CLRT_FLOAT64 ? 0x1p-1074 : 0x1p-149, dt == CLRT_FLOAT64 ? 0x1p-1022 : 0x1p-126,
                               dt == CLRT_FLOAT64 ? 0x1p1000 : 0x1p120, -0x1p-149, -1e30};
    for (size_t i = 0; i < n && i < sizeof specials / sizeof *specials; i++)
        x[i * 5 % n] = specials[i];
    for (size_t i = 0; i < n; i++)
        ref[i] = x[i] > 0 ? dy[i] : 0;
    clrt_buffer *dX = up(dt, rows, cols, x), *dDY = up(dt, rows, cols, dy), *dDX = up(dt, rows, cols, NULL);
    TU_OK(clrt_nn_relu_backward(tu_fx->q, dDX, dDY, dX));
    down(dDX, got);
    char what[80];
    snprintf(what, sizeof what, "relu backward %zux%zu %s", rows, cols, tu_dtype_name(dt));
    /* subnormal x: the device may flush it to zero (then the gradient is 0) */
    for (size_t i = 0; i < n; i++)
        if (x[i] > 0 && fabs(x[i]) < (dt == CLRT_FLOAT64 ? 0x1p-1022 : 0x1p-126) && got[i] == 0)
            got[i] = ref[i];
    tu_expect_close(what, got, ref, zero, n, 0);
    TU_DESTROY_BUFFERS(dX, dDY, dDX);
    TU_FREE_ALL(x, dy, ref, got, zero);
}

static void relu_backward(void **state)
{
    (void)state;
    for (int d = 0; d < tu_n_dtypes(); d++) {
        check_relu_backward(tu_dtype_at(d), 1, 1);
        check_relu_backward(tu_dtype_at(d), 3, 7);
        check_relu_backward(tu_dtype_at(d), 7, 17);
        if (!tu_small())
            check_relu_backward(tu_dtype_at(d), 65, 127);
    }
}

/* NaN in x gives NaN; where x <= 0 the gradient is 0 whatever dy holds (inf,
 * NaN: PyTorch's rule); dx may be dy itself or x itself (in place). */
static void relu_backward_special(void **state)
{
    (void)state;
    for (int d = 0; d < tu_n_dtypes(); d++) {
        const clrt_dtype dt = tu_dtype_at(d);
        const double x[8] = {NAN, -1, 0, 2, -0.0, 3, -INFINITY, INFINITY};
        const double dy[8] = {1, INFINITY, NAN, 5, -INFINITY, NAN, 7, -8};
        const double ref[8] = {NAN, 0, 0, 5, 0, NAN, 0, -8};
        double got[8];
        for (int mode = 0; mode < 3; mode++) { /* separate, dx is dy, dx is x */
            clrt_buffer *dX = up(dt, 2, 4, x), *dDY = up(dt, 2, 4, dy), *dDX = up(dt, 2, 4, NULL);
            clrt_buffer *out = mode == 0 ? dDX : mode == 1 ? dDY : dX;
            TU_OK(clrt_nn_relu_backward(tu_fx->q, out, dDY, dX));
            down(out, got);
            for (int i = 0; i < 8; i++)
                if (!(isnan(ref[i]) ? isnan(got[i]) : got[i] == ref[i]))
                    fail_msg("relu backward (mode %d, %s) [%d]: x %g dy %g gave %g, expected %g", mode,
                             d ? "f64" : "f32", i, x[i], dy[i], got[i], ref[i]);
            TU_DESTROY_BUFFERS(dX, dDY, dDX);
        }
    }
}

/* ---- softmax cross-entropy */

/* Host reference in double: the loss and dlogits. */
static double xent_ref(const double *z, const int32_t *lab, size_t n, size_t c, double *g)
{
    double loss = 0;
    for (size_t i = 0; i < n; i++) {
        double m = -INFINITY, s = 0;
        for (size_t j = 0; j < c; j++)
            m = fmax(m, z[i * c + j]);
        for (size_t j = 0; j < c; j++)
            s += exp(z[i * c + j] - m);
        loss -= z[i * c + (size_t)lab[i]] - m - log(s);
        for (size_t j = 0; j < c; j++)
            g[i * c + j] = (exp(z[i * c + j] - m) / s - (j == (size_t)lab[i])) / (double)n;
    }
    return loss / (double)n;
}

static void check_xent(clrt_dtype dt, size_t n, size_t c, double scale, double shift, int with_grad)
{
    char what[120];
    double *z = tu_random_doubles(n * c, (unsigned)(n * 5 + c), dt), *g = malloc(n * c * 8), *rg = malloc(n * c * 8);
    double *ag = malloc(n * c * 8);
    int32_t *lab = malloc(n * sizeof *lab);
    assert_true(g && rg && ag && lab);
    for (size_t i = 0; i < n * c; i++)
        z[i] = dt == CLRT_FLOAT32 ? (double)(float)(z[i] * scale + shift) : z[i] * scale + shift;
    for (size_t i = 0; i < n; i++)
        lab[i] = (int32_t)((i * 7 + 3) % c);
    const double rloss = xent_ref(z, lab, n, c, rg);
    clrt_buffer *dZ = up(dt, n, c, z), *dL = up(dt, 1, 1, NULL), *dG = up(dt, n, c, NULL), *dLab;
    TU_OK(clrt_buffer_create(&dLab, tu_fx->ctx, CLRT_INT32, n, 1));
    TU_OK(clrt_buffer_write(tu_fx->q, dLab, lab, n));
    TU_OK(clrt_nn_softmax_xent(tu_fx->q, dL, with_grad ? dG : NULL, dZ, dLab));
    double loss;
    down(dL, &loss);
    /* exp, log and the division are within a few ulp each; the row sums add c terms */
    const double tol = 16.0 * (double)(c + 8) * tu_epsilon(dt);
    const char *dn = tu_dtype_name(dt);
    double aloss = fabs(rloss) + 1 + fabs(scale) + fabs(shift) * 0; /* shift cancels exactly in z - m */
    snprintf(what, sizeof what, "xent loss %zux%zu scale %g shift %g %s", n, c, scale, shift, dn);
    tu_expect_close(what, &loss, &rloss, &aloss, 1, tol);
    if (with_grad) {
        down(dG, g);
        /* each probability to its own size (a row sum short of terms shows in every
         * element), with a floor of the mean one, 1 / (n c), for those near zero */
        for (size_t i = 0; i < n * c; i++)
            ag[i] = fabs(rg[i]) + 1.0 / ((double)n * (double)c);
        snprintf(what, sizeof what, "xent dlogits %zux%zu scale %g shift %g %s", n, c, scale, shift, dn);
        tu_expect_close(what, g, rg, ag, n * c, tol);
    }
    TU_DESTROY_BUFFERS(dZ, dL, dG, dLab);
    TU_FREE_ALL(z, g, rg, ag, lab);
}

static void softmax_xent(void **state)
{
    (void)state;
    for (int d = 0; d < tu_n_dtypes(); d++) {
        clrt_dtype dt = tu_dtype_at(d);
        check_xent(dt, 1, 1, 1, 0, 1);
        check_xent(dt, 3, 7, 1, 0, 1);
        check_xent(dt, 1, 10, 4, 0, 0);
        check_xent(dt, 17, 10, 3, 0, 1);
        /* logits near 1000 and -1000: exp without the shift overflows (and underflows) */
        check_xent(dt, 3, 7, 1, 1000, 1);
        check_xent(dt, 3, 7, 1, -1000, 1);
        if (!tu_small())
            check_xent(dt, 65, 127, 2, 0, 1);
    }
}

/* Kernel launches of one softmax cross-entropy of n x c (with its gradient). */
static unsigned long xent_launches(clrt_dtype dt, size_t n, size_t c)
{
    clrt__debug_fault_clear(); /* zeroes the call counts */
    check_xent(dt, n, c, 1, 0, 1);
    return clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL);
}

/* Rows in slices of columns (the parameter loops, 3 passes a column; set on
 * llvmpipe, whose work-items stop looping after a budget), forced on every
 * driver: slices of 1, 3 and 4 columns, a row shorter than one slice, a last
 * slice of one column, logits far from 0; each slice is a launch of its own.
 * Then rows of 40000 classes with the device's defaults (rusticl slices them;
 * before it did, llvmpipe left most of each gradient row wrong). */
static void xent_in_slices(void **state)
{
    (void)state;
    for (int d = 0; d < tu_n_dtypes(); d++) {
        const clrt_dtype dt = tu_dtype_at(d);
        TU_OK(clrt_tune_override(tu_fx->ctx, "nn_act", dt, "loops=0"));
        const unsigned long whole = xent_launches(dt, 3, 7);
        static const unsigned cols[] = {1, 3, 4}; /* per slice */
        for (size_t x = 0; x < sizeof cols / sizeof *cols; x++) {
            char params[32];
            snprintf(params, sizeof params, "loops=%u", 3 * cols[x]);
            TU_OK(clrt_tune_override(tu_fx->ctx, "nn_act", dt, params));
            check_xent(dt, 1, 1, 1, 0, 1);
            check_xent(dt, 1, 10, 4, 0, 0);
            check_xent(dt, 17, 10, 3, 0, 1);
            check_xent(dt, 3, 7, 1, 1000, 1);
            check_xent(dt, 3, 7, 1, -1000, 1);
            /* one launch became one per slice for the statistics and one per slice for the gradient */
            const unsigned long slices = (7 + cols[x] - 1) / cols[x];
            assert_int_equal(xent_launches(dt, 3, 7), whole - 1 + 2 * slices);
        }
        TU_OK(clrt_tune_override(tu_fx->ctx, "nn_act", dt, NULL));
        if (!tu_small())
            check_xent(dt, 2, 40000, 2, 0, 1);
    }
}

/* A label outside 0..C-1 (or a NaN or infinite logit) makes its row's loss
 * and gradient NaN, so the batch's loss is NaN; the other rows' gradients are
 * right. Checked on the device: nothing waits for the host. */
static void xent_bad_rows(void **state)
{
    (void)state;
    const size_t n = 3, c = 5;
    for (int d = 0; d < tu_n_dtypes(); d++) {
        const clrt_dtype dt = tu_dtype_at(d);
        for (int run = 0; run < 10; run++) {
            /* each case in one launch, then in slices of 2 columns (the NaN is in the second) */
            const int bad = run % 5;
            if (bad == 0)
                TU_OK(clrt_tune_override(tu_fx->ctx, "nn_act", dt, run < 5 ? "loops=0" : "loops=6"));
            double z[15];
            for (size_t i = 0; i < n * c; i++)
                z[i] = dt == CLRT_FLOAT32 ? (double)(float)(0.3 * (double)i - 1.7) : 0.3 * (double)i - 1.7;
            int32_t lab[3] = {2, 4, 0};
            /* row 1 spoilt: label too large, negative, huge; a NaN logit; -inf logit */
            const int32_t bad_labels[3] = {5, -1, INT32_MAX};
            if (bad < 3)
                lab[1] = bad_labels[bad];
            else
                z[1 * c + 3] = bad == 3 ? NAN : -INFINITY;
            double rg[15], g[15], loss;
            int32_t ok_lab[3] = {2, 0, 0};
            (void)xent_ref(z, ok_lab, n, c, rg); /* rows 0 and 2 (divided by n = 3) */
            clrt_buffer *dZ = up(dt, n, c, z), *dL = up(dt, 1, 1, NULL), *dG = up(dt, n, c, NULL), *dLab;
            TU_OK(clrt_buffer_create(&dLab, tu_fx->ctx, CLRT_INT32, n, 1));
            TU_OK(clrt_buffer_write(tu_fx->q, dLab, lab, n));
            TU_OK(clrt_nn_softmax_xent(tu_fx->q, dL, dG, dZ, dLab));
            down(dL, &loss);
            down(dG, g);
            if (!isnan(loss))
                fail_msg("xent with a bad row (case %d): loss %g, expected NaN", run, loss);
            for (size_t i = 0; i < n * c; i++) {
                const int spoilt = i / c == 1;
                if (spoilt ? !isnan(g[i]) : !(fabs(g[i] - rg[i]) <= 64 * tu_epsilon(dt)))
                    fail_msg("xent with a bad row (case %d): dlogits[%zu] %g, expected %g", run, i, g[i],
                             spoilt ? NAN : rg[i]);
            }
            TU_DESTROY_BUFFERS(dZ, dL, dG, dLab);
        }
        TU_OK(clrt_tune_override(tu_fx->ctx, "nn_act", dt, NULL));
    }
}

/* ---- finite differences in float64: L(x, W, b) = xent(x W^T + b) */

static double fd_loss(clrt_buffer *x, clrt_buffer *w, clrt_buffer *b, clrt_buffer *y, clrt_buffer *lab,
                      clrt_buffer *loss)
{
    TU_OK(clrt_nn_linear_forward(tu_fx->q, y, x, w, b));
    TU_OK(clrt_nn_softmax_xent(tu_fx->q, loss, NULL, y, lab));
    double l;
    TU_OK(clrt_buffer_read(tu_fx->q, loss, &l, 1));
    return l;
}

/* Central difference of the loss in element i of buffer p (host copy h). */
static double fd_at(clrt_buffer *p, double *h, size_t i, clrt_buffer *x, clrt_buffer *w, clrt_buffer *b,
                    clrt_buffer *y, clrt_buffer *lab, clrt_buffer *loss)
{
    const size_t n = clrt_buffer_rows(p) * clrt_buffer_cols(p);
    const double e = 1e-6, keep = h[i];
    h[i] = keep + e;
    TU_OK(clrt_buffer_write(tu_fx->q, p, h, n));
    const double lp = fd_loss(x, w, b, y, lab, loss);
    h[i] = keep - e;
    TU_OK(clrt_buffer_write(tu_fx->q, p, h, n));
    const double lm = fd_loss(x, w, b, y, lab, loss);
    h[i] = keep;
    TU_OK(clrt_buffer_write(tu_fx->q, p, h, n));
    return (lp - lm) / (2 * e);
}

static void gradcheck(void **state)
{
    (void)state;
    if (!tu_fx->dev.has_fp64)
        skip();

    const size_t n = 3, in = 7, out = 5;
    const clrt_dtype dt = CLRT_FLOAT64;
    double *x = tu_random_doubles(n * in, 1, dt), *w = tu_random_doubles(out * in, 2, dt);
    double *b = tu_random_doubles(out, 3, dt);
    int32_t lab[3] = {4, 0, 2};
    clrt_buffer *dX = up(dt, n, in, x), *dW = up(dt, out, in, w), *dB = up(dt, 1, out, b), *dY = up(dt, n, out, NULL);
    clrt_buffer *dL = up(dt, 1, 1, NULL), *dG = up(dt, n, out, NULL), *gX = up(dt, n, in, NULL),
                *gW = up(dt, out, in, NULL), *gB = up(dt, 1, out, NULL), *dLab;
    TU_OK(clrt_buffer_create(&dLab, tu_fx->ctx, CLRT_INT32, n, 1));
    TU_OK(clrt_buffer_write(tu_fx->q, dLab, lab, n));
    TU_OK(clrt_nn_linear_forward(tu_fx->q, dY, dX, dW, dB));
    TU_OK(clrt_nn_softmax_xent(tu_fx->q, dL, dG, dY, dLab));
    TU_OK(clrt_nn_linear_backward(tu_fx->q, gX, gW, gB, dG, dX, dW));
    double hx[21], hw[35], hb[5];
    down(gX, hx);
    down(gW, hw);
    down(gB, hb);
    struct {
        clrt_buffer *p;
        double *h, *g;
        size_t n;
        const char *name;
    } ps[] = {{dX, x, hx, n * in, "dx"}, {dW, w, hw, out * in, "dw"}, {dB, b, hb, out, "db"}};
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < ps[k].n; i++) {
            const double num = fd_at(ps[k].p, ps[k].h, i, dX, dW, dB, dY, dLab, dL);
            if (!(fabs(num - ps[k].g[i]) <= 1e-7 + 1e-6 * fabs(num)))
                fail_msg("gradient %s[%zu]: analytic %.12g, finite difference %.12g", ps[k].name, i, ps[k].g[i], num);
        }
    TU_DESTROY_BUFFERS(dX, dW, dB, dY, dL, dG, gX, gW, gB, dLab);
    free(x);
    free(w);
    free(b);
}

/* A two-layer network, L = xent(W2 relu(W1 x + b1) + b2): the chain of
 * linear_backward, relu_backward and linear_backward against central
 * differences of the loss in x, W1 and b1 (through the relu). */
typedef struct {
    clrt_buffer *x, *w1, *b1, *h, *a, *w2, *b2, *z, *lab, *loss;
} net2;

static double net2_loss(net2 *n)
{
    TU_OK(clrt_nn_linear_forward(tu_fx->q, n->h, n->x, n->w1, n->b1));
    TU_OK(clrt_nn_relu_forward(tu_fx->q, n->a, n->h));
    TU_OK(clrt_nn_linear_forward(tu_fx->q, n->z, n->a, n->w2, n->b2));
    TU_OK(clrt_nn_softmax_xent(tu_fx->q, n->loss, NULL, n->z, n->lab));
    double l;
    TU_OK(clrt_buffer_read(tu_fx->q, n->loss, &l, 1));
    return l;
}

static void gradcheck_relu_net(void **state)
{
    (void)state;
    if (!tu_fx->dev.has_fp64)
        skip();
    const size_t n = 3, in = 7, hid = 6, out = 5;
    const clrt_dtype dt = CLRT_FLOAT64;
    double *x = tu_random_doubles(n * in, 21, dt), *w1 = tu_random_doubles(hid * in, 22, dt);
    double *b1 = tu_random_doubles(hid, 23, dt);
    double *w2 = tu_random_doubles(out * hid, 24, dt), *b2 = tu_random_doubles(out, 25, dt);
    int32_t lab[3] = {1, 4, 0};
    net2 net = {up(dt, n, in, x), up(dt, hid, in, w1), up(dt, 1, hid, b1), up(dt, n, hid, NULL), up(dt, n, hid, NULL),
                up(dt, out, hid, w2), up(dt, 1, out, b2), up(dt, n, out, NULL), NULL, up(dt, 1, 1, NULL)};
    TU_OK(clrt_buffer_create(&net.lab, tu_fx->ctx, CLRT_INT32, n, 1));
    TU_OK(clrt_buffer_write(tu_fx->q, net.lab, lab, n));
    clrt_buffer *dz = up(dt, n, out, NULL), *da = up(dt, n, hid, NULL), *dh = up(dt, n, hid, NULL);
    clrt_buffer *gx = up(dt, n, in, NULL), *gw1 = up(dt, hid, in, NULL), *gb1 = up(dt, 1, hid, NULL);
    TU_OK(clrt_nn_linear_forward(tu_fx->q, net.h, net.x, net.w1, net.b1));
    TU_OK(clrt_nn_relu_forward(tu_fx->q, net.a, net.h));
    TU_OK(clrt_nn_linear_forward(tu_fx->q, net.z, net.a, net.w2, net.b2));
    TU_OK(clrt_nn_softmax_xent(tu_fx->q, net.loss, dz, net.z, net.lab));
    TU_OK(clrt_nn_linear_backward(tu_fx->q, da, NULL, NULL, dz, net.a, net.w2));
    TU_OK(clrt_nn_relu_backward(tu_fx->q, dh, da, net.h));
    TU_OK(clrt_nn_linear_backward(tu_fx->q, gx, gw1, gb1, dh, net.x, net.w1));
    double hx[21], hw[42], hb[6], hh[18];
    down(gx, hx);
    down(gw1, hw);
    down(gb1, hb);
    down(net.h, hh);
    size_t active = 0;
    for (size_t i = 0; i < n * hid; i++)
        active += hh[i] > 0;
    assert_true(active > 0 && active < n * hid); /* the relu both passes and blocks */
    struct {
        clrt_buffer *p;
        double *h, *g;
        size_t n;
        const char *name;
    } ps[] = {{net.x, x, hx, n * in, "dx"}, {net.w1, w1, hw, hid * in, "dw1"}, {net.b1, b1, hb, hid, "db1"}};
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < ps[k].n; i++) {
            const size_t cnt = ps[k].n, e_i = i;
            const double e = 1e-6, keep = ps[k].h[e_i];
            ps[k].h[e_i] = keep + e;
            TU_OK(clrt_buffer_write(tu_fx->q, ps[k].p, ps[k].h, cnt));
            const double lp = net2_loss(&net);
            ps[k].h[e_i] = keep - e;
            TU_OK(clrt_buffer_write(tu_fx->q, ps[k].p, ps[k].h, cnt));
            const double lm = net2_loss(&net);
            ps[k].h[e_i] = keep;
            TU_OK(clrt_buffer_write(tu_fx->q, ps[k].p, ps[k].h, cnt));
            const double num = (lp - lm) / (2 * e);
            if (!(fabs(num - ps[k].g[i]) <= 1e-7 + 1e-6 * fabs(num)))
                fail_msg("gradient %s[%zu]: analytic %.12g, finite difference %.12g", ps[k].name, i, ps[k].g[i], num);
        }
    TU_DESTROY_BUFFERS(net.x, net.w1, net.b1, net.h, net.a, net.w2, net.b2, net.z, net.lab, net.loss, dz, da, dh, gx,
                       gw1, gb1);
    TU_FREE_ALL(x, w1, b1, w2, b2);
}

/* ---- SGD */

static void check_sgd(clrt_dtype dt, size_t rows, size_t cols, double lr, double mu, double wd)
{
    const size_t n = rows * cols;
    double *p = tu_random_doubles(n, 5, dt), *v = calloc(n, 8), *got = malloc(n * 8), *gv = malloc(n * 8),
           *ap = malloc(n * 8);
    assert_true(v && got && gv && ap);
    clrt_buffer *dP = up(dt, rows, cols, p), *dV = mu != 0 ? up(dt, rows, cols, v) : NULL, *dG = up(dt, rows, cols, NULL);
    for (unsigned step = 0; step < 3; step++) {
        double *g = tu_random_doubles(n, 40 + step, dt);
        clrt_buffer_destroy(dG);
        dG = up(dt, rows, cols, g);
        for (size_t i = 0; i < n; i++) {
            const double gg = g[i] + wd * p[i];
            v[i] = mu * v[i] + gg;
            p[i] -= lr * (mu != 0 ? v[i] : gg);
        }
        TU_OK(clrt_nn_sgd_step(tu_fx->q, dP, dG, dV, lr, mu, wd));
        double *g2 = malloc(n * 8);
        assert_non_null(g2);
        down(dG, g2); /* g is not changed */
        for (size_t i = 0; i < n; i++)
            if (g2[i] != g[i])
                fail_msg("sgd changed g[%zu]", i);
        free(g2);
        free(g);
    }
    down(dP, got);
    for (size_t i = 0; i < n; i++)
        ap[i] = 1 + fabs(p[i]);
    char what[100];
    snprintf(what, sizeof what, "sgd %zux%zu lr %g mu %g wd %g %s", rows, cols, lr, mu, wd,
             tu_dtype_name(dt));
    tu_expect_close(what, got, p, ap, n, 16 * tu_epsilon(dt));
    if (dV) {
        down(dV, gv);
        for (size_t i = 0; i < n; i++)
            ap[i] = 1 + fabs(v[i]);
        tu_expect_close(what, gv, v, ap, n, 16 * tu_epsilon(dt));
        clrt_buffer_destroy(dV);
    }
    clrt_buffer_destroy(dP);
    clrt_buffer_destroy(dG);
    TU_FREE_ALL(p, v, got, gv, ap);
}

/* p, g and v as windows of wider matrices, each at its own offset and row
 * stride: the step reads and writes the windows only (the rest of each parent
 * stays as written) and matches the host's. */
static void sgd_views(clrt_dtype dt)
{
    enum { R = 5, C = 9 };
    const size_t widths[3] = {C + 3, C + 7, C + 4}, parents = (R + 2) * (C + 7);
    double *h[3], *ref[3], *got = malloc(parents * 8), *ap = malloc(parents * 8);
    clrt_buffer *parent[3], *view[3];
    assert_true(got && ap);
    for (int t = 0; t < 3; t++) {
        const size_t n = (R + 2) * widths[t];
        h[t] = tu_random_doubles(n, 60 + (unsigned)t, dt);
        ref[t] = malloc(n * 8);
        assert_non_null(ref[t]);
        memcpy(ref[t], h[t], n * 8);
        parent[t] = up(dt, R + 2, widths[t], h[t]);
        TU_OK(clrt_buffer_view(&view[t], parent[t], 1, (size_t)t + 1, R, C));
    }
    const double lr = 0.1, mu = 0.8, wd = 0.01;
    for (size_t i = 0; i < R; i++)
        for (size_t j = 0; j < C; j++) {
            double *p = &ref[0][(i + 1) * widths[0] + j + 1], *v = &ref[2][(i + 1) * widths[2] + j + 3];
            *v = mu * *v + ref[1][(i + 1) * widths[1] + j + 2] + wd * *p;
            *p -= lr * *v;
        }
    TU_OK(clrt_nn_sgd_step(tu_fx->q, view[0], view[1], view[2], lr, mu, wd));
    for (int t = 0; t < 3; t++) {
        const size_t n = (R + 2) * widths[t];
        tu_read_doubles(tu_fx->q, parent[t], got, n);
        for (size_t i = 0; i < n; i++)
            ap[i] = 1 + fabs(ref[t][i]);
        tu_expect_close("sgd on views (p, g, v and the rest of their parents)", got, ref[t], ap, n,
                        16 * tu_epsilon(dt));
        clrt_buffer_destroy(view[t]);
        clrt_buffer_destroy(parent[t]);
        free(h[t]);
        free(ref[t]);
    }
    TU_FREE_ALL(got, ap);
}

static void sgd(void **state)
{
    (void)state;
    for (int d = 0; d < tu_n_dtypes(); d++) {
        check_sgd(tu_dtype_at(d), 7, 17, 0.1, 0.9, 0.01);
        check_sgd(tu_dtype_at(d), 1, 1, 0.001, 0.9, 0);
        check_sgd(tu_dtype_at(d), 3, 5, 0.5, 0, 0.1);
        check_sgd(tu_dtype_at(d), 17, 1, 0.25, 0, 0);
        /* rows wider than a work-group, an odd width: every lane of the one-pass step */
        check_sgd(tu_dtype_at(d), 37, 1031, 0.05, 0.9, 0.001);
        sgd_views(tu_dtype_at(d));
    }
}

/* ---- initialisation */

static void init(void **state)
{
    (void)state;
    for (int d = 0; d < tu_n_dtypes(); d++) {
        const clrt_dtype dt = tu_dtype_at(d);
        const size_t out = 20, fan_in = 25;
        double w1[500], w2[500], w3[500], b1[20], b2[20];
        clrt_buffer *W = up(dt, out, fan_in, NULL), *B = up(dt, 1, out, NULL);
        TU_OK(clrt_nn_init_kaiming_uniform(tu_fx->q, W, B, 42));
        down(W, w1);
        down(B, b1);
        TU_OK(clrt_nn_init_kaiming_uniform(tu_fx->q, W, B, 42));
        down(W, w2);
        down(B, b2);
        assert_memory_equal(w1, w2, sizeof w1);
        assert_memory_equal(b1, b2, sizeof b1);
        TU_OK(clrt_nn_init_kaiming_uniform(tu_fx->q, W, NULL, 43));
        down(W, w3);
        size_t same = 0;
        double lo = 1, hi = -1, mean = 0;
        const double bound = 1.0 / sqrt((double)fan_in);
        for (size_t i = 0; i < out * fan_in; i++) {
            same += w3[i] == w1[i];
            lo = fmin(lo, w1[i]);
            hi = fmax(hi, w1[i]);
            mean += w1[i];
            assert_true(fabs(w1[i]) <= bound);
        }
        for (size_t i = 0; i < out; i++)
            assert_true(fabs(b1[i]) <= bound);
        assert_true(same < 5);
        /* 500 uniform values fill their range and centre on 0 */
        assert_true(lo < -0.9 * bound && hi > 0.9 * bound);
        assert_true(fabs(mean / 500) < 0.1 * bound);
        /* the documented generator: splitmix64 from the seed, w row by row, then b */
        uint64_t st = 42;
        for (size_t i = 0; i < out * fan_in + out; i++) {
            uint64_t z = (st += 0x9e3779b97f4a7c15ull);
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            z ^= z >> 31;
            double v = bound * (2.0 * ((double)(z >> 11) * 0x1p-53) - 1.0);
            if (dt == CLRT_FLOAT32)
                v = (double)(float)v;
            const double got = i < out * fan_in ? w1[i] : b1[i - out * fan_in];
            if (got != v)
                fail_msg("init value %zu is %.17g, the generator gives %.17g", i, got, v);
        }
        clrt_buffer_destroy(W);
        clrt_buffer_destroy(B);
    }
}

/* ---- refusals: the status, and nothing written */

static void refusals(void **state)
{
    (void)state;
    clrt_queue *q = tu_fx->q;
    clrt_buffer *x64 = NULL;
    clrt_buffer *x = tu_buffer(CLRT_FLOAT32, 3, 7), *w = tu_buffer(CLRT_FLOAT32, 5, 7);
    clrt_buffer *b = tu_buffer(CLRT_FLOAT32, 1, 5), *y = tu_buffer(CLRT_FLOAT32, 3, 5);
    clrt_buffer *g = tu_buffer(CLRT_FLOAT32, 3, 5), *wrong = tu_buffer(CLRT_FLOAT32, 4, 5);
    clrt_buffer *i32 = tu_buffer(CLRT_INT32, 3, 5), *lab = tu_buffer(CLRT_INT32, 3, 1);
    clrt_buffer *loss = tu_buffer(CLRT_FLOAT32, 1, 1);
    if (tu_fx->dev.has_fp64)
        x64 = tu_buffer(CLRT_FLOAT64, 3, 7);
    /* relu */
    TU_STATUS(CLRT_EINVAL, clrt_nn_relu_forward(NULL, y, g));
    TU_STATUS(CLRT_EINVAL, clrt_nn_relu_forward(q, NULL, g));
    TU_STATUS(CLRT_EINVAL, clrt_nn_relu_forward(q, y, NULL));
    TU_STATUS(CLRT_ESHAPE, clrt_nn_relu_forward(q, wrong, g));
    TU_STATUS(CLRT_EUNSUPPORTED, clrt_nn_relu_forward(q, i32, i32));
    TU_STATUS(CLRT_EINVAL, clrt_nn_relu_backward(NULL, y, g, g));
    TU_STATUS(CLRT_EINVAL, clrt_nn_relu_backward(q, NULL, g, g));
    TU_STATUS(CLRT_EINVAL, clrt_nn_relu_backward(q, y, NULL, g));
    TU_STATUS(CLRT_EINVAL, clrt_nn_relu_backward(q, y, g, NULL));
    TU_STATUS(CLRT_ESHAPE, clrt_nn_relu_backward(q, wrong, g, y));
    TU_STATUS(CLRT_ESHAPE, clrt_nn_relu_backward(q, y, wrong, g));
    /* dx may be dy or x itself (relu_backward tests it), not a shifted window of either */
    clrt_buffer *lo, *hi, *other;
    TU_OK(clrt_buffer_view(&lo, y, 0, 0, 2, 5));
    TU_OK(clrt_buffer_view(&hi, y, 1, 0, 2, 5));
    TU_OK(clrt_buffer_view(&other, wrong, 0, 0, 2, 5));
    TU_REFUSED(CLRT_EINVAL, "in part", clrt_nn_relu_backward(q, hi, other, lo)); /* dx overlaps x */
    TU_REFUSED(CLRT_EINVAL, "in part", clrt_nn_relu_backward(q, hi, lo, other)); /* dx overlaps dy */
    TU_DESTROY_BUFFERS(lo, hi, other);
    TU_STATUS(CLRT_EUNSUPPORTED, clrt_nn_relu_backward(q, i32, i32, i32));
    if (x64)
        TU_STATUS(CLRT_ESHAPE, clrt_nn_relu_backward(q, x, x64, x));
    /* linear */
    TU_STATUS(CLRT_EINVAL, clrt_nn_linear_forward(NULL, y, x, w, b));
    TU_STATUS(CLRT_EINVAL, clrt_nn_linear_forward(q, NULL, x, w, b));
    TU_STATUS(CLRT_EINVAL, clrt_nn_linear_forward(q, y, NULL, w, b));
    TU_STATUS(CLRT_EINVAL, clrt_nn_linear_forward(q, y, x, NULL, b));
    TU_STATUS(CLRT_ESHAPE, clrt_nn_linear_forward(q, wrong, x, w, b));
    TU_STATUS(CLRT_ESHAPE, clrt_nn_linear_forward(q, y, x, y, b));   /* w 3x5 against x 3x7 */
    TU_STATUS(CLRT_ESHAPE, clrt_nn_linear_forward(q, y, x, w, loss)); /* bias 1x1 */
    clrt_buffer *yv;
    TU_OK(clrt_buffer_view(&yv, x, 0, 2, 3, 5));
    TU_STATUS(CLRT_EINVAL, clrt_nn_linear_forward(q, yv, x, w, b)); /* y a window of x */
    clrt_buffer_destroy(yv);
    TU_STATUS(CLRT_EUNSUPPORTED, clrt_nn_linear_forward(q, i32, x, w, b));
    if (x64)
        TU_STATUS(CLRT_ESHAPE, clrt_nn_linear_forward(q, y, x64, w, b));
    TU_STATUS(CLRT_EINVAL, clrt_nn_linear_backward(q, NULL, NULL, NULL, y, x, w));
    TU_STATUS(CLRT_EINVAL, clrt_nn_linear_backward(q, x, w, b, NULL, x, w));
    TU_STATUS(CLRT_ESHAPE, clrt_nn_linear_backward(q, NULL, NULL, b, wrong, x, w));
    TU_STATUS(CLRT_ESHAPE, clrt_nn_linear_backward(q, NULL, x, NULL, y, x, w)); /* dw 3x7 */
    TU_STATUS(CLRT_EINVAL, clrt_nn_linear_backward(q, x, NULL, NULL, y, x, w)); /* dx is x */
    if (x64)
        TU_STATUS(CLRT_ESHAPE, clrt_nn_linear_backward(q, x64, NULL, NULL, y, x, w));
    /* softmax cross-entropy: labels are int32 N x 1 (their range: see xent_bad_label) */
    const int32_t good[3] = {0, 4, 1};
    TU_OK(clrt_buffer_write(q, lab, good, 3));
    TU_STATUS(CLRT_EINVAL, clrt_nn_softmax_xent(NULL, loss, g, y, lab));
    TU_STATUS(CLRT_EINVAL, clrt_nn_softmax_xent(q, NULL, g, y, lab));
    TU_STATUS(CLRT_EINVAL, clrt_nn_softmax_xent(q, loss, g, NULL, lab));
    TU_STATUS(CLRT_EINVAL, clrt_nn_softmax_xent(q, loss, g, y, NULL));
    TU_STATUS(CLRT_ESHAPE, clrt_nn_softmax_xent(q, loss, g, y, g));       /* float labels */
    TU_STATUS(CLRT_ESHAPE, clrt_nn_softmax_xent(q, loss, g, wrong, lab)); /* 4 rows, 3 labels */
    TU_STATUS(CLRT_ESHAPE, clrt_nn_softmax_xent(q, b, g, y, lab));        /* loss 1x5 */
    TU_STATUS(CLRT_ESHAPE, clrt_nn_softmax_xent(q, loss, x, y, lab));     /* dlogits 3x7 */
    TU_STATUS(CLRT_EINVAL, clrt_nn_softmax_xent(q, loss, y, y, lab));     /* in place */
    TU_STATUS(CLRT_EUNSUPPORTED, clrt_nn_softmax_xent(q, loss, NULL, i32, lab));
    /* sgd */
    TU_STATUS(CLRT_EINVAL, clrt_nn_sgd_step(NULL, y, g, NULL, 0.1, 0, 0));
    TU_STATUS(CLRT_EINVAL, clrt_nn_sgd_step(q, NULL, g, NULL, 0.1, 0, 0));
    TU_STATUS(CLRT_EINVAL, clrt_nn_sgd_step(q, y, NULL, NULL, 0.1, 0, 0));
    TU_STATUS(CLRT_EINVAL, clrt_nn_sgd_step(q, y, g, NULL, 0.1, 0.9, 0)); /* momentum without v */
    TU_STATUS(CLRT_EINVAL, clrt_nn_sgd_step(q, y, g, NULL, NAN, 0, 0));
    TU_STATUS(CLRT_EINVAL, clrt_nn_sgd_step(q, y, g, NULL, 0.1, 0, INFINITY));
    TU_STATUS(CLRT_EINVAL, clrt_nn_sgd_step(q, y, y, NULL, 0.1, 0, 0)); /* p is g */
    TU_STATUS(CLRT_ESHAPE, clrt_nn_sgd_step(q, y, wrong, NULL, 0.1, 0, 0));
    TU_STATUS(CLRT_ESHAPE, clrt_nn_sgd_step(q, y, g, wrong, 0.1, 0.9, 0));
    TU_STATUS(CLRT_EUNSUPPORTED, clrt_nn_sgd_step(q, i32, g, NULL, 0.1, 0, 0));
    if (x64)
        TU_STATUS(CLRT_ESHAPE, clrt_nn_sgd_step(q, x, x64, NULL, 0.1, 0, 0));
    /* init */
    TU_STATUS(CLRT_EINVAL, clrt_nn_init_kaiming_uniform(NULL, w, b, 1));
    TU_STATUS(CLRT_EINVAL, clrt_nn_init_kaiming_uniform(q, NULL, b, 1));
    TU_STATUS(CLRT_ESHAPE, clrt_nn_init_kaiming_uniform(q, w, loss, 1)); /* bias 1x1 for 5 outputs */
    TU_STATUS(CLRT_EUNSUPPORTED, clrt_nn_init_kaiming_uniform(q, i32, NULL, 1));
    if (x64)
        TU_STATUS(CLRT_ESHAPE, clrt_nn_init_kaiming_uniform(q, x64, b, 1));
    TU_DESTROY_BUFFERS(x, w, b, y, g, wrong, i32, lab, loss, x64);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_FIXTURE_TEST(linear),
        TU_FIXTURE_TEST(relu_backward),
        TU_FIXTURE_TEST(relu_backward_special),
        TU_FIXTURE_TEST(softmax_xent),
        TU_FIXTURE_TEST(xent_in_slices),
        TU_FIXTURE_TEST(xent_bad_rows),
        TU_FIXTURE_TEST(gradcheck),
        TU_FIXTURE_TEST(gradcheck_relu_net),
        TU_FIXTURE_TEST(sgd),
        TU_FIXTURE_TEST(init),
        TU_FIXTURE_TEST(refusals),
    };
    return TU_RUN_FIXTURE_SUITE(tests);
}
