/* clrt-bench's hold on one device (see bench/measure/session.h). */
#include "measure/session.h"

#include <stdio.h>
#include <string.h>

#include <clrt/clrt_tune.h>

#include "reference/clblast.h"

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

const char *bench_kernel_name(int op) { return bench_op_kernel(op); }

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

static int run_op(const bench_dev_run *r)
{
    if (r->copy)
        return clrt_copy(r->q, r->c, r->a);
    switch (r->op) {
    case BENCH_MATMUL:
        if (r->alpha == 0 && r->beta == 0 && !r->ta && !r->tb)
            return clrt_matmul(r->q, r->c, r->a, r->b);
        return clrt_gemm(r->q, r->ta ? CLRT_TRANS : CLRT_NO_TRANS, r->tb ? CLRT_TRANS : CLRT_NO_TRANS,
                         r->alpha == 0 && r->beta == 0 ? 1.0 : r->alpha, r->a, r->b, r->beta, r->c);
    case BENCH_ADD:
        return clrt_add(r->q, r->c, r->a, r->b);
    case BENCH_MUL:
        return clrt_binary(r->q, CLRT_OP_MUL, r->c, r->a, r->b);
    case BENCH_BIAS: /* b is one row: added to every row of a */
        return clrt_binary(r->q, CLRT_OP_ADD, r->c, r->a, r->b);
    case BENCH_RELU:
        return clrt_unary(r->q, CLRT_OP_RELU, r->c, r->a);
    case BENCH_SIGMOID:
        return clrt_unary(r->q, CLRT_OP_SIGMOID, r->c, r->a);
    case BENCH_AXPBY:
        return clrt_axpby(r->q, BENCH_AXPBY_ALPHA, r->a, BENCH_AXPBY_BETA, r->b);
    case BENCH_SUM:
        return clrt_reduce(r->q, CLRT_REDUCE_SUM, CLRT_ALL, r->c, r->a);
    case BENCH_ROWSUM:
        return clrt_reduce(r->q, CLRT_REDUCE_SUM, CLRT_EACH_ROW, r->c, r->a);
    case BENCH_COLSUM:
        return clrt_reduce(r->q, CLRT_REDUCE_SUM, CLRT_EACH_COL, r->c, r->a);
    case BENCH_ARGMAX:
        return clrt_argmax_rows(r->q, r->c, r->a);
    case BENCH_TRANSPOSE:
        return clrt_transpose(r->q, r->c, r->a);
    default:
        return CLRT_EINVAL;
    }
}

int bench_run_dev(void *arg)
{
    bench_dev_run *r = arg;
    int st = run_op(r);
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

bench_shapes bench_shapes_of(const bench_case *c)
{
    bench_shapes s = {0};
    const size_t m = c->m, n = c->n;
    s.ar = m;
    s.ac = n;
    if (c->op == BENCH_MATMUL) {
        /* op(A) m x k, op(B) k x n, stored transposed when ta / tb */
        s.ar = c->ta ? c->k : m;
        s.ac = c->ta ? m : c->k;
        s.br = c->tb ? n : c->k;
        s.bc = c->tb ? c->k : n;
        s.cr = m;
        s.cc = n;
        return s;
    }
    switch (c->op) {
    case BENCH_ADD:
    case BENCH_MUL:
    case BENCH_AXPBY:
        s.br = m;
        s.bc = n;
        break;
    case BENCH_BIAS:
        s.br = 1;
        s.bc = n;
        break;
    default:
        break;
    }
    switch (c->op) {
    case BENCH_AXPBY: /* y (b) in place */
        break;
    case BENCH_SUM:
        s.cr = s.cc = 1;
        break;
    case BENCH_ROWSUM:
    case BENCH_ARGMAX:
        s.cr = m;
        s.cc = 1;
        s.c_int32 = c->op == BENCH_ARGMAX;
        break;
    case BENCH_COLSUM:
        s.cr = 1;
        s.cc = n;
        break;
    case BENCH_TRANSPOSE:
        s.cr = n;
        s.cc = m;
        break;
    default:
        s.cr = m;
        s.cc = n;
        break;
    }
    return s;
}

int bench_bufs_make(bench_bufs *d, clrt_context *ctx, clrt_queue *q, const bench_case *c, const void *ha,
                    const void *hb, int with_c2, int view, char *why, size_t cap)
{
    memset(d, 0, sizeof *d);
    clrt_dtype dt = c->dbl ? CLRT_FLOAT64 : CLRT_FLOAT32;
    const bench_shapes sh = bench_shapes_of(c);
    int st = make_one(ctx, dt, sh.ar, sh.ac, view, &d->parents[0], &d->a);
    if (st == CLRT_OK && sh.br)
        st = make_one(ctx, dt, sh.br, sh.bc, view, &d->parents[1], &d->b);
    if (st == CLRT_OK && sh.cr)
        st = make_one(ctx, sh.c_int32 ? CLRT_INT32 : dt, sh.cr, sh.cc, view, &d->parents[2], &d->c);
    if (st == CLRT_OK && with_c2) /* CLBlast's product, or the copy of a */
        st = c->op == BENCH_MATMUL ? clrt_buffer_create(&d->c2, ctx, dt, sh.cr, sh.cc)
                                   : clrt_buffer_create(&d->c2, ctx, dt, sh.ar, sh.ac);
    /* clrt_buffer_write blocks until the copy is done: nothing to finish after */
    if (st == CLRT_OK)
        st = clrt_buffer_write(q, d->a, ha, sh.ar * sh.ac);
    if (st == CLRT_OK && sh.br)
        st = clrt_buffer_write(q, d->b, hb, sh.br * sh.bc);
    if (st != CLRT_OK) {
        snprintf(why, cap, "%s: %s", clrt_status_name(st), clrt_error_message());
        bench_bufs_free(d);
    }
    return st;
}
