/* clrt_reduce and clrt_argmax_rows against a double-precision host reference:
 * every op and axis at odd and non-square shapes, on views at odd offsets (the
 * input's parent holds NaN outside the window, so a read outside shows; the
 * output's parent must keep its values) and on outputs with a canary after
 * them; every launch mode forced through the tuning API; NaN, infinities and
 * -0; the argmax tie and NaN rules; every refusal, with nothing left alive.
 *
 * The bound on a sum: the kernel adds at most `items` values in sequence per
 * lane, folds vw lanes and wg work-items by halving trees (or adds `crows`
 * rows in sequence), and each level divides the count by at least
 * min(items*vw, crows); so every element passes through at most
 * D = (items + 1 + log2 vw + log2 wg + crows) * (2 + log(n) / log(min(items*vw, crows)))
 * roundings, and |sum - exact| <= D * eps * sum |x| (to first order; eps = 2u).
 * D grows with log n: a sum in sequence breaks it at the large sizes (10^6
 * values near 0.1 added in sequence in float32 are 1e-2 off, against a bound
 * of 3.5e-5 with the CPU defaults), and the exact integer sums catch a lost
 * or doubled element that a large sum's bound would hide. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fault_sweep.h"
#include "common/test_util.h"

#include "base/debug.h"

/* ---- operands: plain buffers (outputs with a canary after them), or windows
 * at (2, 3) of a parent 5 rows and 7 columns larger */

enum { CANARY = 16 };

typedef struct win {
    clrt_buffer *buf, *parent;
    clrt_dtype dt;
    size_t rows, cols, prow, pcol;
    double outside; /* the parent's elements outside the window */
    int canary;
} win;

static void win_make(win *w, clrt_context *ctx, clrt_queue *q, clrt_dtype dt, size_t rows, size_t cols,
                     const void *host, int view, int canary, double outside)
{
    memset(w, 0, sizeof *w);
    w->dt = dt;
    w->rows = rows;
    w->cols = cols;
    w->outside = outside;
    if (!view) {
        if (canary) {
            w->buf = tu_padded_buffer(ctx, q, dt, rows, cols, CANARY);
            w->canary = 1;
        } else {
            TU_OK(clrt_buffer_create(&w->buf, ctx, dt, rows, cols));
        }
        if (host)
            TU_OK(clrt_buffer_write(q, w->buf, host, rows * cols));
        return;
    }
    w->prow = rows + 5;
    w->pcol = cols + 7;
    const size_t n = w->prow * w->pcol;
    void *fill = malloc(n * tu_dtype_size(dt));
    assert_non_null(fill);
    for (size_t i = 0; i < n; i++)
        tu_put(fill, dt, i, outside);
    TU_OK(clrt_buffer_create(&w->parent, ctx, dt, w->prow, w->pcol));
    TU_OK(clrt_buffer_write(q, w->parent, fill, n));
    free(fill);
    TU_OK(clrt_buffer_view(&w->buf, w->parent, 2, 3, rows, cols));
    if (host)
        TU_OK(clrt_buffer_write(q, w->buf, host, rows * cols));
}

/* An output's surroundings are as they were: the canary, or the parent outside the window. */
static void win_check_around(const win *w, clrt_queue *q, const char *what)
{
    if (w->canary && !tu_canary_intact(q, w->buf, CANARY))
        fail_msg("%s: the canary after the %zux%zu output was overwritten", what, w->rows, w->cols);
    if (!w->parent)
        return;
    const size_t n = w->prow * w->pcol;
    void *all = malloc(n * tu_dtype_size(w->dt));
    assert_non_null(all);
    TU_OK(clrt_buffer_read(q, w->parent, all, n));
    const double want = w->dt == CLRT_FLOAT64 ? w->outside : (double)(float)w->outside;
    for (size_t r = 0; r < w->prow; r++)
        for (size_t c = 0; c < w->pcol; c++) {
            const int inside = r >= 2 && r < 2 + w->rows && c >= 3 && c < 3 + w->cols;
            if (!inside && tu_get(all, w->dt, r * w->pcol + c) != want)
                fail_msg("%s: the parent's element (%zu, %zu) outside the %zux%zu window changed", what, r, c,
                         w->rows, w->cols);
        }
    free(all);
}

static void win_free(win *w)
{
    clrt_buffer_destroy(w->buf);
    clrt_buffer_destroy(w->parent);
}

/* ---- the reference and the bound */

typedef struct rparams {
    long items, vw, wg, crows;
} rparams;

static rparams params_of(clrt_context *ctx, clrt_dtype dt)
{
    char now[256];
    TU_OK(clrt_tune_current(ctx, "reduce", dt, now, sizeof now, NULL));
    rparams p = {tu_param(now, "items"), tu_param(now, "vw"), tu_param(now, "wg"), tu_param(now, "crows")};
    assert_true(p.items >= 1 && p.vw >= 1 && p.wg >= 1 && p.crows >= 2);
    return p;
}

/* The depth bound D of a sum of n values (see the top of this file). */
static double depth(const rparams *p, size_t n)
{
    const double per = (double)(p->items + 1 + p->crows) + log2((double)p->vw) + log2((double)p->wg);
    const double shrink = fmin((double)(p->items * p->vw), (double)p->crows);
    return per * (2.0 + ceil(log((double)n) / log(shrink)));
}

static const char *op_name(clrt_reduce_op op)
{
    return op == CLRT_REDUCE_SUM ? "sum" : op == CLRT_REDUCE_MAX ? "max" : "min";
}
static const char *axis_name(clrt_axis axis)
{
    return axis == CLRT_ALL ? "all" : axis == CLRT_EACH_ROW ? "rows" : "cols";
}

/* Output i of op over axis of a (M x N, dense): the value, and (sums) sum |x|
 * and the count. max/min propagate NaN as the kernel does. */
static double reference(const void *a, clrt_dtype dt, size_t M, size_t N, clrt_reduce_op op, clrt_axis axis,
                        size_t i, double *mag, size_t *count)
{
    size_t r0 = 0, r1 = M, c0 = 0, c1 = N;
    if (axis == CLRT_EACH_ROW)
        r0 = i, r1 = i + 1;
    else if (axis == CLRT_EACH_COL)
        c0 = i, c1 = i + 1;
    double v = op == CLRT_REDUCE_SUM ? 0 : op == CLRT_REDUCE_MAX ? -INFINITY : INFINITY;
    *mag = 0;
    *count = (r1 - r0) * (c1 - c0);
    for (size_t r = r0; r < r1; r++)
        for (size_t c = c0; c < c1; c++) {
            const double x = tu_get(a, dt, r * N + c);
            if (op == CLRT_REDUCE_SUM) {
                v += x;
                *mag += fabs(x);
            } else if (isnan(x) || isnan(v)) {
                v = NAN;
            } else {
                v = op == CLRT_REDUCE_MAX ? fmax(v, x) : fmin(v, x);
            }
        }
    return v;
}

/* One reduction on the device, checked against the host. views: bit 0 a,
 * bit 1 out are windows of larger parents (else out has a canary after it). */
static void check_reduce_in(clrt_context *ctx, clrt_queue *q, clrt_dtype dt, clrt_reduce_op op, clrt_axis axis,
                            const void *a, size_t M, size_t N, unsigned views, int exact)
{
    const size_t orows = axis == CLRT_EACH_ROW ? M : 1, ocols = axis == CLRT_EACH_COL ? N : 1;
    const size_t nout = orows * ocols;
    void *got = malloc(nout * tu_dtype_size(dt));
    assert_non_null(got);
    win wa, wo;
    /* NaN around the input: a read outside the window makes a result NaN */
    win_make(&wa, ctx, q, dt, M, N, a, views & 1, 0, NAN);
    win_make(&wo, ctx, q, dt, orows, ocols, NULL, views & 2, 1, -5.25);
    TU_OK(clrt_reduce(q, op, axis, wo.buf, wa.buf));
    TU_OK(clrt_buffer_read(q, wo.buf, got, nout));
    const rparams p = params_of(ctx, dt);
    const double eps = dt == CLRT_FLOAT64 ? 2.220446049250313e-16 : 1.1920928955078125e-07;
    size_t bad = 0;
    for (size_t i = 0; i < nout; i++) {
        double mag;
        size_t count;
        const double want = reference(a, dt, M, N, op, axis, i, &mag, &count);
        const double v = tu_get(got, dt, i);
        int ok;
        if (isnan(want))
            ok = isnan(v);
        else if (op != CLRT_REDUCE_SUM || isinf(want) || exact)
            ok = v == want; /* max, min, and sums that are exact in any order */
        else
            ok = fabs(v - want) <= depth(&p, count) * eps * mag + 1e-300;
        if (!ok && bad++ < 3)
            print_message("  out[%zu] = %.17g, want %.17g (bound %.3g)\n", i, v, want, depth(&p, count) * eps * mag);
    }
    if (bad)
        fail_msg("%s %s %s of %zux%zu (views %u): %zu of %zu wrong", tu_dtype_name(dt), op_name(op),
                 axis_name(axis), M, N, views, bad, nout);
    win_check_around(&wo, q, "out");
    win_free(&wa);
    win_free(&wo);
    free(got);
}

static void check_reduce(clrt_context *ctx, clrt_queue *q, clrt_dtype dt, clrt_reduce_op op, clrt_axis axis,
                         const void *a, size_t M, size_t N, unsigned views)
{
    check_reduce_in(ctx, q, dt, op, axis, a, M, N, views, 0);
}

/* Shapes: 1, 7, 17, 65, 127, 1031, non-square both ways; small under Oclgrind. */
static const size_t shapes_full[][2] = {{1, 1},    {1, 7},    {7, 1},     {7, 17},   {17, 7},    {65, 127},
                                        {127, 65}, {1, 1031}, {1031, 1},  {65, 1031}, {1031, 17}};
static const size_t shapes_small[][2] = {{1, 1}, {1, 7}, {7, 1}, {7, 17}, {17, 7}, {5, 65}, {65, 3}};

static void every_op_and_axis(clrt_context *ctx, clrt_queue *q, clrt_dtype dt, const size_t (*shapes)[2],
                              size_t nshapes, int views)
{
    for (size_t s = 0; s < nshapes; s++) {
        const size_t M = shapes[s][0], N = shapes[s][1];
        void *a = malloc(M * N * tu_dtype_size(dt));
        assert_non_null(a);
        clrt__ref_fill(a, dt, M * N, (unsigned)(M * 31 + N));
        for (int op = CLRT_REDUCE_SUM; op <= CLRT_REDUCE_MIN; op++)
            for (int axis = CLRT_ALL; axis <= CLRT_EACH_COL; axis++) {
                check_reduce(ctx, q, dt, (clrt_reduce_op)op, (clrt_axis)axis, a, M, N, 0);
                if (views)
                    check_reduce(ctx, q, dt, (clrt_reduce_op)op, (clrt_axis)axis, a, M, N,
                                 1u + (unsigned)(op + axis + (int)s) % 3u);
            }
        free(a);
    }
}

static void run_dtype(clrt_dtype dt)
{
    if (tu_small())
        every_op_and_axis(tu_fx->ctx, tu_fx->q, dt, shapes_small, sizeof shapes_small / sizeof *shapes_small, 1);
    else
        every_op_and_axis(tu_fx->ctx, tu_fx->q, dt, shapes_full, sizeof shapes_full / sizeof *shapes_full, 1);
}

static void reduce_f32(void **state)
{
    (void)state;
    run_dtype(CLRT_FLOAT32);
}

static void reduce_f64(void **state)
{
    (void)state;
    if (!tu_fx->dev.has_fp64) {
        print_message("device has no fp64: CLRT_FLOAT64 is refused (tested in device_api)\n");
        skip();
    }
    run_dtype(CLRT_FLOAT64);
}

/* 10^6 elements (not on emulators): values near 0.1, whose sum in sequence
 * drifts far past the bound (each addition to a large partial sum rounds the
 * same way); one long row, a square, one long column. */
static void reduce_large(void **state)
{
    (void)state;
    if (tu_small()) {
        print_message("large sizes are not run under an emulator\n");
        skip();
    }
    static const size_t shapes[][2] = {{1, 1000000}, {1000, 1000}, {1000000, 1}};
    for (size_t s = 0; s < 3; s++) {
        const size_t M = shapes[s][0], N = shapes[s][1];
        float *a = malloc(M * N * sizeof *a);
        assert_non_null(a);
        clrt__ref_fill(a, CLRT_FLOAT32, M * N, 77);
        for (size_t i = 0; i < M * N; i++)
            a[i] = 0.1f + 0.0001f * a[i];
        for (int axis = CLRT_ALL; axis <= CLRT_EACH_COL; axis++) {
            check_reduce(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, CLRT_REDUCE_SUM, (clrt_axis)axis, a, M, N, s == 1 ? 1 : 0);
            check_reduce(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, CLRT_REDUCE_MAX, (clrt_axis)axis, a, M, N, 0);
        }
        free(a);
    }
}

/* Small integers (-16..16): every partial sum of up to 10^6 of them is exact
 * in float32, so each sum must equal the host's exactly. A lost or doubled
 * element shows here even where a large sum's rounding bound would hide it. */
static void reduce_exact_integers(void **state)
{
    (void)state;
    static const size_t large[][2] = {{1, 1000000}, {1000, 1000}, {1000000, 1}, {999, 1001}};
    const size_t(*shapes)[2] = tu_small() ? shapes_small : shapes_full;
    const size_t n = tu_small() ? sizeof shapes_small / sizeof *shapes_small : sizeof shapes_full / sizeof *shapes_full;
    for (size_t s = 0; s < n + (tu_small() ? 0 : 4); s++) {
        const size_t M = s < n ? shapes[s][0] : large[s - n][0], N = s < n ? shapes[s][1] : large[s - n][1];
        float *a = malloc(M * N * sizeof *a);
        assert_non_null(a);
        clrt__ref_fill(a, CLRT_FLOAT32, M * N, (unsigned)(M + N));
        for (size_t i = 0; i < M * N; i++)
            a[i] = floorf(a[i] * 16.5f);
        for (int axis = CLRT_ALL; axis <= CLRT_EACH_COL; axis++)
            check_reduce_in(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, CLRT_REDUCE_SUM, (clrt_axis)axis, a, M, N,
                            (unsigned)(s + (size_t)axis) % 4u, 1);
        free(a);
    }
}

/* Of n forced variants, how many a run tries: all but the last under Oclgrind
 * (small), whose uninitialised-value check loses track of the last's 64-byte
 * vector loads. */
static size_t variants_to_run(size_t n) { return n - (tu_small() ? 1 : 0); }

/* Every launch mode (a work-item's share, a group's tree, column blocks) and
 * edge (shares and groups that do not divide a row, one work-item groups,
 * CROWS that does not divide the rows), forced through the tuning API. */
static void reduce_every_variant(void **state)
{
    (void)state;
    /* each in both builds: a program per op and mode (merged=0), one of them all (merged=1) */
    static const char *const variants[] = {
        "group_rows=0 wg=1 items=1 arg_items=3 vw=2 crows=2 merged=1",
        "group_rows=1 wg=4 items=2 arg_items=5 vw=1 crows=3 merged=0",
        "group_rows=1 wg=8 items=3 arg_items=1 vw=4 crows=5 merged=1",
        "group_rows=0 wg=16 items=2 arg_items=4 vw=8 crows=2 merged=0",
        /* 16-lane vectors: not under Oclgrind, whose uninitialised-value check
         * loses track of 64-byte vector loads */
        "group_rows=1 wg=2 items=1 arg_items=2 vw=16 crows=4 merged=1",
    };
    static const size_t shapes[][2] = {{9, 70}, {70, 9}, {1, 300}, {300, 1}, {3, 5}};
    for (size_t v = 0; v < variants_to_run(sizeof variants / sizeof *variants); v++) {
        clrt_queue *q;
        clrt_context *ctx = tu_fresh_context(&q);
        for (int d = 0; d < tu_n_dtypes(); d++) {
            const clrt_dtype dt = tu_dtype_at(d);
            tu_override(ctx, "reduce", dt, variants[v]);
            every_op_and_axis(ctx, q, dt, shapes, sizeof shapes / sizeof *shapes, d == 0);
            tu_assert_ran(ctx, "reduce", dt, variants[v]);
        }
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
    }
}

/* ---- argmax */

/* The column of each row's largest value: the first among equals, the first
 * NaN over anything (NumPy's rule). */
static int32_t argmax_ref(const void *a, clrt_dtype dt, size_t N, size_t r)
{
    size_t best = 0;
    for (size_t c = 0; c < N; c++) {
        const double x = tu_get(a, dt, r * N + c);
        if (isnan(x))
            return (int32_t)c;
        if (x > tu_get(a, dt, r * N + best))
            best = c;
    }
    return (int32_t)best;
}

static void check_argmax(clrt_context *ctx, clrt_queue *q, clrt_dtype dt, const void *a, size_t M, size_t N,
                         unsigned views)
{
    int32_t *got = malloc(M * sizeof *got);
    assert_non_null(got);
    win wa, wo;
    win_make(&wa, ctx, q, dt, M, N, a, views & 1, 0, NAN);
    /* (the parent of an int32 output holds -3: win_* write and read it as int32) */
    win_make(&wo, ctx, q, CLRT_INT32, M, 1, NULL, views & 2, 1, -3);
    TU_OK(clrt_argmax_rows(q, wo.buf, wa.buf));
    TU_OK(clrt_buffer_read(q, wo.buf, got, M));
    size_t bad = 0;
    for (size_t r = 0; r < M; r++)
        if (got[r] != argmax_ref(a, dt, N, r) && bad++ < 3)
            print_message("  row %zu: column %d, want %d\n", r, got[r], argmax_ref(a, dt, N, r));
    if (bad)
        fail_msg("argmax %s %zux%zu (views %u): %zu of %zu rows wrong", tu_dtype_name(dt), M, N,
                 views, bad, M);
    win_check_around(&wo, q, "out");
    win_free(&wa);
    win_free(&wo);
    free(got);
}

/* Rows with repeated maxima (few distinct values), NaNs and infinities in
 * some rows, a row of -inf. */
static void argmax_data(void *a, clrt_dtype dt, size_t M, size_t N, unsigned seed)
{
    clrt__ref_fill(a, dt, M * N, seed);
    for (size_t i = 0; i < M * N; i++)
        tu_put(a, dt, i, floor(tu_get(a, dt, i) * 3.0)); /* -3 .. 2: ties everywhere */
    for (size_t r = 0; r < M; r++) {
        const size_t row = r * N;
        switch (r % 7) {
        case 1: /* one NaN, late in the row */
            tu_put(a, dt, row + (N - 1) * 2 / 3, NAN);
            break;
        case 2: /* two NaNs: the first counts */
            tu_put(a, dt, row + N / 2, NAN);
            tu_put(a, dt, row + N / 5, NAN);
            break;
        case 3: /* +inf after the ordinary maxima, and again later */
            tu_put(a, dt, row + N / 3, INFINITY);
            tu_put(a, dt, row + N - 1, INFINITY);
            break;
        case 4: /* every element -inf: column 0 */
            for (size_t c = 0; c < N; c++)
                tu_put(a, dt, row + c, -INFINITY);
            break;
        case 5: /* NaN in every third column from a quarter on: each part of a tree
                 * holds some, most of them later than the first */
            for (size_t c = N / 4 + 1; c < N; c += 3)
                tu_put(a, dt, row + c, NAN);
            break;
        default:
            break;
        }
    }
}

static void argmax_rows(void **state)
{
    (void)state;
    const size_t(*shapes)[2] = tu_small() ? shapes_small : shapes_full;
    const size_t n = tu_small() ? sizeof shapes_small / sizeof *shapes_small : sizeof shapes_full / sizeof *shapes_full;
    for (int d = 0; d < tu_n_dtypes(); d++) {
        const clrt_dtype dt = tu_dtype_at(d);
        for (size_t s = 0; s < n; s++) {
            const size_t M = shapes[s][0], N = shapes[s][1];
            void *a = malloc(M * N * tu_dtype_size(dt));
            assert_non_null(a);
            argmax_data(a, dt, M, N, (unsigned)(M + 7 * N));
            check_argmax(tu_fx->ctx, tu_fx->q, dt, a, M, N, 0);
            check_argmax(tu_fx->ctx, tu_fx->q, dt, a, M, N, 3);
            free(a);
        }
    }
    /* NumPy's examples: ties give the first, NaN the first NaN */
    static const float rows[4][5] = {
        {1, 3, 3, 2, 3}, {1, NAN, 5, NAN, 0}, {-INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY}, {0, -0.0f, 0, 0, 0}};
    static const int32_t want[4] = {1, 1, 0, 0};
    clrt_buffer *a, *out;
    int32_t got[4];
    TU_OK(clrt_buffer_create(&a, tu_fx->ctx, CLRT_FLOAT32, 4, 5));
    TU_OK(clrt_buffer_create(&out, tu_fx->ctx, CLRT_INT32, 4, 1));
    TU_OK(clrt_buffer_write(tu_fx->q, a, rows, 20));
    TU_OK(clrt_argmax_rows(tu_fx->q, out, a));
    TU_OK(clrt_buffer_read(tu_fx->q, out, got, 4));
    assert_memory_equal(got, want, sizeof want);
    clrt_buffer_destroy(a);
    clrt_buffer_destroy(out);
}

/* Long rows under every launch mode and vector width (the lanes' halving tree
 * at each width), float32 and float64 (columns kept as int and long lanes), and
 * the levels of partial columns. */
static void argmax_every_variant(void **state)
{
    (void)state;
    static const char *const variants[] = {"group_rows=0 wg=2 items=1 vw=2 merged=0",
                                           "group_rows=1 wg=4 items=2 vw=1 merged=1",
                                           "group_rows=1 wg=8 items=1 vw=4 merged=0",
                                           "group_rows=0 wg=4 items=2 vw=8 merged=1",
                                           /* 16 lanes: not under Oclgrind (see reduce_every_variant) */
                                           "group_rows=1 wg=2 items=3 vw=16 merged=0"};
    enum { M = 13, N = 300 };
    double a[M * N];
    for (size_t v = 0; v < variants_to_run(sizeof variants / sizeof *variants); v++) {
        clrt_queue *q;
        clrt_context *ctx = tu_fresh_context(&q);
        for (int d = 0; d < tu_n_dtypes(); d++) {
            const clrt_dtype dt = tu_dtype_at(d);
            argmax_data(a, dt, M, N, 5 + (unsigned)v);
            tu_override(ctx, "reduce", dt, variants[v]);
            check_argmax(ctx, q, dt, a, M, N, 0);
            check_argmax(ctx, q, dt, a, M, N, 1);
            check_argmax(ctx, q, dt, a, 40, 7, 2); /* rows shorter than a vector */
        }
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
    }
}

/* merged=1 (the CPUs' default) builds one program for every op, axis and mode a
 * context runs, and argmax; merged=0 one per op and mode. */
static void reduce_programs_built(void **state)
{
    (void)state;
    static const size_t shapes[][2] = {{9, 70}, {70, 9}, {1, 300}};
    double a[4 * 50];
    for (int merged = 0; merged <= 1; merged++) {
        clrt_queue *q;
        clrt_context *ctx = tu_fresh_context(&q);
        const long before = clrt__debug_live(CLRT__LIVE_PROGRAM); /* the override builds its first */
        tu_override(ctx, "reduce", CLRT_FLOAT32, merged ? "group_rows=1 wg=4 merged=1" : "group_rows=1 wg=4 merged=0");
        every_op_and_axis(ctx, q, CLRT_FLOAT32, shapes, sizeof shapes / sizeof *shapes, 0);
        argmax_data(a, CLRT_FLOAT32, 4, 50, 3);
        check_argmax(ctx, q, CLRT_FLOAT32, a, 4, 50, 0);
        const long built = clrt__debug_live(CLRT__LIVE_PROGRAM) - before;
        if (merged ? built != 1 : built < 6)
            fail_msg("merged=%d: %ld programs built for every op and mode, expected %s", merged, built,
                     merged ? "1" : "one per op and mode (at least 6)");
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
    }
}

/* ---- special values */

static void special_values(void **state)
{
    (void)state;
    enum { M = 6, N = 40 };
    float a[M * N];
    clrt__ref_fill(a, CLRT_FLOAT32, M * N, 9);
    a[0 * N + 37] = NAN;                            /* row 0: NaN */
    a[1 * N + 3] = INFINITY;                        /* row 1: +inf */
    a[2 * N + 5] = -INFINITY;                       /* row 2: -inf */
    a[3 * N + 1] = INFINITY, a[3 * N + 30] = -INFINITY; /* row 3: inf - inf */
    for (int c = 0; c < N; c++)                     /* row 4: -0 everywhere */
        a[4 * N + c] = -0.0f;
    for (int op = CLRT_REDUCE_SUM; op <= CLRT_REDUCE_MIN; op++)
        for (int axis = CLRT_ALL; axis <= CLRT_EACH_COL; axis++)
            check_reduce(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, (clrt_reduce_op)op, (clrt_axis)axis, a, M, N, 0);
    /* each row's sum: NaN, +inf, -inf, NaN, -0 (the sign kept), finite */
    clrt_buffer *da, *out;
    float s[M];
    TU_OK(clrt_buffer_create(&da, tu_fx->ctx, CLRT_FLOAT32, M, N));
    TU_OK(clrt_buffer_create(&out, tu_fx->ctx, CLRT_FLOAT32, M, 1));
    TU_OK(clrt_buffer_write(tu_fx->q, da, a, M * N));
    TU_OK(clrt_reduce(tu_fx->q, CLRT_REDUCE_SUM, CLRT_EACH_ROW, out, da));
    TU_OK(clrt_buffer_read(tu_fx->q, out, s, M));
    assert_true(isnan(s[0]));
    assert_true(isinf(s[1]) && s[1] > 0);
    assert_true(isinf(s[2]) && s[2] < 0);
    assert_true(isnan(s[3]));
    assert_true(s[4] == 0.0f && signbit(s[4]));
    assert_true(isfinite(s[5]));
    /* the maximum of all is NaN (row 0 holds one), the maximum of rows 1-5 +inf */
    clrt_buffer *v, *one;
    float x;
    TU_OK(clrt_buffer_create(&one, tu_fx->ctx, CLRT_FLOAT32, 1, 1));
    TU_OK(clrt_reduce(tu_fx->q, CLRT_REDUCE_MAX, CLRT_ALL, one, da));
    TU_OK(clrt_buffer_read(tu_fx->q, one, &x, 1));
    assert_true(isnan(x));
    TU_OK(clrt_buffer_view(&v, da, 1, 0, M - 1, N));
    TU_OK(clrt_reduce(tu_fx->q, CLRT_REDUCE_MAX, CLRT_ALL, one, v));
    TU_OK(clrt_buffer_read(tu_fx->q, one, &x, 1));
    assert_true(isinf(x) && x > 0);
    TU_OK(clrt_reduce(tu_fx->q, CLRT_REDUCE_MIN, CLRT_ALL, one, v));
    TU_OK(clrt_buffer_read(tu_fx->q, one, &x, 1));
    assert_true(isinf(x) && x < 0);
    TU_DESTROY_BUFFERS(v, one, da, out);
}

/* ---- refusals */

static void refusals(void **state)
{
    (void)state;
    clrt_queue *q = tu_fx->q;
    clrt_buffer *f64 = NULL, *parent, *v1, *v3;
    clrt_buffer *a = tu_buffer(CLRT_FLOAT32, 4, 5), *all = tu_buffer(CLRT_FLOAT32, 1, 1);
    clrt_buffer *rows = tu_buffer(CLRT_FLOAT32, 4, 1), *cols = tu_buffer(CLRT_FLOAT32, 1, 5);
    clrt_buffer *i32 = tu_buffer(CLRT_INT32, 4, 5), *irows = tu_buffer(CLRT_INT32, 4, 1);
    /* NULL and unknown arguments */
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_reduce(NULL, CLRT_REDUCE_SUM, CLRT_ALL, all, a));
    TU_REFUSED(CLRT_EINVAL, "buffer out is NULL", clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_ALL, NULL, a));
    TU_REFUSED(CLRT_EINVAL, "buffer a is NULL", clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_ALL, all, NULL));
    TU_REFUSED(CLRT_EINVAL, "unknown op", clrt_reduce(q, (clrt_reduce_op)0, CLRT_ALL, all, a));
    TU_REFUSED(CLRT_EINVAL, "unknown op", clrt_reduce(q, (clrt_reduce_op)4, CLRT_ALL, all, a));
    TU_REFUSED(CLRT_EINVAL, "unknown op", clrt_reduce(q, (clrt_reduce_op)-1, CLRT_ALL, all, a));
    TU_REFUSED(CLRT_EINVAL, "unknown axis", clrt_reduce(q, CLRT_REDUCE_SUM, (clrt_axis)3, all, a));
    TU_REFUSED(CLRT_EINVAL, "unknown axis", clrt_reduce(q, CLRT_REDUCE_SUM, (clrt_axis)-1, all, a));
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_argmax_rows(NULL, irows, a));
    TU_REFUSED(CLRT_EINVAL, "buffer out is NULL", clrt_argmax_rows(q, NULL, a));
    TU_REFUSED(CLRT_EINVAL, "buffer a is NULL", clrt_argmax_rows(q, irows, NULL));
    /* the output's shape for each axis */
    TU_REFUSED(CLRT_ESHAPE, "needs 1x1", clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_ALL, rows, a));
    TU_REFUSED(CLRT_ESHAPE, "needs 4x1", clrt_reduce(q, CLRT_REDUCE_MAX, CLRT_EACH_ROW, cols, a));
    TU_REFUSED(CLRT_ESHAPE, "needs 4x1", clrt_reduce(q, CLRT_REDUCE_MAX, CLRT_EACH_ROW, all, a));
    TU_REFUSED(CLRT_ESHAPE, "needs 1x5", clrt_reduce(q, CLRT_REDUCE_MIN, CLRT_EACH_COL, rows, a));
    TU_REFUSED(CLRT_ESHAPE, "needs 4x1", clrt_argmax_rows(q, i32, a));
    /* dtypes: int32 input refused, an output of another dtype a shape error */
    TU_REFUSED(CLRT_EUNSUPPORTED, "int32", clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_EACH_ROW, irows, i32));
    TU_REFUSED(CLRT_EUNSUPPORTED, "int32", clrt_argmax_rows(q, irows, i32));
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_EACH_ROW, irows, a));
    TU_REFUSED(CLRT_ESHAPE, "int32", clrt_argmax_rows(q, rows, a));
    if (tu_fx->dev.has_fp64) {
        f64 = tu_buffer(CLRT_FLOAT64, 1, 1);
        TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_ALL, f64, a));
    }
    /* out sharing memory with a: the very buffer, or windows of one parent */
    clrt_buffer *one;
    TU_OK(clrt_buffer_create(&one, tu_fx->ctx, CLRT_FLOAT32, 1, 1));
    TU_REFUSED(CLRT_EINVAL, "shares memory", clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_ALL, one, one));
    TU_OK(clrt_buffer_create(&parent, tu_fx->ctx, CLRT_FLOAT32, 10, 12));
    TU_OK(clrt_buffer_view(&v1, parent, 2, 2, 4, 5)); /* a: rows 2-5, cols 2-6 */
    TU_OK(clrt_buffer_view(&v3, parent, 5, 6, 1, 5)); /* out: row 5, cols 6-10: shares (5, 6) */
    clrt_buffer *v4, *v5;
    TU_OK(clrt_buffer_view(&v4, parent, 2, 6, 4, 1)); /* out: column 6 of a's rows */
    TU_OK(clrt_buffer_view(&v5, parent, 0, 9, 4, 1)); /* out: column 9: disjoint */
    TU_REFUSED(CLRT_EINVAL, "shares memory", clrt_reduce(q, CLRT_REDUCE_MAX, CLRT_EACH_COL, v3, v1));
    TU_REFUSED(CLRT_EINVAL, "shares memory", clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_EACH_ROW, v4, v1));
    TU_OK(clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_EACH_ROW, v5, v1));
    clrt_buffer *v6;
    TU_OK(clrt_buffer_view(&v6, parent, 9, 0, 1, 5));
    TU_OK(clrt_reduce(q, CLRT_REDUCE_MIN, CLRT_EACH_COL, v6, v1));
    /* another context's operand */
    clrt_context *other = tu_context_on(&tu_fx->dev);
    clrt_buffer *ob, *oi;
    TU_OK(clrt_buffer_create(&ob, other, CLRT_FLOAT32, 1, 1));
    TU_OK(clrt_buffer_create(&oi, other, CLRT_INT32, 4, 1));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_ALL, ob, a));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_argmax_rows(q, oi, a));
    clrt_buffer_destroy(ob);
    clrt_buffer_destroy(oi);
    clrt_context_destroy(other);
    TU_OK(clrt_queue_finish(q));
    TU_DESTROY_BUFFERS(a, all, rows, cols, i32, irows, f64, one, parent, v1, v3, v4, v5, v6);
}

/* ---- injected OpenCL failures (src/base/debug.h's seam): every call of every site
 * the reductions reach fails once in turn; the session gets the named status
 * and leaves nothing alive */

/* A session of its own: a sum over all elements (two levels: the queue's
 * scratch), the maxima of the columns and the argmax of the rows, checked
 * exactly. The first failing status, or CLRT_OK. */
static int reduce_session(void)
{
    enum { M = 3, N = 70 };
    clrt_context *ctx = NULL;
    clrt_queue *q = NULL;
    clrt_buffer *a = NULL, *all = NULL, *cols = NULL, *arg = NULL;
    float h[M * N], got[N];
    int32_t ix[M];
    for (int i = 0; i < M * N; i++)
        h[i] = (float)((i * 7) % 11) - 5.0f; /* -5 .. 5, the first 5 of each row at column (8i + 5) % 11 */
    int s = tu_session_open(&ctx, &q);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&a, ctx, CLRT_FLOAT32, M, N);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&all, ctx, CLRT_FLOAT32, 1, 1);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&cols, ctx, CLRT_FLOAT32, 1, N);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&arg, ctx, CLRT_INT32, M, 1);
    if (s == CLRT_OK)
        s = clrt_tune_override(ctx, "reduce", CLRT_FLOAT32, "group_rows=0 wg=4 items=2 vw=2 crows=2");
    if (s == CLRT_OK)
        s = clrt_buffer_write(q, a, h, M * N);
    if (s == CLRT_OK)
        s = clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_ALL, all, a);
    if (s == CLRT_OK)
        s = clrt_reduce(q, CLRT_REDUCE_MAX, CLRT_EACH_COL, cols, a);
    if (s == CLRT_OK)
        s = clrt_argmax_rows(q, arg, a);
    if (s == CLRT_OK)
        s = clrt_queue_finish(q);
    if (s == CLRT_OK)
        s = clrt_buffer_read(q, all, got, 1);
    if (s == CLRT_OK) {
        double sum = 0;
        for (int i = 0; i < M * N; i++)
            sum += h[i];
        assert_true(got[0] == (float)sum);
        s = clrt_buffer_read(q, cols, got, N);
    }
    if (s == CLRT_OK) {
        for (int j = 0; j < N; j++)
            assert_true(got[j] == fmaxf(fmaxf(h[j], h[N + j]), h[2 * N + j]));
        s = clrt_buffer_read(q, arg, ix, M);
    }
    if (s == CLRT_OK)
        for (int r = 0; r < M; r++)
            assert_int_equal(ix[r], argmax_ref(h, CLRT_FLOAT32, N, (size_t)r));
    TU_DESTROY_BUFFERS(a, all, cols, arg);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    return s;
}

/* The session's four buffers and the scratch. */
static void reduce_calls(const unsigned long calls[CLRT__FAULT_SITES])
{
    assert_int_equal(calls[CLRT__FAULT_CREATE_BUFFER], 5);
}

static void fault_sweep(void **state)
{
    (void)state;
    tu_fault_sweep(reduce_session, CLRT__FAULT_CREATE_BUFFER, CLRT__FAULT_SITES, reduce_calls, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_FIXTURE_TEST(reduce_f32),
        TU_FIXTURE_TEST(reduce_f64),
        TU_FIXTURE_TEST(reduce_large),
        TU_FIXTURE_TEST(reduce_exact_integers),
        TU_FIXTURE_TEST(reduce_every_variant),
        TU_FIXTURE_TEST(argmax_rows),
        TU_FIXTURE_TEST(argmax_every_variant),
        TU_FIXTURE_TEST(reduce_programs_built),
        TU_FIXTURE_TEST(special_values),
        TU_FIXTURE_TEST(refusals),
        TU_FIXTURE_TEST(fault_sweep),
    };
    return TU_RUN_FIXTURE_SUITE(tests);
}
