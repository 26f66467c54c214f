/* clrt-bench --op products, the 16-bit rows (see bench/measure/products_half.h). */
#include "measure/products_half.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference/host_ref.h"

/* One call on one set of operands: the 16-bit set or the float32 one. */
typedef struct half_job {
    clrt_queue *q;
    int gemm; /* 1: c = a b, 0: c = a + b */
    clrt_buffer *a, *b, *c;
    int status; /* the first clrt status that failed */
} half_job;

static int run_job(void *arg)
{
    half_job *j = arg;
    int st = j->gemm ? clrt_gemm(j->q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.0, j->a, j->b, 0.0, j->c)
                     : clrt_add(j->q, j->c, j->a, j->b);
    if (st == CLRT_OK)
        st = clrt_queue_finish(j->q);
    j->status = j->status ? j->status : st;
    return st != CLRT_OK;
}

static uint16_t word_of(clrt_dtype dt, double x)
{
    return dt == CLRT_FLOAT16 ? clrt__ref_f16_of(x) : clrt__ref_bf16_of(x);
}

static double value_of(clrt_dtype dt, uint16_t w)
{
    return dt == CLRT_FLOAT16 ? clrt__ref_f16_value(w) : clrt__ref_bf16_value(w);
}

/* rows x cols operands of dt (in j16) and float32 (in j32) holding the same
 * values: the reference's from seed, rounded to dt, which h gets (exact in
 * float). which: 0 a, 1 b, 2 c (c's contents: undefined). */
static int make_pair(bench_session *s, half_job *j16, half_job *j32, int which, clrt_dtype dt, size_t rows,
                     size_t cols, unsigned seed, float *h)
{
    clrt_buffer **b16 = which == 0 ? &j16->a : which == 1 ? &j16->b : &j16->c;
    clrt_buffer **b32 = which == 0 ? &j32->a : which == 1 ? &j32->b : &j32->c;
    int st = clrt_buffer_create(b16, s->ctx, dt, rows, cols);
    if (st == CLRT_OK)
        st = clrt_buffer_create(b32, s->ctx, CLRT_FLOAT32, rows, cols);
    if (st != CLRT_OK || !h)
        return st;
    const size_t n = rows * cols;
    uint16_t *w = malloc(n * sizeof *w);
    if (!w)
        return CLRT_ENOMEM;
    clrt__ref_fill(h, CLRT_FLOAT32, n, seed);
    for (size_t i = 0; i < n; i++) {
        w[i] = word_of(dt, h[i]);
        h[i] = (float)value_of(dt, w[i]);
    }
    st = clrt_buffer_write(s->q, *b16, w, n);
    if (st == CLRT_OK)
        st = clrt_buffer_write(s->q, *b32, h, n);
    free(w);
    return st;
}

static void job_free(half_job *j)
{
    clrt_buffer_destroy(j->a);
    clrt_buffer_destroy(j->b);
    clrt_buffer_destroy(j->c);
}

/* Both calls timed side by side (the 16-bit one is clrt's row, float32 what it
 * is measured against); 0, or the status that failed. */
static int time_pair(bench_product *r, const bench_opts *opts, half_job *j16, half_job *j32)
{
    bench_impl impls[2] = {{.run = run_job, .arg = j16}, {.run = run_job, .arg = j32}};
    double rounds[2][BENCH_MAX_ROUNDS];
    impls[0].rounds = rounds[0];
    impls[1].rounds = rounds[1];
    const bench_budget budget = {opts->warmup, opts->min_reps, opts->max_reps, opts->min_time, opts->max_time};
    bench_measure(impls, 2, &budget);
    r->clrt = impls[0].stats;
    r->loop = impls[1].stats;
    r->vs_loop = bench_paired_ratio(&impls[1], &impls[0]);
    if (impls[0].failed || impls[1].failed)
        return impls[0].failed ? (j16->status ? j16->status : CLRT_EOPENCL) : (j32->status ? j32->status : CLRT_EOPENCL);
    return CLRT_OK;
}

/* A check of the 16-bit call's result (c, rows x cols) after a run of its own
 * against the host's from the inputs ha and hb: 0, or the status that failed. */
typedef int (*half_check)(bench_product *r, half_job *j, clrt_dtype dt, const float *ha, const float *hb,
                          size_t rows, size_t cols);

/* c's words: element i is the host's float32 sum of a and b rounded once to dt. */
static int check_add(bench_product *r, half_job *j, clrt_dtype dt, const float *ha, const float *hb, size_t rows,
                     size_t cols)
{
    const size_t n = rows * cols;
    uint16_t *got = malloc(n * sizeof *got);
    int st = got ? CLRT_OK : CLRT_ENOMEM;
    if (st == CLRT_OK)
        st = run_job(j) ? j->status : clrt_buffer_read(j->q, j->c, got, n);
    for (size_t i = 0; st == CLRT_OK && i < n; i++) {
        const uint16_t want = word_of(dt, (double)(ha[i] + hb[i])); /* a float32 sum, rounded once to dt */
        r->wrong += got[i] != want && !(isnan(value_of(dt, got[i])) && isnan(value_of(dt, want)));
    }
    r->checked = st == CLRT_OK ? n : 0;
    free(got);
    return st;
}

/* BENCH_CHECK_ROWS rows of c (float16, n x n) against the product in double:
 * the float32 product's bound 2 (n + 2) u32 sum |a b| plus half an ulp of
 * float16 of the result and of float16's subnormal step. */
static int check_gemm(bench_product *r, half_job *j, clrt_dtype dt, const float *ha, const float *hb, size_t n,
                      size_t cols)
{
    (void)dt;
    (void)cols; /* square */
    uint16_t *got = malloc(n * n * sizeof *got);
    int st = got ? CLRT_OK : CLRT_ENOMEM;
    if (st == CLRT_OK)
        st = run_job(j) ? j->status : clrt_buffer_read(j->q, j->c, got, n * n);
    for (size_t t = 0; st == CLRT_OK && t < BENCH_CHECK_ROWS; t++) {
        const size_t i = t * (n - 1) / (BENCH_CHECK_ROWS - 1);
        for (size_t c = 0; c < n; c++) {
            double ref = 0, mag = 0;
            for (size_t k = 0; k < n; k++) {
                ref += (double)ha[i * n + k] * hb[k * n + c];
                mag += fabs((double)ha[i * n + k] * hb[k * n + c]);
            }
            const double e32 = 2.0 * (double)(n + 2) * ldexp(1.0, -24) * mag;
            const double bound = e32 + ldexp(1.0, -11) * (fabs(ref) + e32) + ldexp(1.0, -25);
            r->wrong += !(fabs(clrt__ref_f16_value(got[i * n + c]) - ref) <= bound);
        }
        r->checked += n;
    }
    free(got);
    return st;
}

/* One row: a, b and c of rows x cols in dt and in float32 (a and b the same
 * values), the two calls timed side by side, the 16-bit result checked. */
static void half_row(bench_product *r, const bench_opts *opts, bench_session *s, int gemm, clrt_dtype dt,
                     size_t rows, size_t cols, half_check check)
{
    half_job j16 = {.q = s->q, .gemm = gemm}, j32 = {.q = s->q, .gemm = gemm};
    float *ha = malloc(rows * cols * sizeof *ha), *hb = malloc(rows * cols * sizeof *hb);
    int st = ha && hb ? CLRT_OK : CLRT_ENOMEM;
    if (st == CLRT_OK)
        st = make_pair(s, &j16, &j32, 0, dt, rows, cols, 11, ha);
    if (st == CLRT_OK)
        st = make_pair(s, &j16, &j32, 1, dt, rows, cols, 12, hb);
    if (st == CLRT_OK)
        st = make_pair(s, &j16, &j32, 2, dt, rows, cols, 0, NULL);
    if (st == CLRT_OK)
        st = time_pair(r, opts, &j16, &j32);
    if (st == CLRT_OK)
        st = check(r, &j16, dt, ha, hb, rows, cols);
    if (st != CLRT_OK)
        snprintf(r->note, sizeof r->note, "failed: %s (%s)", clrt_status_name(st), clrt_error_message());
    job_free(&j16);
    job_free(&j32);
    free(ha);
    free(hb);
}

void bench_half_add_row(bench_product *r, const bench_opts *opts, bench_session *s, clrt_dtype dt, size_t n)
{
    const size_t rows = 1000, cols = (n + rows - 1) / rows;
    snprintf(r->name, sizeof r->name, "16-bit add");
    snprintf(r->shape, sizeof r->shape, "%zux%zu", rows, cols);
    snprintf(r->dtype, sizeof r->dtype, "%s", dt == CLRT_FLOAT16 ? "float16" : "bfloat16");
    snprintf(r->loop_what, sizeof r->loop_what, "the add on float32");
    r->flop = (double)(rows * cols);
    half_row(r, opts, s, 0, dt, rows, cols, check_add);
}

void bench_half_gemm_row(bench_product *r, const bench_opts *opts, bench_session *s, size_t n)
{
    snprintf(r->name, sizeof r->name, "16-bit GEMM");
    snprintf(r->shape, sizeof r->shape, "%zux%zux%zu", n, n, n);
    snprintf(r->dtype, sizeof r->dtype, "float16");
    snprintf(r->loop_what, sizeof r->loop_what, "clrt_gemm on float32");
    r->flop = 2.0 * (double)n * (double)n * (double)n;
    half_row(r, opts, s, 1, CLRT_FLOAT16, n, n, check_gemm);
}
