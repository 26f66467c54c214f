/* clrt_gemm: c = alpha op(a) op(b) + beta c against a double-precision host
 * reference, for every transpose pair, alpha and beta (beta == 0 never reads
 * c: NaN there must not leak), odd and degenerate shapes, operands that are
 * views at odd offsets of larger parents (the parents' other elements must
 * stay as they were), both kernel variants and the packed path forced through
 * the tuning API, and every documented refusal. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fake_device.h"
#include "common/test_util.h"

#include "base/debug.h"
#include "base/util.h"
#include "device/device.h"
#include "kernels/elementwise.h"
#include "kernels/matmul.h"
#include "kernels/matmul_plan.h"
#include "kernels/params.h"

/* A rows x cols operand on the device: a plain buffer, or (view) a window at
 * (2, 3) of a parent 5 rows and 7 columns larger whose other elements hold
 * `outside` (view 2: at (2, 4) of a parent 8 columns wider, so that with cols a
 * multiple of 4 its rows start on 4-element boundaries, as the GPU variant's
 * fast kernel wants them); written from host (dense rows x cols). */
typedef struct operand {
    clrt_buffer *buf, *parent;
    size_t rows, cols, prow, pcol, c0;
    double outside;
} operand;

static void operand_make(operand *o, clrt_context *ctx, clrt_queue *q, clrt_dtype dt, size_t rows, size_t cols,
                         const void *host, int view, double outside)
{
    memset(o, 0, sizeof *o);
    o->rows = rows;
    o->cols = cols;
    o->outside = outside;
    o->c0 = view == 2 ? 4 : 3;
    size_t es = tu_dtype_size(dt);
    if (!view) {
        TU_OK(clrt_buffer_create(&o->buf, ctx, dt, rows, cols));
        TU_OK(clrt_buffer_write(q, o->buf, host, rows * cols));
        return;
    }
    o->prow = rows + 5;
    o->pcol = cols + (view == 2 ? 8 : 7);
    unsigned char *fill = malloc(o->prow * o->pcol * es);
    assert_non_null(fill);
    for (size_t i = 0; i < o->prow * o->pcol; i++)
        tu_put(fill, dt, i, outside);
    TU_OK(clrt_buffer_create(&o->parent, ctx, dt, o->prow, o->pcol));
    TU_OK(clrt_buffer_write(q, o->parent, fill, o->prow * o->pcol));
    free(fill);
    TU_OK(clrt_buffer_view(&o->buf, o->parent, 2, o->c0, rows, cols));
    assert_int_equal(clrt_buffer_rows(o->buf), rows);
    assert_int_equal(clrt_buffer_cols(o->buf), cols);
    TU_OK(clrt_buffer_write(q, o->buf, host, rows * cols));
}

/* For a view: the parent's elements outside the window are untouched. */
static void operand_check_outside(operand *o, clrt_queue *q, clrt_dtype dt, const char *what)
{
    if (!o->parent)
        return;
    size_t n = o->prow * o->pcol;
    unsigned char *all = malloc(n * tu_dtype_size(dt));
    assert_non_null(all);
    TU_OK(clrt_buffer_read(q, o->parent, all, n));
    for (size_t r = 0; r < o->prow; r++)
        for (size_t c = 0; c < o->pcol; c++) {
            int inside = r >= 2 && r < 2 + o->rows && c >= o->c0 && c < o->c0 + o->cols;
            double v = tu_get(all, dt, r * o->pcol + c);
            if (!inside && v != (double)(dt == CLRT_FLOAT64 ? o->outside : (float)o->outside))
                fail_msg("%s: the parent's element (%zu, %zu) outside the %zux%zu window changed to %g", what, r, c,
                         o->rows, o->cols, v);
        }
    free(all);
}

static void operand_free(operand *o)
{
    clrt_buffer_destroy(o->buf);
    clrt_buffer_destroy(o->parent);
}

/* One gemm, checked. views: bit 0 a, bit 1 b, bit 2 c are views; bit 3: the
 * views keep rows aligned (operand_make's view 2). */
static void check_gemm(clrt_context *ctx, clrt_queue *q, clrt_dtype dt, clrt_trans ta, clrt_trans tb, size_t M,
                       size_t N, size_t K, double alpha, double beta, unsigned views)
{
    const size_t es = tu_dtype_size(dt);
    const size_t ar = ta ? K : M, ac = ta ? M : K, br = tb ? N : K, bc = tb ? K : N;
    unsigned char *a = malloc(ar * ac * es), *b = malloc(br * bc * es), *c0 = malloc(M * N * es),
                  *c = malloc(M * N * es);
    assert_true(a && b && c0 && c);
    clrt__ref_fill(a, dt, ar * ac, (unsigned)(M * 3 + K + ta));
    clrt__ref_fill(b, dt, br * bc, (unsigned)(K * 5 + N + tb));
    if (beta == 0.0)
        for (size_t i = 0; i < M * N; i++) /* never read: NaN must not leak */
            tu_put(c0, dt, i, NAN);
    else
        clrt__ref_fill(c0, dt, M * N, (unsigned)(M + N));
    operand oa, ob, oc;
    const int kind = views & 8 ? 2 : 1;
    operand_make(&oa, ctx, q, dt, ar, ac, a, views & 1 ? kind : 0, -7.0);
    operand_make(&ob, ctx, q, dt, br, bc, b, views & 2 ? kind : 0, -8.0);
    operand_make(&oc, ctx, q, dt, M, N, c0, views & 4 ? kind : 0, -9.0);
    TU_OK(clrt_gemm(q, ta, tb, alpha, oa.buf, ob.buf, beta, oc.buf));
    TU_OK(clrt_buffer_read(q, oc.buf, c, M * N));
    /* the reference in double, with alpha and beta rounded to the dtype as clrt does */
    const double al = dt == CLRT_FLOAT64 ? alpha : (double)(float)alpha;
    const double be = dt == CLRT_FLOAT64 ? beta : (double)(float)beta;
    const double eps = dt == CLRT_FLOAT64 ? 1.1102230246251565e-16 : 5.9604644775390625e-08;
    size_t bad = 0;
    for (size_t i = 0; i < M; i++)
        for (size_t j = 0; j < N; j++) {
            double ref = 0, mag = 0;
            for (size_t k = 0; k < K; k++) {
                double x = tu_get(a, dt, ta ? k * ac + i : i * ac + k);
                double y = tu_get(b, dt, tb ? j * bc + k : k * bc + j);
                ref += x * y;
                mag += fabs(x * y);
            }
            double cold = beta == 0.0 ? 0 : tu_get(c0, dt, i * N + j);
            double want = al * ref + (beta == 0.0 ? 0 : be * cold);
            double bound = 2.0 * (double)(K + 2) * eps * (fabs(al) * mag + fabs(be * cold)) + 1e-300;
            double got = tu_get(c, dt, i * N + j);
            int ok = isnan(want) ? isnan(got) : fabs(got - want) <= bound;
            if (!ok && bad++ < 3)
                print_message("c[%zu][%zu] = %.17g, want %.17g (bound %g)\n", i, j, got, want, bound);
        }
    if (bad)
        fail_msg("gemm %s %c%c %zux%zux%zu alpha %g beta %g views %u: %zu of %zu wrong",
                 tu_dtype_name(dt), ta ? 'T' : 'N', tb ? 'T' : 'N', M, N, K, alpha, beta, views, bad,
                 M * N);
    operand_check_outside(&oa, q, dt, "a");
    operand_check_outside(&ob, q, dt, "b");
    operand_check_outside(&oc, q, dt, "c");
    operand_free(&oa);
    operand_free(&ob);
    operand_free(&oc);
    TU_FREE_ALL(a, b, c0, c);
}

static const clrt_trans trans[2] = {CLRT_NO_TRANS, CLRT_TRANS};

/* Every transpose pair over odd shapes, alpha 1 beta 0 and general alpha, beta. */
static void run_shapes(clrt_context *ctx, clrt_queue *q, clrt_dtype dt)
{
    static const size_t dims_full[] = {1, 7, 17, 65};
    static const size_t dims_small[] = {1, 7, 17};
    const size_t *dims = tu_small() ? dims_small : dims_full;
    const size_t nd = tu_small() ? 3 : 4;
    for (int t = 0; t < 4; t++)
        for (size_t i = 0; i < nd; i++)
            for (size_t j = 0; j < nd; j++) {
                const size_t M = dims[i], N = dims[j], K = dims[(i + j + (size_t)t) % nd];
                check_gemm(ctx, q, dt, trans[t & 1], trans[t >> 1], M, N, K, 1.0, 0.0, 0);
                check_gemm(ctx, q, dt, trans[t & 1], trans[t >> 1], M, N, K, -1.5, 0.25, (unsigned)(i + j) & 7);
            }
    if (!tu_small())
        for (int t = 0; t < 4; t++) {
            check_gemm(ctx, q, dt, trans[t & 1], trans[t >> 1], 130, 67, 1, 2.0, 1.0, 7);  /* K = 1 */
            check_gemm(ctx, q, dt, trans[t & 1], trans[t >> 1], 127, 129, 300, 0.5, -1.0, 5);
            check_gemm(ctx, q, dt, trans[t & 1], trans[t >> 1], 257, 300, 200, 1.0, 0.0, 0); /* packs on CPUs */
        }
}

static void gemm_f32(void **state)
{
    (void)state;
    run_shapes(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32);
}

static void gemm_f64(void **state)
{
    (void)state;
    if (!tu_fx->dev.has_fp64) {
        print_message("device has no fp64: CLRT_FLOAT64 is refused (tested in device_api)\n");
        skip();
    }
    run_shapes(tu_fx->ctx, tu_fx->q, CLRT_FLOAT64);
}

/* A fresh context on the suite's device with fp32 matmul parameters forced
 * (clrt_tune_override), and a queue on it in *q: the opening of every test
 * below that runs parameters a device's defaults would not choose. */
static clrt_context *override_context(clrt_queue **q, const char *params)
{
    clrt_context *ctx = tu_fresh_context(q);
    TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT32, params));
    return ctx;
}

/* Both kernel variants and the packed path of op(b), forced through the
 * tuning API, with every transpose pair: the code paths a device's defaults
 * would not take run on every driver (Oclgrind included). */
static void gemm_every_variant(void **state)
{
    (void)state;
    static const char *const variants[] = {
        "use_local=0 tm=4 tn=8 tk=16 wgx=1 wgy=4 vw=4 pack=0 tkp=0",
        "use_local=1 tm=2 tn=4 tk=8 wgx=4 wgy=4 vw=2 pack=0",
        "use_local=1 tm=1 tn=1 tk=4 wgx=8 wgy=8 vw=1 pack=0",
        /* op(b) packed first whenever the tiles are full, in slices of 1 KiB */
        "use_local=0 tm=2 tn=4 tk=8 wgx=2 wgy=2 vw=2 pack=2 tkp=4 pack_kib=1",
    };
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        clrt_queue *q;
        clrt_context *ctx = override_context(&q, variants[v]);
        for (int t = 0; t < 4; t++) {
            check_gemm(ctx, q, CLRT_FLOAT32, trans[t & 1], trans[t >> 1], 17, 33, 16, 1.0, 0.0, 0);
            check_gemm(ctx, q, CLRT_FLOAT32, trans[t & 1], trans[t >> 1], 9, 7, 5, 3.0, -2.0, 7);
            check_gemm(ctx, q, CLRT_FLOAT32, trans[t & 1], trans[t >> 1], 1, 5, 3, 1.0, 1.0, 2);
            /* each transpose pair is its own kernel, built with the forced parameters */
            char now[256];
            TU_OK(clrt_tune_current(ctx, "matmul", CLRT_FLOAT32, now, sizeof now, NULL));
            tu_assert_ran(ctx, "matmul", CLRT_FLOAT32, variants[v]);
        }
        if (tu_fx->dev.has_fp64) {
            TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT64, variants[v]));
            for (int t = 0; t < 4; t++)
                check_gemm(ctx, q, CLRT_FLOAT64, trans[t & 1], trans[t >> 1], 13, 11, 9, -1.0, 0.5, 5);
        }
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
    }
}

/* The register-tile kernels of every transpose pair in both builds, on every
 * driver: a program per pair (merged=0, GPUs' and the emulators' default) and one
 * program of all four (merged=1, CPUs'), each pair checked against the reference
 * with B packed, A packed (A^T) and in place, the dot form (A B^T), a C thinner
 * than a tile (narrow) and tiles fitted to few rows; fp64 too. A fresh context
 * builds exactly one program for the four pairs' full-tile kernels when merged,
 * four when not. */
static void gemm_pairs_in_each_build(void **state)
{
    (void)state;
    for (int merged = 0; merged <= 1; merged++) {
        char params[160];
        snprintf(params, sizeof params, "use_local=0 tm=3 tn=8 tk=8 wgx=1 wgy=1 vw=4 pack=0 pack_a=0 dot=0 merged=%d",
                 merged);
        clrt_queue *q;
        clrt_context *ctx = override_context(&q, params);
        const long before = clrt__debug_live(CLRT__LIVE_PROGRAM);
        for (int t = 0; t < 4; t++)
            check_gemm(ctx, q, CLRT_FLOAT32, trans[t & 1], trans[t >> 1], 13, 19, 7, 1.0, 0.0, 0);
        const long built = clrt__debug_live(CLRT__LIVE_PROGRAM) - before;
        if (built != (merged ? 1 : 4))
            fail_msg("merged=%d: the four transpose pairs built %ld programs, expected %d", merged, built,
                     merged ? 1 : 4);
        /* every other path of each pair, in the same build */
        snprintf(params, sizeof params,
                 "use_local=0 tm=3 tn=8 tk=8 tkp=4 wgx=1 wgy=1 vw=4 pack=2 pack_a=2 dot=2 fit_rows=2 merged=%d", merged);
        TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT32, params));
        for (int t = 0; t < 4; t++) {
            check_gemm(ctx, q, CLRT_FLOAT32, trans[t & 1], trans[t >> 1], 13, 19, 7, 2.0, -0.5, 3);
            check_gemm(ctx, q, CLRT_FLOAT32, trans[t & 1], trans[t >> 1], 4, 19, 9, 1.0, 0.0, 0);  /* fitted rows */
            check_gemm(ctx, q, CLRT_FLOAT32, trans[t & 1], trans[t >> 1], 11, 5, 17, 1.0, 1.0, 1); /* narrow */
        }
        tu_assert_ran(ctx, "matmul", CLRT_FLOAT32, params);
        if (tu_fx->dev.has_fp64) {
            TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT64, params));
            for (int t = 0; t < 4; t++)
                check_gemm(ctx, q, CLRT_FLOAT64, trans[t & 1], trans[t >> 1], 13, 19, 7, -1.0, 0.5, 5);
        }
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
    }
}

/* The packed paths of the CPU variant, forced through the tuning API on every
 * driver: op(A) into row panels (pack_a) with op(B) packed or in place, op(B) = B^T
 * moved vw rows at a time (K below, at and past a multiple of vw), both in slices
 * of the scratch, groups over several panels both ways, with the launch's
 * dimensions over columns then rows and the other way round (rows_first); every
 * transpose, views. */
static void gemm_packed_operands(void **state)
{
    (void)state;
    static const char *const variants[] = {
        /* A and B packed, small slices (2 KiB of B, 8 KiB of A), 2 x 2 groups */
        "use_local=0 tm=2 tn=4 tk=8 wgx=2 wgy=2 vw=2 pack=2 tkp=4 pack_kib=2 pack_a=2",
        /* vw = 8: pack_b turns 8 x 8 blocks of B^T; groups three row panels high */
        "use_local=0 tm=3 tn=16 tk=8 wgx=1 wgy=3 vw=8 pack=2 tkp=16 pack_kib=0 pack_a=2",
        /* A packed, B in place (with B^T the kernel reads A in place: not packed) */
        "use_local=0 tm=4 tn=8 tk=16 wgx=1 wgy=1 vw=4 pack=0 tkp=0 pack_a=2 rows_first=0",
        /* the first and the third with dimension 0 over row tiles */
        "use_local=0 tm=2 tn=4 tk=8 wgx=2 wgy=2 vw=2 pack=2 tkp=4 pack_kib=2 pack_a=2 rows_first=2",
        "use_local=0 tm=4 tn=8 tk=16 wgx=1 wgy=1 vw=4 pack=0 tkp=0 pack_a=2 rows_first=2",
    };
    static const size_t shapes[][3] = {{17, 33, 16}, {9, 16, 5}, {7, 17, 8}, {24, 20, 17}, {3, 16, 1}};
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        clrt_queue *q;
        clrt_context *ctx = override_context(&q, variants[v]);
        for (int t = 0; t < 4; t++) {
            for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
                check_gemm(ctx, q, CLRT_FLOAT32, trans[t & 1], trans[t >> 1], shapes[i][0], shapes[i][1],
                           shapes[i][2], i & 1 ? -0.5 : 1.0, i & 1 ? 2.0 : 0.0, (unsigned)(i + (size_t)t) & 7);
            tu_assert_ran(ctx, "matmul", CLRT_FLOAT32, variants[v]);
        }
        if (tu_fx->dev.has_fp64) {
            TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT64, variants[v]));
            for (int t = 0; t < 4; t++)
                check_gemm(ctx, q, CLRT_FLOAT64, trans[t & 1], trans[t >> 1], 19, 17, 9, 1.5, -1.0, 3);
        }
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
    }
}

/* The launches the packed paths make, counted: which operands are packed, in
 * how many slices, and A packed once when it takes one slice. */
static size_t launches(clrt_context *ctx, clrt_queue *q, clrt_trans ta, clrt_trans tb, size_t M, size_t N, size_t K)
{
    clrt__debug_fault_clear(); /* zeroes the call counts */
    check_gemm(ctx, q, CLRT_FLOAT32, ta, tb, M, N, K, 1.0, 0.0, 5);
    return clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL);
}

static void gemm_packed_launches(void **state)
{
    (void)state;
    clrt_queue *q;
    clrt_context *ctx =
        override_context(&q, "use_local=0 tm=2 tn=4 tk=8 wgx=2 wgy=2 vw=2 pack=2 tkp=4 pack_kib=1 pack_a=2");
    /* B: 10 panels of 24 x 4 floats (384 bytes), 1 KiB: 5 slices of 2 panels. A: 35
     * panels of 24 x 2 floats (192 bytes), 4 KiB: 2 slices of 18 (a multiple of wgy).
     * Per B slice: pack_b, then per A slice pack_a and matmul. */
    assert_int_equal(launches(ctx, q, CLRT_TRANS, CLRT_NO_TRANS, 70, 37, 24), 5 + 5 * 2 + 5 * 2);
    assert_int_equal(launches(ctx, q, CLRT_NO_TRANS, CLRT_TRANS, 70, 37, 24), 5 + 5 * 2 + 5 * 2);
    TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT32,
                             "use_local=0 tm=2 tn=4 tk=8 wgx=2 wgy=2 vw=2 pack=2 tkp=4 pack_kib=1 pack_a=2 "
                             "rows_first=2"));
    assert_int_equal(launches(ctx, q, CLRT_TRANS, CLRT_NO_TRANS, 70, 37, 24), 5 + 5 * 2 + 5 * 2);
    /* A in one slice (12 panels): packed once, before the first B slice's matmul */
    assert_int_equal(launches(ctx, q, CLRT_TRANS, CLRT_TRANS, 23, 37, 24), 5 + 1 + 5);
    /* thinner than a tile (N < tn): the narrow variant's tile (2 columns = vw, 4 rows):
     * 2 panels of B, 6 of A, one slice each */
    assert_int_equal(launches(ctx, q, CLRT_TRANS, CLRT_NO_TRANS, 23, 3, 24), 3);
    /* thinner than that (N < vw): nothing packed, one launch */
    assert_int_equal(launches(ctx, q, CLRT_TRANS, CLRT_NO_TRANS, 23, 1, 24), 1);
    /* B in place: A alone, except with B^T (the kernel would not read packed A) */
    TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT32,
                             "use_local=0 tm=2 tn=4 tk=8 wgx=2 wgy=2 vw=2 pack=0 tkp=4 pack_kib=1 pack_a=2"));
    assert_int_equal(launches(ctx, q, CLRT_TRANS, CLRT_NO_TRANS, 23, 37, 24), 2);
    assert_int_equal(launches(ctx, q, CLRT_NO_TRANS, CLRT_NO_TRANS, 70, 37, 24), 2 + 2);
    assert_int_equal(launches(ctx, q, CLRT_TRANS, CLRT_TRANS, 23, 37, 24), 1);
    /* pack_a=1 (the default's rule): a small A^T stays in place */
    TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT32,
                             "use_local=0 tm=2 tn=4 tk=8 wgx=2 wgy=2 vw=2 pack=0 tkp=4 pack_kib=1 pack_a=1"));
    assert_int_equal(launches(ctx, q, CLRT_TRANS, CLRT_NO_TRANS, 23, 37, 24), 1);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
}

/* A B^T in the dot form (tm x tn/vw dot products along k, or its own dot_tm x
 * dot_nv, nothing packed), forced on every driver: thin and odd shapes, K below, at and past a multiple of vw, views,
 * alpha and beta, groups over several tiles, launches over slices of C's columns
 * (counted); the other transpose pairs with the same parameters stay correct. */
static void gemm_dot_form(void **state)
{
    (void)state;
    static const char *const variants[] = {
        "use_local=0 tm=4 tn=24 tk=16 wgx=1 wgy=1 vw=8 pack=1 tkp=0 dot=2 dot_tm=0 dot_nv=0",
        "use_local=0 tm=3 tn=4 tk=8 wgx=2 wgy=2 vw=2 pack=0 tkp=0 pack_kib=1 dot=2 dot_tm=0 dot_nv=0",
        /* a dot tile of its own (3 x 5), fitted to 1 and 2 rows */
        "use_local=0 tm=4 tn=8 tk=16 wgx=1 wgy=1 vw=4 pack=1 tkp=0 pack_kib=1 dot=2 dot_tm=3 dot_nv=5 fit_rows=2",
    };
    static const size_t shapes[][3] = {{1, 1, 1},  {7, 5, 17},  {17, 33, 16}, {2, 9, 3},
                                       {13, 40, 9}, {5, 2, 8},   {30, 7, 41}};
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        clrt_queue *q;
        clrt_context *ctx = override_context(&q, variants[v]);
        for (int t = 0; t < 4; t++)
            for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
                check_gemm(ctx, q, CLRT_FLOAT32, trans[t & 1], trans[t >> 1], shapes[i][0], shapes[i][1],
                           shapes[i][2], i & 1 ? 1.0 : -2.0, i & 2 ? 0.5 : 0.0, (unsigned)(i + (size_t)t) & 7);
        tu_assert_ran(ctx, "matmul", CLRT_FLOAT32, variants[v]);
        if (v == 1) {
            /* 1 KiB of B's rows per launch: at most 256 / K rows, at least one group's
             * (2 x tn/vw = 4 columns): 37 columns in 10 launches; K = 300 the same */
            clrt__debug_fault_clear();
            check_gemm(ctx, q, CLRT_FLOAT32, CLRT_NO_TRANS, CLRT_TRANS, 9, 37, 40, 1.0, 0.0, 2);
            assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 10);
            clrt__debug_fault_clear();
            check_gemm(ctx, q, CLRT_FLOAT32, CLRT_NO_TRANS, CLRT_TRANS, 9, 37, 300, 1.0, 0.0, 0);
            assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 10);
            /* 8 columns of K = 32 fit: 2 launches */
            clrt__debug_fault_clear();
            check_gemm(ctx, q, CLRT_FLOAT32, CLRT_NO_TRANS, CLRT_TRANS, 4, 13, 32, 1.0, 0.0, 0);
            assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 2);
        }
        if (v == 2) {
            /* 1 KiB of B's rows per launch, whole groups of dot_nv = 5 columns: 5
             * columns of K = 40, so 37 columns in 8 launches (2 columns a work-item,
             * tn / vw, would make it 7) */
            clrt__debug_fault_clear();
            check_gemm(ctx, q, CLRT_FLOAT32, CLRT_NO_TRANS, CLRT_TRANS, 9, 37, 40, 1.0, 0.0, 2);
            assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 8);
        }
        if (tu_fx->dev.has_fp64) {
            TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT64, variants[v]));
            for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
                check_gemm(ctx, q, CLRT_FLOAT64, CLRT_NO_TRANS, CLRT_TRANS, shapes[i][0], shapes[i][1],
                           shapes[i][2], 1.5, i & 1 ? -1.0 : 0.0, (unsigned)i & 7);
        }
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
    }
}

/* C thinner than a tile (N < tn, not A B^T) runs the narrow launch variant, a
 * kernel built with one vector of columns and twice the rows per work-item:
 * built on the first thin product of each transpose pair (counted), correct
 * across its edges (N below, at and past vw; M around its 2 x tm rows), views,
 * alpha and beta; N >= tn keeps the kernel it had. */
static void gemm_narrow_variant(void **state)
{
    (void)state;
    static const char params[] =
        "use_local=0 tm=3 tn=12 tk=8 wgx=1 wgy=1 vw=4 pack=1 tkp=0 pack_a=1 dot=1 dot_tm=0 dot_nv=0 rows_first=1";
    static const size_t shapes[][3] = {{13, 5, 9}, {1, 1, 1}, {6, 4, 3}, {7, 11, 20}, {5, 3, 33}, {12, 8, 1}};
    static const clrt_trans pairs[][2] = {
        {CLRT_NO_TRANS, CLRT_NO_TRANS}, {CLRT_TRANS, CLRT_NO_TRANS}, {CLRT_TRANS, CLRT_TRANS}};
    clrt_queue *q;
    clrt_context *ctx = override_context(&q, params);
    /* a thin product first builds the narrow kernels alone (matmul, pack_b, pack_a),
     * the variant chosen from the parameters without building the usual one */
    const long before = clrt__debug_live(CLRT__LIVE_KERNEL);
    check_gemm(ctx, q, CLRT_FLOAT32, CLRT_TRANS, CLRT_TRANS, 20, 5, 9, 1.0, 0.0, 0);
    assert_int_equal(clrt__debug_live(CLRT__LIVE_KERNEL), before + 3);
    for (size_t t = 0; t < sizeof pairs / sizeof *pairs; t++) {
        const clrt_trans ta = pairs[t][0], tb = pairs[t][1];
        check_gemm(ctx, q, CLRT_FLOAT32, ta, tb, 9, 12, 7, 1.0, 0.0, 0); /* N = tn: the usual kernel */
        const long kernels = clrt__debug_live(CLRT__LIVE_KERNEL);
        for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
            check_gemm(ctx, q, CLRT_FLOAT32, ta, tb, shapes[i][0], shapes[i][1], shapes[i][2], i & 1 ? 2.0 : 1.0,
                       i & 2 ? -1.0 : 0.0, (unsigned)(i + t) & 7);
        /* the narrow build's three kernels (built above for A^T B^T) */
        assert_int_equal(clrt__debug_live(CLRT__LIVE_KERNEL), kernels + (ta && tb ? 0 : 3));
        const long narrow = clrt__debug_live(CLRT__LIVE_KERNEL);
        check_gemm(ctx, q, CLRT_FLOAT32, ta, tb, 30, 40, 9, 1.0, 0.5, 3);
        check_gemm(ctx, q, CLRT_FLOAT32, ta, tb, 30, 10, 9, 1.0, 0.5, 3);
        assert_int_equal(clrt__debug_live(CLRT__LIVE_KERNEL), narrow);
    }
    if (tu_fx->dev.has_fp64) {
        TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT64, params));
        for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
            check_gemm(ctx, q, CLRT_FLOAT64, CLRT_NO_TRANS, CLRT_NO_TRANS, shapes[i][0], shapes[i][1], shapes[i][2],
                       -1.0, 0.25, (unsigned)i & 7);
    }
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
}

/* A C with few rows (CPU variant) runs a tile of fitted rows: as many row tiles
 * as tm rows make, each ceil(M / tiles) rows (M = 9, tm = 8: two of 5). The rule
 * (fit_rows = 1 from 2^24 multiply-adds, 2 always), then products with fit_rows
 * = 2 at small sizes on every driver: the same fitted rows share one build (M = 9
 * and 10: 5 rows), another fit builds its own, M = tm and large M none (counted);
 * correct at every fit from 1 row, every transpose pair, the dot form (A B^T),
 * the narrow tile (16 rows here), both operands packed, fp64; on the drivers
 * that are not emulators, fit_rows = 1 on a product of 2^24 multiply-adds too. */
static void gemm_fitted_rows(void **state)
{
    (void)state;
    clrt__matmul_params r = {.use_local = 0, .tm = 8, .fit_rows = 1};
    assert_int_equal(clrt__matmul_fit_rows(&r, 9, 131, 14400), 5);
    assert_int_equal(clrt__matmul_fit_rows(&r, 9, 131, 14200), 0); /* below 2^24 */
    assert_int_equal(clrt__matmul_fit_rows(&r, 20, 36864, 25), 7);  /* conv1's forward product at batch 64 */
    assert_int_equal(clrt__matmul_fit_rows(&r, 20, 2304, 25), 0);   /* the same at batch 4 */
    assert_int_equal(clrt__matmul_fit_rows(&r, 10, 500, 256), 0);   /* fc2's weight gradient at batch 256 */
    assert_int_equal(clrt__matmul_fit_rows(&r, 1, 4096, 4096), 1);
    assert_int_equal(clrt__matmul_fit_rows(&r, 49, 4096, 4096), 7); /* 7 tiles of 7 */
    assert_int_equal(clrt__matmul_fit_rows(&r, 50, 4096, 4096), 0); /* 7 tiles of 8 */
    assert_int_equal(clrt__matmul_fit_rows(&r, 64, 4096, 4096), 0);
    r.fit_rows = 2;
    assert_int_equal(clrt__matmul_fit_rows(&r, 9, 3, 3), 5);
    assert_int_equal(clrt__matmul_fit_rows(&r, 17, 3, 3), 6);
    r.fit_rows = 0;
    assert_int_equal(clrt__matmul_fit_rows(&r, 9, 4096, 4096), 0);
    r.fit_rows = 2;
    r.use_local = 1;
    assert_int_equal(clrt__matmul_fit_rows(&r, 9, 3, 3), 0);

    static const char *const variants[] = {
        "use_local=0 tm=8 tn=16 tk=16 wgx=1 wgy=1 vw=4 pack=1 tkp=0 pack_a=1 dot=1 dot_tm=0 dot_nv=0 rows_first=1 "
        "fit_rows=2",
        /* both operands packed, in slices of 1 KiB of B */
        "use_local=0 tm=8 tn=16 tk=16 wgx=1 wgy=1 vw=4 pack=2 tkp=8 pack_kib=1 pack_a=2 dot=0 rows_first=0 "
        "fit_rows=2",
    };
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        clrt_queue *q;
        clrt_context *ctx = override_context(&q, variants[v]);
        check_gemm(ctx, q, CLRT_FLOAT32, CLRT_NO_TRANS, CLRT_NO_TRANS, 16, 37, 29, 1.0, 0.0, 0);
        const long usual = clrt__debug_live(CLRT__LIVE_KERNEL);
        check_gemm(ctx, q, CLRT_FLOAT32, CLRT_NO_TRANS, CLRT_NO_TRANS, 9, 37, 29, 1.0, 0.0, 5);
        const long five = clrt__debug_live(CLRT__LIVE_KERNEL);
        assert_true(five > usual); /* 5 rows: a build of its own */
        check_gemm(ctx, q, CLRT_FLOAT32, CLRT_NO_TRANS, CLRT_NO_TRANS, 10, 37, 29, -1.5, 0.25, 2);
        check_gemm(ctx, q, CLRT_FLOAT32, CLRT_NO_TRANS, CLRT_NO_TRANS, 70, 37, 29, 1.0, 0.0, 0);
        assert_int_equal(clrt__debug_live(CLRT__LIVE_KERNEL), five); /* 5 rows again; 70: the usual 8 */
        check_gemm(ctx, q, CLRT_FLOAT32, CLRT_NO_TRANS, CLRT_NO_TRANS, 17, 37, 29, 1.0, 0.0, 1);
        assert_true(clrt__debug_live(CLRT__LIVE_KERNEL) > five); /* 6 rows */
        static const size_t rows[] = {1, 5, 20, 41};
        for (int t = 0; t < 4; t++)
            for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
                check_gemm(ctx, q, CLRT_FLOAT32, trans[t & 1], trans[t >> 1], rows[i], 37, i & 1 ? 29 : 64,
                           i & 1 ? 2.0 : 1.0, i & 1 ? -1.0 : 0.0, (unsigned)(i + (size_t)t) & 7);
        /* the narrow tile (N < tn): 16 rows, fitted to 13 for M = 26 */
        check_gemm(ctx, q, CLRT_FLOAT32, CLRT_TRANS, CLRT_NO_TRANS, 26, 7, 33, 1.0, 0.5, 3);
        check_gemm(ctx, q, CLRT_FLOAT32, CLRT_NO_TRANS, CLRT_NO_TRANS, 26, 7, 33, 1.0, 0.0, 4);
        if (tu_fx->dev.has_fp64) {
            TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT64, variants[v]));
            check_gemm(ctx, q, CLRT_FLOAT64, CLRT_NO_TRANS, CLRT_TRANS, 17, 37, 29, 1.0, 0.0, 6);
            check_gemm(ctx, q, CLRT_FLOAT64, CLRT_TRANS, CLRT_NO_TRANS, 33, 37, 29, -1.0, 2.0, 1);
        }
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
    }
    if (tu_small())
        return; /* 2^24 multiply-adds are minutes under an emulator; the rule is checked above */
    clrt_queue *q;
    clrt_context *ctx =
        override_context(&q, "use_local=0 tm=8 tn=16 tk=16 wgx=1 wgy=1 vw=4 pack=1 tkp=0 pack_a=1 fit_rows=1");
    check_gemm(ctx, q, CLRT_FLOAT32, CLRT_NO_TRANS, CLRT_NO_TRANS, 9, 37, 29, 1.0, 0.0, 0); /* small: 8 rows */
    const long usual = clrt__debug_live(CLRT__LIVE_KERNEL);
    check_gemm(ctx, q, CLRT_FLOAT32, CLRT_NO_TRANS, CLRT_NO_TRANS, 16, 131, 600, 1.0, 0.0, 0);
    check_gemm(ctx, q, CLRT_FLOAT32, CLRT_NO_TRANS, CLRT_NO_TRANS, 9, 131, 14200, 1.0, 0.0, 0); /* below 2^24 */
    assert_int_equal(clrt__debug_live(CLRT__LIVE_KERNEL), usual);
    check_gemm(ctx, q, CLRT_FLOAT32, CLRT_NO_TRANS, CLRT_NO_TRANS, 9, 131, 14400, 1.0, 0.0, 5); /* 5 rows */
    assert_true(clrt__debug_live(CLRT__LIVE_KERNEL) > usual);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
}

/* The parameters a real GPU gets, exactly as shipped, for each vendor class
 * (NVIDIA and AMD: 128 x 128 fp32 tiles per 16 x 16 group in local memory, 64 x 64
 * for fp64; Intel's Data Center GPU Max: 64 x 128 fp32 and 64 x 64 fp64, built at
 * SIMD16 (sg); Arc and Iris Xe take AMD's fp32 tiles and have no fp64; others:
 * 64 x 64), forced on this device through the tuning
 * API: no CPU driver or emulator would pick them, so without this they would first
 * run on a user's GPU. Each must be accepted here and run unchanged (no shrinking),
 * correct on shapes that cross tile edges, every transpose, in both kernels of the
 * GPU variant: the general one (odd shapes, unaligned views, the k tail) and
 * matmul_fast (aligned operands; launches counted). NVIDIA's cap on registers
 * (maxreg, -cl-nv-maxrregcount, fp32) is an option only NVIDIA's compiler takes: it
 * is refused here and the rest forced without it. */
typedef struct gpu_class {
    tu_gpu_class device;
    unsigned tile_f32; /* the fp32 tile edge (tm * wgx) the class must ship */
} gpu_class;

static const gpu_class gpu_classes[] = {{TU_GPU_NVIDIA, 128}, {TU_GPU_AMD, 128}, {TU_GPU_INTEL, 64}};

/* The class's shipped matmul parameters for dtype dt as text (maxreg dropped: see
 * above, after checking it is the only thing this device refuses), in mm. */
static clrt__matmul_params shipped_matmul(clrt_context *ctx, const gpu_class *g, clrt_dtype dt, char *mm, size_t cap)
{
    const clrt__device_facts f = tu_fake_gpu(g->device);
    clrt__pvals p;
    clrt__k_matmul.defaults(&f, tu_dtype_size(dt), &p);
    clrt__matmul_params m = clrt__mm(&p);
    assert_true(m.use_local);
    if (dt == CLRT_FLOAT32)
        assert_int_equal(m.tm * m.wgx, g->tile_f32);
    assert_int_equal(m.maxreg, f.nv_compiler_options && dt == CLRT_FLOAT32 ? 128 : 0);
    char why[256] = "";
    if (m.maxreg) {
        assert_int_equal(clrt__params_text(&clrt__k_matmul, &p, mm, cap), 0);
        assert_int_equal(clrt_tune_check(ctx, "matmul", dt, mm, why, sizeof why), CLRT_EINVAL);
        assert_non_null(strstr(why, "cl_nv_compiler_options"));
        m.maxreg = 0;
        clrt__mm_put(&p, &m);
    }
    assert_int_equal(clrt__params_text(&clrt__k_matmul, &p, mm, cap), 0);
    /* the Data Center GPU Max's tiles take more local memory than rusticl and Oclgrind
     * have (32 KiB): they run on POCL alone */
    clrt_device_info here;
    TU_OK(clrt_context_device(ctx, &here));
    const size_t local = clrt__matmul_local_bytes(&m, tu_dtype_size(dt));
    if (local > here.local_mem) {
        print_message("%s %s: its %zu bytes of local memory exceed this device's %llu: not run here\n", f.name,
                      tu_dtype_name(dt), local, (unsigned long long)here.local_mem);
        m.use_local = 0; /* the caller's sign to skip it */
        return m;
    }
    if (clrt_tune_check(ctx, "matmul", dt, mm, why, sizeof why) != CLRT_OK)
        fail_msg("%s's shipped matmul defaults refused on this device: %s", f.name, why);
    return m;
}

/* One product checked, with the launches it takes counted against the rule
 * (kernels/matmul.h): matmul_fast for the part of k it takes, the general kernel for
 * the rest; plain operands or aligned views (views 0 or 15). Returns matmul_fast's k. */
static size_t counted_gemm(clrt_context *ctx, clrt_queue *q, clrt_dtype dt, const clrt__matmul_params *m, int t,
                           size_t M, size_t N, size_t K, double alpha, double beta, unsigned views)
{
    const int ta = t & 1, tb = t >> 1;
    const size_t pad = views ? 8 : 0, lda = (ta ? M : K) + pad, ldb = (tb ? K : N) + pad;
    const size_t kf = clrt__matmul_fast_k(m, ta, tb, M, N, K, views ? 2 * lda + 4 : 0, lda, views ? 2 * ldb + 4 : 0,
                                          ldb);
    clrt__debug_fault_clear(); /* zeroes the launch counts */
    check_gemm(ctx, q, dt, trans[ta], trans[tb], M, N, K, alpha, beta, views);
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), (kf ? 1 : 0) + (K > kf ? 1 : 0));
    return kf;
}

/* Products at the tile's edge e, every transpose: the general kernel (odd shapes,
 * unaligned views) and matmul_fast, whole (K a multiple of 2 tk) and followed by the
 * general kernel for the k tail, on rows and columns past the tiles, aligned views,
 * alpha and beta, C thinner than a tile. Under Oclgrind (small) matmul_fast's cases
 * run for N N and T T (every operand both ways round; fp64 N N) and its k tail for
 * T N, fp32 (the only pair that takes it): each product there is seconds. */
static void shipped_gemm_shapes(clrt_context *ctx, clrt_queue *q, clrt_dtype dt, const clrt__matmul_params *m)
{
    const size_t e = m->tm * m->wgx, kk = 2 * m->tk * (tu_small() ? 1 : 3);
    for (int t = 0; t < 4; t++) {
        check_gemm(ctx, q, dt, trans[t & 1], trans[t >> 1], e + 1, e + 3, tu_small() ? 5 : 37, 1.0, 0.0, 0);
        check_gemm(ctx, q, dt, trans[t & 1], trans[t >> 1], 1, e - 1, 3, -0.5, 2.0, 5);
        const int f32 = dt == CLRT_FLOAT32;
        if (!tu_small() || t == 0 || (t == 3 && f32)) {
            assert_int_equal(counted_gemm(ctx, q, dt, m, t, e + 4, e + 8, kk, 1.0, 0.0, 0), kk);
            assert_int_equal(counted_gemm(ctx, q, dt, m, t, e + 4, e + 8, kk, -1.5, 0.5, 15), kk);
            assert_int_equal(counted_gemm(ctx, q, dt, m, t, 4, 8, kk, 2.0, 1.0, 0), kk);
        }
        /* the k tail: operands along k are unaligned then, except A^T B's */
        if (!tu_small() || (t == 1 && f32))
            assert_int_equal(counted_gemm(ctx, q, dt, m, t, e + 4, e + 8, kk + 3, 1.0, 0.0, 0), t == 1 ? kk : 0);
    }
    if (!tu_small())
        check_gemm(ctx, q, dt, CLRT_NO_TRANS, CLRT_NO_TRANS, 2 * e + 7, e + 9, 131, 1.0, 0.0, 7);
}

/* add with the GPU's 16-byte vectors (params), on a length no vector divides */
static void shipped_add(clrt_context *ctx, clrt_queue *q, clrt_dtype dt, const char *params, const char *name)
{
    TU_OK(clrt_tune_override(ctx, "add", dt, params));
    const size_t n = tu_small() ? 1031 : 100003;
    const size_t es = tu_dtype_size(dt);
    unsigned char *ha = malloc(n * es), *hb = malloc(n * es), *hc = malloc(n * es);
    assert_true(ha && hb && hc);
    clrt__ref_fill(ha, dt, n, 3);
    clrt__ref_fill(hb, dt, n, 4);
    tu_device_add(ctx, q, dt, hc, ha, hb, n);
    const int dbl = dt == CLRT_FLOAT64;
    for (size_t i = 0; i < n; i++) {
        double want = dbl ? ((double *)ha)[i] + ((double *)hb)[i] : (double)(float)(((float *)ha)[i] + ((float *)hb)[i]);
        double got = dbl ? ((double *)hc)[i] : (double)((float *)hc)[i];
        if (got != want)
            fail_msg("%s add[%zu] = %g, want %g", name, i, got, want);
    }
    tu_assert_ran(ctx, "add", dt, params);
    TU_FREE_ALL(ha, hb, hc);
}

static void gemm_shipped_gpu_defaults(void **state)
{
    (void)state;
    for (size_t g = 0; g < sizeof gpu_classes / sizeof gpu_classes[0]; g++) {
        const clrt__device_facts f = tu_fake_gpu(gpu_classes[g].device);
        for (int d = 0; d < tu_n_dtypes(); d++) {
            const clrt_dtype dt = tu_dtype_at(d);
            clrt_queue *q;
            clrt_context *ctx = tu_fresh_context(&q);
            char mm[256], add[256];
            const clrt__matmul_params m = shipped_matmul(ctx, &gpu_classes[g], dt, mm, sizeof mm);
            if (!m.use_local) {
                assert_int_not_equal(gpu_classes[g].device, TU_GPU_NVIDIA); /* theirs fit everywhere */
                assert_int_not_equal(gpu_classes[g].device, TU_GPU_AMD);
                clrt_queue_destroy(q);
                clrt_context_destroy(ctx);
                continue;
            }
            clrt__pvals p;
            clrt__k_elementwise.defaults(&f, tu_dtype_size(dt), &p);
            assert_int_equal(clrt__params_text(&clrt__k_elementwise, &p, add, sizeof add), 0);
            print_message("%s %s: matmul %s; add %s\n", f.name, tu_dtype_name(dt), mm, add);
            TU_OK(clrt_tune_override(ctx, "matmul", dt, mm));
            shipped_gemm_shapes(ctx, q, dt, &m);
            tu_assert_ran(ctx, "matmul", dt, mm);
            shipped_add(ctx, q, dt, add, f.name);
            clrt_queue_destroy(q);
            clrt_context_destroy(ctx);
        }
    }
}

/* The GPU variant's rule for k splits (ksplit = 1): products of fewer groups than
 * the device has compute units, as many splits as make two groups per unit, each at
 * least 8 k tiles, at most 64. */
static void gemm_k_split_rule(void **state)
{
    (void)state;
    clrt__matmul_params r = {.use_local = 1, .tm = 8, .tn = 8, .tk = 8, .wgx = 16, .wgy = 16, .vw = 4, .ksplit = 1};
    clrt__device_facts f;
    memset(&f, 0, sizeof f);
    f.compute_units = 132; /* an H100 SXM's, an H200's */
    assert_int_equal(clrt__matmul_splits(&r, &f, 20, 25, 36864), 64); /* conv1's weight gradient, batch 64 */
    assert_int_equal(clrt__matmul_splits(&r, &f, 50, 500, 4096), 64); /* 4 groups: 66 wanted, 64 tiles */
    assert_int_equal(clrt__matmul_splits(&r, &f, 64, 10, 500), 7);    /* one group, 7 x 64 of k */
    assert_int_equal(clrt__matmul_splits(&r, &f, 1024, 1024, 1024), 5); /* 64 groups */
    assert_int_equal(clrt__matmul_splits(&r, &f, 2048, 2048, 2048), 1); /* 256 groups fill it */
    assert_int_equal(clrt__matmul_splits(&r, &f, 20, 25, 127), 1);      /* less than two splits of 64 */
    r.ksplit = 3;
    assert_int_equal(clrt__matmul_splits(&r, &f, 2048, 2048, 2048), 3);
    r.ksplit = 0;
    assert_int_equal(clrt__matmul_splits(&r, &f, 20, 25, 36864), 1);
    r.ksplit = 1;
    r.use_local = 0;
    assert_int_equal(clrt__matmul_splits(&r, &f, 20, 25, 36864), 1);
}

/* The launches a product in k splits takes (gemm.c's gemm_split): matmul_fast for the
 * whole splits where it takes them, with matmul for a short last one, else matmul for
 * all; then the sum. Plain operands or aligned views (views 0 or 15), as counted_gemm. */
static size_t split_launches(const clrt__matmul_params *m, int t, size_t M, size_t N, size_t K, unsigned views)
{
    const int ta = t & 1, tb = t >> 1;
    clrt__device_facts f;
    memset(&f, 0, sizeof f); /* ksplit >= 2: the device does not matter */
    const size_t splits = clrt__matmul_splits(m, &f, M, N, K);
    assert_true(splits >= 2);
    const size_t step = 2 * m->tk, kc = clrt__ceil_div(clrt__ceil_div(K, splits), step) * step;
    const size_t pad = views ? 8 : 0, lda = (ta ? M : K) + pad, ldb = (tb ? K : N) + pad;
    const size_t kw = K / kc * kc; /* the whole splits' k */
    const int fast = clrt__matmul_fast_k(m, ta, tb, M, N, kw, views ? 2 * lda + 4 : 0, lda, views ? 2 * ldb + 4 : 0,
                                         ldb) == kw;
    return (fast ? 1 + (K % kc != 0) : 1) + 1;
}

/* Products in k splits side by side (ksplit forced), into the queue's scratch and
 * summed by matmul_sum, on every driver, every transpose: matmul_fast's whole splits
 * with matmul for a short last one, or matmul for all (unaligned operands), alpha and
 * beta (beta = 0: C's NaN never read), views; the launches counted (partials, and
 * one sum). */
static void gemm_k_splits(void **state)
{
    (void)state;
    static const char *const variants[] = {
        "use_local=1 tm=2 tn=4 tk=4 wgx=4 wgy=4 vw=2 ksplit=3",
        "use_local=1 tm=4 tn=4 tk=8 wgx=4 wgy=2 vw=4 ksplit=5",
    };
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        clrt_queue *q;
        clrt_context *ctx = override_context(&q, variants[v]);
        clrt__pvals pv;
        memset(&pv, 0, sizeof pv);
        char why[256];
        assert_int_equal(clrt__params_parse(&clrt__k_matmul, variants[v], &pv, why, sizeof why), 0);
        const clrt__matmul_params m = clrt__mm(&pv);
        const size_t step = 2 * m.tk, K0 = 8 * step * (tu_small() ? 1 : 3);
        for (int t = 0; t < 4; t++) {
            const size_t K[2] = {K0, K0 + step + 3}; /* whole splits; a short last one */
            for (int i = 0; i < 2; i++) {
                clrt__debug_fault_clear();
                check_gemm(ctx, q, CLRT_FLOAT32, trans[t & 1], trans[t >> 1], 12, 16, K[i], i ? -1.5 : 1.0,
                           i ? 0.5 : 0.0, i ? 15 : 0);
                assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL),
                                 split_launches(&m, t, 12, 16, K[i], i ? 15 : 0));
                check_gemm(ctx, q, CLRT_FLOAT32, trans[t & 1], trans[t >> 1], 9, 7, K[i] + 1, 2.0, -1.0, 5);
            }
        }
        tu_assert_ran(ctx, "matmul", CLRT_FLOAT32, variants[v]);
        if (tu_fx->dev.has_fp64) {
            TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT64, variants[v]));
            check_gemm(ctx, q, CLRT_FLOAT64, CLRT_TRANS, CLRT_NO_TRANS, 12, 16, K0 + 5, 1.0, 0.25, 0);
        }
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
    }
}

/* Long k on every driver: Mesa's llvmpipe silently ends a work-item's loops
 * after 65535 iterations in all (src/kernels/matmul.c), which stopped these products
 * after 1282 (8 x 16 tiles), 2414 (dot form, 4 x 16) .. 27594 (the emulator's
 * defaults) k steps; clrt runs them there as a sum of k slices. Both variants,
 * packed operands, the dot form and the device's own defaults, every transpose
 * pair, views, alpha and beta (beta = 0: NaN in C must not leak into the later
 * slices). Oclgrind (small) runs short k: it would take minutes. */
static void gemm_long_k(void **state)
{
    (void)state;
    static const struct {
        const char *params; /* NULL: the device's defaults */
        size_t M, N, K, K_small;
        int all_trans;
    } cases[] = {
        {"use_local=0 tm=8 tn=16 tk=64 wgx=1 wgy=1 vw=4 pack=0 pack_a=0 dot=0", 9, 17, 5003, 301, 1},
        {"use_local=0 tm=4 tn=8 tk=16 wgx=2 wgy=2 vw=4 pack=2 pack_a=2 tkp=8", 33, 40, 3001, 67, 1},
        {"use_local=0 tm=4 tn=16 tk=64 wgx=1 wgy=1 vw=4 dot=2", 5, 18, 12007, 131, 0},
        {"use_local=1 tm=4 tn=4 tk=16 wgx=4 wgy=4 vw=4 pack=0", 17, 19, 9001, 97, 1},
        {NULL, 5, 6, 30011, 203, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        clrt_queue *q;
        clrt_context *ctx = tu_fresh_context(&q);
        if (cases[i].params)
            TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT32, cases[i].params));
        const size_t K = tu_small() ? cases[i].K_small : cases[i].K;
        for (int t = 0; t < 4; t++) {
            if (!cases[i].all_trans && t != 2) /* the dot form is A B^T */
                continue;
            check_gemm(ctx, q, CLRT_FLOAT32, trans[t & 1], trans[t >> 1], cases[i].M, cases[i].N, K, 1.0, 0.0, 0);
            check_gemm(ctx, q, CLRT_FLOAT32, trans[t & 1], trans[t >> 1], cases[i].M, cases[i].N, K, -1.5, 0.25, 7);
        }
        if (cases[i].params)
            tu_assert_ran(ctx, "matmul", CLRT_FLOAT32, cases[i].params);
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
    }
}

/* clrt_matmul is gemm(N, N, 1, 0): on views too, and c's old NaN never leaks. */
static void matmul_is_gemm(void **state)
{
    (void)state;
    enum { M = 9, N = 10, K = 11 };
    float a[M * K], b[K * N], c[M * N], g[M * N];
    clrt__ref_fill(a, CLRT_FLOAT32, M * K, 1);
    clrt__ref_fill(b, CLRT_FLOAT32, K * N, 2);
    operand oa, ob, oc, og;
    float nan[M * N];
    for (size_t i = 0; i < M * N; i++)
        nan[i] = NAN;
    operand_make(&oa, tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, M, K, a, 1, 1.0);
    operand_make(&ob, tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, K, N, b, 1, 2.0);
    operand_make(&oc, tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, M, N, nan, 1, 3.0);
    operand_make(&og, tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, M, N, nan, 0, 0.0);
    TU_OK(clrt_matmul(tu_fx->q, oc.buf, oa.buf, ob.buf));
    TU_OK(clrt_gemm(tu_fx->q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.0, oa.buf, ob.buf, 0.0, og.buf));
    TU_OK(clrt_buffer_read(tu_fx->q, oc.buf, c, M * N));
    TU_OK(clrt_buffer_read(tu_fx->q, og.buf, g, M * N));
    assert_memory_equal(c, g, sizeof c);
    tu_assert_matmul(c, a, b, CLRT_FLOAT32, M, N, K);
    operand_check_outside(&oc, tu_fx->q, CLRT_FLOAT32, "c");
    operand_free(&oa);
    operand_free(&ob);
    operand_free(&oc);
    operand_free(&og);
}

/* NaN and infinite alpha propagate as BLAS does; a zero beta still ignores c. */
static void special_scalars(void **state)
{
    (void)state;
    enum { M = 3, N = 4, K = 5 };
    float a[M * K], b[K * N], c[M * N];
    clrt__ref_fill(a, CLRT_FLOAT32, M * K, 3);
    clrt__ref_fill(b, CLRT_FLOAT32, K * N, 4);
    clrt_buffer *da = tu_buffer(CLRT_FLOAT32, M, K), *db = tu_buffer(CLRT_FLOAT32, K, N);
    clrt_buffer *dc = tu_buffer(CLRT_FLOAT32, M, N);
    TU_OK(clrt_buffer_write(tu_fx->q, da, a, M * K));
    TU_OK(clrt_buffer_write(tu_fx->q, db, b, K * N));
    TU_OK(clrt_gemm(tu_fx->q, CLRT_NO_TRANS, CLRT_NO_TRANS, NAN, da, db, 0.0, dc));
    TU_OK(clrt_buffer_read(tu_fx->q, dc, c, M * N));
    for (size_t i = 0; i < M * N; i++)
        assert_true(isnan(c[i]));
    /* alpha = inf: every sum here is nonzero, so +-inf */
    TU_OK(clrt_gemm(tu_fx->q, CLRT_NO_TRANS, CLRT_NO_TRANS, INFINITY, da, db, 0.0, dc));
    TU_OK(clrt_buffer_read(tu_fx->q, dc, c, M * N));
    for (size_t i = 0; i < M * N; i++)
        assert_true(isinf(c[i]));
    /* beta = NaN: not 0, so c is read and the NaN propagates */
    TU_OK(clrt_gemm(tu_fx->q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.0, da, db, NAN, dc));
    TU_OK(clrt_buffer_read(tu_fx->q, dc, c, M * N));
    for (size_t i = 0; i < M * N; i++)
        assert_true(isnan(c[i]));
    TU_DESTROY_BUFFERS(da, db, dc);
}

static void refusals(void **state)
{
    (void)state;
    clrt_buffer *f64 = NULL, *parent, *v1, *v2, *v3;
    clrt_buffer *a = tu_buffer(CLRT_FLOAT32, 4, 5), *b = tu_buffer(CLRT_FLOAT32, 5, 3);
    clrt_buffer *c = tu_buffer(CLRT_FLOAT32, 4, 3), *i32 = tu_buffer(CLRT_INT32, 4, 3);
    clrt_queue *q = tu_fx->q;
    TU_REFUSED(CLRT_EINVAL, "unknown transpose", clrt_gemm(q, (clrt_trans)2, CLRT_NO_TRANS, 1, a, b, 0, c));
    TU_REFUSED(CLRT_EINVAL, "unknown transpose", clrt_gemm(q, CLRT_NO_TRANS, (clrt_trans)-1, 1, a, b, 0, c));
    TU_REFUSED(CLRT_EINVAL, "is NULL", clrt_gemm(NULL, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, b, 0, c));
    TU_REFUSED(CLRT_EINVAL, "buffer a is NULL", clrt_gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, NULL, b, 0, c));
    TU_REFUSED(CLRT_EINVAL, "buffer c is NULL", clrt_gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, b, 0, NULL));
    /* shapes under each transpose */
    TU_REFUSED(CLRT_ESHAPE, "need op(a) MxK", clrt_gemm(q, CLRT_TRANS, CLRT_NO_TRANS, 1, a, b, 0, c));
    TU_REFUSED(CLRT_ESHAPE, "need op(a) MxK", clrt_gemm(q, CLRT_NO_TRANS, CLRT_TRANS, 1, a, b, 0, c));
    TU_REFUSED(CLRT_ESHAPE, "need op(a) MxK", clrt_gemm(q, CLRT_TRANS, CLRT_TRANS, 1, a, b, 0, c));
    /* int32: not for products; mixed dtypes: a shape error */
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, b, 0, i32));
    clrt_buffer *ia, *ib;
    TU_OK(clrt_buffer_create(&ia, tu_fx->ctx, CLRT_INT32, 4, 5));
    TU_OK(clrt_buffer_create(&ib, tu_fx->ctx, CLRT_INT32, 5, 3));
    TU_REFUSED(CLRT_EUNSUPPORTED, "int32", clrt_gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, ia, ib, 0, i32));
    TU_REFUSED(CLRT_EUNSUPPORTED, "int32", clrt_matmul(q, i32, ia, ib));
    if (tu_fx->dev.has_fp64) {
        f64 = tu_buffer(CLRT_FLOAT64, 4, 3);
        TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, b, 0, f64));
    }
    /* overlap: c a window that shares memory with a or b, in any part */
    TU_OK(clrt_buffer_create(&parent, tu_fx->ctx, CLRT_FLOAT32, 10, 10));
    TU_OK(clrt_buffer_view(&v1, parent, 0, 0, 4, 5));  /* a: rows 0-3, cols 0-4 */
    TU_OK(clrt_buffer_view(&v2, parent, 3, 4, 4, 3));  /* c: rows 3-6, cols 4-6: shares (3, 4) */
    TU_OK(clrt_buffer_view(&v3, parent, 4, 5, 5, 3));  /* b: rows 4-8, cols 5-7 */
    TU_REFUSED(CLRT_EINVAL, "shares memory with a", clrt_gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, v1, b, 0, v2));
    TU_REFUSED(CLRT_EINVAL, "shares memory with b", clrt_gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, v3, 0, v2));
    TU_REFUSED(CLRT_EINVAL, "shares memory", clrt_matmul(q, v2, v1, v3));
    /* disjoint windows of one parent are fine: c rows 4-7, a rows 0-3 */
    clrt_buffer *v4;
    TU_OK(clrt_buffer_view(&v4, parent, 4, 0, 4, 3));
    TU_OK(clrt_gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, v1, b, 0, v4));
    /* another context's operand */
    clrt_context *other = tu_context_on(&tu_fx->dev);
    clrt_buffer *ob;
    TU_OK(clrt_buffer_create(&ob, other, CLRT_FLOAT32, 5, 3));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, a, ob, 0, c));
    clrt_buffer_destroy(ob);
    clrt_context_destroy(other);
    TU_OK(clrt_queue_finish(q));
    TU_DESTROY_BUFFERS(a, b, c, i32, f64, parent, v1, v2, v3, v4, ia, ib);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_FIXTURE_TEST(gemm_f32),
        TU_FIXTURE_TEST(gemm_f64),
        TU_FIXTURE_TEST(gemm_every_variant),
        TU_FIXTURE_TEST(gemm_pairs_in_each_build),
        TU_FIXTURE_TEST(gemm_packed_operands),
        TU_FIXTURE_TEST(gemm_packed_launches),
        TU_FIXTURE_TEST(gemm_dot_form),
        TU_FIXTURE_TEST(gemm_narrow_variant),
        TU_FIXTURE_TEST(gemm_fitted_rows),
        TU_FIXTURE_TEST(gemm_shipped_gpu_defaults),
        TU_FIXTURE_TEST(gemm_k_split_rule),
        TU_FIXTURE_TEST(gemm_k_splits),
        TU_FIXTURE_TEST(gemm_long_k),
        TU_FIXTURE_TEST(matmul_is_gemm),
        TU_FIXTURE_TEST(special_scalars),
        TU_FIXTURE_TEST(refusals),
    };
    return TU_RUN_FIXTURE_SUITE(tests);
}
