/* clrt-bench: clrt_add and clrt_matmul on every device (or the selected
 * ones), against references measured side by side in the same run: host
 * OpenBLAS, a host add loop on 2 threads, and CLBlast on the same device.
 * Also first-call latency (a fresh context; a new process), the per-operation
 * overhead of a tiny add against a raw enqueue, default against tuned
 * parameters, and the autotuner (--tune). See clrt-bench --help.
 *
 * The pieces: bench_opts (command line), bench_time (interleaved timing),
 * bench_ref (host references and checks), bench_clblast, bench_out (table,
 * JSON, CSV), bench_targets (the targets), bench_plot (gnuplot),
 * bench_tune (the search). This file runs the cases. */
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <clrt/clrt.h>
#include <clrt/clrt_cl.h>

#include "debug.h"
#include "internal.h"
#include "selector.h"
#include "tuned.h"

#include "bench_clblast.h"
#include "bench_opts.h"
#include "bench_out.h"
#include "bench_plot.h"
#include "bench_ref.h"
#include "bench_session.h"
#include "bench_time.h"
#include "bench_tune.h"

extern char **environ;

static bench_opts opts;
static bench_report report;

/* ---- progress on stderr */

static int progress_on;
static size_t progress_done, progress_total;

void bench_progress(const char *fmt, ...)
{
    if (!progress_on)
        return;
    char text[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (progress_total)
        fprintf(stderr, "\r\033[K[%zu/%zu] %s", progress_done, progress_total, text);
    else
        fprintf(stderr, "\r\033[K%s", text);
    fflush(stderr);
}

static void progress_end(void)
{
    if (progress_on) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
}

/* ---- sessions: one context on the device as users get it (tuned parameters
 * when there are some), and one forced to the defaults, made when needed */

int bench_session_open(bench_session *s, const clrt_device_info *info)
{
    memset(s, 0, sizeof *s);
    s->info = *info;
    snprintf(s->selector, sizeof s->selector, "%zu", info->index);
    int st = clrt_context_create(&s->ctx, s->selector);
    if (st == CLRT_OK)
        st = clrt_queue_create(&s->q, s->ctx);
    if (st != CLRT_OK) {
        snprintf(s->error, sizeof s->error, "%s: %s", clrt_status_name(st), clrt_error_message());
        bench_session_close(s);
        return st;
    }
    return CLRT_OK;
}

/* The context that runs with the default parameters; created on first use. */
static int session_default(bench_session *s)
{
    if (s->ctx_def)
        return CLRT_OK;
    int st = clrt_context_create(&s->ctx_def, s->selector);
    if (st == CLRT_OK)
        st = clrt_queue_create(&s->q_def, s->ctx_def);
    if (st != CLRT_OK) {
        clrt_queue_destroy(s->q_def);
        clrt_context_destroy(s->ctx_def);
        s->q_def = NULL;
        s->ctx_def = NULL;
    }
    return st;
}

void bench_session_close(bench_session *s)
{
    bench_clblast_clear();
    clrt_queue_destroy(s->q);
    clrt_queue_destroy(s->q_def);
    clrt_context_destroy(s->ctx);
    clrt_context_destroy(s->ctx_def);
    s->q = s->q_def = NULL;
    s->ctx = s->ctx_def = NULL;
}

/* Build the kernel of (op, dtype) in ctx now, with the default parameters
 * when force_default (through the test seam: default -> fit, as ops.c does). */
int bench_resolve(clrt_context *ctx, clrt_queue *q, int op, int dbl, int force_default)
{
    clrt_dtype dt = dbl ? CLRT_FLOAT64 : CLRT_FLOAT32;
    size_t elem = dbl ? 8 : 4;
    if (force_default) {
        if (op == BENCH_MATMUL) {
            clrt_matmul_params p;
            clrt_matmul_params_default(&ctx->facts, elem, &p);
            clrt_debug_override_matmul(&p);
        } else {
            clrt_add_params p;
            clrt_add_params_default(&ctx->facts, elem, &p);
            clrt_debug_override_add(&p);
        }
    }
    clrt_buffer *a = NULL, *b = NULL, *c = NULL;
    int st = clrt_buffer_create(&a, ctx, dt, 1, 1);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&b, ctx, dt, 1, 1);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&c, ctx, dt, 1, 1);
    if (st == CLRT_OK)
        st = op == BENCH_MATMUL ? clrt_matmul(q, c, a, b) : clrt_add(q, c, a, b);
    if (st == CLRT_OK)
        st = clrt_queue_finish(q);
    if (force_default) {
        clrt_debug_override_matmul(NULL);
        clrt_debug_override_add(NULL);
    }
    clrt_buffer_destroy(a);
    clrt_buffer_destroy(b);
    clrt_buffer_destroy(c);
    return st;
}

/* The parameters ctx's kernel of (op, dtype) runs with, as text; 1 when tuned. */
int bench_params_of(const clrt_context *ctx, int op, int dbl, char *buf, size_t cap)
{
    const clrt_op_kernel *k = &ctx->ops[op == BENCH_MATMUL ? CLRT_OP_MATMUL : CLRT_OP_ADD][dbl];
    if (!atomic_load(&k->ready)) {
        snprintf(buf, cap, "(not built)");
        return 0;
    }
    if (op == BENCH_MATMUL)
        clrt__matmul_params_text(&k->params.matmul, buf, cap);
    else
        clrt__add_params_text(&k->params.add, buf, cap);
    return k->tuned;
}

/* ---- runs of one case */

typedef struct dev_run {
    clrt_queue *q;
    clrt_buffer *a, *b, *c;
    int op;
} dev_run;

static int run_dev(void *arg)
{
    dev_run *r = arg;
    int st = r->op == BENCH_MATMUL ? clrt_matmul(r->q, r->c, r->a, r->b) : clrt_add(r->q, r->c, r->a, r->b);
    if (st == CLRT_OK)
        st = clrt_queue_finish(r->q);
    return st;
}

typedef struct host_run {
    int op, dbl;
    size_t m, n, k;
    const void *a, *b;
    void *c;
} host_run;

static int run_host(void *arg)
{
    host_run *r = arg;
    if (r->op == BENCH_MATMUL)
        return bench_host_gemm(r->dbl, r->m, r->n, r->k, r->a, r->b, r->c);
    bench_host_add(r->dbl, r->n, r->a, r->b, r->c);
    return 0;
}

static int wake_host(void *arg)
{
    host_run *r = arg;
    return bench_host_gemm_wake(r->dbl);
}

typedef struct clb_run {
    clrt_queue *q;
    clrt_buffer *a, *b, *c;
    const char *why;
    int code;
} clb_run;

static int run_clb(void *arg)
{
    clb_run *r = arg;
    r->code = bench_clblast_gemm(r->q, r->c, r->a, r->b, &r->why);
    return r->code;
}

/* Device buffers for one case in one context. */
typedef struct dev_bufs {
    clrt_buffer *a, *b, *c, *c2; /* c2: CLBlast's output */
} dev_bufs;

static void bufs_free(dev_bufs *d)
{
    clrt_buffer_destroy(d->a);
    clrt_buffer_destroy(d->b);
    clrt_buffer_destroy(d->c);
    clrt_buffer_destroy(d->c2);
    memset(d, 0, sizeof *d);
}

static int bufs_make(dev_bufs *d, clrt_context *ctx, clrt_queue *q, const bench_case *c, const void *ha,
                     const void *hb, int with_c2, char *why, size_t cap)
{
    memset(d, 0, sizeof *d);
    clrt_dtype dt = c->dbl ? CLRT_FLOAT64 : CLRT_FLOAT32;
    size_t ar = c->op == BENCH_MATMUL ? c->m : 1, ac = c->op == BENCH_MATMUL ? c->k : c->n;
    size_t br = c->op == BENCH_MATMUL ? c->k : 1, bc = c->n;
    size_t cr = c->op == BENCH_MATMUL ? c->m : 1, cc = c->n;
    int st = clrt_buffer_create(&d->a, ctx, dt, ar, ac);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&d->b, ctx, dt, br, bc);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&d->c, ctx, dt, cr, cc);
    if (st == CLRT_OK && with_c2)
        st = clrt_buffer_create(&d->c2, ctx, dt, cr, cc);
    if (st == CLRT_OK)
        st = clrt_buffer_write(q, d->a, ha, ar * ac);
    if (st == CLRT_OK)
        st = clrt_buffer_write(q, d->b, hb, br * bc);
    if (st == CLRT_OK)
        st = clrt_queue_finish(q);
    if (st != CLRT_OK) {
        snprintf(why, cap, "%s: %s", clrt_status_name(st), clrt_error_message());
        bufs_free(d);
    }
    return st;
}

/* First call on a fresh context: the kernel build (or cache fetch) and the
 * first run, as a user's first clrt_matmul / clrt_add + finish. */
static double first_call(const bench_session *s, const bench_case *c, const void *ha, const void *hb)
{
    clrt_context *ctx = NULL;
    clrt_queue *q = NULL;
    dev_bufs d;
    char why[256];
    double t = -1;
    if (clrt_context_create(&ctx, s->selector) != CLRT_OK || clrt_queue_create(&q, ctx) != CLRT_OK) {
        clrt_context_destroy(ctx);
        return -1;
    }
    if (bufs_make(&d, ctx, q, c, ha, hb, 0, why, sizeof why) == CLRT_OK) {
        dev_run r = {q, d.a, d.b, d.c, c->op};
        double t0 = bench_now();
        if (run_dev(&r) == CLRT_OK)
            t = bench_now() - t0;
        bufs_free(&d);
    }
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    return t;
}

static void note_status(bench_result *x, int st)
{
    x->failed = 1;
    snprintf(x->note, sizeof x->note, "%s: %.130s", clrt_status_name(st), clrt_error_message());
}

static bench_budget budget_of(const bench_opts *o)
{
    bench_budget b = {o->warmup, o->min_reps, o->max_reps, o->min_time, o->max_time};
    return b;
}

static void read_check(bench_result *x, clrt_queue *q, clrt_buffer *buf, const bench_case *c, const void *ha,
                       const void *hb, void *out)
{
    if (!x->present || x->failed)
        return;
    size_t count = (c->op == BENCH_MATMUL ? c->m : 1) * c->n;
    int st = clrt_buffer_read(q, buf, out, count);
    if (st != CLRT_OK) {
        note_status(x, st);
        return;
    }
    if (c->op == BENCH_MATMUL) {
        x->wrong = bench_check_matmul(c->dbl, ha, hb, out, c->m, c->n, c->k, &x->checked);
    } else {
        x->wrong = bench_check_add(c->dbl, ha, hb, out, c->n);
        x->checked = c->n;
    }
    if (x->wrong)
        snprintf(x->note, sizeof x->note, "%zu of %zu checked elements wrong", x->wrong, x->checked);
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
 * with its round neighbour (1000 and 1031 with 1024; K = 1 stays 1). */
static void run_case(bench_session *s, size_t dev_index, int op, int dbl, bench_shape shape)
{
    bench_case *c = bench_report_add(&report);
    if (!c)
        return;
    c->device = dev_index;
    c->op = op;
    c->dbl = dbl;
    if (op == BENCH_MATMUL) {
        c->m = shape.m;
        c->n = shape.n;
        c->k = shape.k;
    } else {
        c->m = 1;
        c->n = shape.n;
        c->k = 0;
    }
    char label[96];
    if (op == BENCH_MATMUL)
        snprintf(label, sizeof label, "device %zu matmul %s %zux%zux%zu", s->info.index, bench_dtype_name(dbl), c->m,
                 c->n, c->k);
    else
        snprintf(label, sizeof label, "device %zu add %s %zu", s->info.index, bench_dtype_name(dbl), c->n);
    bench_progress("%s", label);

    size_t es = dbl ? 8 : 4;
    size_t na = op == BENCH_MATMUL ? c->m * c->k : c->n;
    size_t nb = op == BENCH_MATMUL ? c->k * c->n : c->n;
    size_t nc = op == BENCH_MATMUL ? c->m * c->n : c->n;
    void *ha = malloc(na * es), *hb = malloc(nb * es), *hc = malloc(nc * es), *hout = malloc(nc * es);
    if (!ha || !hb || !hc || !hout) {
        c->r[IMPL_CLRT].present = c->r[IMPL_CLRT].failed = 1;
        snprintf(c->r[IMPL_CLRT].note, sizeof c->r[IMPL_CLRT].note, "out of host memory");
        goto done;
    }
    bench_fill(ha, dbl, na, 1);
    bench_fill(hb, dbl, nb, 2);

    if (opts.first) {
        bench_progress("%s: first call on a fresh context", label);
        c->first_s = first_call(s, c, ha, hb);
    }

    int bop = op;
    bench_resolve(s->ctx, s->q, bop, dbl, 0);
    c->tuned = bench_params_of(s->ctx, bop, dbl, c->params, sizeof c->params);
    int with_default = c->tuned && opts.compare_default && session_default(s) == CLRT_OK &&
                       bench_resolve(s->ctx_def, s->q_def, bop, dbl, 1) == CLRT_OK;
    if (with_default)
        bench_params_of(s->ctx_def, bop, dbl, c->params_default, sizeof c->params_default);
    int with_clb = op == BENCH_MATMUL && opts.clblast && bench_have_clblast();
    int with_host = op == BENCH_MATMUL ? (opts.openblas && bench_have_openblas()) : opts.host;
    int host_kind = op == BENCH_MATMUL ? IMPL_OPENBLAS : IMPL_HOST;

    dev_bufs d = {0}, dd = {0}, dn = {0};
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
    int st = bufs_make(&d, s->ctx, s->q, c, ha, hb, with_clb, why, sizeof why);
    c->r[IMPL_CLRT].present = 1;
    if (st != CLRT_OK) {
        c->r[IMPL_CLRT].failed = 1;
        snprintf(c->r[IMPL_CLRT].note, sizeof c->r[IMPL_CLRT].note, "%.150s", why);
        goto done;
    }
    if (with_default && bufs_make(&dd, s->ctx_def, s->q_def, c, ha, hb, 0, why, sizeof why) != CLRT_OK)
        with_default = 0;
    if (with_nb) {
        na_host = malloc(nbc.m * nbc.k * es);
        nb_host = malloc(nbc.k * nbc.n * es);
        with_nb = na_host && nb_host;
        if (with_nb) {
            bench_fill(na_host, dbl, nbc.m * nbc.k, 3);
            bench_fill(nb_host, dbl, nbc.k * nbc.n, 4);
            with_nb = bufs_make(&dn, s->ctx, s->q, &nbc, na_host, nb_host, 0, why, sizeof why) == CLRT_OK;
        }
    }

    dev_run rc = {s->q, d.a, d.b, d.c, op}, rd = {s->q_def, dd.a, dd.b, dd.c, op}, rn = {s->q, dn.a, dn.b, dn.c, op};
    host_run rh = {op, dbl, c->m, c->n, c->k, ha, hb, hc};
    clb_run rb = {s->q, d.a, d.b, d.c2, "", 0};
    bench_impl impls[IMPL_KINDS + 1];
    int kinds[IMPL_KINDS + 1], n = 0;
    double rounds[IMPL_KINDS + 1][1000];
    impls[n] = (bench_impl){.run = run_dev, .arg = &rc, .rounds = rounds[n]};
    kinds[n++] = IMPL_CLRT;
    if (with_default) {
        impls[n] = (bench_impl){.run = run_dev, .arg = &rd, .rounds = rounds[n]};
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
    int nb_at = -1;
    if (with_nb) {
        nb_at = n;
        impls[n] = (bench_impl){.run = run_dev, .arg = &rn, .rounds = rounds[n]};
        kinds[n++] = -1;
    }
    bench_budget budget = budget_of(&opts);
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
    for (int i = 0; i < n; i++) {
        if (kinds[i] < 0)
            continue;
        bench_result *x = &c->r[kinds[i]];
        x->present = 1;
        x->st = impls[i].stats;
        x->failed = impls[i].failed;
        if (!x->failed && x->st.median > 0)
            x->rate = work / x->st.median * 1e-9;
        /* clrt's speed over each reference, round by round */
        if (i > 0)
            c->ratio[kinds[i]] = bench_paired_ratio(&impls[i], &impls[0]);
    }
    if (c->r[IMPL_CLRT].failed)
        note_status(&c->r[IMPL_CLRT], run_dev(&rc));
    if (with_default && c->r[IMPL_CLRT_DEFAULT].failed)
        note_status(&c->r[IMPL_CLRT_DEFAULT], run_dev(&rd));
    if (with_clb && c->r[IMPL_CLBLAST].failed)
        snprintf(c->r[IMPL_CLBLAST].note, sizeof c->r[IMPL_CLBLAST].note, "%s", rb.why);
    if (with_host && c->r[host_kind].failed)
        snprintf(c->r[host_kind].note, sizeof c->r[host_kind].note, "the host reference failed");

    /* results after the timing: every output is checked */
    bench_progress("%s: checking", label);
    read_check(&c->r[IMPL_CLRT], s->q, d.c, c, ha, hb, hout);
    if (with_default)
        read_check(&c->r[IMPL_CLRT_DEFAULT], s->q_def, dd.c, c, ha, hb, hout);
    if (with_clb)
        read_check(&c->r[IMPL_CLBLAST], s->q, d.c2, c, ha, hb, hout);
    if (with_host && !c->r[host_kind].failed) {
        bench_result *x = &c->r[host_kind];
        if (op == BENCH_MATMUL) {
            x->wrong = bench_check_matmul(dbl, ha, hb, hc, c->m, c->n, c->k, &x->checked);
        } else {
            x->wrong = bench_check_add(dbl, ha, hb, hc, c->n);
            x->checked = c->n;
        }
    }
    bufs_free(&d);
    bufs_free(&dd);
    bufs_free(&dn);
    free(na_host);
    free(nb_host);
done:
    free(ha);
    free(hb);
    free(hc);
    free(hout);
    progress_done++;
}

/* ---- a new process's first matmul: clrt-bench runs itself as a child */

static int child_first_call(const bench_opts *o, double t_main)
{
    size_t n = o->child_n, es = o->child_dbl ? 8 : 4;
    clrt_dtype dt = o->child_dbl ? CLRT_FLOAT64 : CLRT_FLOAT32;
    void *ha = malloc(n * n * es), *hb = malloc(n * n * es), *hc = malloc(n * n * es);
    if (!ha || !hb || !hc)
        return 1;
    double t_fill0 = bench_now();
    bench_fill(ha, o->child_dbl, n * n, 1);
    bench_fill(hb, o->child_dbl, n * n, 2);
    double t_ctx0 = bench_now();
    clrt_context *ctx = NULL;
    clrt_queue *q = NULL;
    clrt_buffer *a = NULL, *b = NULL, *c = NULL;
    int st = clrt_context_create(&ctx, o->child_device);
    double t_ctx = bench_now();
    if (st == CLRT_OK)
        st = clrt_queue_create(&q, ctx);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&a, ctx, dt, n, n);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&b, ctx, dt, n, n);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&c, ctx, dt, n, n);
    if (st == CLRT_OK)
        st = clrt_buffer_write(q, a, ha, n * n);
    if (st == CLRT_OK)
        st = clrt_buffer_write(q, b, hb, n * n);
    double t_buf = bench_now();
    if (st == CLRT_OK)
        st = clrt_matmul(q, c, a, b);
    double t_call = bench_now();
    if (st == CLRT_OK)
        st = clrt_queue_finish(q);
    double t_done = bench_now();
    size_t wrong = 1, checked = 0;
    if (st == CLRT_OK && clrt_buffer_read(q, c, hc, n * n) == CLRT_OK)
        wrong = bench_check_matmul(o->child_dbl, ha, hb, hc, n, n, n, &checked);
    if (st != CLRT_OK)
        printf("ERROR %s: %s\n", clrt_status_name(st), clrt_error_message());
    else
        printf("FIRST %.9f %.9f %.9f %.9f %.9f %.9f %.9f %d\n", t_main, t_fill0, t_ctx0, t_ctx, t_buf, t_call, t_done,
               wrong == 0);
    fflush(stdout);
    clrt_buffer_destroy(a);
    clrt_buffer_destroy(b);
    clrt_buffer_destroy(c);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    free(ha);
    free(hb);
    free(hc);
    return st == CLRT_OK ? 0 : 1;
}

/* Run the child; 0 and the times on success. cold: 1 every build cache
 * off, 2 clrt's own program cache forced on. */
static int spawn_first_call(const bench_session *s, int dbl, size_t n, int cold, double times[8], int *ok,
                            char *why, size_t cap)
{
    char nbuf[32];
    snprintf(nbuf, sizeof nbuf, "%zu", n);
    char *argv[] = {"clrt-bench", "--child-first-call", (char *)s->selector, dbl ? "f64" : "f32", nbuf, NULL};
    /* the environment, with the caches switched off for a cold run */
    size_t ne = 0;
    while (environ[ne])
        ne++;
    char **envp = calloc(ne + 3, sizeof *envp);
    if (!envp)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < ne; i++) {
        if (cold == 1 && strncmp(environ[i], "POCL_KERNEL_CACHE=", 18) == 0)
            continue;
        if (cold && strncmp(environ[i], "CLRT_CACHE=", 11) == 0)
            continue;
        envp[k++] = environ[i];
    }
    if (cold == 1) {
        envp[k++] = "CLRT_CACHE=0";
        envp[k++] = "POCL_KERNEL_CACHE=0";
    } else if (cold == 2) {
        envp[k++] = "CLRT_CACHE=1";
    }
    envp[k] = NULL;

    int fds[2];
    if (pipe(fds) != 0) {
        free(envp);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    pid_t pid;
    double t_spawn = bench_now();
    int rc = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    free(envp);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        snprintf(why, cap, "cannot start a child clrt-bench");
        return -1;
    }
    char out[4096];
    size_t used = 0;
    for (;;) {
        ssize_t got = read(fds[0], out + used, sizeof out - 1 - used);
        if (got <= 0)
            break;
        used += (size_t)got;
        if (used >= sizeof out - 1)
            break;
    }
    out[used] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    double t[7];
    const char *line = strstr(out, "FIRST ");
    if (!line || sscanf(line, "FIRST %lf %lf %lf %lf %lf %lf %lf %d", &t[0], &t[1], &t[2], &t[3], &t[4], &t[5], &t[6],
                        ok) != 8) {
        const char *err = strstr(out, "ERROR ");
        snprintf(why, cap, "the child failed%s%.150s", err ? ": " : "", err ? err + 6 : "");
        char *nl = strchr(why, '\n');
        if (nl)
            *nl = '\0';
        return -1;
    }
    times[0] = t_spawn;
    for (int i = 0; i < 7; i++)
        times[i + 1] = t[i];
    return 0;
}

/* The steady time of the n x n matmul in this run, or a short measurement. */
static double work_of(bench_session *s, size_t dev_index, int dbl, size_t n)
{
    for (size_t i = 0; i < report.ncases; i++) {
        const bench_case *c = &report.cases[i];
        if (c->device == dev_index && c->op == BENCH_MATMUL && c->dbl == dbl && c->m == n && c->n == n && c->k == n &&
            c->r[IMPL_CLRT].present && !c->r[IMPL_CLRT].failed && c->r[IMPL_CLRT].st.reps > 0)
            return c->r[IMPL_CLRT].st.median;
    }
    bench_case tmp = {0};
    tmp.op = BENCH_MATMUL;
    tmp.dbl = dbl;
    tmp.m = tmp.n = tmp.k = n;
    size_t es = dbl ? 8 : 4;
    void *ha = calloc(n * n, es), *hb = calloc(n * n, es);
    double t = -1;
    dev_bufs d;
    char why[256];
    if (ha && hb && bufs_make(&d, s->ctx, s->q, &tmp, ha, hb, 0, why, sizeof why) == CLRT_OK) {
        dev_run r = {s->q, d.a, d.b, d.c, BENCH_MATMUL};
        bench_impl impl = {.run = run_dev, .arg = &r};
        bench_budget b = {1, 3, 5, 0.2, 5};
        if (bench_measure(&impl, 1, &b) == 0)
            t = impl.stats.median;
        bufs_free(&d);
    }
    free(ha);
    free(hb);
    return t;
}

static void measure_new_process(bench_session *s, size_t dev_index, int dbl)
{
    bench_first *p = &report.devices[dev_index].first[dbl];
    memset(p, 0, sizeof *p);
    p->dbl = dbl;
    p->n = opts.first_size;
    p->cold_total = -1;
    p->forced_total = -1;
    bench_progress("device %zu: first matmul %s in a new process", s->info.index, bench_dtype_name(dbl));
    double t[8];
    int ok = 0;
    char why[200];
    /* once to be sure every cache is warm, then the measurement */
    if (spawn_first_call(s, dbl, p->n, 0, t, &ok, why, sizeof why) != 0 ||
        spawn_first_call(s, dbl, p->n, 0, t, &ok, why, sizeof why) != 0) {
        snprintf(p->note, sizeof p->note, "%s", why);
        return;
    }
    /* t: spawn, main, fill0, ctx0, ctx, buf, call, done */
    double fill = t[3] - t[2];
    p->spawn_to_main = t[1] - t[0];
    p->context = t[4] - t[3];
    p->buffers = t[5] - t[4];
    p->call = t[6] - t[5];
    p->finish = t[7] - t[6];
    p->total = (t[7] - t[1]) - fill; /* from main(): this binary's own start (OpenBLAS, CLBlast) is not clrt's */
    p->work = work_of(s, dev_index, dbl, p->n);
    p->overhead = p->total - (p->work > 0 ? p->work : 0);
    p->ok = ok;
    p->measured = 1;
    if (opts.cold) {
        bench_progress("device %zu: first matmul %s in a new process, caches off", s->info.index,
                       bench_dtype_name(dbl));
        if (spawn_first_call(s, dbl, p->n, 1, t, &ok, why, sizeof why) == 0) {
            p->cold_total = (t[7] - t[1]) - (t[3] - t[2]);
            p->cold_overhead = p->cold_total - (p->work > 0 ? p->work : 0);
        }
    }
    if (opts.forced_cache) {
        bench_progress("device %zu: first matmul %s in a new process, clrt's cache on", s->info.index,
                       bench_dtype_name(dbl));
        /* once to fill clrt's cache, then the measurement */
        if (spawn_first_call(s, dbl, p->n, 2, t, &ok, why, sizeof why) == 0 &&
            spawn_first_call(s, dbl, p->n, 2, t, &ok, why, sizeof why) == 0) {
            p->forced_total = (t[7] - t[1]) - (t[3] - t[2]);
            p->forced_call = t[6] - t[5];
            p->forced_overhead = p->forced_total - (p->work > 0 ? p->work : 0);
        }
    }
}

/* ---- per-operation overhead of a tiny add, pipelined, against a raw
 * OpenCL enqueue of the very same cl_kernel */

static void measure_overhead(bench_session *s, size_t dev_index)
{
    bench_overhead *o = &report.devices[dev_index].overhead;
    memset(o, 0, sizeof *o);
    o->n = opts.overhead_n;
    o->ops = opts.overhead_ops;
    bench_progress("device %zu: tiny-add overhead", s->info.index);
    clrt_buffer *a = NULL, *b = NULL, *c = NULL;
    float *h = calloc(o->n, sizeof *h);
    int st = h ? clrt_buffer_create(&a, s->ctx, CLRT_FLOAT32, 1, o->n) : CLRT_ENOMEM;
    if (st == CLRT_OK)
        st = clrt_buffer_create(&b, s->ctx, CLRT_FLOAT32, 1, o->n);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&c, s->ctx, CLRT_FLOAT32, 1, o->n);
    if (st == CLRT_OK)
        st = clrt_buffer_write(s->q, a, h, o->n);
    if (st == CLRT_OK)
        st = clrt_buffer_write(s->q, b, h, o->n);
    if (st == CLRT_OK)
        st = clrt_add(s->q, c, a, b);
    if (st == CLRT_OK)
        st = clrt_queue_finish(s->q);
    if (st != CLRT_OK) {
        snprintf(o->note, sizeof o->note, "%s: %.120s", clrt_status_name(st), clrt_error_message());
        goto done;
    }
    /* The very same compiled kernel, as a second cl_kernel of clrt's program,
     * so that the raw calls leave the argument state of clrt's own alone. */
    clrt_op_kernel *k = &s->ctx->ops[CLRT_OP_ADD][0];
    cl_program program = NULL;
    cl_int e = clGetKernelInfo(k->kernel, CL_KERNEL_PROGRAM, sizeof program, &program, NULL);
    cl_kernel kernel = e == CL_SUCCESS ? clCreateKernel(program, "add", &e) : NULL;
    if (!kernel) {
        snprintf(o->note, sizeof o->note, "cannot make a raw kernel (%d)", (int)e);
        goto done;
    }
    cl_command_queue cq = clrt_queue_cl(s->q);
    cl_mem ma = clrt_buffer_cl(a), mb = clrt_buffer_cl(b), mc = clrt_buffer_cl(c);
    cl_ulong n = o->n;
    size_t global[1], local[1];
    clrt_add_geometry(&k->params.add, o->n, global, local);

    /* Blocks of ops operations, clrt and raw in turn, many rounds: the
     * per-round ratios cancel the machine's drift; their median is reported. */
    enum { MAX_ROUNDS = 31 };
    int rounds = opts.quick ? 7 : MAX_ROUNDS;
    double tc[MAX_ROUNDS], tr[MAX_ROUNDS], ta[MAX_ROUNDS], ratio[MAX_ROUNDS];
    int failed = 0;
    e = clSetKernelArg(kernel, 0, sizeof n, &n);
    e |= clSetKernelArg(kernel, 1, sizeof ma, &ma);
    e |= clSetKernelArg(kernel, 2, sizeof mb, &mb);
    e |= clSetKernelArg(kernel, 3, sizeof mc, &mc);
    for (int round = 0; round < rounds && !failed && e == CL_SUCCESS; round++) {
        double t0 = bench_now();
        for (int i = 0; i < o->ops && !failed; i++)
            failed = clrt_add(s->q, c, a, b) != CLRT_OK;
        failed |= clrt_queue_finish(s->q) != CLRT_OK;
        tc[round] = (bench_now() - t0) / o->ops;

        /* raw, arguments set once */
        t0 = bench_now();
        for (int i = 0; i < o->ops && e == CL_SUCCESS; i++)
            e = clEnqueueNDRangeKernel(cq, kernel, 1, NULL, global, local, 0, NULL, NULL);
        e |= clFinish(cq);
        tr[round] = (bench_now() - t0) / o->ops;

        /* raw, arguments set for every operation */
        t0 = bench_now();
        for (int i = 0; i < o->ops && e == CL_SUCCESS; i++) {
            e = clSetKernelArg(kernel, 0, sizeof n, &n);
            e |= clSetKernelArg(kernel, 1, sizeof ma, &ma);
            e |= clSetKernelArg(kernel, 2, sizeof mb, &mb);
            e |= clSetKernelArg(kernel, 3, sizeof mc, &mc);
            e |= clEnqueueNDRangeKernel(cq, kernel, 1, NULL, global, local, 0, NULL, NULL);
        }
        e |= clFinish(cq);
        ta[round] = (bench_now() - t0) / o->ops;
        ratio[round] = tr[round] > 0 ? tc[round] / tr[round] : 0;
    }
    clReleaseKernel(kernel);
    if (e != CL_SUCCESS) {
        snprintf(o->note, sizeof o->note, "a raw OpenCL call failed (%d)", (int)e);
    } else if (failed) {
        snprintf(o->note, sizeof o->note, "clrt_add failed: %.120s", clrt_error_message());
    } else {
        bench_stats sc, sr, sa, sq;
        bench_stats_of(tc, rounds, &sc);
        bench_stats_of(tr, rounds, &sr);
        bench_stats_of(ta, rounds, &sa);
        bench_stats_of(ratio, rounds, &sq);
        o->clrt_op = sc.median;
        o->raw_op = sr.median;
        o->raw_args_op = sa.median;
        o->ratio = sq.median;
        o->rounds = rounds;
        o->measured = 1;
    }
done:
    clrt_buffer_destroy(a);
    clrt_buffer_destroy(b);
    clrt_buffer_destroy(c);
    free(h);
}

/* ---- devices */

static int select_devices(void)
{
    clrt_device_entry *devs = NULL;
    size_t n = 0;
    int st = clrt__device_enumerate(&devs, &n);
    if (st != CLRT_OK) {
        fprintf(stderr, "clrt-bench: %s\n", clrt_error_message());
        return -1;
    }
    int want[64] = {0};
    if (n > 64)
        n = 64;
    if (opts.ndevices == 0) {
        for (size_t i = 0; i < n; i++)
            want[i] = devs[i].facts.emulator ? 2 : 1;
    }
    for (size_t s = 0; s < opts.ndevices; s++) {
        if (strcmp(opts.devices[s], "all") == 0) {
            for (size_t i = 0; i < n; i++)
                want[i] = 1;
            continue;
        }
        clrt_selector sel;
        clrt__selector_parse(opts.devices[s], &sel);
        long pick = sel.kind == CLRT_SEL_MALFORMED ? -1 : clrt__selector_pick(&sel, devs, n);
        if (pick < 0) {
            fprintf(stderr, "clrt-bench: no device matches '%s' (clrt-bench --list shows them)\n", opts.devices[s]);
            free(devs);
            return -1;
        }
        want[pick] = 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (!want[i])
            continue;
        bench_device *d = &report.devices[report.ndevices++];
        d->info = devs[i].info;
        d->emulator = devs[i].facts.emulator;
        if (want[i] == 2) {
            d->skipped = 1;
            snprintf(d->note, sizeof d->note,
                     "a checking or emulating device; select it with --device %zu (or --device all)", devs[i].info.index);
        }
    }
    free(devs);
    return 0;
}

static void list_devices(void)
{
    size_t n = 0;
    clrt_device_info info[64];
    if (clrt_device_list(info, 64, &n) != CLRT_OK) {
        fprintf(stderr, "clrt-bench: %s\n", clrt_error_message());
        return;
    }
    if (n == 0)
        printf("no OpenCL device (install a driver such as POCL)\n");
    for (size_t i = 0; i < n && i < 64; i++)
        printf("%zu  [%u:%u]  %s  (%s, driver %s)%s\n", info[i].index, info[i].platform_index, info[i].device_index,
               info[i].name, info[i].platform, info[i].driver, info[i].has_fp64 ? "" : "  no fp64");
}

static void fill_report_header(int argc, char **argv)
{
    size_t used = 0;
    for (int i = 0; i < argc && used < sizeof report.command - 1; i++) {
        const char *arg = i == 0 ? "clrt-bench" : argv[i];
        int w = snprintf(report.command + used, sizeof report.command - used, "%s%s", i ? " " : "", arg);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(report.date, sizeof report.date, "%Y-%m-%d %H:%M:%S %Z", &tm);
    if (gethostname(report.host, sizeof report.host) != 0)
        snprintf(report.host, sizeof report.host, "?");
    report.host[sizeof report.host - 1] = '\0';
    report.clrt_version = clrt_version();
    report.built_openblas = bench_have_openblas();
    report.built_clblast = bench_have_clblast();
    report.have_openblas = opts.openblas && bench_have_openblas();
    if (report.have_openblas) {
        snprintf(report.openblas_core, sizeof report.openblas_core, "%s", bench_openblas_core());
        snprintf(report.openblas_config, sizeof report.openblas_config, "%s", bench_openblas_config());
        report.openblas_threads = bench_openblas_threads();
        report.openblas_core_older = bench_openblas_core_older();
        const char *env = getenv("OPENBLAS_CORETYPE");
        snprintf(report.openblas_coretype_env, sizeof report.openblas_coretype_env, "%s", env ? env : "");
    }
    report.have_clblast = opts.clblast && bench_have_clblast();
    if (report.have_clblast)
        snprintf(report.clblast_version, sizeof report.clblast_version, "%s", bench_clblast_version());
    report.have_host = opts.host;
    report.host_threads = opts.host_threads;
}

int main(int argc, char **argv)
{
    double t_main = bench_now();
    int rc = bench_opts_parse(&opts, argc, argv);
    if (rc == 1)
        return 0;
    if (rc != 0)
        return 2;
    if (opts.child_mode)
        return child_first_call(&opts, t_main);
    if (opts.list) {
        list_devices();
        return 0;
    }
    progress_on = opts.progress < 0 ? isatty(2) : opts.progress;
    fill_report_header(argc, argv);
    if (select_devices() != 0)
        return 1;
    if (opts.host && bench_host_add_start(opts.host_threads) != 0) {
        fprintf(stderr, "clrt-bench: cannot start the host add threads\n");
        return 1;
    }
    int dtypes = opts.run_f32 + opts.run_f64;
    progress_total = 0;
    for (size_t d = 0; d < report.ndevices && opts.tune != 2; d++)
        if (!report.devices[d].skipped)
            progress_total += (size_t)dtypes * ((opts.run_matmul ? opts.nmatmul : 0) + (opts.run_add ? opts.nadd : 0));

    int failures = 0;
    for (size_t d = 0; d < report.ndevices; d++) {
        bench_device *dev = &report.devices[d];
        if (dev->skipped)
            continue;
        bench_session s;
        if (bench_session_open(&s, &dev->info) != CLRT_OK) {
            snprintf(dev->note, sizeof dev->note, "cannot open a context: %.200s", s.error);
            dev->skipped = 1;
            failures++;
            continue;
        }
        if (opts.tune) {
            bench_tune_device(&s, d, &opts, &report);
            /* a fresh context, so that the tuned file is what it runs with */
            bench_session_close(&s);
            if (bench_session_open(&s, &dev->info) != CLRT_OK) {
                dev->skipped = 1;
                failures++;
                continue;
            }
            if (opts.tune == 2) {
                bench_session_close(&s);
                continue;
            }
        }
        for (int dbl = 0; dbl < 2; dbl++) {
            if (!(dbl ? opts.run_f64 : opts.run_f32))
                continue;
            if (dbl && !dev->info.has_fp64) {
                snprintf(dev->note, sizeof dev->note, "no fp64 on this device: f64 cases skipped");
                continue;
            }
            if (opts.run_matmul)
                for (size_t i = 0; i < opts.nmatmul; i++)
                    run_case(&s, d, BENCH_MATMUL, dbl, opts.matmul[i]);
            if (opts.run_add)
                for (size_t i = 0; i < opts.nadd; i++) {
                    bench_shape sh = {1, opts.add[i], 0};
                    run_case(&s, d, BENCH_ADD, dbl, sh);
                }
            if (opts.run_matmul && opts.child)
                measure_new_process(&s, d, dbl);
        }
        if (opts.overhead && opts.run_add)
            measure_overhead(&s, d);
        bench_session_close(&s);
    }
    progress_end();
    if (opts.host)
        bench_host_add_stop();

    /* clrt failing or wrong fails the run; a reference failing is only noted */
    for (size_t i = 0; i < report.ncases; i++)
        for (int k = IMPL_CLRT; k <= IMPL_CLRT_DEFAULT; k++) {
            const bench_result *x = &report.cases[i].r[k];
            if (x->present && (x->failed || x->wrong))
                failures++;
        }
    for (size_t d = 0; d < report.ndevices; d++)
        for (int dbl = 0; dbl < 2; dbl++)
            if (report.devices[d].first[dbl].measured && !report.devices[d].first[dbl].ok)
                failures++;
    report.quiet = *bench_quiet_stats();
    if (opts.format == BENCH_JSON)
        bench_print_json(stdout, &report);
    else if (opts.format == BENCH_CSV)
        bench_print_csv(stdout, &report);
    else
        bench_print_table(stdout, &report);
    fflush(stdout);
    int plot_failed = opts.plot && bench_plot(&report, opts.plot) != 0;
    bench_report_free(&report);
    if (failures)
        fprintf(stderr, "clrt-bench: %d failure(s): see the notes in the output\n", failures);
    return failures ? 1 : plot_failed ? 3 : 0;
}
