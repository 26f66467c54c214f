/* stream_overlap: a large product C = A B streamed through the device in
 * slices of rows of A, once serially and once overlapped, side by side.
 *
 *   ./stream_overlap                 M=4096 N=512 K=1024, 8 slices
 *   ./stream_overlap M N K SLICES    another shape
 *
 * B stays on the device; A arrives from the host one slice at a time and
 * each slice's rows of C go back.
 *   serial:     one queue; for each slice: upload it, multiply, download
 *               its rows of C, each step waiting for the one before.
 *   overlapped: an upload queue and a compute queue of one context, two
 *               slots for slices of A. The upload of slice i+1 runs while
 *               slice i is multiplied; events order them (the compute queue
 *               waits for the upload of its slice, the upload queue waits for
 *               the product that last read the slot it overwrites), and the
 *               rows of C come back asynchronously.
 * Both are timed host to host (median of several runs, alternating which
 * goes first), and the result of each is checked against the host.
 * On a GPU the copy engine moves the next slice while the cores compute; on
 * a CPU device (POCL) the copy is a memcpy by the same cores that compute,
 * so expect little (docs/events.md has measurements).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clrt/clrt.h>

#include "example_util.h"

enum { RUNS = 7 };

typedef struct job {
    clrt_context *ctx;
    clrt_queue *up, *run;
    clrt_buffer *b, *c, *slot[2];
    const float *ha;
    float *hc;
    size_t M, N, K, S; /* S rows per slice (the last may have fewer) */
} job;

/* The rows [r, r + rows) of C as a view (views are cheap handles). */
static int c_rows(const job *j, size_t r, size_t rows, clrt_buffer **out)
{
    return clrt_buffer_view(out, j->c, r, 0, rows, j->N);
}

/* The slot's first rows rows as a view (the last slice may be shorter). */
static int slot_rows(const job *j, int s, size_t rows, clrt_buffer **out)
{
    return clrt_buffer_view(out, j->slot[s], 0, 0, rows, j->K);
}

static int serial(job *j)
{
    int st = CLRT_OK;
    for (size_t r = 0; r < j->M && st == CLRT_OK; r += j->S) {
        const size_t rows = j->M - r < j->S ? j->M - r : j->S;
        clrt_buffer *a = NULL, *c = NULL;
        st = slot_rows(j, 0, rows, &a);
        if (st == CLRT_OK)
            st = c_rows(j, r, rows, &c);
        if (st == CLRT_OK)
            st = clrt_buffer_write(j->run, a, j->ha + r * j->K, rows * j->K);
        if (st == CLRT_OK)
            st = clrt_matmul(j->run, c, a, j->b);
        if (st == CLRT_OK)
            st = clrt_buffer_read(j->run, c, j->hc + r * j->N, rows * j->N);
        clrt_buffer_destroy(a);
        clrt_buffer_destroy(c);
    }
    return st;
}

static int overlapped(job *j)
{
    int st = CLRT_OK;
    clrt_event *freed[2] = {NULL, NULL}, *last = NULL;
    size_t i = 0;
    for (size_t r = 0; r < j->M && st == CLRT_OK; r += j->S, i++) {
        const size_t rows = j->M - r < j->S ? j->M - r : j->S;
        const int s = (int)(i % 2);
        clrt_buffer *a = NULL, *c = NULL;
        clrt_event *loaded = NULL;
        st = slot_rows(j, s, rows, &a);
        if (st == CLRT_OK)
            st = c_rows(j, r, rows, &c);
        if (st == CLRT_OK && freed[s]) /* the product that read this slot is done with it */
            st = clrt_queue_wait(j->up, freed[s]);
        if (st == CLRT_OK)
            st = clrt_buffer_write_async(j->up, a, j->ha + r * j->K, rows * j->K, &loaded);
        if (st == CLRT_OK)
            st = clrt_queue_wait(j->run, loaded);
        if (st == CLRT_OK)
            st = clrt_matmul(j->run, c, a, j->b);
        clrt_event_destroy(freed[s]);
        freed[s] = NULL;
        if (st == CLRT_OK)
            st = clrt_event_record(&freed[s], j->run);
        if (st == CLRT_OK) {
            clrt_event_destroy(last);
            last = NULL;
            st = clrt_buffer_read_async(j->run, c, j->hc + r * j->N, rows * j->N, &last);
        }
        clrt_event_destroy(loaded);
        clrt_buffer_destroy(a);
        clrt_buffer_destroy(c);
    }
    if (st == CLRT_OK && last)
        st = clrt_event_wait(last); /* the compute queue is in order: every download is done */
    else { /* hc may still be written: let both queues drain */
        clrt_queue_finish(j->up);
        clrt_queue_finish(j->run);
    }
    clrt_event_destroy(last);
    clrt_event_destroy(freed[0]);
    clrt_event_destroy(freed[1]);
    return st;
}

/* Largest error against a double product over every 16th row (and the last). */
static int check(const job *j, const float *hb)
{
    for (size_t i = 0; i < j->M; i = (i + 16 < j->M || i == j->M - 1) ? i + 16 : j->M - 1) {
        for (size_t col = 0; col < j->N; col++) {
            double s = 0, abs = 0;
            for (size_t k = 0; k < j->K; k++) {
                s += (double)j->ha[i * j->K + k] * hb[k * j->N + col];
                abs += fabs((double)j->ha[i * j->K + k] * hb[k * j->N + col]);
            }
            if (fabs(j->hc[i * j->N + col] - s) > 2.0 * (double)j->K * 1.2e-7 * abs + 1e-30) {
                fprintf(stderr, "wrong C(%zu, %zu): %g, expected %g\n", i, col, (double)j->hc[i * j->N + col], s);
                return -1;
            }
        }
        if (i == j->M - 1)
            break;
    }
    return 0;
}

int main(int argc, char **argv)
{
    size_t M = 4096, N = 512, K = 1024, slices = 8;
    if (argc == 5) {
        M = strtoul(argv[1], NULL, 10);
        N = strtoul(argv[2], NULL, 10);
        K = strtoul(argv[3], NULL, 10);
        slices = strtoul(argv[4], NULL, 10);
    }
    if ((argc != 1 && argc != 5) || !M || !N || !K || !slices || slices > M) {
        fprintf(stderr, "usage: stream_overlap [M N K SLICES]\n");
        return 2;
    }
    job j = {.M = M, .N = N, .K = K, .S = (M + slices - 1) / slices};
    float *ha = malloc(M * K * sizeof *ha), *hb = malloc(K * N * sizeof *hb);
    j.hc = malloc(M * N * sizeof *j.hc);
    j.ha = ha;
    int rc = 1;
    if (!ha || !hb || !j.hc) {
        fprintf(stderr, "out of host memory\n");
        goto out;
    }
    unsigned seed = 1;
    for (size_t i = 0; i < M * K; i++)
        ha[i] = (float)((seed = seed * 1664525u + 1013904223u) >> 9) / 8388608.0f - 1.0f;
    for (size_t i = 0; i < K * N; i++)
        hb[i] = (float)((seed = seed * 1664525u + 1013904223u) >> 9) / 8388608.0f - 1.0f;
    if (clrt_context_create(&j.ctx, NULL) != CLRT_OK || clrt_queue_create(&j.up, j.ctx) != CLRT_OK ||
        clrt_queue_create(&j.run, j.ctx) != CLRT_OK ||
        clrt_buffer_create(&j.b, j.ctx, CLRT_FLOAT32, K, N) != CLRT_OK ||
        clrt_buffer_create(&j.c, j.ctx, CLRT_FLOAT32, M, N) != CLRT_OK ||
        clrt_buffer_create(&j.slot[0], j.ctx, CLRT_FLOAT32, j.S, K) != CLRT_OK ||
        clrt_buffer_create(&j.slot[1], j.ctx, CLRT_FLOAT32, j.S, K) != CLRT_OK ||
        clrt_buffer_write(j.run, j.b, hb, K * N) != CLRT_OK) {
        fprintf(stderr, "setup: %s\n", clrt_error_message());
        goto out;
    }
    clrt_device_info dev;
    clrt_context_device(j.ctx, &dev);
    printf("device: %s (%s)\n", dev.name, dev.platform);
    printf("C = A B, %zu x %zu x %zu (MxNxK), A streamed in %zu slices of %zu rows (%.1f MiB each)\n", M, N, K,
           slices, j.S, (double)(j.S * K * sizeof(float)) / 1048576.0);
    double ts[RUNS], to[RUNS];
    for (int r = -1; r < RUNS; r++) { /* run -1: warm-up (kernel builds), checked */
        for (int k = 0; k < 2; k++) {
            const int do_serial = (r & 1) ? k == 1 : k == 0;
            memset(j.hc, 0, M * N * sizeof *j.hc);
            const double t0 = example_seconds();
            if ((do_serial ? serial(&j) : overlapped(&j)) != CLRT_OK) {
                fprintf(stderr, "%s: %s\n", do_serial ? "serial" : "overlapped", clrt_error_message());
                goto out;
            }
            const double t = example_seconds() - t0;
            if (r < 0 && check(&j, hb) != 0)
                goto out;
            if (r >= 0)
                *(do_serial ? &ts[r] : &to[r]) = t;
        }
    }
    if (check(&j, hb) != 0) /* the last run's result too */
        goto out;
    const double a = example_median(ts, RUNS), b = example_median(to, RUNS);
    printf("median of %d runs, host to host:\n", RUNS);
    printf("  serial:     %8.2f ms\n", 1e3 * a);
    printf("  overlapped: %8.2f ms\n", 1e3 * b);
    printf("  time saved: %.1f%% (serial / overlapped = %.3f)\n", 100.0 * (a - b) / a, a / b);
    printf("results checked against a double host product: right\n");
    rc = 0;
out:
    clrt_buffer_destroy(j.slot[0]);
    clrt_buffer_destroy(j.slot[1]);
    clrt_buffer_destroy(j.b);
    clrt_buffer_destroy(j.c);
    clrt_queue_destroy(j.up);
    clrt_queue_destroy(j.run);
    clrt_context_destroy(j.ctx);
    free(ha);
    free(hb);
    free(j.hc);
    return rc;
}
