/* bench_devices: every OpenCL device in the machine, and how fast each one
 * multiplies two n x n float matrices with clrt_matmul.
 *
 *   ./bench_devices            n = 512
 *   ./bench_devices 1024       another size
 *
 * For each device: the first call (which compiles the kernel for it), then
 * the median of several calls, as time and GFLOP/s, and a check of a few
 * result rows against the host. Devices that cannot run it are reported and
 * skipped; the exit status is nonzero when a result was wrong or a device
 * failed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <clrt/clrt.h>

#include "example_util.h"

enum { RUNS = 5 };

/* Largest |error| over a sample of rows, against a double-precision product. */
static double max_error(const float *a, const float *b, const float *c, size_t n)
{
    double worst = 0;
    for (size_t i = 0; i < n; i += (n > 16 ? n / 16 : 1))
        for (size_t j = 0; j < n; j++) {
            double ref = 0;
            for (size_t k = 0; k < n; k++)
                ref += (double)a[i * n + k] * (double)b[k * n + j];
            double e = fabs(ref - (double)c[i * n + j]);
            if (e > worst)
                worst = e;
        }
    return worst;
}

/* Time matmul on device `index`; 0 ok, 1 wrong result, 2 the device failed. */
static int bench(size_t index, size_t n, const float *a, const float *b, float *c)
{
    char selector[32];
    snprintf(selector, sizeof selector, "%zu", index);
    clrt_context *ctx = NULL;
    clrt_queue *q = NULL;
    clrt_buffer *da = NULL, *db = NULL, *dc = NULL;
    double first = 0, times[RUNS];
    int rc = 2, s = clrt_context_create(&ctx, selector);
    if (!s)
        s = clrt_queue_create(&q, ctx);
    if (!s)
        s = clrt_buffer_create(&da, ctx, CLRT_FLOAT32, n, n);
    if (!s)
        s = clrt_buffer_create(&db, ctx, CLRT_FLOAT32, n, n);
    if (!s)
        s = clrt_buffer_create(&dc, ctx, CLRT_FLOAT32, n, n);
    if (!s)
        s = clrt_buffer_write(q, da, a, n * n);
    if (!s)
        s = clrt_buffer_write(q, db, b, n * n);
    if (!s) {
        double t0 = example_seconds();
        s = clrt_matmul(q, dc, da, db);
        if (!s)
            s = clrt_queue_finish(q);
        first = example_seconds() - t0;
    }
    for (int r = 0; r < RUNS && !s; r++) {
        double t0 = example_seconds();
        s = clrt_matmul(q, dc, da, db);
        if (!s)
            s = clrt_queue_finish(q);
        times[r] = example_seconds() - t0;
    }
    if (!s)
        s = clrt_buffer_read(q, dc, c, n * n);
    if (s) {
        printf("  %zu  failed: %s\n      %s\n", index, clrt_status_name(s), clrt_error_message());
    } else {
        double median = example_median(times, RUNS);
        double err = max_error(a, b, c, n), bound = 1e-6 * (double)n; /* values in [-0.5, 0.5] */
        rc = err <= bound ? 0 : 1;
        printf("  %zu  %10.2f ms %10.2f ms %10.1f   %.1e %s\n", index, first * 1e3, median * 1e3,
               2.0 * (double)n * (double)n * (double)n / median * 1e-9, err, rc ? "WRONG" : "ok");
    }
    clrt_buffer_destroy(da);
    clrt_buffer_destroy(db);
    clrt_buffer_destroy(dc);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    return rc;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 512;
    if (n == 0) {
        fprintf(stderr, "usage: bench_devices [n > 0]\n");
        return 2;
    }
    size_t count = 0;
    if (clrt_device_list(NULL, 0, &count) != CLRT_OK) {
        fprintf(stderr, "bench_devices: %s\n", clrt_error_message());
        return 1;
    }
    if (count == 0) {
        fprintf(stderr, "bench_devices: no OpenCL device (install a driver, e.g. pocl-opencl-icd)\n");
        return 1;
    }
    clrt_device_info *devs = calloc(count, sizeof *devs);
    float *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b), *c = malloc(n * n * sizeof *c);
    if (!devs || !a || !b || !c) {
        fprintf(stderr, "bench_devices: out of host memory\n");
        return 1;
    }
    clrt_device_list(devs, count, &count);
    srand(1);
    for (size_t i = 0; i < n * n; i++) {
        a[i] = (float)rand() / (float)RAND_MAX - 0.5f;
        b[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    }

    printf("%zu device(s); matmul %zu x %zu x %zu, float32, median of %d runs\n\n", count, n, n, n, RUNS);
    for (size_t i = 0; i < count; i++)
        printf("  %zu  [%u:%u] %s  (%s, %u compute units)\n", devs[i].index, devs[i].platform_index,
               devs[i].device_index, devs[i].name, devs[i].platform, devs[i].compute_units);
    printf("\n  #  first call (build)     median   GFLOP/s   max|err|\n");
    int worst = 0;
    for (size_t i = 0; i < count; i++) {
        int r = bench(devs[i].index, n, a, b, c);
        if (r > worst)
            worst = r;
    }
    free(devs);
    free(a);
    free(b);
    free(c);
    return worst ? 1 : 0;
}
