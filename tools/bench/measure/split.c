/* clrt-bench --op split (bench/measure/split.h). The split run is what a machine
 * with several GPUs would do: every device's part enqueued (asynchronous
 * upload of its rows of A and of B, the product, asynchronous download into
 * its rows of C) before any is waited for, so the devices work at once. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clrt/clrt.h>

#include "measure/split.h"
#include "measure/timing.h"

typedef struct part {
    clrt_device_info info;
    clrt_context *ctx;
    clrt_queue *q;
    clrt_buffer *a, *b, *c;      /* the whole product, for the device alone */
    clrt_buffer *pa, *pb, *pc;   /* its part of the split */
    size_t rows, first;          /* its rows of the split */
    int sits_out;                /* so much slower than the fastest that its calibration run stands for it */
    double calibration;          /* seconds, the device alone after warm-up */
    double alone[BENCH_MAX_ROUNDS];
} part;

static int cmp_double(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int fail(const char *what, const part *p)
{
    fprintf(stderr, "clrt-bench: split: %s on '%s': %s\n", what, p ? p->info.name : "?", clrt_error_message());
    return -1;
}

/* Rows of c against a double host product: every 7th row and the last one
 * (a full check of a 4096 product would take longer than the bench). */
static size_t check(const float *c, const float *a, const float *b, size_t M, size_t N, size_t K)
{
    size_t bad = 0;
    for (size_t i = 0; i < M; i = (i + 7 < M || i == M - 1) ? i + 7 : M - 1) {
        for (size_t j = 0; j < N; j++) {
            double s = 0, abs = 0;
            for (size_t k = 0; k < K; k++) {
                s += (double)a[i * K + k] * b[k * N + j];
                abs += fabs((double)a[i * K + k] * b[k * N + j]);
            }
            if (fabs(c[i * N + j] - s) > 2.0 * (double)K * 1.2e-7 * abs + 1e-30)
                bad++;
        }
        if (i == M - 1)
            break;
    }
    return bad;
}

/* The run: the product's sizes and host data, each device's part, the
 * split's timed rounds. */
typedef struct split_run {
    const bench_opts *o;
    part *parts;
    size_t n;                       /* devices */
    size_t M, N, K;
    float *ha, *hb, *hc;
    int reps;                       /* rounds timed */
    double split_t[BENCH_MAX_ROUNDS];
} split_run;

/* The whole product on one device, host to host. */
static int run_alone(const split_run *sr, part *p)
{
    const size_t M = sr->M, N = sr->N, K = sr->K;
    if (clrt_buffer_write(p->q, p->a, sr->ha, M * K) != CLRT_OK ||
        clrt_buffer_write(p->q, p->b, sr->hb, K * N) != CLRT_OK || clrt_matmul(p->q, p->c, p->a, p->b) != CLRT_OK ||
        clrt_buffer_read(p->q, p->c, sr->hc, M * N) != CLRT_OK)
        return fail("the product alone", p);
    return 0;
}

/* The split product, host to host: enqueue every part, then wait for all. */
static int run_split(const split_run *sr)
{
    clrt_event *done[BENCH_MAX_DEVICES] = {NULL};
    const size_t n = sr->n, N = sr->N, K = sr->K;
    int rc = 0;
    for (size_t d = 0; d < n && rc == 0; d++) {
        part *p = &sr->parts[d];
        if (!p->rows)
            continue;
        if (clrt_buffer_write_async(p->q, p->pa, sr->ha + p->first * K, p->rows * K, NULL) != CLRT_OK ||
            clrt_buffer_write_async(p->q, p->pb, sr->hb, K * N, NULL) != CLRT_OK ||
            clrt_matmul(p->q, p->pc, p->pa, p->pb) != CLRT_OK ||
            clrt_buffer_read_async(p->q, p->pc, sr->hc + p->first * N, p->rows * N, &done[d]) != CLRT_OK)
            rc = fail("enqueueing its part", p);
    }
    for (size_t d = 0; d < n; d++) {
        if (done[d] && clrt_event_wait(done[d]) != CLRT_OK && rc == 0)
            rc = fail("waiting for its part", &sr->parts[d]);
        clrt_event_destroy(done[d]);
    }
    if (rc != 0) /* the other parts may still write into hc: let them end */
        for (size_t d = 0; d < n; d++)
            clrt_queue_finish(sr->parts[d].q);
    return rc;
}

static float *host_floats(size_t count, unsigned seed)
{
    float *p = malloc(count * sizeof *p);
    for (size_t i = 0; p && i < count; i++) {
        seed = seed * 1664525u + 1013904223u;
        p[i] = (float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f;
    }
    return p;
}

/* hc against the host product; a message naming `what` when wrong. */
static int check_product(const split_run *sr, const char *what)
{
    if (check(sr->hc, sr->ha, sr->hb, sr->M, sr->N, sr->K) == 0)
        return 0;
    fprintf(stderr, "clrt-bench: split: wrong %s\n", what);
    return -1;
}

/* Each device's context, queue and buffers for the whole product. */
static int open_parts(split_run *sr)
{
    const size_t M = sr->M, N = sr->N, K = sr->K;
    for (size_t d = 0; d < sr->n; d++) {
        part *p = &sr->parts[d];
        if (clrt_context_create(&p->ctx, sr->o->devices[d]) != CLRT_OK) {
            fprintf(stderr, "clrt-bench: split: device '%s': %s\n", sr->o->devices[d], clrt_error_message());
            return -1;
        }
        clrt_context_device(p->ctx, &p->info);
        if (clrt_queue_create(&p->q, p->ctx) != CLRT_OK ||
            clrt_buffer_create(&p->a, p->ctx, CLRT_FLOAT32, M, K) != CLRT_OK ||
            clrt_buffer_create(&p->b, p->ctx, CLRT_FLOAT32, K, N) != CLRT_OK ||
            clrt_buffer_create(&p->c, p->ctx, CLRT_FLOAT32, M, N) != CLRT_OK)
            return fail("setting up", p);
    }
    return 0;
}

/* Calibration: each device alone (warm-up runs, which also build the
 * kernel); its speed weighs its share. A device 20x slower than the fastest
 * gets (almost) no rows and would take the whole run timing it alone: its
 * calibration stands for it. */
static int calibrate(split_run *sr, double *weights)
{
    for (size_t d = 0; d < sr->n; d++) {
        double t = 0;
        for (int w = 0; w < (sr->o->warmup > 0 ? sr->o->warmup : 1) + 1; w++) {
            const double t0 = bench_now();
            if (run_alone(sr, &sr->parts[d]) != 0)
                return -1;
            t = bench_now() - t0; /* the last one: the build is behind it */
        }
        if (check(sr->hc, sr->ha, sr->hb, sr->M, sr->N, sr->K) != 0) {
            fprintf(stderr, "clrt-bench: split: wrong product on '%s' alone\n", sr->parts[d].info.name);
            return -1;
        }
        weights[d] = 1.0 / (t > 1e-9 ? t : 1e-9);
        sr->parts[d].calibration = t;
    }
    double fastest_cal = sr->parts[0].calibration;
    for (size_t d = 1; d < sr->n; d++)
        if (sr->parts[d].calibration < fastest_cal)
            fastest_cal = sr->parts[d].calibration;
    for (size_t d = 0; d < sr->n; d++)
        sr->parts[d].sits_out = sr->parts[d].calibration > 20 * fastest_cal;
    return 0;
}

/* Each device's rows by its weight, and the buffers of its part. */
static int share_rows(split_run *sr, const double *weights)
{
    size_t rows[BENCH_MAX_DEVICES];
    if (clrt_split_rows(rows, sr->n, sr->M, weights, 16) != CLRT_OK)
        return fail("clrt_split_rows", NULL);
    for (size_t d = 0, first = 0; d < sr->n; d++) {
        part *p = &sr->parts[d];
        p->rows = rows[d];
        p->first = first;
        first += rows[d];
        if (p->rows && (clrt_buffer_create(&p->pa, p->ctx, CLRT_FLOAT32, p->rows, sr->K) != CLRT_OK ||
                        clrt_buffer_create(&p->pb, p->ctx, CLRT_FLOAT32, sr->K, sr->N) != CLRT_OK ||
                        clrt_buffer_create(&p->pc, p->ctx, CLRT_FLOAT32, p->rows, sr->N) != CLRT_OK))
            return fail("setting up its part", p);
    }
    return 0;
}

/* Rounds side by side: each device alone, then the split (order reversed
 * every other round); until max_reps, or min_reps and min_time. */
static int time_rounds(split_run *sr)
{
    const bench_opts *o = sr->o;
    const size_t n = sr->n;
    const double start = bench_now();
    sr->reps = 0;
    while (sr->reps < o->max_reps && (sr->reps < o->min_reps || bench_now() - start < o->min_time)) {
        const int reps = sr->reps;
        for (size_t i = 0; i <= n; i++) {
            const size_t which = (reps % 2) ? n - i : i; /* n: the split */
            if (which < n && sr->parts[which].sits_out) {
                sr->parts[which].alone[reps] = sr->parts[which].calibration;
                continue;
            }
            const double t0 = bench_now();
            if (which == n ? run_split(sr) : run_alone(sr, &sr->parts[which]))
                return -1;
            const double t = bench_now() - t0;
            if (which == n)
                sr->split_t[reps] = t;
            else
                sr->parts[which].alone[reps] = t;
        }
        sr->reps++;
    }
    return 0;
}

static void print_split(split_run *sr)
{
    const size_t n = sr->n;
    const double flop = 2.0 * (double)sr->M * (double)sr->N * (double)sr->K;
    double fastest = 0, sum_speed = 0;
    printf("one float32 product %zu x %zu x %zu (MxNxK), host to host (uploads, product, download),\n"
           "median of %d rounds side by side; split weighted by each device's calibration speed\n",
           sr->M, sr->N, sr->K, sr->reps);
    printf("%-3s %-44s %10s %9s %12s\n", "dev", "device (platform)", "alone ms", "GFLOP/s", "split rows");
    for (size_t d = 0; d < n; d++) {
        part *p = &sr->parts[d];
        const double t = median(p->alone, sr->reps);
        if (fastest == 0 || t < fastest)
            fastest = t;
        sum_speed += 1.0 / t;
        char name[64];
        snprintf(name, sizeof name, "%.28s (%.12s)", p->info.name, p->info.platform);
        printf("%-3zu %-44s %10.2f %9.2f %12zu%s\n", d, name, 1e3 * t, flop / t * 1e-9, p->rows,
               p->sits_out ? "  (>20x slower: its calibration run only)" : "");
    }
    const double ts = median(sr->split_t, sr->reps);
    printf("split across %zu: %.2f ms, %.2f GFLOP/s\n", n, 1e3 * ts, flop / ts * 1e-9);
    printf("speed-up over the fastest device alone: %.3f (for devices that share nothing, these speeds would allow %.3f)\n", fastest / ts,
           fastest * sum_speed);
    printf("results checked against a double host product (every 7th row): all right\n");
}

static void free_split(split_run *sr)
{
    for (size_t d = 0; sr->parts && d < sr->n; d++) {
        part *p = &sr->parts[d];
        clrt_buffer *bufs[] = {p->a, p->b, p->c, p->pa, p->pb, p->pc};
        for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
            clrt_buffer_destroy(bufs[i]);
        clrt_queue_destroy(p->q);
        clrt_context_destroy(p->ctx);
    }
    free(sr->parts);
    free(sr->ha);
    free(sr->hb);
    free(sr->hc);
}

/* Set up, calibrate, share the rows, warm up the split, time the rounds;
 * every result checked. 0, or -1 after a message. */
static int split_steps(split_run *sr)
{
    double weights[BENCH_MAX_DEVICES];
    if (open_parts(sr) != 0 || calibrate(sr, weights) != 0 || share_rows(sr, weights) != 0)
        return -1;
    memset(sr->hc, 0, sr->M * sr->N * sizeof(float));
    if (run_split(sr) != 0) /* warm-up: the parts' first shapes */
        return -1;
    if (check_product(sr, "split product") != 0 || time_rounds(sr) != 0)
        return -1;
    return check_product(sr, "product in the timed rounds");
}

int bench_split_run(const bench_opts *o)
{
    const size_t n = o->ndevices;
    if (n < 1) {
        fprintf(stderr, "clrt-bench: --op split needs the devices to split across: --device SEL, repeated\n");
        return 2;
    }
    for (size_t i = 0; i < n; i++) { /* a selector that matches nothing: exit 2, as everywhere */
        clrt_device_info d;
        if (clrt_device_select(o->devices[i], &d) != CLRT_OK) {
            fprintf(stderr, "clrt-bench: --device %s: %s\n", o->devices[i], clrt_error_message());
            return 2;
        }
    }
    const bench_shape sh = o->sizes_given ? o->matmul[0] : (bench_shape){1024, 1024, 1024, 0, 0};
    if (sh.ta || sh.tb)
        fprintf(stderr, "clrt-bench: split: transposes are ignored (A B only)\n");
    split_run sr = {.o = o, .n = n, .M = sh.m, .N = sh.n, .K = sh.k};
    sr.parts = calloc(n, sizeof *sr.parts);
    sr.ha = host_floats(sr.M * sr.K, 1);
    sr.hb = host_floats(sr.K * sr.N, 2);
    sr.hc = malloc(sr.M * sr.N * sizeof(float));
    int rc = 1;
    if (!sr.parts || !sr.ha || !sr.hb || !sr.hc) {
        fprintf(stderr, "clrt-bench: split: out of host memory\n");
    } else if (split_steps(&sr) == 0) {
        print_split(&sr);
        rc = 0;
    }
    free_split(&sr);
    return rc;
}
