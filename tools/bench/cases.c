/* clrt-bench: one case (see bench/cases.h). */
#include "cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_math.h"
#include "clblast.h"
#include "host_math.h"
#include "progress.h"
#include "ref.h"

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
    char def[256];
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
    char label[96];
    if (op == BENCH_MATMUL)
        snprintf(label, sizeof label, "device %zu matmul %s %zux%zux%zu %c%c", s->info.index, bench_dtype_name(dbl),
                 c->m, c->n, c->k, c->ta ? 'T' : 'N', c->tb ? 'T' : 'N');
    else if (c->m > 1)
        snprintf(label, sizeof label, "device %zu %s %s %zux%zu", s->info.index, bench_op_name(op),
                 bench_dtype_name(dbl), c->m, c->n);
    else
        snprintf(label, sizeof label, "device %zu %s %s %zu", s->info.index, bench_op_name(op), bench_dtype_name(dbl),
                 c->n);
    bench_progress("%s", label);

    const size_t es = dbl ? 8 : 4;
    const bench_shapes sh = bench_shapes_of(c);
    const size_t na = sh.ar * sh.ac, nb = sh.br * sh.bc, nc = sh.cr * sh.cc;
    /* the host's output: axpby's is y, updated in place */
    const size_t nh = op == BENCH_AXPBY ? nb : nc;
    size_t nout = na > nb ? na : nb; /* read-back scratch: any output, or the copy of a */
    nout = nout > nc ? nout : nc;
    void *ha = malloc(na * es), *hb = malloc((nb ? nb : 1) * es), *hc = malloc((nh ? nh : 1) * es),
         *hout = malloc(nout * es);
    if (!ha || !hb || !hc || !hout) {
        c->r[IMPL_CLRT].present = c->r[IMPL_CLRT].failed = 1;
        snprintf(c->r[IMPL_CLRT].note, sizeof c->r[IMPL_CLRT].note, "out of host memory");
        goto done;
    }
    make_inputs(c, ha, na, hb, nb);
    if (op == BENCH_AXPBY)
        memcpy(hc, hb, nb * es);

    if (opts->first) {
        bench_progress("%s: first call on a fresh context", label);
        c->first_s = first_call(s, c, ha, hb);
    }

    bench_resolve(s->ctx, op, dbl, NULL);
    c->tuned = bench_params_of(s->ctx, op, dbl, c->params, sizeof c->params);
    int with_default = c->tuned && opts->compare_default && open_default(s, op, dbl);
    if (with_default)
        bench_params_of(s->ctx_def, op, dbl, c->params_default, sizeof c->params_default);
    int with_clb = op == BENCH_MATMUL && opts->clblast && bench_have_clblast();
    int with_host = op == BENCH_MATMUL ? (opts->openblas && bench_have_openblas()) : opts->host;
    int host_kind = op == BENCH_MATMUL ? IMPL_OPENBLAS : IMPL_HOST;
    const int with_copy = bench_op_copy_ref(op);

    bench_bufs d = {0}, dd = {0}, dn = {0}, dab = {0}, dv = {0};
    char why[256];
    bench_case nbc = *c;
    void *na_host = NULL, *nb_host = NULL;
    int with_nb = 0;
    if (op == BENCH_MATMUL) {
        nbc.m = round64(c->m);
        nbc.n = round64(c->n);
        nbc.k = c->k == 1 ? 1 : round64(c->k);
        with_nb = nbc.m != c->m || nbc.n != c->n || nbc.k != c->k;
    }
    int st = bench_bufs_make(&d, s->ctx, s->q, c, ha, hb, with_clb || with_copy, 0, why, sizeof why);
    c->r[IMPL_CLRT].present = 1;
    if (st != CLRT_OK) {
        c->r[IMPL_CLRT].failed = 1;
        snprintf(c->r[IMPL_CLRT].note, sizeof c->r[IMPL_CLRT].note, "%.150s", why);
        goto done;
    }
    if (with_default && bench_bufs_make(&dd, s->ctx_def, s->q_def, c, ha, hb, 0, 0, why, sizeof why) != CLRT_OK)
        with_default = 0;
    if (with_nb) {
        na_host = malloc(nbc.m * nbc.k * es);
        nb_host = malloc(nbc.k * nbc.n * es);
        with_nb = na_host && nb_host;
        if (with_nb) {
            clrt__ref_fill(na_host, dbl ? CLRT_FLOAT64 : CLRT_FLOAT32, nbc.m * nbc.k, 3);
            clrt__ref_fill(nb_host, dbl ? CLRT_FLOAT64 : CLRT_FLOAT32, nbc.k * nbc.n, 4);
            with_nb = bench_bufs_make(&dn, s->ctx, s->q, &nbc, na_host, nb_host, 0, 0, why, sizeof why) == CLRT_OK;
        }
    }
    /* --gemm-extras: the same product scaling and accumulating (its own c,
     * which the runs keep accumulating into), and on views */
    const int extras = op == BENCH_MATMUL && opts->gemm_extras;
    const int with_ab = extras && bench_bufs_make(&dab, s->ctx, s->q, c, ha, hb, 0, 0, why, sizeof why) == CLRT_OK;
    const int with_view = extras && bench_bufs_make(&dv, s->ctx, s->q, c, ha, hb, 0, 1, why, sizeof why) == CLRT_OK;

    const int ta = c->ta, tb = c->tb;
    bench_dev_run rc = {.q = s->q, .a = d.a, .b = d.b, .c = d.c, .op = op, .ta = ta, .tb = tb};
    bench_dev_run rd = {.q = s->q_def, .a = dd.a, .b = dd.b, .c = dd.c, .op = op, .ta = ta, .tb = tb};
    bench_dev_run rn = {.q = s->q, .a = dn.a, .b = dn.b, .c = dn.c, .op = op, .ta = ta, .tb = tb};
    bench_dev_run rab = {.q = s->q, .a = dab.a, .b = dab.b, .c = dab.c, .op = op, .ta = ta, .tb = tb,
                         .alpha = 1.5, .beta = 0.5};
    bench_dev_run rv = {.q = s->q, .a = dv.a, .b = dv.b, .c = dv.c, .op = op, .ta = ta, .tb = tb};
    bench_dev_run rcp = {.q = s->q, .a = d.a, .c = d.c2, .op = op, .copy = 1};
    host_run rh = {op, dbl, ta, tb, c->m, c->n, c->k, ha, hb, hc};
    clb_run rb = {s->q, ta, tb, d.a, d.b, d.c2, "", 0};
    enum { SLOTS = IMPL_KINDS + 3 };
    bench_impl impls[SLOTS];
    int kinds[SLOTS], n = 0;
    double rounds[SLOTS][BENCH_MAX_ROUNDS];
    impls[n] = (bench_impl){.run = bench_run_dev, .arg = &rc, .rounds = rounds[n]};
    kinds[n++] = IMPL_CLRT;
    if (with_default) {
        impls[n] = (bench_impl){.run = bench_run_dev, .arg = &rd, .rounds = rounds[n]};
        kinds[n++] = IMPL_CLRT_DEFAULT;
    }
    if (with_host) {
        impls[n] = (bench_impl){.run = run_host, .arg = &rh, .rounds = rounds[n]};
        if (op == BENCH_MATMUL) { /* OpenBLAS leaves its threads spinning */
            impls[n].spins = 1;
            impls[n].prime = wake_host;
        }
        kinds[n++] = host_kind;
    }
    if (with_clb) {
        impls[n] = (bench_impl){.run = run_clb, .arg = &rb, .rounds = rounds[n]};
        kinds[n++] = IMPL_CLBLAST;
    }
    if (with_copy) {
        impls[n] = (bench_impl){.run = bench_run_dev, .arg = &rcp, .rounds = rounds[n]};
        kinds[n++] = IMPL_COPY;
    }
    int nb_at = -1, ab_at = -1, view_at = -1;
    if (with_nb) {
        nb_at = n;
        impls[n] = (bench_impl){.run = bench_run_dev, .arg = &rn, .rounds = rounds[n]};
        kinds[n++] = -1;
    }
    if (with_ab) {
        ab_at = n;
        impls[n] = (bench_impl){.run = bench_run_dev, .arg = &rab, .rounds = rounds[n]};
        kinds[n++] = -1;
    }
    if (with_view) {
        view_at = n;
        impls[n] = (bench_impl){.run = bench_run_dev, .arg = &rv, .rounds = rounds[n]};
        kinds[n++] = -1;
    }
    bench_budget budget = budget_of(opts);
    bench_progress("%s: timing", label);
    bench_measure(impls, (size_t)n, &budget);

    double work = bench_case_work(c);
    if (nb_at >= 0 && !impls[nb_at].failed && !impls[0].failed && impls[nb_at].stats.median > 0) {
        /* rate at this size over the rate at the round one, round by round */
        double wn = bench_case_work(&nbc);
        c->nb_m = nbc.m;
        c->nb_n = nbc.n;
        c->nb_k = nbc.k;
        c->nb_rate = wn / impls[nb_at].stats.median * 1e-9;
        c->nb_ratio = bench_paired_ratio(&impls[nb_at], &impls[0]) * work / wn;
    }
    /* speed with alpha/beta (or on views) over the plain product's, round by round */
    if (ab_at >= 0 && !impls[ab_at].failed && !impls[0].failed)
        c->ab_ratio = bench_paired_ratio(&impls[0], &impls[ab_at]);
    if (view_at >= 0 && !impls[view_at].failed && !impls[0].failed)
        c->view_ratio = bench_paired_ratio(&impls[0], &impls[view_at]);
    for (int i = 0; i < n; i++) {
        if (kinds[i] < 0)
            continue;
        bench_result *x = &c->r[kinds[i]];
        /* the copy moves its own bytes: its speed is in GB/s, clrt's over it too */
        const double w = kinds[i] == IMPL_COPY ? bench_copy_work(c) : work;
        x->present = 1;
        x->st = impls[i].stats;
        x->failed = impls[i].failed;
        if (!x->failed && x->st.median > 0)
            x->rate = w / x->st.median * 1e-9;
        /* clrt's speed over each reference, round by round */
        if (i > 0)
            c->ratio[kinds[i]] = bench_paired_ratio(&impls[i], &impls[0]) * work / w;
    }
    if (c->r[IMPL_CLRT].failed)
        note_dev_failure(&c->r[IMPL_CLRT], &rc);
    if (with_default && c->r[IMPL_CLRT_DEFAULT].failed)
        note_dev_failure(&c->r[IMPL_CLRT_DEFAULT], &rd);
    if (with_clb && c->r[IMPL_CLBLAST].failed)
        snprintf(c->r[IMPL_CLBLAST].note, sizeof c->r[IMPL_CLBLAST].note, "%s", rb.why);
    if (with_host && c->r[host_kind].failed)
        snprintf(c->r[host_kind].note, sizeof c->r[host_kind].note, "the host reference failed");
    if (with_copy && c->r[IMPL_COPY].failed)
        note_dev_failure(&c->r[IMPL_COPY], &rcp);

    /* results after the timing: every output is checked */
    bench_progress("%s: checking", label);
    read_check(&c->r[IMPL_CLRT], &rc, c, ha, hb, hout, c->params);
    if (with_default)
        read_check(&c->r[IMPL_CLRT_DEFAULT], &rd, c, ha, hb, hout, c->params_default);
    if (with_clb) {
        bench_dev_run rcb = rc;
        rcb.c = d.c2;
        read_check(&c->r[IMPL_CLBLAST], &rcb, c, ha, hb, hout, NULL);
    }
    if (with_copy)
        copy_check(&c->r[IMPL_COPY], s->q, d.c2, c, ha, hout);
    if (with_view && c->view_ratio > 0) { /* the product on views counts as clrt's result too */
        bench_result v = {.present = 1};
        read_check(&v, &rv, c, ha, hb, hout, NULL);
        if (v.failed || v.wrong) {
            c->r[IMPL_CLRT].wrong += v.wrong + (size_t)v.failed;
            snprintf(c->r[IMPL_CLRT].note, sizeof c->r[IMPL_CLRT].note, "on views: %.140s", v.note);
        }
    }
    if (with_host && !c->r[host_kind].failed) {
        if (op == BENCH_AXPBY) { /* one run from y's first value, as on the device */
            memcpy(hc, hb, nb * es);
            if (run_host(&rh) != 0)
                c->r[host_kind].failed = 1;
        }
        if (!c->r[host_kind].failed)
            check_result(&c->r[host_kind], c, ha, hb, hc, NULL);
    }
    bench_bufs_free(&d);
    bench_bufs_free(&dd);
    bench_bufs_free(&dn);
    bench_bufs_free(&dab);
    bench_bufs_free(&dv);
    free(na_host);
    free(nb_host);
done:
    free(ha);
    free(hb);
    free(hc);
    free(hout);
    bench_progress_step();
}
