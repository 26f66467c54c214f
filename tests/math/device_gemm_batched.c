/* clrt_gemm_strided_batched and clrt_gemm_batched against the host reference in
 * double, matrix by matrix: every transpose pair, fp32 and fp64, odd sizes, batches
 * stacked by rows at strides wider than a matrix (the rows between c's matrices must
 * stay as they were), views into wider parents, broadcast operands (stride 0),
 * overlapping input windows, count 0 (nothing touched) and 1 (stride_c below m),
 * the kernels' other paths forced (the GPU variant, the dot form); one launch for
 * the whole batch (counted), the pointer-array form as one stride where its views
 * step through one parent and a launch each where they do not; every documented
 * refusal, with nothing written. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

#include "base/debug.h"

/* A batch: a, b, c stacked by rows, strides in rows. */
typedef struct batch {
    int ta, tb;
    size_t m, n, k, count, sa, sb, sc;
    double alpha, beta;
} batch;

static size_t span(size_t count, size_t stride, size_t rows) { return count ? (count - 1) * stride + rows : rows; }

/* A rows x cols device matrix holding host (dense): a buffer, or (view) a window at
 * (1, 2) of a parent 3 rows and 5 columns larger. *parent gets the parent (or NULL). */
static clrt_buffer *matrix(clrt_context *ctx, clrt_queue *q, clrt_dtype dt, size_t rows, size_t cols,
                           const void *host, int view, clrt_buffer **parent)
{
    clrt_buffer *buf;
    *parent = NULL;
    if (view) {
        TU_OK(clrt_buffer_create(parent, ctx, dt, rows + 3, cols + 5));
        TU_OK(clrt_buffer_view(&buf, *parent, 1, 2, rows, cols));
    } else {
        TU_OK(clrt_buffer_create(&buf, ctx, dt, rows, cols));
    }
    TU_OK(clrt_buffer_write(q, buf, host, rows * cols));
    return buf;
}

/* Check every matrix of c (read back whole, c_all) against the reference, and the
 * rows of c outside its matrices against c0. */
static void check_result(clrt_dtype dt, const batch *g, const unsigned char *a, const unsigned char *b,
                         const unsigned char *c0, const unsigned char *c_all, size_t c_rows, const char *what)
{
    const size_t es = tu_dtype_size(dt), ac = g->ta ? g->m : g->k, bc = g->tb ? g->k : g->n;
    for (size_t i = 0; i < g->count; i++) {
        const clrt__ref_gemm r = {.dtype = dt, .ta = g->ta, .tb = g->tb, .M = g->m, .N = g->n, .K = g->k,
                                  .alpha = g->alpha, .beta = g->beta, .a = a + i * g->sa * ac * es,
                                  .b = b + i * g->sb * bc * es,
                                  .c0 = g->beta == 0.0 ? NULL : c0 + i * g->sc * g->n * es,
                                  .c = c_all + i * g->sc * g->n * es, .lda = ac, .ldb = bc, .ldc = g->n};
        const size_t wrong = clrt__ref_gemm_ex_wrong(&r, stderr);
        if (wrong)
            fail_msg("%s %s %c%c %zux%zux%zu, matrix %zu of %zu (strides %zu %zu %zu): %zu wrong", what,
                     tu_dtype_name(dt), g->ta ? 'T' : 'N', g->tb ? 'T' : 'N', g->m, g->n, g->k, i, g->count, g->sa,
                     g->sb, g->sc, wrong);
    }
    for (size_t r = 0; r < c_rows; r++) {
        int inside = 0;
        for (size_t i = 0; i < g->count && !inside; i++)
            inside = r >= i * g->sc && r < i * g->sc + g->m;
        if (!inside && memcmp(c0 + r * g->n * es, c_all + r * g->n * es, g->n * es) != 0)
            fail_msg("%s: row %zu of c, outside every matrix, changed", what, r);
    }
}

/* One strided batch on the device's defaults or ctx's override, checked; views:
 * a, b, c windows of wider parents. */
static void check_strided(clrt_context *ctx, clrt_queue *q, clrt_dtype dt, const batch *g, int views)
{
    const size_t es = tu_dtype_size(dt), ac = g->ta ? g->m : g->k, bc = g->tb ? g->k : g->n;
    const size_t ar = span(g->count, g->sa, g->ta ? g->k : g->m), br = span(g->count, g->sb, g->tb ? g->n : g->k);
    const size_t cr = span(g->count, g->sc, g->m);
    unsigned char *a = malloc(ar * ac * es), *b = malloc(br * bc * es), *c0 = malloc(cr * g->n * es),
                  *c = malloc(cr * g->n * es);
    assert_true(a && b && c0 && c);
    clrt__ref_fill(a, dt, ar * ac, (unsigned)(ar + 3 * ac));
    clrt__ref_fill(b, dt, br * bc, (unsigned)(br * 5 + bc));
    clrt__ref_fill(c0, dt, cr * g->n, (unsigned)(cr + 7));
    if (g->beta == 0.0) /* never read inside the matrices: NaN must not leak */
        for (size_t i = 0; i < g->count; i++)
            for (size_t r = 0; r < g->m * g->n; r++)
                tu_put(c0, dt, i * g->sc * g->n + r, NAN);
    clrt_buffer *pa, *pb, *pc;
    clrt_buffer *da = matrix(ctx, q, dt, ar, ac, a, views, &pa), *db = matrix(ctx, q, dt, br, bc, b, views, &pb);
    clrt_buffer *dc = matrix(ctx, q, dt, cr, g->n, c0, views, &pc);
    TU_OK(clrt_gemm_strided_batched(q, (clrt_trans)g->ta, (clrt_trans)g->tb, g->m, g->n, g->k, g->alpha, da, g->sa,
                                    db, g->sb, g->beta, dc, g->sc, g->count));
    TU_OK(clrt_buffer_read(q, dc, c, cr * g->n));
    check_result(dt, g, a, b, c0, c, cr, "strided batched");
    TU_DESTROY_BUFFERS(da, db, dc, pa, pb, pc);
    TU_FREE_ALL(a, b, c0, c);
}

/* Every transpose pair: batches stacked tight and at wider strides, broadcast a
 * or b, one matrix with stride_c below m, views. */
static void run_strided(clrt_context *ctx, clrt_queue *q, clrt_dtype dt)
{
    const int small = tu_small();
    for (int t = 0; t < 4; t++) {
        const int ta = t & 1, tb = t >> 1;
        const size_t m = 7, n = small ? 9 : 33, k = small ? 5 : 19;
        const size_t ar = ta ? k : m, br = tb ? n : k;
        const batch cases[] = {
            {ta, tb, m, n, k, small ? 3 : 9, ar, br, m, 1.0, 0.0},              /* stacked tight */
            {ta, tb, m, n, k, 4, ar + 2, br + 1, m + 3, -1.5, 0.5},             /* gaps between matrices */
            {ta, tb, m, n, k, 5, 0, br, m, 2.0, 0.0},                          /* one a for all */
            {ta, tb, m, n, k, 5, ar, 0, m + 1, 1.0, 1.0},                      /* one b for all */
            {ta, tb, m, n, k, 3, 1, 2, m, 1.0, 0.0},                           /* input windows overlapping */
            {ta, tb, m, n, k, 1, 5, 7, 2, 0.5, -1.0},                          /* one matrix: stride_c < m */
            {ta, tb, 1, 1, 1, 6, 1, 1, 1, 1.0, 0.25},                          /* 1 x 1 x 1 */
            {ta, tb, small ? 9 : 65, small ? 10 : 67, small ? 8 : 40, 3, small ? 10 : 67, small ? 11 : 68,
             small ? 9 : 66, 1.0, 0.0},                                        /* larger, odd */
        };
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
            check_strided(ctx, q, dt, &cases[i], (int)(i + (size_t)t) & 1);
    }
}

static void strided_f32_f64(void **state)
{
    (void)state;
    for (int d = 0; d < tu_n_dtypes(); d++)
        run_strided(tu_fx->ctx, tu_fx->q, tu_dtype_at(d));
}

/* The kernels' other paths with a batch, forced: the GPU variant (general and fast
 * kernels, k splits asked for but a batch takes none), the CPU variant's dot form
 * and fitted rows, its narrow tile. */
static void strided_every_path(void **state)
{
    (void)state;
    static const char *const variants[] = {
        "use_local=1 tm=2 tn=4 tk=4 wgx=4 wgy=4 vw=2 ksplit=3",
        "use_local=0 tm=3 tn=8 tk=8 wgx=1 wgy=1 vw=4 pack=2 pack_a=2 dot=2 fit_rows=2",
        "use_local=0 tm=4 tn=8 tk=16 wgx=2 wgy=2 vw=4 pack=2 pack_a=2 dot=0 merged=1",
    };
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        clrt_queue *q;
        clrt_context *ctx = tu_fresh_context(&q);
        TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT32, variants[v]));
        for (int t = 0; t < 4; t++) {
            const int ta = t & 1, tb = t >> 1;
            const batch g1 = {ta, tb, 12, 16, 32, 5, ta ? 32 : 12, tb ? 16 : 32, 12, 1.0, 0.0};
            const batch g2 = {ta, tb, 5, 3, 17, 4, ta ? 18 : 6, tb ? 4 : 17, 7, -1.0, 0.5};
            check_strided(ctx, q, CLRT_FLOAT32, &g1, 0);
            check_strided(ctx, q, CLRT_FLOAT32, &g2, 1);
        }
        tu_assert_ran(ctx, "matmul", CLRT_FLOAT32, variants[v]);
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
    }
}

/* The kernel launches of a strided batch of count matrices of 6 x 10 x 8. */
static size_t launches(size_t count)
{
    const batch g = {0, 0, 6, 10, 8, count, 6, 8, 6, 1.0, 0.0};
    clrt__debug_fault_clear();
    check_strided(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, &g, 0);
    return clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL);
}

/* One launch sequence for the batch, whatever its count: what two matrices take. */
static void strided_one_launch(void **state)
{
    (void)state;
    const size_t two = launches(2);
    assert_true(two >= 1);
    assert_int_equal(launches(9), two);
    assert_int_equal(launches(33), two);
}

/* count 0: CLRT_OK with nothing done, even with shapes no product could have. */
static void strided_count_zero(void **state)
{
    (void)state;
    clrt_queue *q = tu_fx->q;
    clrt_buffer *a = tu_buffer(CLRT_FLOAT32, 2, 3), *c = tu_buffer(CLRT_FLOAT32, 2, 2);
    const float h[4] = {1, 2, 3, 4};
    float got[4];
    TU_OK(clrt_buffer_write(q, c, h, 4));
    clrt__debug_fault_clear();
    TU_OK(clrt_gemm_strided_batched(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 9, 9, 9, 1.0, a, 0, a, 0, 0.0, c, 0, 0));
    TU_OK(clrt_gemm_batched(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.0, NULL, NULL, 0.0, NULL, 0));
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 0);
    TU_OK(clrt_buffer_read(q, c, got, 4));
    assert_memory_equal(got, h, sizeof h);
    TU_REFUSED(CLRT_EINVAL, "is NULL",
               clrt_gemm_strided_batched(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, 1, 1, 1.0, NULL, 0, a, 0, 0.0, c, 0, 0));
    TU_REFUSED(CLRT_EINVAL, "is NULL", clrt_gemm_batched(NULL, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.0, NULL, NULL, 0.0,
                                                         NULL, 0));
    TU_DESTROY_BUFFERS(a, c);
}

/* The pointer-array form: count products of m x n x k (transposes ta, tb), their
 * operands views stepping through one parent each (step rows apart: one launch
 * sequence), or (scattered) buffers of their own (a launch each); checked one by
 * one. Returns the kernel launches. */
static size_t check_arrays(clrt_dtype dt, int ta, int tb, size_t m, size_t n, size_t k, size_t count, int scattered,
                           double alpha, double beta)
{
    clrt_queue *q = tu_fx->q;
    const size_t es = tu_dtype_size(dt), ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
    const size_t step = 2; /* rows between matrices beyond their own */
    clrt_buffer *pa = NULL, *pb = NULL, *pc = NULL;
    if (!scattered) {
        TU_OK(clrt_buffer_create(&pa, tu_fx->ctx, dt, count * (ar + step), ac + 3));
        TU_OK(clrt_buffer_create(&pb, tu_fx->ctx, dt, count * (br + step), bc + 1));
        TU_OK(clrt_buffer_create(&pc, tu_fx->ctx, dt, count * (m + step), n + 2));
    }
    clrt_buffer **a = calloc(count, sizeof *a), **b = calloc(count, sizeof *b), **c = calloc(count, sizeof *c);
    unsigned char *ha = malloc(count * ar * ac * es), *hb = malloc(count * br * bc * es);
    unsigned char *h0 = malloc(count * m * n * es), *hc = malloc(count * m * n * es);
    assert_true(a && b && c && ha && hb && h0 && hc);
    clrt__ref_fill(ha, dt, count * ar * ac, 21);
    clrt__ref_fill(hb, dt, count * br * bc, 22);
    clrt__ref_fill(h0, dt, count * m * n, 23);
    for (size_t i = 0; i < count; i++) {
        if (scattered) {
            TU_OK(clrt_buffer_create(&a[i], tu_fx->ctx, dt, ar, ac));
            TU_OK(clrt_buffer_create(&b[i], tu_fx->ctx, dt, br, bc));
            TU_OK(clrt_buffer_create(&c[i], tu_fx->ctx, dt, m, n));
        } else {
            TU_OK(clrt_buffer_view(&a[i], pa, i * (ar + step), 1, ar, ac));
            TU_OK(clrt_buffer_view(&b[i], pb, i * (br + step), 0, br, bc));
            TU_OK(clrt_buffer_view(&c[i], pc, i * (m + step) + 1, 2, m, n));
        }
        TU_OK(clrt_buffer_write(q, a[i], ha + i * ar * ac * es, ar * ac));
        TU_OK(clrt_buffer_write(q, b[i], hb + i * br * bc * es, br * bc));
        TU_OK(clrt_buffer_write(q, c[i], h0 + i * m * n * es, m * n));
    }
    clrt__debug_fault_clear();
    TU_OK(clrt_gemm_batched(q, (clrt_trans)ta, (clrt_trans)tb, alpha, (const clrt_buffer *const *)a,
                            (const clrt_buffer *const *)b, beta, c, count));
    const size_t calls = clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL);
    for (size_t i = 0; i < count; i++)
        TU_OK(clrt_buffer_read(q, c[i], hc + i * m * n * es, m * n));
    const batch g = {ta, tb, m, n, k, count, ar, br, m, alpha, beta};
    check_result(dt, &g, ha, hb, h0, hc, count * m, scattered ? "batched (buffers)" : "batched (views)");
    for (size_t i = 0; i < count; i++)
        TU_DESTROY_BUFFERS(a[i], b[i], c[i]);
    TU_DESTROY_BUFFERS(pa, pb, pc);
    TU_FREE_ALL(a, b, c, ha, hb, h0, hc);
    return calls;
}

static void batched_arrays(void **state)
{
    (void)state;
    for (int d = 0; d < tu_n_dtypes(); d++)
        for (int t = 0; t < 4; t++) {
            const clrt_dtype dt = tu_dtype_at(d);
            const size_t one = check_arrays(dt, t & 1, t >> 1, 5, 11, 7, 1, 0, 1.0, 0.0);
            /* views stepping through one parent: the launches of one product */
            assert_int_equal(check_arrays(dt, t & 1, t >> 1, 5, 11, 7, 6, 0, -1.0, 0.5), one);
            /* buffers of their own: a product at a time */
            assert_int_equal(check_arrays(dt, t & 1, t >> 1, 5, 11, 7, 3, 1, 2.0, 0.0), 3 * one);
        }
}

static void strided_refusals(void **state)
{
    (void)state;
    clrt_queue *q = tu_fx->q;
    const clrt_trans N = CLRT_NO_TRANS, T = CLRT_TRANS;
    /* 3 matrices of 4 x 5 times 5 x 6 into 4 x 6, stacked tight */
    clrt_buffer *a = tu_buffer(CLRT_FLOAT32, 12, 5), *b = tu_buffer(CLRT_FLOAT32, 15, 6);
    clrt_buffer *c = tu_buffer(CLRT_FLOAT32, 12, 6), *i32 = tu_buffer(CLRT_INT32, 12, 6);
    float h[72];
    for (int i = 0; i < 72; i++)
        h[i] = (float)i;
    TU_OK(clrt_buffer_write(q, c, h, 72));
    TU_OK(clrt_gemm_strided_batched(q, N, N, 4, 6, 5, 1.0, a, 4, b, 5, 0.0, c, 4, 3)); /* good */
    TU_OK(clrt_buffer_write(q, c, h, 72));
    clrt__debug_fault_clear(); /* counts the launches from here */
    TU_REFUSED(CLRT_EINVAL, "unknown transpose",
               clrt_gemm_strided_batched(q, (clrt_trans)2, N, 4, 6, 5, 1.0, a, 4, b, 5, 0.0, c, 4, 3));
    TU_REFUSED(CLRT_EINVAL, "buffer c is NULL",
               clrt_gemm_strided_batched(q, N, N, 4, 6, 5, 1.0, a, 4, b, 5, 0.0, NULL, 4, 3));
    TU_REFUSED(CLRT_EINVAL, "must be positive",
               clrt_gemm_strided_batched(q, N, N, 0, 6, 5, 1.0, a, 4, b, 5, 0.0, c, 4, 3));
    TU_REFUSED(CLRT_EINVAL, "must be positive",
               clrt_gemm_strided_batched(q, N, N, 4, 0, 5, 1.0, a, 4, b, 5, 0.0, c, 4, 3));
    TU_REFUSED(CLRT_EINVAL, "must be positive",
               clrt_gemm_strided_batched(q, N, N, 4, 6, 0, 1.0, a, 4, b, 5, 0.0, c, 4, 3));
    /* columns: a's must be k (m with ta), b's n (k with tb), c's n */
    TU_REFUSED(CLRT_ESHAPE, "columns", clrt_gemm_strided_batched(q, N, N, 4, 6, 4, 1.0, a, 4, b, 5, 0.0, c, 4, 3));
    TU_REFUSED(CLRT_ESHAPE, "columns", clrt_gemm_strided_batched(q, T, N, 4, 6, 5, 1.0, a, 4, b, 5, 0.0, c, 4, 3));
    TU_REFUSED(CLRT_ESHAPE, "columns", clrt_gemm_strided_batched(q, N, T, 4, 6, 5, 1.0, a, 4, b, 5, 0.0, c, 4, 3));
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ",
               clrt_gemm_strided_batched(q, N, N, 4, 6, 5, 1.0, a, 4, b, 5, 0.0, i32, 4, 3));
    /* c's matrices overlapping each other; a window past a buffer's last row */
    TU_REFUSED(CLRT_ESHAPE, "below m", clrt_gemm_strided_batched(q, N, N, 4, 6, 5, 1.0, a, 4, b, 5, 0.0, c, 3, 3));
    TU_REFUSED(CLRT_ESHAPE, "run past", clrt_gemm_strided_batched(q, N, N, 4, 6, 5, 1.0, a, 5, b, 5, 0.0, c, 4, 3));
    TU_REFUSED(CLRT_ESHAPE, "run past", clrt_gemm_strided_batched(q, N, N, 4, 6, 5, 1.0, a, 4, b, 6, 0.0, c, 4, 3));
    TU_REFUSED(CLRT_ESHAPE, "run past", clrt_gemm_strided_batched(q, N, N, 4, 6, 5, 1.0, a, 4, b, 5, 0.0, c, 4, 4));
    TU_REFUSED(CLRT_ESHAPE, "run past", clrt_gemm_strided_batched(q, N, N, 4, 6, 5, 1.0, a, 4, b, 5, 0.0, c, 5, 3));
    /* row arithmetic that overflows size_t */
    TU_REFUSED(CLRT_EINVAL, "overflow",
               clrt_gemm_strided_batched(q, N, N, 4, 6, 5, 1.0, a, SIZE_MAX / 2, b, 5, 0.0, c, 4, 3));
    TU_REFUSED(CLRT_EINVAL, "overflow",
               clrt_gemm_strided_batched(q, N, N, 4, 6, 5, 1.0, a, 0, b, 0, 0.0, c, 4, SIZE_MAX));
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 0); /* the refusals launched nothing */
    /* c sharing memory with an input window: every c window against every a window */
    clrt_buffer *parent, *pa, *pc;
    TU_OK(clrt_buffer_create(&parent, tu_fx->ctx, CLRT_FLOAT32, 40, 6));
    TU_OK(clrt_buffer_view(&pa, parent, 0, 0, 20, 6)); /* a: 6-column windows of 4 x 6 */
    TU_OK(clrt_buffer_view(&pc, parent, 20, 0, 20, 6));
    clrt_buffer *b6 = tu_buffer(CLRT_FLOAT32, 6, 6);
    /* a's matrices at rows 0, 7, 14 of pa (through 17) and c's at 20 + 0, 5, 10: apart */
    TU_OK(clrt_gemm_strided_batched(q, N, N, 4, 6, 6, 1.0, pa, 7, b6, 0, 0.0, pc, 5, 3));
    /* c interleaved with a in one parent: a at rows 0, 8, 16, c at 4, 12, 20 (apart), then
     * at 4, 11, 18 (meeting a's second) */
    clrt_buffer *pc4;
    TU_OK(clrt_buffer_view(&pc4, parent, 4, 0, 24, 6));
    TU_OK(clrt_gemm_strided_batched(q, N, N, 4, 6, 6, 1.0, parent, 8, b6, 0, 0.0, pc4, 8, 3));
    clrt__debug_fault_clear(); /* counts the launches from here */
    TU_REFUSED(CLRT_EINVAL, "shares memory with a matrix of a",
               clrt_gemm_strided_batched(q, N, N, 4, 6, 6, 1.0, parent, 8, b6, 0, 0.0, pc4, 7, 3));
    /* only the last a window reaches c's first: rows 16-19 of pa against c from row 19 */
    clrt_buffer *pc19;
    TU_OK(clrt_buffer_view(&pc19, parent, 19, 0, 12, 6));
    TU_REFUSED(CLRT_EINVAL, "shares memory with a matrix of a",
               clrt_gemm_strided_batched(q, N, N, 4, 6, 6, 1.0, pa, 8, b6, 0, 0.0, pc19, 4, 3));
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 0); /* the refusals launched nothing */
    TU_OK(clrt_gemm_strided_batched(q, N, N, 4, 6, 6, 1.0, pa, 5, b6, 0, 0.0, pc19, 4, 3));
    clrt__debug_fault_clear(); /* counts the launches from here */
    /* b's windows of 6 rows at 0, 7, 14: the last reaches row 19 */
    TU_REFUSED(CLRT_EINVAL, "shares memory with a matrix of b",
               clrt_gemm_strided_batched(q, N, N, 4, 6, 6, 1.0, b6, 0, pa, 7, 0.0, pc19, 4, 3));
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 0); /* the refusals launched nothing */
    TU_OK(clrt_gemm_strided_batched(q, N, N, 4, 6, 6, 1.0, b6, 0, pa, 6, 0.0, pc19, 4, 3));
    /* nothing written by the refused calls */
    float got[72];
    TU_OK(clrt_buffer_read(q, c, got, 72));
    assert_memory_equal(got, h, sizeof h);
    TU_DESTROY_BUFFERS(a, b, c, i32, parent, pa, pc, pc4, pc19, b6);
}

static void batched_refusals(void **state)
{
    (void)state;
    clrt_queue *q = tu_fx->q;
    const clrt_trans N = CLRT_NO_TRANS;
    clrt_buffer *a0 = tu_buffer(CLRT_FLOAT32, 4, 5), *a1 = tu_buffer(CLRT_FLOAT32, 4, 5);
    clrt_buffer *b0 = tu_buffer(CLRT_FLOAT32, 5, 3), *b1 = tu_buffer(CLRT_FLOAT32, 5, 3);
    clrt_buffer *c0 = tu_buffer(CLRT_FLOAT32, 4, 3), *c1 = tu_buffer(CLRT_FLOAT32, 4, 3);
    clrt_buffer *wide = tu_buffer(CLRT_FLOAT32, 4, 6), *b6 = tu_buffer(CLRT_FLOAT32, 5, 6);
    const clrt_buffer *a[2] = {a0, a1}, *b[2] = {b0, b1};
    clrt_buffer *c[2] = {c0, c1};
    float h[12], got[12];
    for (int i = 0; i < 12; i++)
        h[i] = (float)i;
    TU_OK(clrt_buffer_write(q, c1, h, 12));
    TU_OK(clrt_gemm_batched(q, N, N, 1.0, a, b, 0.0, c, 2));
    TU_OK(clrt_buffer_write(q, c1, h, 12));
    clrt__debug_fault_clear(); /* counts the launches from here */
    TU_REFUSED(CLRT_EINVAL, "array a is NULL", clrt_gemm_batched(q, N, N, 1.0, NULL, b, 0.0, c, 2));
    TU_REFUSED(CLRT_EINVAL, "array b is NULL", clrt_gemm_batched(q, N, N, 1.0, a, NULL, 0.0, c, 2));
    TU_REFUSED(CLRT_EINVAL, "array c is NULL", clrt_gemm_batched(q, N, N, 1.0, a, b, 0.0, NULL, 2));
    const clrt_buffer *an[2] = {a0, NULL};
    TU_REFUSED(CLRT_EINVAL, "buffer a is NULL", clrt_gemm_batched(q, N, N, 1.0, an, b, 0.0, c, 2));
    /* shapes that differ across the batch (each product alone would be fine) */
    const clrt_buffer *b_mixed[2] = {b0, b6};
    clrt_buffer *c_mixed[2] = {c0, wide};
    TU_REFUSED(CLRT_ESHAPE, "one shape and dtype", clrt_gemm_batched(q, N, N, 1.0, a, b_mixed, 0.0, c_mixed, 2));
    /* a dtype that differs across the batch (float32 then int32, one shape) */
    clrt_buffer *ai = tu_buffer(CLRT_INT32, 4, 5);
    const clrt_buffer *a_mixed[2] = {a0, ai};
    TU_REFUSED(CLRT_ESHAPE, "one shape and dtype", clrt_gemm_batched(q, N, N, 1.0, a_mixed, b, 0.0, c, 2));
    /* a foreign handle: c[1] of another context */
    clrt_context *other = tu_context_on(&tu_fx->dev);
    clrt_buffer *oc;
    TU_OK(clrt_buffer_create(&oc, other, CLRT_FLOAT32, 4, 3));
    clrt_buffer *c_foreign[2] = {c0, oc};
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_gemm_batched(q, N, N, 1.0, a, b, 0.0, c_foreign, 2));
    clrt_buffer_destroy(oc);
    clrt_context_destroy(other);
    /* a product's own shapes */
    const clrt_buffer *bb[2] = {a0, a1};
    TU_REFUSED(CLRT_ESHAPE, "need op(a) MxK", clrt_gemm_batched(q, N, N, 1.0, a, bb, 0.0, c, 2));
    /* c[1] the same as c[0]; c[1] one of the inputs' windows */
    clrt_buffer *c_same[2] = {c0, c0};
    TU_REFUSED(CLRT_EINVAL, "c[0] shares memory with c[1]", clrt_gemm_batched(q, N, N, 1.0, a, b, 0.0, c_same, 2));
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 0); /* the refusals launched nothing */
    clrt_buffer *parent, *v0, *v1;
    TU_OK(clrt_buffer_create(&parent, tu_fx->ctx, CLRT_FLOAT32, 8, 5));
    TU_OK(clrt_buffer_view(&v0, parent, 0, 0, 4, 5));
    TU_OK(clrt_buffer_view(&v1, parent, 4, 0, 4, 3));
    const clrt_buffer *a_in[2] = {a0, v0};
    clrt_buffer *c_in[2] = {v1, c1};
    TU_OK(clrt_gemm_batched(q, N, N, 1.0, a_in, b, 0.0, c_in, 2)); /* v1 apart from v0 */
    TU_OK(clrt_buffer_write(q, c1, h, 12));
    clrt__debug_fault_clear(); /* counts the launches from here */
    clrt_buffer *v2;
    TU_OK(clrt_buffer_view(&v2, parent, 3, 0, 4, 3));
    clrt_buffer *c_hit[2] = {c1, v2}; /* v2 (rows 3-6) meets a[1] = v0 (rows 0-3) */
    TU_REFUSED(CLRT_EINVAL, "shares memory with a", clrt_gemm_batched(q, N, N, 1.0, a_in, b, 0.0, c_hit, 2));
    clrt_buffer *c_hit0[2] = {v2, c1}; /* c[0] against a[1]: any a, not only its own */
    TU_REFUSED(CLRT_EINVAL, "c[0] shares memory with a[1]", clrt_gemm_batched(q, N, N, 1.0, a_in, b, 0.0, c_hit0, 2));
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 0); /* the refusals launched nothing */
    TU_OK(clrt_buffer_read(q, c1, got, 12));
    assert_memory_equal(got, h, sizeof h);
    TU_DESTROY_BUFFERS(a0, a1, b0, b1, c0, c1, wide, b6, ai, parent, v0, v1, v2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_FIXTURE_TEST(strided_f32_f64),    TU_FIXTURE_TEST(strided_every_path), TU_FIXTURE_TEST(strided_one_launch),
        TU_FIXTURE_TEST(strided_count_zero), TU_FIXTURE_TEST(batched_arrays),     TU_FIXTURE_TEST(strided_refusals),
        TU_FIXTURE_TEST(batched_refusals),
    };
    return TU_RUN_FIXTURE_SUITE(tests);
}
