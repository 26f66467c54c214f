/* clrt-bench's hold on one device (see bench_session.h). */
#include "bench_session.h"

#include <stdio.h>
#include <string.h>

#include <clrt/clrt_tune.h>

#include "bench_clblast.h"

int bench_open(const char *selector, clrt_context **ctx, clrt_queue **q, char *why, size_t cap)
{
    *ctx = NULL;
    *q = NULL;
    int st = clrt_context_create(ctx, selector);
    if (st == CLRT_OK)
        st = clrt_queue_create(q, *ctx);
    if (st != CLRT_OK) {
        /* the message first: it is clrt's last, and the clean-up may make another */
        if (why)
            snprintf(why, cap, "%s: %s", clrt_status_name(st), clrt_error_message());
        bench_close(ctx, q);
    }
    return st;
}

void bench_close(clrt_context **ctx, clrt_queue **q)
{
    clrt_queue_destroy(*q);
    clrt_context_destroy(*ctx);
    *q = NULL;
    *ctx = NULL;
}

int bench_session_open(bench_session *s, const clrt_device_info *info)
{
    memset(s, 0, sizeof *s);
    s->info = *info;
    snprintf(s->selector, sizeof s->selector, "%zu", info->index);
    return bench_open(s->selector, &s->ctx, &s->q, s->error, sizeof s->error);
}

int bench_session_default(bench_session *s)
{
    if (s->ctx_def)
        return CLRT_OK;
    return bench_open(s->selector, &s->ctx_def, &s->q_def, NULL, 0);
}

void bench_session_close(bench_session *s)
{
    bench_clblast_clear();
    bench_close(&s->ctx, &s->q);
    bench_close(&s->ctx_def, &s->q_def);
}

const char *bench_kernel_name(int op) { return op == BENCH_MATMUL ? "matmul" : "elementwise"; }

static clrt_dtype dtype_of(int dbl) { return dbl ? CLRT_FLOAT64 : CLRT_FLOAT32; }

void bench_params_default(clrt_context *ctx, int op, int dbl, char *buf, size_t cap)
{
    if (clrt_tune_defaults(ctx, bench_kernel_name(op), dtype_of(dbl), buf, cap) != CLRT_OK)
        snprintf(buf, cap, "(unknown: %.100s)", clrt_error_message());
}

int bench_resolve(clrt_context *ctx, int op, int dbl, const char *force)
{
    if (force)
        return clrt_tune_override(ctx, bench_kernel_name(op), dtype_of(dbl), force);
    char buf[256];
    return clrt_tune_current(ctx, bench_kernel_name(op), dtype_of(dbl), buf, sizeof buf, NULL);
}

int bench_params_of(clrt_context *ctx, int op, int dbl, char *buf, size_t cap)
{
    clrt_params_origin origin = CLRT_PARAMS_DEFAULT;
    if (clrt_tune_current(ctx, bench_kernel_name(op), dtype_of(dbl), buf, cap, &origin) != CLRT_OK) {
        snprintf(buf, cap, "(not built)");
        return 0;
    }
    return origin == CLRT_PARAMS_TUNED;
}

int bench_run_dev(void *arg)
{
    bench_dev_run *r = arg;
    int st;
    if (r->op == BENCH_MATMUL)
        st = r->alpha == 0 && r->beta == 0 && !r->ta && !r->tb
                 ? clrt_matmul(r->q, r->c, r->a, r->b)
                 : clrt_gemm(r->q, r->ta ? CLRT_TRANS : CLRT_NO_TRANS, r->tb ? CLRT_TRANS : CLRT_NO_TRANS,
                             r->alpha == 0 && r->beta == 0 ? 1.0 : r->alpha, r->a, r->b, r->beta, r->c);
    else
        st = clrt_add(r->q, r->c, r->a, r->b);
    if (st == CLRT_OK)
        st = clrt_queue_finish(r->q);
    r->status = st;
    if (st != CLRT_OK)
        snprintf(r->why, sizeof r->why, "%s: %.130s", clrt_status_name(st), clrt_error_message());
    return st;
}

void bench_bufs_free(bench_bufs *d)
{
    clrt_buffer_destroy(d->a);
    clrt_buffer_destroy(d->b);
    clrt_buffer_destroy(d->c);
    clrt_buffer_destroy(d->c2);
    for (int i = 0; i < 3; i++)
        clrt_buffer_destroy(d->parents[i]);
    memset(d, 0, sizeof *d);
}

/* rows x cols, plain or (view) a window of a larger parent */
static int make_one(clrt_context *ctx, clrt_dtype dt, size_t rows, size_t cols, int view, clrt_buffer **parent,
                    clrt_buffer **out)
{
    if (!view)
        return clrt_buffer_create(out, ctx, dt, rows, cols);
    int st = clrt_buffer_create(parent, ctx, dt, rows + 2, cols + 5);
    return st == CLRT_OK ? clrt_buffer_view(out, *parent, 1, 3, rows, cols) : st;
}

int bench_bufs_make(bench_bufs *d, clrt_context *ctx, clrt_queue *q, const bench_case *c, const void *ha,
                    const void *hb, int with_c2, int view, char *why, size_t cap)
{
    memset(d, 0, sizeof *d);
    clrt_dtype dt = c->dbl ? CLRT_FLOAT64 : CLRT_FLOAT32;
    const int mm = c->op == BENCH_MATMUL;
    size_t ar = mm ? c->m : 1, ac = mm ? c->k : c->n;
    size_t br = mm ? c->k : 1, bc = c->n;
    size_t cr = mm ? c->m : 1, cc = c->n;
    if (mm && c->ta) { /* stored transposed */
        ar = c->k;
        ac = c->m;
    }
    if (mm && c->tb) {
        br = c->n;
        bc = c->k;
    }
    int st = make_one(ctx, dt, ar, ac, view, &d->parents[0], &d->a);
    if (st == CLRT_OK)
        st = make_one(ctx, dt, br, bc, view, &d->parents[1], &d->b);
    if (st == CLRT_OK)
        st = make_one(ctx, dt, cr, cc, view, &d->parents[2], &d->c);
    if (st == CLRT_OK && with_c2)
        st = clrt_buffer_create(&d->c2, ctx, dt, cr, cc);
    /* clrt_buffer_write blocks until the copy is done: nothing to finish after */
    if (st == CLRT_OK)
        st = clrt_buffer_write(q, d->a, ha, ar * ac);
    if (st == CLRT_OK)
        st = clrt_buffer_write(q, d->b, hb, br * bc);
    if (st != CLRT_OK) {
        snprintf(why, cap, "%s: %s", clrt_status_name(st), clrt_error_message());
        bench_bufs_free(d);
    }
    return st;
}
