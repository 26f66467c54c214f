/* clrt_gemm_ex: c = act(alpha op(a) op(b) + beta c + bias) against the host
 * reference in double (hostref's clrt__ref_gemm_ex_wrong), for every activation,
 * a bias per column (1 x n) and per row (m x 1, a column window of a wider parent,
 * so its row stride is not 1), none, beta 0 (c's NaN never read) and not, every
 * transpose pair, odd shapes and views whose parents' other elements must stay;
 * the kernels' paths a device's defaults would not take forced through the tuning
 * API (packed operands, the dot form, a narrow C, fitted rows, the GPU variant's
 * fast kernel and k splits summed with the epilogue), a long k (llvmpipe's slices:
 * the epilogue once, with the last); ep NULL is clrt_gemm bit for bit; every
 * refusal, with nothing written. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

#include "base/debug.h"

/* A rows x cols matrix on the device: a buffer, or (view) a window at (2, 3) of a
 * parent 5 rows and 7 columns larger whose other elements hold `outside`. */
typedef struct operand {
    clrt_buffer *buf, *parent;
    size_t rows, cols, prows, pcols;
    double outside;
} operand;

static void operand_make(operand *o, clrt_context *ctx, clrt_queue *q, clrt_dtype dt, size_t rows, size_t cols,
                         const void *host, int view, double outside)
{
    *o = (operand){.rows = rows, .cols = cols, .outside = outside};
    if (!view) {
        TU_OK(clrt_buffer_create(&o->buf, ctx, dt, rows, cols));
        TU_OK(clrt_buffer_write(q, o->buf, host, rows * cols));
        return;
    }
    o->prows = rows + 5;
    o->pcols = cols + 7;
    double *fill = malloc(o->prows * o->pcols * sizeof *fill);
    assert_non_null(fill);
    for (size_t i = 0; i < o->prows * o->pcols; i++)
        fill[i] = outside;
    TU_OK(clrt_buffer_create(&o->parent, ctx, dt, o->prows, o->pcols));
    tu_write_doubles(q, o->parent, fill, o->prows * o->pcols);
    free(fill);
    TU_OK(clrt_buffer_view(&o->buf, o->parent, 2, 3, rows, cols));
    TU_OK(clrt_buffer_write(q, o->buf, host, rows * cols));
}

/* A view's parent: its elements outside the window as they were. Then freed. */
static void operand_done(operand *o, clrt_queue *q, const char *what)
{
    if (o->parent) {
        double *all = malloc(o->prows * o->pcols * sizeof *all);
        assert_non_null(all);
        tu_read_doubles(q, o->parent, all, o->prows * o->pcols);
        for (size_t r = 0; r < o->prows; r++)
            for (size_t c = 0; c < o->pcols; c++) {
                const int inside = r >= 2 && r < 2 + o->rows && c >= 3 && c < 3 + o->cols;
                if (!inside && all[r * o->pcols + c] != o->outside)
                    fail_msg("%s: the parent's element (%zu, %zu) outside the window changed to %g", what, r, c,
                             all[r * o->pcols + c]);
            }
        free(all);
    }
    clrt_buffer_destroy(o->buf);
    clrt_buffer_destroy(o->parent);
}

/* One product with an epilogue, checked. bias_mode 0 none, 1 per column, 2 per
 * row; views: bit 0 a, 1 b, 2 c, 3 the bias are views. */
static void check_ex(clrt_context *ctx, clrt_queue *q, clrt_dtype dt, int ta, int tb, size_t M, size_t N, size_t K,
                     double alpha, double beta, int bias_mode, clrt_activation act, unsigned views)
{
    const size_t es = tu_dtype_size(dt), ar = ta ? K : M, ac = ta ? M : K, br = tb ? N : K, bc = tb ? K : N;
    const size_t nb = bias_mode == 2 ? M : N;
    unsigned char *a = malloc(ar * ac * es), *b = malloc(br * bc * es), *c0 = malloc(M * N * es),
                  *c = malloc(M * N * es), *bias = malloc(nb * es);
    assert_true(a && b && c0 && c && bias);
    clrt__ref_fill(a, dt, ar * ac, (unsigned)(M * 7 + K + (size_t)ta));
    clrt__ref_fill(b, dt, br * bc, (unsigned)(K * 3 + N + (size_t)tb));
    clrt__ref_fill(bias, dt, nb, (unsigned)(nb + 11));
    for (size_t i = 0; i < nb; i++) /* biases of a few units: every activation's curve, not only its middle */
        tu_put(bias, dt, i, 3.0 * tu_get(bias, dt, i));
    if (beta == 0.0)
        for (size_t i = 0; i < M * N; i++)
            tu_put(c0, dt, i, NAN);
    else
        clrt__ref_fill(c0, dt, M * N, (unsigned)(M + N + 5));
    operand oa, ob, oc, obias = {0};
    operand_make(&oa, ctx, q, dt, ar, ac, a, views & 1, -7.0);
    operand_make(&ob, ctx, q, dt, br, bc, b, views & 2, -8.0);
    operand_make(&oc, ctx, q, dt, M, N, c0, views & 4, -9.0);
    if (bias_mode)
        operand_make(&obias, ctx, q, dt, bias_mode == 2 ? M : 1, bias_mode == 2 ? 1 : N, bias, views & 8, -6.0);
    const clrt_epilogue ep = {obias.buf, act};
    TU_OK(clrt_gemm_ex(q, (clrt_trans)ta, (clrt_trans)tb, alpha, oa.buf, ob.buf, beta, oc.buf, &ep));
    TU_OK(clrt_buffer_read(q, oc.buf, c, M * N));
    const clrt__ref_gemm g = {.dtype = dt, .ta = ta, .tb = tb, .M = M, .N = N, .K = K, .alpha = alpha,
                              .beta = beta, .a = a, .b = b, .c0 = beta == 0.0 ? NULL : c0, .c = c, .lda = ac,
                              .ldb = bc, .ldc = N, .bias = bias, .bias_mode = bias_mode, .bias_ld = 1, .act = act};
    const size_t wrong = clrt__ref_gemm_ex_wrong(&g, stderr);
    if (wrong)
        fail_msg("gemm_ex %s %c%c %zux%zux%zu alpha %g beta %g bias %d act %d views %u: %zu of %zu wrong",
                 tu_dtype_name(dt), ta ? 'T' : 'N', tb ? 'T' : 'N', M, N, K, alpha, beta, bias_mode, (int)act, views,
                 wrong, M * N);
    operand_done(&oa, q, "a");
    operand_done(&ob, q, "b");
    operand_done(&oc, q, "c");
    if (bias_mode)
        operand_done(&obias, q, "bias");
    TU_FREE_ALL(a, b, c0, c, bias);
}

/* Every activation with each bias (none, per column, per row), cycling through
 * the transpose pairs, odd shapes, beta and views; each dtype. */
static void run_epilogues(clrt_context *ctx, clrt_queue *q, clrt_dtype dt)
{
    static const size_t full[][3] = {{7, 9, 5}, {33, 17, 65}, {1, 40, 13}, {130, 67, 41}, {16, 1, 3}};
    static const size_t small[][3] = {{7, 9, 5}, {9, 17, 11}, {1, 12, 3}, {5, 1, 4}};
    const size_t(*shapes)[3] = tu_small() ? small : full;
    const size_t ns = tu_small() ? sizeof small / sizeof *small : sizeof full / sizeof *full;
    size_t n = 0;
    for (int act = CLRT_ACT_NONE; act <= CLRT_ACT_TANH; act++)
        for (int bias = 0; bias < 3; bias++)
            for (int t = 0; t < 4; t++, n++) {
                const size_t *s = shapes[n % ns];
                check_ex(ctx, q, dt, t & 1, t >> 1, s[0], s[1], s[2], n % 3 ? 1.0 : -1.5, n & 1 ? 0.5 : 0.0, bias,
                         (clrt_activation)act, (unsigned)(n * 5) & 15);
            }
}

static void gemm_ex_epilogues(void **state)
{
    (void)state;
    for (int d = 0; d < tu_n_dtypes(); d++)
        run_epilogues(tu_fx->ctx, tu_fx->q, tu_dtype_at(d));
}

/* The kernels' other stores, forced: CPU variant packed (A and B), the dot form
 * (A B^T), a narrow C, fitted rows, its merged build; GPU variant general and fast
 * kernels, and k splits whose sum (matmul_sum) applies the epilogue. */
static void gemm_ex_every_path(void **state)
{
    (void)state;
    static const char *const variants[] = {
        "use_local=0 tm=2 tn=4 tk=8 wgx=2 wgy=2 vw=2 pack=2 tkp=4 pack_kib=1 pack_a=2 merged=1",
        "use_local=0 tm=3 tn=8 tk=8 wgx=1 wgy=1 vw=4 pack=0 pack_a=0 dot=2 fit_rows=2 merged=0",
        "use_local=0 tm=4 tn=8 tk=16 wgx=1 wgy=1 vw=4 pack=1 tkp=0 dot=2 dot_tm=3 dot_nv=5 fit_rows=2",
        "use_local=1 tm=2 tn=4 tk=4 wgx=4 wgy=4 vw=2 ksplit=0",
        "use_local=1 tm=2 tn=4 tk=4 wgx=4 wgy=4 vw=2 ksplit=3",
    };
    static const size_t shapes[][3] = {{13, 19, 7}, {4, 19, 9}, {11, 5, 17}, {12, 16, 64}, {9, 7, 67}};
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        clrt_queue *q;
        clrt_context *ctx = tu_fresh_context(&q);
        TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT32, variants[v]));
        for (int t = 0; t < 4; t++)
            for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
                check_ex(ctx, q, CLRT_FLOAT32, t & 1, t >> 1, shapes[i][0], shapes[i][1], shapes[i][2],
                         i & 1 ? -0.5 : 1.0, i & 2 ? 0.25 : 0.0, (int)(i + (size_t)t) % 3,
                         (clrt_activation)(1 + (i + (size_t)t) % 4), (unsigned)(i * 3 + (size_t)t) & 15);
        tu_assert_ran(ctx, "matmul", CLRT_FLOAT32, variants[v]);
        if (tu_fx->dev.has_fp64) {
            TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT64, variants[v]));
            check_ex(ctx, q, CLRT_FLOAT64, 1, 0, 12, 16, 64, 1.0, 0.5, 2, CLRT_ACT_GELU, 15);
            check_ex(ctx, q, CLRT_FLOAT64, 0, 1, 13, 19, 7, -1.0, 0.0, 1, CLRT_ACT_SIGMOID, 5);
        }
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
    }
}

/* A long k (Mesa's llvmpipe runs it in slices of k: the bias and activation must
 * come once, with the last), on the device's defaults. */
static void gemm_ex_long_k(void **state)
{
    (void)state;
    const size_t K = tu_small() ? 301 : 5003;
    check_ex(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, 0, 0, 9, 17, K, 1.0, 0.0, 1, CLRT_ACT_TANH, 0);
    check_ex(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, 1, 1, 9, 17, K, -0.5, 1.0, 2, CLRT_ACT_RELU, 15);
}

/* ep NULL and an epilogue of nothing are clrt_gemm, bit for bit. */
static void gemm_ex_plain(void **state)
{
    (void)state;
    enum { M = 19, N = 23, K = 29 };
    float a[M * K], b[K * N], c0[M * N], want[M * N], got[M * N];
    clrt__ref_fill(a, CLRT_FLOAT32, M * K, 1);
    clrt__ref_fill(b, CLRT_FLOAT32, K * N, 2);
    clrt__ref_fill(c0, CLRT_FLOAT32, M * N, 3);
    clrt_buffer *da = tu_buffer(CLRT_FLOAT32, M, K), *db = tu_buffer(CLRT_FLOAT32, K, N);
    clrt_buffer *dc = tu_buffer(CLRT_FLOAT32, M, N);
    clrt_queue *q = tu_fx->q;
    TU_OK(clrt_buffer_write(q, da, a, M * K));
    TU_OK(clrt_buffer_write(q, db, b, K * N));
    TU_OK(clrt_buffer_write(q, dc, c0, M * N));
    TU_OK(clrt_gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.5, da, db, -0.5, dc));
    TU_OK(clrt_buffer_read(q, dc, want, M * N));
    const clrt_epilogue none = {NULL, CLRT_ACT_NONE};
    const clrt_epilogue *eps[2] = {NULL, &none};
    for (int i = 0; i < 2; i++) {
        TU_OK(clrt_buffer_write(q, dc, c0, M * N));
        TU_OK(clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.5, da, db, -0.5, dc, eps[i]));
        TU_OK(clrt_buffer_read(q, dc, got, M * N));
        assert_memory_equal(got, want, sizeof got);
    }
    TU_DESTROY_BUFFERS(da, db, dc);
}

/* The programs an epilogue builds, on a fresh context: a bias alone runs in the
 * product's own program (the bias is arguments), an activation in one more (the
 * activations compiled in, MM_ACT), used for every activation after it. */
static void gemm_ex_programs(void **state)
{
    (void)state;
    clrt_queue *q;
    clrt_context *ctx = tu_fresh_context(&q);
    const long before = clrt__debug_live(CLRT__LIVE_PROGRAM);
    check_ex(ctx, q, CLRT_FLOAT32, 0, 1, 9, 7, 5, 1.0, 0.0, 0, CLRT_ACT_NONE, 0);
    const long plain = clrt__debug_live(CLRT__LIVE_PROGRAM) - before;
    assert_true(plain >= 1);
    check_ex(ctx, q, CLRT_FLOAT32, 0, 1, 9, 7, 5, 1.0, 0.0, 1, CLRT_ACT_NONE, 0);
    check_ex(ctx, q, CLRT_FLOAT32, 0, 1, 9, 7, 5, 1.0, 0.5, 2, CLRT_ACT_NONE, 0);
    assert_int_equal(clrt__debug_live(CLRT__LIVE_PROGRAM) - before, plain);
    check_ex(ctx, q, CLRT_FLOAT32, 0, 1, 9, 7, 5, 1.0, 0.0, 1, CLRT_ACT_RELU, 0);
    const long with_act = clrt__debug_live(CLRT__LIVE_PROGRAM) - before;
    assert_true(with_act > plain);
    for (int act = CLRT_ACT_GELU; act <= CLRT_ACT_TANH; act++)
        check_ex(ctx, q, CLRT_FLOAT32, 0, 1, 9, 7, 5, 1.0, 0.0, 0, (clrt_activation)act, 0);
    assert_int_equal(clrt__debug_live(CLRT__LIVE_PROGRAM) - before, with_act);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
}

/* c as it was: a refused call wrote nothing. */
static void assert_c_unchanged(clrt_queue *q, const clrt_buffer *c, const float *was, size_t n)
{
    float now[64];
    assert_true(n <= 64);
    TU_OK(clrt_buffer_read(q, c, now, n));
    assert_memory_equal(now, was, n * sizeof *now);
}

static void gemm_ex_refusals(void **state)
{
    (void)state;
    clrt_queue *q = tu_fx->q;
    clrt_buffer *a = tu_buffer(CLRT_FLOAT32, 4, 5), *b = tu_buffer(CLRT_FLOAT32, 5, 3);
    clrt_buffer *c = tu_buffer(CLRT_FLOAT32, 4, 3), *row = tu_buffer(CLRT_FLOAT32, 1, 3);
    clrt_buffer *col = tu_buffer(CLRT_FLOAT32, 4, 1), *wide = tu_buffer(CLRT_FLOAT32, 1, 4);
    clrt_buffer *tall = tu_buffer(CLRT_FLOAT32, 3, 1), *sq = tu_buffer(CLRT_FLOAT32, 4, 3);
    clrt_buffer *i32 = tu_buffer(CLRT_INT32, 1, 3), *f64 = NULL, *parent, *cv, *bv;
    float h[12], ones[5 * 5];
    for (int i = 0; i < 12; i++)
        h[i] = (float)i;
    for (int i = 0; i < 25; i++)
        ones[i] = 1.0f;
    TU_OK(clrt_buffer_write(q, a, ones, 20));
    TU_OK(clrt_buffer_write(q, b, ones, 15));
    TU_OK(clrt_buffer_write(q, c, h, 12));
    clrt__debug_fault_clear(); /* counts the launches from here */
    clrt_epilogue ep = {row, (clrt_activation)5};
    TU_REFUSED(CLRT_EINVAL, "unknown activation", clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, b, 0, c, &ep));
    ep.act = (clrt_activation)-1;
    TU_REFUSED(CLRT_EINVAL, "unknown activation", clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, b, 0, c, &ep));
    ep.act = CLRT_ACT_RELU;
    /* a bias of neither shape: 1 x 4 (m, not n), 3 x 1 (n, not m), 4 x 3 (c's own) */
    const clrt_buffer *bad[] = {wide, tall, sq};
    for (size_t i = 0; i < 3; i++) {
        ep.bias = bad[i];
        TU_REFUSED(CLRT_ESHAPE, "must be 1x3 or 4x1", clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, b, 0, c, &ep));
    }
    ep.bias = i32;
    TU_REFUSED(CLRT_ESHAPE, "c's dtype", clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, b, 0, c, &ep));
    if (tu_fx->dev.has_fp64) {
        f64 = tu_buffer(CLRT_FLOAT64, 4, 1);
        ep.bias = f64;
        TU_REFUSED(CLRT_ESHAPE, "c's dtype", clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, b, 0, c, &ep));
    }
    /* the bias sharing memory with c: a row of c's parent inside c's window */
    TU_OK(clrt_buffer_create(&parent, tu_fx->ctx, CLRT_FLOAT32, 6, 3));
    TU_OK(clrt_buffer_view(&cv, parent, 0, 0, 4, 3));
    TU_OK(clrt_buffer_view(&bv, parent, 3, 0, 1, 3));
    ep.bias = bv;
    TU_REFUSED(CLRT_EINVAL, "bias shares memory with c",
               clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, b, 0, cv, &ep));
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 0); /* the refusals launched nothing */
    /* the row just below c's window is apart: fine */
    clrt_buffer_destroy(bv);
    TU_OK(clrt_buffer_view(&bv, parent, 4, 0, 1, 3));
    TU_OK(clrt_buffer_write(q, bv, h, 3));
    ep.bias = bv;
    TU_OK(clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, b, 0, cv, &ep));
    clrt__debug_fault_clear(); /* counts the launches from here */
    /* another context's bias */
    clrt_context *other = tu_context_on(&tu_fx->dev);
    clrt_buffer *ob;
    TU_OK(clrt_buffer_create(&ob, other, CLRT_FLOAT32, 1, 3));
    ep.bias = ob;
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, b, 0, c, &ep));
    clrt_buffer_destroy(ob);
    clrt_context_destroy(other);
    /* clrt_gemm's own refusals come first, whatever the epilogue */
    ep.bias = row;
    TU_REFUSED(CLRT_ESHAPE, "need op(a) MxK", clrt_gemm_ex(q, CLRT_TRANS, CLRT_NO_TRANS, 1, a, b, 0, c, &ep));
    TU_REFUSED(CLRT_EINVAL, "buffer a is NULL", clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, NULL, b, 0, c, &ep));
    /* c sharing memory with a (columns 2-4 of a's parent row, a in 0-4) or with b (row 4 of b's) */
    clrt_buffer *pa, *av, *ca, *pb, *bv5, *cb;
    TU_OK(clrt_buffer_create(&pa, tu_fx->ctx, CLRT_FLOAT32, 4, 8));
    TU_OK(clrt_buffer_view(&av, pa, 0, 0, 4, 5));
    TU_OK(clrt_buffer_view(&ca, pa, 0, 2, 4, 3));
    TU_REFUSED(CLRT_EINVAL, "shares memory with a", clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, av, b, 0, ca, &ep));
    TU_OK(clrt_buffer_create(&pb, tu_fx->ctx, CLRT_FLOAT32, 8, 3));
    TU_OK(clrt_buffer_view(&bv5, pb, 0, 0, 5, 3));
    TU_OK(clrt_buffer_view(&cb, pb, 4, 0, 4, 3));
    TU_REFUSED(CLRT_EINVAL, "shares memory with b", clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, bv5, 0, cb, &ep));
    TU_DESTROY_BUFFERS(pa, av, ca, pb, bv5, cb);
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 0); /* the refusals launched nothing */
    assert_c_unchanged(q, c, h, 12);
    /* both good shapes work: per column (1 x 3) and per row (4 x 1) */
    TU_OK(clrt_buffer_write(q, row, h, 3));
    TU_OK(clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, b, 0, c, &ep));
    float got[12];
    TU_OK(clrt_buffer_read(q, c, got, 12));
    for (int i = 0; i < 12; i++)
        assert_true(got[i] == 5.0f + (float)(i % 3));
    TU_OK(clrt_buffer_write(q, col, h, 4));
    ep.bias = col;
    ep.act = CLRT_ACT_NONE;
    TU_OK(clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 2, a, b, 0, c, &ep));
    TU_OK(clrt_buffer_read(q, c, got, 12));
    for (int i = 0; i < 12; i++)
        assert_true(got[i] == 10.0f + (float)(i / 3));
    TU_OK(clrt_queue_finish(q));
    TU_DESTROY_BUFFERS(a, b, c, row, col, wide, tall, sq, i32, f64, parent, cv, bv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_FIXTURE_TEST(gemm_ex_epilogues), TU_FIXTURE_TEST(gemm_ex_every_path), TU_FIXTURE_TEST(gemm_ex_long_k),
        TU_FIXTURE_TEST(gemm_ex_plain),     TU_FIXTURE_TEST(gemm_ex_programs), TU_FIXTURE_TEST(gemm_ex_refusals),
    };
    return TU_RUN_FIXTURE_SUITE(tests);
}
