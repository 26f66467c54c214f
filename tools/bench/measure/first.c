/* clrt-bench: a new process's first matmul (see bench/measure/first.h). */
#include "measure/first.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clrt/clrt_cl.h>

#include "measure/child.h"
#include "measure/timing.h"
#include "reference/host_ref.h"
#include "report/progress.h"

/* One matmul from host arrays as a program does it: new buffers, the
 * uploads, the call, the finish (t[0..3]: start, inputs written, call
 * returned, result complete); then the result is read back into hc and the
 * buffers are destroyed (untimed). */
static int matmul_steps(clrt_context *ctx, clrt_queue *q, clrt_dtype dt, size_t n, const void *ha, const void *hb,
                        void *hc, double t[4])
{
    clrt_buffer *a = NULL, *b = NULL, *c = NULL;
    t[0] = bench_now();
    int st = clrt_buffer_create(&a, ctx, dt, n, n);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&b, ctx, dt, n, n);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&c, ctx, dt, n, n);
    if (st == CLRT_OK)
        st = clrt_buffer_write(q, a, ha, n * n);
    if (st == CLRT_OK)
        st = clrt_buffer_write(q, b, hb, n * n);
    t[1] = bench_now();
    if (st == CLRT_OK)
        st = clrt_matmul(q, c, a, b);
    t[2] = bench_now();
    if (st == CLRT_OK)
        st = clrt_queue_finish(q);
    t[3] = bench_now();
    if (st == CLRT_OK)
        st = clrt_buffer_read(q, c, hc, n * n);
    clrt_buffer_destroy(a);
    clrt_buffer_destroy(b);
    clrt_buffer_destroy(c);
    return st;
}

/* How many times the child repeats the steps on its warm context. */
#define AGAIN_RUNS 3

int bench_first_child(const bench_opts *o, double t_main)
{
    size_t n = o->child_n, es = o->child_dbl ? 8 : 4;
    clrt_dtype dt = o->child_dbl ? CLRT_FLOAT64 : CLRT_FLOAT32;
    void *ha = malloc(n * n * es), *hb = malloc(n * n * es), *hc = malloc(n * n * es);
    if (!ha || !hb || !hc) {
        free(ha);
        free(hb);
        free(hc);
        return 1;
    }
    double t_fill0 = bench_now();
    clrt__ref_fill(ha, dt, n * n, 1);
    clrt__ref_fill(hb, dt, n * n, 2);
    double t_ctx0 = bench_now();
    /* The ICD loader opens every registered driver at the first OpenCL call,
     * whoever makes it; timed apart so the report can tell it from clrt. */
    cl_uint nplat = 0;
    clGetPlatformIDs(0, NULL, &nplat);
    double t_loader = bench_now();
    clrt_context *ctx = NULL;
    clrt_queue *q = NULL;
    int st = clrt_context_create(&ctx, o->child_device);
    if (st == CLRT_OK)
        st = clrt_queue_create(&q, ctx);
    double t_ctx = bench_now();
    double first[4] = {0}, again[4] = {0}, again_total = -1;
    size_t wrong = 1, checked = 0;
    if (st == CLRT_OK)
        st = matmul_steps(ctx, q, dt, n, ha, hb, hc, first);
    if (st == CLRT_OK)
        wrong = clrt__ref_gemm_wrong(dt, 0, 0, ha, hb, hc, n, n, n, BENCH_CHECK_ROWS, &checked, NULL);
    /* The same steps again on the now warm context: what a matmul from host
     * arrays costs once nothing is first any more (the fastest of a few). */
    for (int r = 0; r < AGAIN_RUNS && st == CLRT_OK; r++) {
        double t[4];
        st = matmul_steps(ctx, q, dt, n, ha, hb, hc, t);
        if (st == CLRT_OK && (again_total < 0 || t[3] - t[0] < again_total)) {
            again_total = t[3] - t[0];
            memcpy(again, t, sizeof again);
        }
    }
    if (st != CLRT_OK)
        printf("ERROR %s: %s\n", clrt_status_name(st), clrt_error_message());
    else
        printf("FIRST %.9f %.9f %.9f %.9f %.9f %.9f %.9f %.9f %d %u %.9f %.9f %.9f\n", t_main, t_fill0, t_ctx0,
               t_loader, t_ctx, first[1], first[2], first[3], wrong == 0, nplat, again[1] - again[0],
               again[2] - again[1], again[3] - again[2]);
    fflush(stdout);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    free(ha);
    free(hb);
    free(hc);
    return st == CLRT_OK ? 0 : 1;
}

/* What one child reports; times in seconds on the child's clock. */
typedef struct child_times {
    double spawn, main, fill0, ctx0, loader, ctx, buf, call, done;
    double again_buf, again_call, again_finish;
    unsigned platforms;
} child_times;

/* Run the child; 0 and its times on success. */
static int spawn_first_call(const bench_session *s, int dbl, size_t n, bench_child_caches caches, child_times *t,
                            int *ok, char *why, size_t cap)
{
    char nbuf[32];
    snprintf(nbuf, sizeof nbuf, "%zu", n);
    char *argv[] = {"clrt-bench", "--child-first-call", (char *)s->selector, (char *)bench_dtype_name(dbl), nbuf,
                    NULL};
    char out[4096];
    if (bench_child_run(argv, caches, out, sizeof out, &t->spawn, why, cap) != 0)
        return -1;
    const char *line = strstr(out, "FIRST ");
    if (!line || sscanf(line, "FIRST %lf %lf %lf %lf %lf %lf %lf %lf %d %u %lf %lf %lf", &t->main, &t->fill0,
                        &t->ctx0, &t->loader, &t->ctx, &t->buf, &t->call, &t->done, ok, &t->platforms,
                        &t->again_buf, &t->again_call, &t->again_finish) != 13) {
        bench_child_why(out, why, cap);
        return -1;
    }
    return 0;
}

/* The steady median of the n x n matmul kernel in this run, for the report
 * (the first call is judged against the same steps again, not this); -1
 * when the run did not time that size. */
static double work_of(const bench_report *report, size_t dev_index, int dbl, size_t n)
{
    for (size_t i = 0; i < report->ncases; i++) {
        const bench_case *c = &report->cases[i];
        if (c->device == dev_index && c->op == BENCH_MATMUL && c->dbl == dbl && c->m == n && c->n == n && c->k == n &&
            bench_result_usable(&c->r[IMPL_CLRT]))
            return c->r[IMPL_CLRT].st.median;
    }
    return -1;
}

/* From main() to the result, less the time the child spent making inputs.
 * From main(): this binary's own start (OpenBLAS, CLBlast) is not clrt's. */
static double total_of(const child_times *t) { return (t->done - t->main) - (t->ctx0 - t->fill0); }

/* The same steps on the warm context: buffers, uploads, call, finish. */
static double again_of(const child_times *t) { return t->again_buf + t->again_call + t->again_finish; }

/* What being first cost: the whole first matmul less the same steps again. */
static double overhead_of(const child_times *t) { return total_of(t) - again_of(t); }

/* Spawn three children in the given cache mode (after the caller's warm-up)
 * and keep the one with the median overhead in *t, as one new process is at
 * the machine's mercy. 0 on success, else why says why. */
static int median_child(const bench_session *s, int dbl, size_t n, bench_child_caches caches, child_times *t, int *ok,
                        char *why, size_t cap)
{
    child_times runs[3];
    int oks[3];
    double over[3];
    for (int i = 0; i < 3; i++) {
        if (spawn_first_call(s, dbl, n, caches, &runs[i], &oks[i], why, cap) != 0)
            return -1;
        over[i] = overhead_of(&runs[i]);
    }
    *t = runs[bench_median_of3(over)];
    *ok = oks[0] && oks[1] && oks[2];
    return 0;
}

void bench_first_measure(bench_report *report, const bench_opts *opts, bench_session *s, size_t dev_index, int dbl)
{
    bench_first *p = &report->devices[dev_index].first[dbl];
    memset(p, 0, sizeof *p);
    p->dbl = dbl;
    p->n = opts->first_size;
    p->cold_total = -1;
    p->forced_total = -1;
    bench_progress("device %zu: first matmul %s in a new process", s->info.index, bench_dtype_name(dbl));
    child_times t;
    int ok = 0;
    char why[200];
    /* once to be sure every cache is warm, then the measurement */
    if (spawn_first_call(s, dbl, p->n, BENCH_CACHES_AS_IS, &t, &ok, why, sizeof why) != 0 ||
        median_child(s, dbl, p->n, BENCH_CACHES_AS_IS, &t, &ok, why, sizeof why) != 0) {
        snprintf(p->note, sizeof p->note, "%s", why);
        return;
    }
    p->spawn_to_main = t.main - t.spawn;
    p->loader = t.loader - t.ctx0;
    p->platforms = t.platforms;
    p->context = t.ctx - t.loader;
    p->buffers = t.buf - t.ctx;
    p->call = t.call - t.buf;
    p->finish = t.done - t.call;
    p->total = total_of(&t);
    p->again = again_of(&t);
    p->again_buffers = t.again_buf;
    p->again_call = t.again_call;
    p->again_finish = t.again_finish;
    p->overhead = overhead_of(&t);
    p->work = work_of(report, dev_index, dbl, p->n);
    p->ok = ok;
    p->measured = 1;
    if (opts->cold) {
        bench_progress("device %zu: first matmul %s in a new process, caches off", s->info.index,
                       bench_dtype_name(dbl));
        if (spawn_first_call(s, dbl, p->n, BENCH_CACHES_OFF, &t, &ok, why, sizeof why) == 0) {
            p->cold_total = total_of(&t);
            p->cold_overhead = overhead_of(&t);
        }
    }
    if (opts->forced_cache) {
        bench_progress("device %zu: first matmul %s in a new process, clrt's cache on", s->info.index,
                       bench_dtype_name(dbl));
        /* once to fill clrt's cache, then the measurement */
        if (spawn_first_call(s, dbl, p->n, BENCH_CACHES_CLRT_ON, &t, &ok, why, sizeof why) == 0 &&
            median_child(s, dbl, p->n, BENCH_CACHES_CLRT_ON, &t, &ok, why, sizeof why) == 0) {
            p->forced_total = total_of(&t);
            p->forced_call = t.call - t.buf;
            p->forced_overhead = overhead_of(&t);
        }
    }
}
