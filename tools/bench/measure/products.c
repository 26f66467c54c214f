/* clrt-bench --op products (see bench/measure/products.h). */
#include "measure/products.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/products_half.h"
#include "reference/host_ref.h"

/* A strided batch of count m x n x k float products, stacked by rows, with
 * a view per matrix for the loop of single products. */
typedef struct batch_job {
    clrt_queue *q;
    size_t m, n, k, count;
    clrt_buffer *a, *b, *c;
    clrt_buffer **va, **vb, **vc;
    float *ha, *hb, *hc; /* host copies: OpenBLAS's operands and the check */
    int status;          /* the first clrt status that failed */
} batch_job;

static int run_batched(void *arg)
{
    batch_job *j = arg;
    int st = clrt_gemm_strided_batched(j->q, CLRT_NO_TRANS, CLRT_NO_TRANS, j->m, j->n, j->k, 1.0, j->a, j->m, j->b,
                                       j->k, 0.0, j->c, j->m, j->count);
    if (st == CLRT_OK)
        st = clrt_queue_finish(j->q);
    j->status = j->status ? j->status : st;
    return st != CLRT_OK;
}

static int run_loop(void *arg)
{
    batch_job *j = arg;
    int st = CLRT_OK;
    for (size_t i = 0; i < j->count && st == CLRT_OK; i++)
        st = clrt_gemm(j->q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.0, j->va[i], j->vb[i], 0.0, j->vc[i]);
    if (st == CLRT_OK)
        st = clrt_queue_finish(j->q);
    j->status = j->status ? j->status : st;
    return st != CLRT_OK;
}

static int run_openblas(void *arg)
{
    batch_job *j = arg;
    const size_t mk = j->m * j->k, kn = j->k * j->n, mn = j->m * j->n;
    for (size_t i = 0; i < j->count; i++)
        if (bench_host_gemm(0, 0, 0, j->m, j->n, j->k, j->ha + i * mk, j->hb + i * kn, j->hc + i * mn) != 0)
            return 1;
    return 0;
}

static int wake_openblas(void *arg)
{
    (void)arg;
    return bench_host_gemm_wake(0);
}

static bench_budget budget_of(const bench_opts *o)
{
    return (bench_budget){o->warmup, o->min_reps, o->max_reps, o->min_time, o->max_time};
}

/* The operands on the device (and a view per matrix), from the host copies. */
static int batch_make(batch_job *j, bench_session *s)
{
    const size_t m = j->m, n = j->n, k = j->k, count = j->count;
    j->ha = malloc(count * m * k * sizeof *j->ha);
    j->hb = malloc(count * k * n * sizeof *j->hb);
    j->hc = malloc(count * m * n * sizeof *j->hc);
    j->va = calloc(count, sizeof *j->va);
    j->vb = calloc(count, sizeof *j->vb);
    j->vc = calloc(count, sizeof *j->vc);
    if (!j->ha || !j->hb || !j->hc || !j->va || !j->vb || !j->vc)
        return CLRT_ENOMEM;
    clrt__ref_fill(j->ha, CLRT_FLOAT32, count * m * k, 1);
    clrt__ref_fill(j->hb, CLRT_FLOAT32, count * k * n, 2);
    int st = clrt_buffer_create(&j->a, s->ctx, CLRT_FLOAT32, count * m, k);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&j->b, s->ctx, CLRT_FLOAT32, count * k, n);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&j->c, s->ctx, CLRT_FLOAT32, count * m, n);
    if (st == CLRT_OK)
        st = clrt_buffer_write(s->q, j->a, j->ha, count * m * k);
    if (st == CLRT_OK)
        st = clrt_buffer_write(s->q, j->b, j->hb, count * k * n);
    for (size_t i = 0; i < count && st == CLRT_OK; i++) {
        st = clrt_buffer_view(&j->va[i], j->a, i * m, 0, m, k);
        if (st == CLRT_OK)
            st = clrt_buffer_view(&j->vb[i], j->b, i * k, 0, k, n);
        if (st == CLRT_OK)
            st = clrt_buffer_view(&j->vc[i], j->c, i * m, 0, m, n);
    }
    return st;
}

static void batch_free(batch_job *j)
{
    for (size_t i = 0; i < j->count; i++) {
        if (j->va)
            clrt_buffer_destroy(j->va[i]);
        if (j->vb)
            clrt_buffer_destroy(j->vb[i]);
        if (j->vc)
            clrt_buffer_destroy(j->vc[i]);
    }
    clrt_buffer_destroy(j->a);
    clrt_buffer_destroy(j->b);
    clrt_buffer_destroy(j->c);
    free(j->va);
    free(j->vb);
    free(j->vc);
    free(j->ha);
    free(j->hb);
    free(j->hc);
}

/* clrt's batch once more, read back: its first and last matrices against the
 * host reference in double. */
static void batch_check(batch_job *j, bench_product *r)
{
    float *c = malloc(j->count * j->m * j->n * sizeof *c);
    if (!c || run_batched(j) || clrt_buffer_read(j->q, j->c, c, j->count * j->m * j->n) != CLRT_OK) {
        snprintf(r->note, sizeof r->note, "cannot check the result: %s", c ? clrt_error_message() : "no memory");
        r->wrong = 1;
        free(c);
        return;
    }
    const size_t at[2] = {0, j->count - 1};
    for (int t = 0; t < 2; t++) {
        const size_t i = at[t];
        const clrt__ref_gemm g = {.dtype = CLRT_FLOAT32, .M = j->m, .N = j->n, .K = j->k, .alpha = 1.0,
                                  .a = j->ha + i * j->m * j->k, .b = j->hb + i * j->k * j->n,
                                  .c = c + i * j->m * j->n, .lda = j->k, .ldb = j->n, .ldc = j->n};
        r->wrong += clrt__ref_gemm_ex_wrong(&g, NULL);
        r->checked += j->m * j->n;
    }
    free(c);
}

static void batched_row(bench_product *r, const bench_opts *opts, bench_session *s, size_t count, size_t dim)
{
    batch_job j = {.q = s->q, .m = dim, .n = dim, .k = dim, .count = count};
    snprintf(r->name, sizeof r->name, "strided batched");
    snprintf(r->shape, sizeof r->shape, "%zu x %zux%zux%zu", count, dim, dim, dim);
    snprintf(r->dtype, sizeof r->dtype, "float32");
    snprintf(r->loop_what, sizeof r->loop_what, "a clrt_gemm per matrix");
    r->flop = 2.0 * (double)count * (double)dim * (double)dim * (double)dim;
    int st = batch_make(&j, s);
    if (st != CLRT_OK) {
        snprintf(r->note, sizeof r->note, "cannot make the operands: %s", clrt_error_message());
        batch_free(&j);
        return;
    }
    bench_impl impls[3] = {{.run = run_batched, .arg = &j}, {.run = run_loop, .arg = &j},
                           {.run = run_openblas, .arg = &j, .spins = 1, .prime = wake_openblas}};
    const size_t n = opts->openblas && bench_have_openblas() ? 3 : 2;
    const bench_budget budget = budget_of(opts);
    double rounds[3][BENCH_MAX_ROUNDS];
    for (size_t i = 0; i < n; i++)
        impls[i].rounds = rounds[i];
    bench_measure(impls, n, &budget);
    if (impls[0].failed || impls[1].failed)
        snprintf(r->note, sizeof r->note, "failed: %s (%s)", clrt_status_name(j.status), clrt_error_message());
    r->clrt = impls[0].stats;
    r->loop = impls[1].stats;
    r->vs_loop = bench_paired_ratio(&impls[1], &impls[0]);
    if (n == 3 && !impls[2].failed) {
        r->openblas = impls[2].stats;
        r->vs_openblas = bench_paired_ratio(&impls[2], &impls[0]);
    }
    if (!impls[0].failed)
        batch_check(&j, r);
    batch_free(&j);
}

/* A linear layer's forward pass, y = relu(x w^T + b): x batch x in, w out x in. */
typedef struct linear_job {
    clrt_queue *q;
    clrt_buffer *x, *w, *b, *y;
    int status;
} linear_job;

static int run_fused(void *arg)
{
    linear_job *j = arg;
    const clrt_epilogue ep = {j->b, CLRT_ACT_RELU};
    int st = clrt_gemm_ex(j->q, CLRT_NO_TRANS, CLRT_TRANS, 1.0, j->x, j->w, 0.0, j->y, &ep);
    if (st == CLRT_OK)
        st = clrt_queue_finish(j->q);
    j->status = j->status ? j->status : st;
    return st != CLRT_OK;
}

static int run_unfused(void *arg)
{
    linear_job *j = arg;
    int st = clrt_gemm(j->q, CLRT_NO_TRANS, CLRT_TRANS, 1.0, j->x, j->w, 0.0, j->y);
    if (st == CLRT_OK)
        st = clrt_binary(j->q, CLRT_OP_ADD, j->y, j->y, j->b);
    if (st == CLRT_OK)
        st = clrt_unary(j->q, CLRT_OP_RELU, j->y, j->y);
    if (st == CLRT_OK)
        st = clrt_queue_finish(j->q);
    j->status = j->status ? j->status : st;
    return st != CLRT_OK;
}

/* Host inputs, the device's operands, and after the timing clrt's fused result
 * against the host reference in double. */
static void linear_row(bench_product *r, const bench_opts *opts, bench_session *s, size_t batch, size_t in,
                       size_t out)
{
    linear_job j = {.q = s->q};
    snprintf(r->name, sizeof r->name, "linear bias+relu");
    snprintf(r->shape, sizeof r->shape, "%zux%zu -> %zu", batch, in, out);
    snprintf(r->dtype, sizeof r->dtype, "float32");
    snprintf(r->loop_what, sizeof r->loop_what, "clrt_gemm, bias add, relu");
    r->flop = 2.0 * (double)batch * (double)in * (double)out;
    float *hx = malloc(batch * in * sizeof *hx), *hw = malloc(out * in * sizeof *hw);
    float *hb = malloc(out * sizeof *hb), *hy = malloc(batch * out * sizeof *hy);
    int st = hx && hw && hb && hy ? CLRT_OK : CLRT_ENOMEM;
    if (st == CLRT_OK) {
        clrt__ref_fill(hx, CLRT_FLOAT32, batch * in, 3);
        clrt__ref_fill(hw, CLRT_FLOAT32, out * in, 4);
        clrt__ref_fill(hb, CLRT_FLOAT32, out, 5);
        st = clrt_buffer_create(&j.x, s->ctx, CLRT_FLOAT32, batch, in);
    }
    if (st == CLRT_OK)
        st = clrt_buffer_create(&j.w, s->ctx, CLRT_FLOAT32, out, in);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&j.b, s->ctx, CLRT_FLOAT32, 1, out);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&j.y, s->ctx, CLRT_FLOAT32, batch, out);
    if (st == CLRT_OK)
        st = clrt_buffer_write(s->q, j.x, hx, batch * in);
    if (st == CLRT_OK)
        st = clrt_buffer_write(s->q, j.w, hw, out * in);
    if (st == CLRT_OK)
        st = clrt_buffer_write(s->q, j.b, hb, out);
    if (st == CLRT_OK) {
        bench_impl impls[2] = {{.run = run_fused, .arg = &j}, {.run = run_unfused, .arg = &j}};
        double rounds[2][BENCH_MAX_ROUNDS];
        impls[0].rounds = rounds[0];
        impls[1].rounds = rounds[1];
        const bench_budget budget = budget_of(opts);
        bench_measure(impls, 2, &budget);
        r->clrt = impls[0].stats;
        r->loop = impls[1].stats;
        r->vs_loop = bench_paired_ratio(&impls[1], &impls[0]);
        st = impls[0].failed || impls[1].failed ? (j.status ? j.status : CLRT_EOPENCL) : CLRT_OK;
    }
    /* once more, read back: a failed run leaves hy unwritten, not checked */
    if (st == CLRT_OK)
        st = run_fused(&j) ? j.status : clrt_buffer_read(s->q, j.y, hy, batch * out);
    if (st == CLRT_OK) {
        const clrt__ref_gemm g = {.dtype = CLRT_FLOAT32, .tb = 1, .M = batch, .N = out, .K = in, .alpha = 1.0,
                                  .a = hx, .b = hw, .c = hy, .lda = in, .ldb = in, .ldc = out, .bias = hb,
                                  .bias_mode = 1, .act = CLRT_ACT_RELU};
        r->wrong = clrt__ref_gemm_ex_wrong(&g, NULL);
        r->checked = batch * out;
    } else {
        snprintf(r->note, sizeof r->note, "failed: %s (%s)", clrt_status_name(st), clrt_error_message());
    }
    clrt_buffer_destroy(j.x);
    clrt_buffer_destroy(j.w);
    clrt_buffer_destroy(j.b);
    clrt_buffer_destroy(j.y);
    free(hx);
    free(hw);
    free(hb);
    free(hy);
}

void bench_products_measure(bench_products *p, const bench_opts *opts, bench_session *s)
{
    memset(p, 0, sizeof *p);
    /* attention-like batches of small products, and the
     * article's fc1 at batch 64 */
    batched_row(&p->rows[p->n++], opts, s, 64, 128);
    batched_row(&p->rows[p->n++], opts, s, 512, 64);
    linear_row(&p->rows[p->n++], opts, s, 64, 800, 500);
    /* 16-bit storage against float32: memory-bound and compute-bound */
    bench_half_add_row(&p->rows[p->n++], opts, s, CLRT_FLOAT16, 10000000);
    bench_half_add_row(&p->rows[p->n++], opts, s, CLRT_BFLOAT16, 10000000);
    bench_half_gemm_row(&p->rows[p->n++], opts, s, 2048);
    p->measured = 1;
}
