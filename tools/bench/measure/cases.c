/* clrt-bench: one case (see bench/measure/cases.h). */
#include "measure/cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference/check_math.h"
#include "reference/clblast.h"
#include "reference/host_math.h"
#include "reference/host_ref.h"
#include "report/progress.h"

typedef struct host_run {
    int op, dbl, ta, tb;
    size_t m, n, k;
    const void *a, *b;
    void *c;
} host_run;

static int run_host(void *arg)
{
    host_run *r = arg;
    if (r->op == BENCH_MATMUL)
        return bench_host_gemm(r->dbl, r->ta, r->tb, r->m, r->n, r->k, r->a, r->b, r->c);
    if (r->op == BENCH_ADD) {
        bench_host_add(r->dbl, r->n, r->a, r->b, r->c);
        return 0;
    }
    return bench_host_math(r->op, r->dbl, r->m, r->n, r->a, r->b, r->c);
}

static int wake_host(void *arg)
{
    host_run *r = arg;
    return bench_host_gemm_wake(r->dbl);
}

typedef struct clb_run {
    clrt_queue *q;
    int ta, tb;
    clrt_buffer *a, *b, *c;
    const char *why;
    int code;
} clb_run;

static int run_clb(void *arg)
{
    clb_run *r = arg;
    r->code = bench_clblast_gemm(r->q, r->ta, r->tb, r->c, r->a, r->b, &r->why);
    return r->code;
}

/* First call on a fresh context: the kernel build (or cache fetch) and the
 * first run, as a user's first clrt_matmul / clrt_add + finish. */
static double first_call(const bench_session *s, const bench_case *c, const void *ha, const void *hb)
{
    clrt_context *ctx;
    clrt_queue *q;
    bench_bufs d;
    char why[256];
    double t = -1;
    if (bench_open(s->selector, &ctx, &q, NULL, 0) != CLRT_OK)
        return -1;
    if (bench_bufs_make(&d, ctx, q, c, ha, hb, 0, 0, why, sizeof why) == CLRT_OK) {
        bench_dev_run r = {.q = q, .a = d.a, .b = d.b, .c = d.c, .op = c->op, .ta = c->ta, .tb = c->tb};
        double t0 = bench_now();
        if (bench_run_dev(&r) == CLRT_OK)
            t = bench_now() - t0;
        bench_bufs_free(&d);
    }
    bench_close(&ctx, &q);
    return t;
}

/* clrt with the device defaults, to time side by side with the tuned
 * parameters: the session's second context, its kernel built with them. */
static int open_default(bench_session *s, int op, int dbl)
{
    if (bench_session_default(s) != CLRT_OK)
        return 0;
    char def[320];
    bench_params_default(s->ctx_def, op, dbl, def, sizeof def);
    return bench_resolve(s->ctx_def, op, dbl, def) == CLRT_OK;
}

/* A clrt run that failed in the timing: the status and message it failed
 * with (kept by bench_run_dev; running it again could fail otherwise). */
static void note_dev_failure(bench_result *x, const bench_dev_run *r)
{
    x->failed = 1;
    if (r->status != CLRT_OK)
        snprintf(x->note, sizeof x->note, "%s", r->why);
    else /* bench_measure had no memory for the samples: it never ran */
        snprintf(x->note, sizeof x->note, "not timed: out of host memory");
}

static bench_budget budget_of(const bench_opts *o)
{
    bench_budget b = {o->warmup, o->min_reps, o->max_reps, o->min_time, o->max_time};
    return b;
}

/* Check out, an implementation's result on the host, against the inputs;
 * params: the reduce parameters it ran with (clrt's sums), NULL for the host
 * loop. */
static void check_result(bench_result *x, const bench_case *c, const void *ha, const void *hb, const void *out,
                         const char *params)
{
    if (c->op == BENCH_MATMUL) {
        x->wrong = clrt__ref_gemm_wrong(c->dbl ? CLRT_FLOAT64 : CLRT_FLOAT32, c->ta, c->tb, ha, hb, out, c->m, c->n,
                                        c->k, BENCH_CHECK_ROWS, &x->checked, NULL);
    } else if (c->op == BENCH_ADD) {
        x->wrong = bench_check_add(c->dbl, ha, hb, out, c->n);
        x->checked = c->n;
    } else {
        /* a sum's bound: as deep as this implementation's order of additions */
        const size_t terms = c->op == BENCH_ROWSUM ? c->n : c->op == BENCH_COLSUM ? c->m : c->m * c->n;
        const double depth = params ? bench_clrt_sum_depth(params, terms)
                                    : bench_host_sum_depth(c->op, c->m, c->n, bench_host_threads());
        x->wrong = bench_check_math(c->op, c->dbl, c->m, c->n, ha, hb, out, depth, &x->checked);
    }
    if (x->wrong)
        snprintf(x->note, sizeof x->note, "%zu of %zu checked elements wrong", x->wrong, x->checked);
}

static int read_failed(bench_result *x, int st)
{
    if (st == CLRT_OK)
        return 0;
    x->failed = 1;
    snprintf(x->note, sizeof x->note, "%s: %.130s", clrt_status_name(st), clrt_error_message());
    return 1;
}

/* Read a device result into out (scratch) and check it. axpby runs in place
 * as often as it was timed: y gets its first value back and runs once more,
 * so that the check sees one run. */
static void read_check(bench_result *x, bench_dev_run *run, const bench_case *c, const void *ha, const void *hb,
                       void *out, const char *params)
{
    if (!x->present || x->failed)
        return;
    const bench_shapes sh = bench_shapes_of(c);
    int st;
    if (c->op == BENCH_AXPBY) {
        st = clrt_buffer_write(run->q, run->b, hb, sh.br * sh.bc);
        if (st == CLRT_OK)
            st = bench_run_dev(run);
        if (!read_failed(x, st))
            st = clrt_buffer_read(run->q, run->b, out, sh.br * sh.bc);
    } else {
        st = clrt_buffer_read(run->q, run->c, out, sh.cr * sh.cc);
    }
    if (read_failed(x, st))
        return;
    check_result(x, c, ha, hb, out, params);
}

/* The copy reference's result: a bit for bit. */
static void copy_check(bench_result *x, clrt_queue *q, clrt_buffer *dst, const bench_case *c, const void *ha,
                       void *out)
{
    if (!x->present || x->failed)
        return;
    const size_t count = c->m * c->n;
    if (read_failed(x, clrt_buffer_read(q, dst, out, count)))
        return;
    x->wrong = bench_check_copy(c->dbl, count, ha, out);
    x->checked = count;
    if (x->wrong)
        snprintf(x->note, sizeof x->note, "%zu of %zu copied elements differ", x->wrong, x->checked);
}

/* Inputs in [-1, 1); the sigmoid's over [-8, 8) (where it is not flat);
 * argmax's on a grid of 1/64, so that every long row holds its largest value
 * several times and the tie rule (the first column) is checked. */
static void make_inputs(const bench_case *c, void *ha, size_t na, void *hb, size_t nb)
{
    clrt__ref_fill(ha, c->dbl ? CLRT_FLOAT64 : CLRT_FLOAT32, na, 1);
    if (nb)
        clrt__ref_fill(hb, c->dbl ? CLRT_FLOAT64 : CLRT_FLOAT32, nb, 2);
    for (size_t i = 0; i < na && (c->op == BENCH_SIGMOID || c->op == BENCH_ARGMAX); i++) {
        double v = c->dbl ? ((double *)ha)[i] : ((float *)ha)[i];
        v = c->op == BENCH_SIGMOID ? 8 * v : floor(v * 64) / 64;
        if (c->dbl)
            ((double *)ha)[i] = v;
        else
            ((float *)ha)[i] = (float)v;
    }
}

/* The nearest multiple of 64 (a whole number of any power-of-two tile up to 64). */
static size_t round64(size_t v)
{
    if (v <= 1)
        return v;
    size_t r = (v + 32) / 64 * 64;
    return r ? r : 64;
}

/* Everything one case times, side by side: the host's data, each
 * implementation's buffers and run, and the timing's slots. */
enum { SLOTS = IMPL_KINDS + 3 }; /* every kind, and clrt at the round neighbour, with alpha/beta, on views */

typedef struct case_run {
    bench_case *c;
    const bench_opts *opts;
    bench_session *s;
    char label[96];
    size_t es, nb;             /* element size; elements of b (axpby's y) */
    void *ha, *hb;             /* the inputs */
    void *hc, *hout;           /* the host's output; the read-back scratch */
    int with_default, with_clb, with_host, host_kind, with_copy;
    int with_nb, with_ab, with_view;
    bench_case nbc;            /* a matmul's round neighbour (round64 of each size) */
    void *na_host, *nb_host;   /* its inputs */
    bench_bufs d, dd, dn, dab, dv;
    bench_dev_run rc, rd, rn, rab, rv, rcp;
    host_run rh;
    clb_run rb;
    bench_impl impls[SLOTS];
    int kinds[SLOTS], n;       /* kinds[i]: the result it fills, or -1 (a side-by-side of clrt) */
    int nb_at, ab_at, view_at; /* their slots, or -1 */
    double rounds[SLOTS][BENCH_MAX_ROUNDS];
} case_run;

/* The case's op and sizes: a product's M, N, K and transposes; the others
 * an element count, run as 1 x count or a near-square matrix of it. */
static void describe(bench_case *c, size_t dev_index, int op, int dbl, bench_shape shape)
{
    c->device = dev_index;
    c->op = op;
    c->dbl = dbl;
    if (op == BENCH_MATMUL) {
        c->m = shape.m;
        c->n = shape.n;
        c->k = shape.k;
        c->ta = shape.ta;
        c->tb = shape.tb;
    } else {
        c->count = shape.n;
        c->m = 1;
        c->n = shape.n;
        c->k = 0;
        if (bench_op_matrix(op))
            bench_matrix_shape(shape.n, &c->m, &c->n);
    }
}

/* The progress line's name of the case. */
static void make_label(case_run *r)
{
    const bench_case *c = r->c;
    const size_t dev = r->s->info.index;
    if (c->op == BENCH_MATMUL)
        snprintf(r->label, sizeof r->label, "device %zu matmul %s %zux%zux%zu %c%c", dev, bench_dtype_name(c->dbl),
                 c->m, c->n, c->k, c->ta ? 'T' : 'N', c->tb ? 'T' : 'N');
    else if (c->m > 1)
        snprintf(r->label, sizeof r->label, "device %zu %s %s %zux%zu", dev, bench_op_name(c->op),
                 bench_dtype_name(c->dbl), c->m, c->n);
    else
        snprintf(r->label, sizeof r->label, "device %zu %s %s %zu", dev, bench_op_name(c->op),
                 bench_dtype_name(c->dbl), c->n);
}

/* The host's inputs, its output and the scratch; -1, noted in clrt's
 * result, when there is no memory for them. */
static int alloc_host(case_run *r)
{
    const bench_case *c = r->c;
    r->es = c->dbl ? 8 : 4;
    const bench_shapes sh = bench_shapes_of(c);
    const size_t na = sh.ar * sh.ac, nb = sh.br * sh.bc, nc = sh.cr * sh.cc;
    /* the host's output: axpby's is y, updated in place */
    const size_t nh = c->op == BENCH_AXPBY ? nb : nc;
    size_t nout = na > nb ? na : nb; /* read-back scratch: any output, or the copy of a */
    nout = nout > nc ? nout : nc;
    r->nb = nb;
    if (bench_shapes_fit(&sh, r->es) != 0) { /* counts times the element size, checked before malloc */
        bench_result *x = &r->c->r[IMPL_CLRT];
        x->present = x->failed = 1;
        snprintf(x->note, sizeof x->note, "arrays larger than this machine can address");
        return -1;
    }
    r->ha = malloc(na * r->es);
    r->hb = malloc((nb ? nb : 1) * r->es);
    r->hc = malloc((nh ? nh : 1) * r->es);
    r->hout = malloc(nout * r->es);
    if (!r->ha || !r->hb || !r->hc || !r->hout) {
        bench_result *x = &r->c->r[IMPL_CLRT];
        x->present = x->failed = 1;
        snprintf(x->note, sizeof x->note, "out of host memory");
        return -1;
    }
    make_inputs(c, r->ha, na, r->hb, nb);
    if (c->op == BENCH_AXPBY)
        memcpy(r->hc, r->hb, nb * r->es);
    return 0;
}

/* Which implementations run beside clrt: its default parameters (when tuned
 * ones apply), the host, CLBlast, the copy, a product's round neighbour. */
static void choose_impls(case_run *r)
{
    bench_case *c = r->c;
    const bench_opts *opts = r->opts;
    const int op = c->op, dbl = c->dbl;
    bench_resolve(r->s->ctx, op, dbl, NULL);
    c->tuned = bench_params_of(r->s->ctx, op, dbl, c->params, sizeof c->params);
    r->with_default = c->tuned && opts->compare_default && open_default(r->s, op, dbl);
    if (r->with_default)
        bench_params_of(r->s->ctx_def, op, dbl, c->params_default, sizeof c->params_default);
    r->with_clb = op == BENCH_MATMUL && opts->clblast && bench_have_clblast();
    r->with_host = op == BENCH_MATMUL ? (opts->openblas && bench_have_openblas()) : opts->host;
    r->host_kind = op == BENCH_MATMUL ? IMPL_OPENBLAS : IMPL_HOST;
    r->with_copy = bench_op_copy_ref(op);
    r->nbc = *c;
    if (op == BENCH_MATMUL) {
        r->nbc.m = round64(c->m);
        r->nbc.n = round64(c->n);
        r->nbc.k = c->k == 1 ? 1 : round64(c->k);
        r->with_nb = r->nbc.m != c->m || r->nbc.n != c->n || r->nbc.k != c->k;
    }
}

/* The round neighbour's own inputs and buffers; with_nb stays only when
 * they were made. */
static void make_neighbour(case_run *r, char *why, size_t cap)
{
    const bench_case *nbc = &r->nbc;
    const clrt_dtype dt = nbc->dbl ? CLRT_FLOAT64 : CLRT_FLOAT32;
    const bench_shapes sh = bench_shapes_of(nbc);
    if (bench_shapes_fit(&sh, r->es) != 0) {
        r->with_nb = 0;
        return;
    }
    r->na_host = malloc(nbc->m * nbc->k * r->es);
    r->nb_host = malloc(nbc->k * nbc->n * r->es);
    r->with_nb = r->na_host && r->nb_host;
    if (r->with_nb) {
        clrt__ref_fill(r->na_host, dt, nbc->m * nbc->k, 3);
        clrt__ref_fill(r->nb_host, dt, nbc->k * nbc->n, 4);
        r->with_nb = bench_bufs_make(&r->dn, r->s->ctx, r->s->q, nbc, r->na_host, r->nb_host, 0, 0, why, cap) ==
                     CLRT_OK;
    }
}

/* Every implementation's device buffers; -1, noted in clrt's result, when
 * clrt's own could not be made (the others are left out on failure). */
static int make_buffers(case_run *r)
{
    const bench_case *c = r->c;
    bench_session *s = r->s;
    char why[256];
    int st = bench_bufs_make(&r->d, s->ctx, s->q, c, r->ha, r->hb, r->with_clb || r->with_copy, 0, why, sizeof why);
    bench_result *x = &r->c->r[IMPL_CLRT];
    x->present = 1;
    if (st != CLRT_OK) {
        x->failed = 1;
        snprintf(x->note, sizeof x->note, "%.150s", why);
        return -1;
    }
    if (r->with_default &&
        bench_bufs_make(&r->dd, s->ctx_def, s->q_def, c, r->ha, r->hb, 0, 0, why, sizeof why) != CLRT_OK)
        r->with_default = 0;
    if (r->with_nb)
        make_neighbour(r, why, sizeof why);
    /* --gemm-extras: the same product scaling and accumulating (its own c,
     * which the runs keep accumulating into), and on views */
    const int extras = c->op == BENCH_MATMUL && r->opts->gemm_extras;
    r->with_ab = extras && bench_bufs_make(&r->dab, s->ctx, s->q, c, r->ha, r->hb, 0, 0, why, sizeof why) == CLRT_OK;
    r->with_view = extras && bench_bufs_make(&r->dv, s->ctx, s->q, c, r->ha, r->hb, 0, 1, why, sizeof why) == CLRT_OK;
    return 0;
}

/* One more implementation in the next slot; its slot. */
static int add_impl(case_run *r, bench_run_fn run, void *arg, int kind)
{
    const int at = r->n++;
    r->impls[at] = (bench_impl){.run = run, .arg = arg, .rounds = r->rounds[at]};
    r->kinds[at] = kind;
    return at;
}

/* Each implementation's run, clrt's first (the ratios are over it). */
static void line_up(case_run *r)
{
    const bench_case *c = r->c;
    bench_session *s = r->s;
    const int op = c->op, ta = c->ta, tb = c->tb;
    r->rc = (bench_dev_run){.q = s->q, .a = r->d.a, .b = r->d.b, .c = r->d.c, .op = op, .ta = ta, .tb = tb};
    r->rd = (bench_dev_run){.q = s->q_def, .a = r->dd.a, .b = r->dd.b, .c = r->dd.c, .op = op, .ta = ta, .tb = tb};
    r->rn = (bench_dev_run){.q = s->q, .a = r->dn.a, .b = r->dn.b, .c = r->dn.c, .op = op, .ta = ta, .tb = tb};
    r->rab = (bench_dev_run){.q = s->q, .a = r->dab.a, .b = r->dab.b, .c = r->dab.c, .op = op, .ta = ta, .tb = tb,
                             .alpha = 1.5, .beta = 0.5};
    r->rv = (bench_dev_run){.q = s->q, .a = r->dv.a, .b = r->dv.b, .c = r->dv.c, .op = op, .ta = ta, .tb = tb};
    r->rcp = (bench_dev_run){.q = s->q, .a = r->d.a, .c = r->d.c2, .op = op, .copy = 1};
    r->rh = (host_run){op, c->dbl, ta, tb, c->m, c->n, c->k, r->ha, r->hb, r->hc};
    r->rb = (clb_run){s->q, ta, tb, r->d.a, r->d.b, r->d.c2, "", 0};
    r->nb_at = r->ab_at = r->view_at = -1;
    add_impl(r, bench_run_dev, &r->rc, IMPL_CLRT);
    if (r->with_default)
        add_impl(r, bench_run_dev, &r->rd, IMPL_CLRT_DEFAULT);
    if (r->with_host) {
        const int at = add_impl(r, run_host, &r->rh, r->host_kind);
        if (op == BENCH_MATMUL) { /* OpenBLAS leaves its threads spinning */
            r->impls[at].spins = 1;
            r->impls[at].prime = wake_host;
        }
    }
    if (r->with_clb)
        add_impl(r, run_clb, &r->rb, IMPL_CLBLAST);
    if (r->with_copy)
        add_impl(r, bench_run_dev, &r->rcp, IMPL_COPY);
    if (r->with_nb)
        r->nb_at = add_impl(r, bench_run_dev, &r->rn, -1);
    if (r->with_ab)
        r->ab_at = add_impl(r, bench_run_dev, &r->rab, -1);
    if (r->with_view)
        r->view_at = add_impl(r, bench_run_dev, &r->rv, -1);
}

/* Whether slot `at` ran, and clrt's too: their paired ratio means something. */
static int both_ran(const case_run *r, int at)
{
    return at >= 0 && !r->impls[at].failed && !r->impls[0].failed;
}

/* The timings into the case: each implementation's result and rate, clrt's
 * speed over each, and over its side-by-side variants. */
static void store_timings(case_run *r)
{
    bench_case *c = r->c;
    const bench_impl *impls = r->impls;
    const double work = bench_case_work(c);
    if (both_ran(r, r->nb_at) && impls[r->nb_at].stats.median > 0) {
        /* rate at this size over the rate at the round one, round by round */
        const double wn = bench_case_work(&r->nbc);
        c->nb_m = r->nbc.m;
        c->nb_n = r->nbc.n;
        c->nb_k = r->nbc.k;
        c->nb_rate = wn / impls[r->nb_at].stats.median * 1e-9;
        c->nb_ratio = bench_paired_ratio(&impls[r->nb_at], &impls[0]) * work / wn;
    }
    /* speed with alpha/beta (or on views) over the plain product's, round by round */
    if (both_ran(r, r->ab_at))
        c->ab_ratio = bench_paired_ratio(&impls[0], &impls[r->ab_at]);
    if (both_ran(r, r->view_at))
        c->view_ratio = bench_paired_ratio(&impls[0], &impls[r->view_at]);
    for (int i = 0; i < r->n; i++) {
        const int kind = r->kinds[i];
        if (kind < 0)
            continue;
        bench_result *x = &c->r[kind];
        /* the copy moves its own bytes: its speed is in GB/s, clrt's over it too */
        const double w = kind == IMPL_COPY ? bench_copy_work(c) : work;
        x->present = 1;
        x->st = impls[i].stats;
        x->failed = impls[i].failed;
        if (!x->failed && x->st.median > 0)
            x->rate = w / x->st.median * 1e-9;
        /* clrt's speed over each reference, round by round */
        if (i > 0)
            c->ratio[kind] = bench_paired_ratio(&impls[i], &impls[0]) * work / w;
    }
}

/* Why each implementation that failed in the timing failed. */
static void note_failures(case_run *r)
{
    bench_case *c = r->c;
    if (c->r[IMPL_CLRT].failed)
        note_dev_failure(&c->r[IMPL_CLRT], &r->rc);
    if (r->with_default && c->r[IMPL_CLRT_DEFAULT].failed)
        note_dev_failure(&c->r[IMPL_CLRT_DEFAULT], &r->rd);
    if (r->with_clb && c->r[IMPL_CLBLAST].failed)
        snprintf(c->r[IMPL_CLBLAST].note, sizeof c->r[IMPL_CLBLAST].note, "%s", r->rb.why);
    if (r->with_host && c->r[r->host_kind].failed)
        snprintf(c->r[r->host_kind].note, sizeof c->r[r->host_kind].note, "the host reference failed");
    if (r->with_copy && c->r[IMPL_COPY].failed)
        note_dev_failure(&c->r[IMPL_COPY], &r->rcp);
}

/* The host's own output, checked as the devices' are. */
static void check_host(case_run *r)
{
    bench_case *c = r->c;
    bench_result *x = &c->r[r->host_kind];
    if (x->failed)
        return;
    if (c->op == BENCH_AXPBY) { /* one run from y's first value, as on the device */
        memcpy(r->hc, r->hb, r->nb * r->es);
        if (run_host(&r->rh) != 0)
            x->failed = 1;
    }
    if (!x->failed)
        check_result(x, c, r->ha, r->hb, r->hc, NULL);
}

/* Results after the timing: every output is checked. */
static void check_outputs(case_run *r)
{
    bench_case *c = r->c;
    const void *ha = r->ha, *hb = r->hb;
    read_check(&c->r[IMPL_CLRT], &r->rc, c, ha, hb, r->hout, c->params);
    if (r->with_default)
        read_check(&c->r[IMPL_CLRT_DEFAULT], &r->rd, c, ha, hb, r->hout, c->params_default);
    if (r->with_clb) {
        bench_dev_run rcb = r->rc;
        rcb.c = r->d.c2;
        read_check(&c->r[IMPL_CLBLAST], &rcb, c, ha, hb, r->hout, NULL);
    }
    if (r->with_copy)
        copy_check(&c->r[IMPL_COPY], r->s->q, r->d.c2, c, ha, r->hout);
    if (r->with_view && c->view_ratio > 0) { /* the product on views counts as clrt's result too */
        bench_result v = {.present = 1};
        read_check(&v, &r->rv, c, ha, hb, r->hout, NULL);
        if (v.failed || v.wrong) {
            c->r[IMPL_CLRT].wrong += v.wrong + (size_t)v.failed;
            snprintf(c->r[IMPL_CLRT].note, sizeof c->r[IMPL_CLRT].note, "on views: %.140s", v.note);
        }
    }
    if (r->with_host)
        check_host(r);
}

static void free_case(case_run *r)
{
    bench_bufs *bufs[] = {&r->d, &r->dd, &r->dn, &r->dab, &r->dv};
    void *host[] = {r->na_host, r->nb_host, r->ha, r->hb, r->hc, r->hout};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        bench_bufs_free(bufs[i]);
    for (size_t i = 0; i < sizeof host / sizeof *host; i++)
        free(host[i]);
}

/* Every implementation of the case timed, interleaved, then checked. */
static void time_and_check(case_run *r)
{
    line_up(r);
    const bench_budget budget = budget_of(r->opts);
    bench_progress("%s: timing", r->label);
    bench_measure(r->impls, (size_t)r->n, &budget);
    store_timings(r);
    note_failures(r);
    bench_progress("%s: checking", r->label);
    check_outputs(r);
}

/* One (device, op, dtype, shape): every implementation, interleaved. A
 * matmul whose sizes are not multiples of 64 is also timed side by side
 * with its round neighbour (1000 and 1031 with 1024; K = 1 stays 1).
 * Reductions and transposes are timed side by side with clrt_copy of their
 * input, the device's copy bandwidth. */
void bench_run_case(bench_report *report, const bench_opts *opts, bench_session *s, size_t dev_index, int op, int dbl,
                    bench_shape shape)
{
    bench_case *c = bench_report_add(report);
    if (!c)
        return;
    case_run run = {.c = c, .opts = opts, .s = s}, *r = &run;
    describe(c, dev_index, op, dbl, shape);
    make_label(r);
    bench_progress("%s", r->label);
    if (alloc_host(r) == 0) {
        if (opts->first) {
            bench_progress("%s: first call on a fresh context", r->label);
            c->first_s = first_call(s, c, r->ha, r->hb);
        }
        choose_impls(r);
        if (make_buffers(r) == 0)
            time_and_check(r);
    }
    free_case(r);
    bench_progress_step();
}
