/* clrt-bench's hold on one device (see bench_session.h). */
#include "bench_session.h"

#include <stdio.h>
#include <string.h>

#include "debug.h"
#include "internal.h"
#include "tuned.h"

#include "bench_clblast.h"

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

int bench_session_default(bench_session *s)
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

int bench_run_dev(void *arg)
{
    bench_dev_run *r = arg;
    int st = r->op == BENCH_MATMUL ? clrt_matmul(r->q, r->c, r->a, r->b) : clrt_add(r->q, r->c, r->a, r->b);
    if (st == CLRT_OK)
        st = clrt_queue_finish(r->q);
    return st;
}

void bench_bufs_free(bench_bufs *d)
{
    clrt_buffer_destroy(d->a);
    clrt_buffer_destroy(d->b);
    clrt_buffer_destroy(d->c);
    clrt_buffer_destroy(d->c2);
    memset(d, 0, sizeof *d);
}

int bench_bufs_make(bench_bufs *d, clrt_context *ctx, clrt_queue *q, const bench_case *c, const void *ha,
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
        bench_bufs_free(d);
    }
    return st;
}
