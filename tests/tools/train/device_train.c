/* clrt-train's network (tools/train/net.c) against a plain host reference
 * of the whole network in double (train_ref.c): the loss and all eight
 * gradients of a mini-batch, then the weights after two SGD steps with
 * momentum (the second step checks the momentum buffers), and a save/load
 * round trip of the state file. In float64 where the device has it (the
 * differences are then rounding only), else float32 with a looser bound. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/test_util.h"
#include "train/net.h"
#include "train/state.h"
#include "train_ref.h"

static tu_fixture *fx(void **state)
{
    return (tu_fixture *)*state;
}

static clrt_dtype dtype_of(const tu_fixture *f)
{
    return f->dev.has_fp64 ? CLRT_FLOAT64 : CLRT_FLOAT32;
}

/* Read a device buffer of dt into doubles. */
static void read_doubles(clrt_queue *q, const clrt_buffer *b, double *out, size_t n)
{
    if (clrt_buffer_dtype(b) == CLRT_FLOAT64) {
        TU_OK(clrt_buffer_read(q, b, out, n));
        return;
    }
    float *f = malloc(n * sizeof *f);
    assert_non_null(f);
    TU_OK(clrt_buffer_read(q, b, f, n));
    for (size_t i = 0; i < n; i++)
        out[i] = f[i];
    free(f);
}

static void write_doubles(clrt_queue *q, clrt_buffer *b, const double *in, size_t n)
{
    if (clrt_buffer_dtype(b) == CLRT_FLOAT64) {
        TU_OK(clrt_buffer_write(q, b, in, n));
        return;
    }
    float *f = malloc(n * sizeof *f);
    assert_non_null(f);
    for (size_t i = 0; i < n; i++)
        f[i] = (float)in[i];
    TU_OK(clrt_buffer_write(q, b, f, n));
    free(f);
}

/* Write every buffer of net from the host, with the values it holds (the
 * weights) or zeros (gradients, momentum: zero after train_net_create, and
 * the activations). Why: a test's net is made after the previous test's was
 * destroyed, and Oclgrind (21.10) keeps a released buffer's size in its
 * shadow memory for the next buffer that gets its id, so what kernels write
 * past that size reads as uninitialised (the false report docs/nn.md
 * describes). A host write sizes the shadow anew; values do not change. */
static void host_write_net(clrt_queue *q, train_net *net)
{
    size_t most = 0;
    for (int t = 0; t < TRAIN_TENSORS; t++)
        most = clrt_buffer_rows(net->param[t]) * clrt_buffer_cols(net->param[t]) > most
                   ? clrt_buffer_rows(net->param[t]) * clrt_buffer_cols(net->param[t])
                   : most;
    for (int a = 0; a < TA_COUNT; a++)
        most = clrt_buffer_rows(net->full[a]) * clrt_buffer_cols(net->full[a]) > most
                   ? clrt_buffer_rows(net->full[a]) * clrt_buffer_cols(net->full[a])
                   : most;
    double *v = calloc(most, sizeof *v), *zeros = calloc(most, sizeof *zeros);
    int32_t *izeros = calloc(most, sizeof *izeros);
    assert_true(v && zeros && izeros);
    for (int t = 0; t < TRAIN_TENSORS; t++) {
        const size_t n = clrt_buffer_rows(net->param[t]) * clrt_buffer_cols(net->param[t]);
        read_doubles(q, net->param[t], v, n);
        write_doubles(q, net->param[t], v, n);
        write_doubles(q, net->grad[t], zeros, n);
        write_doubles(q, net->mom[t], zeros, n);
    }
    for (int a = 0; a < TA_COUNT; a++) {
        const size_t n = clrt_buffer_rows(net->full[a]) * clrt_buffer_cols(net->full[a]);
        if (clrt_buffer_dtype(net->full[a]) == CLRT_INT32)
            TU_OK(clrt_buffer_write(q, net->full[a], izeros, n));
        else
            write_doubles(q, net->full[a], zeros, n);
    }
    free(v);
    free(zeros);
    free(izeros);
}

/* Every element within tol * (the tensor's largest |ref|) of ref. */
static void assert_close(const char *what, const double *got, const double *ref, size_t n, double tol)
{
    double scale = 0;
    for (size_t i = 0; i < n; i++)
        scale = fmax(scale, fabs(ref[i]));
    if (!(scale > 0))
        fail_msg("%s: the reference is all zero (a test that cannot fail)", what);
    size_t bad = 0, worst = 0;
    double worst_err = 0;
    for (size_t i = 0; i < n; i++) {
        double e = fabs(got[i] - ref[i]);
        if (!(e <= tol * scale))
            bad++;
        if (!(e <= worst_err)) {
            worst_err = e;
            worst = i;
        }
    }
    if (bad)
        fail_msg("%s: %zu of %zu elements off; worst [%zu] %.17g vs %.17g (bound %.3g)", what, bad, n, worst,
                 got[worst], ref[worst], tol * scale);
}

/* The images: smooth blobs in [0, 1] (like pixels), labels 0..9. */
static void inputs(double *x, int32_t *labels, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        labels[i] = (int32_t)((i * 7 + 3) % 10);
        for (size_t p = 0; p < 784; p++) {
            double r = (double)(p / 28) - 14 + (double)i, c = (double)(p % 28) - 12;
            x[i * 784 + p] = 0.5 + 0.5 * sin(0.05 * r * c + 0.3 * (double)i + 0.01 * (double)p);
        }
    }
}

static void test_step_matches_host(void **state)
{
    tu_fixture *f = fx(state);
    const clrt_dtype dt = dtype_of(f);
    /* fp64: rounding only. fp32: sums of up to 800 terms and 3 layers deep. */
    const double tol = dt == CLRT_FLOAT64 ? 1e-9 : 2e-3;
    const size_t n = tu_small() ? 1 : 3;
    const double lr = 0.05, mu = 0.9;
    train_net *net = NULL;
    TU_OK(train_net_create(&net, f->ctx, f->q, dt, n, 42));
    host_write_net(f->q, net);
    double *p[REF_TENSORS], *g[REF_TENSORS], *v[REF_TENSORS], *got = malloc(500 * 800 * sizeof *got);
    double *x = malloc(n * 784 * sizeof *x);
    int32_t *labels = malloc(n * sizeof *labels);
    assert_non_null(got);
    assert_non_null(x);
    assert_non_null(labels);
    for (int t = 0; t < REF_TENSORS; t++) {
        p[t] = malloc(ref_tensor_size[t] * sizeof *p[t]);
        g[t] = malloc(ref_tensor_size[t] * sizeof *g[t]);
        v[t] = calloc(ref_tensor_size[t], sizeof *v[t]);
        assert_true(p[t] && g[t] && v[t]);
        read_doubles(f->q, net->param[t], p[t], ref_tensor_size[t]);
    }
    inputs(x, labels, n);
    clrt_buffer *xb = NULL, *yb = NULL, *loss = NULL;
    TU_OK(clrt_buffer_create(&xb, f->ctx, dt, n, 784));
    TU_OK(clrt_buffer_create(&yb, f->ctx, CLRT_INT32, n, 1));
    TU_OK(clrt_buffer_create(&loss, f->ctx, dt, 1, 1));
    write_doubles(f->q, xb, x, n * 784);
    TU_OK(clrt_buffer_write(f->q, yb, labels, n));
    for (int step = 0; step < 2; step++) {
        /* Under Oclgrind (tu_small) the second SGD step reuses the first
         * step's gradients, still in net->grad: the momentum rule is checked
         * with v != 0 all the same, and a forward and backward pass less
         * keeps the test under 3 minutes there (170-182 s on 2 loaded cores). */
        if (step == 0 || !tu_small()) {
            /* the gradients at the current weights */
            const double ref_loss = ref_net_grads(g, (const double *const *)p, x, labels, n);
            TU_OK(train_net_forward(net, xb, 1));
            TU_OK(train_net_loss(net, loss, yb));
            TU_OK(train_net_backward(net, xb));
            double l = 0;
            read_doubles(f->q, loss, &l, 1);
            assert_close("loss", &l, &ref_loss, 1, tol);
            for (int t = 0; t < REF_TENSORS; t++) {
                char what[64];
                snprintf(what, sizeof what, "step %d: d %s", step + 1, train_net_tensor_name(t));
                read_doubles(f->q, net->grad[t], got, ref_tensor_size[t]);
                assert_close(what, got, g[t], ref_tensor_size[t], tol);
            }
        }
        /* PyTorch's SGD: v = mu v + g; p -= lr v */
        TU_OK(train_net_sgd(net, lr, mu));
        for (int t = 0; t < REF_TENSORS; t++) {
            for (size_t i = 0; i < ref_tensor_size[t]; i++) {
                v[t][i] = mu * v[t][i] + g[t][i];
                p[t][i] -= lr * v[t][i];
            }
            char what[64];
            snprintf(what, sizeof what, "step %d: %s after SGD", step + 1, train_net_tensor_name(t));
            read_doubles(f->q, net->param[t], got, ref_tensor_size[t]);
            assert_close(what, got, p[t], ref_tensor_size[t], tol);
            /* carry on from the device's weights, so step 2 checks step 2 alone */
            memcpy(p[t], got, ref_tensor_size[t] * sizeof *got);
            read_doubles(f->q, net->mom[t], got, ref_tensor_size[t]);
            snprintf(what, sizeof what, "step %d: %s momentum", step + 1, train_net_tensor_name(t));
            assert_close(what, got, v[t], ref_tensor_size[t], tol);
            memcpy(v[t], got, ref_tensor_size[t] * sizeof *got);
        }
    }
    TU_DESTROY_BUFFERS(xb, yb, loss);
    train_net_destroy(net);
    for (int t = 0; t < REF_TENSORS; t++) {
        free(p[t]);
        free(g[t]);
        free(v[t]);
    }
    free(got);
    free(x);
    free(labels);
}

/* Classification, a fixed number of rows per pass: the host reference's
 * classes, and the same classes whatever else is in the set (the second
 * half of x is the first half reversed). */
static void test_classify_matches_host(void **state)
{
    tu_fixture *f = fx(state);
    const clrt_dtype dt = dtype_of(f);
    const size_t per = tu_small() ? 2 : TRAIN_EVAL_ROWS, n = 2 * per, check = tu_small() ? 2 : 12;
    train_net *net = NULL;
    TU_OK(train_net_create(&net, f->ctx, f->q, dt, per, 7));
    host_write_net(f->q, net);
    double *x = malloc(n * 784 * sizeof *x), *logits = malloc(check * 10 * sizeof *logits);
    int32_t *labels = malloc(n * sizeof *labels), *pred = malloc(n * sizeof *pred);
    assert_true(x && logits && labels && pred);
    inputs(x, labels, per);
    for (size_t i = 0; i < per; i++)
        memcpy(x + (per + i) * 784, x + (per - 1 - i) * 784, 784 * sizeof *x);
    clrt_buffer *xb = NULL, *pb = NULL;
    TU_OK(clrt_buffer_create(&xb, f->ctx, dt, n, 784));
    TU_OK(clrt_buffer_create(&pb, f->ctx, CLRT_INT32, n, 1));
    write_doubles(f->q, xb, x, n * 784);
    TU_OK(train_net_classify(net, pb, xb, per));
    TU_OK(clrt_buffer_read(f->q, pb, pred, n));
    for (size_t i = 0; i < per; i++)
        assert_int_equal(pred[per + i], pred[per - 1 - i]);
    double *p[REF_TENSORS];
    for (int t = 0; t < REF_TENSORS; t++) {
        p[t] = malloc(ref_tensor_size[t] * sizeof *p[t]);
        assert_non_null(p[t]);
        read_doubles(f->q, net->param[t], p[t], ref_tensor_size[t]);
    }
    ref_net_logits(logits, (const double *const *)p, x, check);
    size_t compared = 0;
    for (size_t i = 0; i < check; i++) {
        size_t best = 0, second = 1;
        for (size_t k = 1; k < 10; k++)
            if (logits[i * 10 + k] > logits[i * 10 + best]) {
                second = best;
                best = k;
            } else if (k != best && logits[i * 10 + k] > logits[i * 10 + second])
                second = k;
        /* a near tie may go either way in float32 */
        if (logits[i * 10 + best] - logits[i * 10 + second] < 1e-4)
            continue;
        compared++;
        if ((size_t)pred[i] != best)
            fail_msg("image %zu: class %d, the host says %zu (logits %.6g vs %.6g)", i, pred[i], best,
                     logits[i * 10 + pred[i]], logits[i * 10 + best]);
    }
    assert_true(compared > 0);
    for (int t = 0; t < REF_TENSORS; t++)
        free(p[t]);
    clrt_buffer_destroy(xb);
    clrt_buffer_destroy(pb);
    train_net_destroy(net);
    TU_FREE_ALL(x, logits, labels, pred);
}

/* --save's file: written, read back, the same weights and momentum, the
 * same settings; then a one-byte change anywhere in the tensors is caught. */
static void test_state_round_trip(void **state)
{
    tu_fixture *f = fx(state);
    train_net *net = NULL, *net2 = NULL;
    TU_OK(train_net_create(&net, f->ctx, f->q, CLRT_FLOAT32, 2, 3));
    TU_OK(train_net_create(&net2, f->ctx, f->q, CLRT_FLOAT32, 2, 4));
    host_write_net(f->q, net);
    host_write_net(f->q, net2);
    TU_OK(clrt_fill(f->q, net->mom[TRAIN_FC1_W], 0.25));
    train_state s = {0}, back = {0};
    TU_OK(train_state_from_net(&s, net));
    s.seed = 3;
    s.batch = 2;
    s.ntrain = 10;
    s.lr = 0.01;
    s.momentum = 0.5;
    s.epoch = 1;
    s.index = 4;
    s.shuffle = 0x123456789abcdefull;
    s.running = 1.25;
    char path[] = "/tmp/clrt-train-state-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[512];
    assert_int_equal(train_state_save(path, &s, err, sizeof err), 0);
    assert_int_equal(train_state_load(path, &back, err, sizeof err), 0);
    assert_int_equal(back.dt, CLRT_FLOAT32);
    assert_true(back.seed == 3 && back.batch == 2 && back.ntrain == 10 && back.epoch == 1 && back.index == 4);
    assert_true(back.shuffle == s.shuffle && back.lr == 0.01 && back.momentum == 0.5 && back.running == 1.25);
    TU_OK(train_state_to_net(&back, net2));
    for (int t = 0; t < TRAIN_TENSORS; t++) {
        size_t r, c;
        train_net_tensor_shape(t, &r, &c);
        float *a = malloc(r * c * sizeof *a), *b = malloc(r * c * sizeof *b);
        assert_true(a && b);
        TU_OK(clrt_buffer_read(f->q, net->param[t], a, r * c));
        TU_OK(clrt_buffer_read(f->q, net2->param[t], b, r * c));
        assert_memory_equal(a, b, r * c * sizeof *a);
        TU_OK(clrt_buffer_read(f->q, net->mom[t], a, r * c));
        TU_OK(clrt_buffer_read(f->q, net2->mom[t], b, r * c));
        assert_memory_equal(a, b, r * c * sizeof *a);
        free(a);
        free(b);
    }
    train_state_free(&back);
    /* flip one byte in the middle of the tensors: the checksum catches it */
    FILE *fp = fopen(path, "r+b");
    assert_non_null(fp);
    assert_int_equal(fseek(fp, 200000, SEEK_SET), 0);
    int ch = fgetc(fp);
    assert_int_equal(fseek(fp, 200000, SEEK_SET), 0);
    fputc(ch ^ 1, fp);
    fclose(fp);
    assert_int_equal(train_state_load(path, &back, err, sizeof err), 2);
    assert_non_null(strstr(err, "checksum"));
    remove(path);
    train_state_free(&s);
    train_net_destroy(net);
    train_net_destroy(net2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_FIXTURE_TEST(test_step_matches_host),
        TU_FIXTURE_TEST(test_classify_matches_host),
        TU_FIXTURE_TEST(test_state_round_trip),
    };
    return TU_RUN_FIXTURE_SUITE(tests);
}
