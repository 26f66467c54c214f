/* quickstart: the whole clrt workflow in one page.
 *
 * Pick the default device (or $CLRT_DEVICE), put two 1000x1000 float matrices
 * on it, add them, multiply them, read the results back, check them against
 * the host, and print the device and the times.
 *
 *   ./quickstart            default device
 *   CLRT_DEVICE=cpu ./quickstart
 *   ./quickstart 512        another size
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <clrt/clrt.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Print the failure and return nonzero; the caller cleans up. */
static int failed(int status, const char *what)
{
    if (status == CLRT_OK)
        return 0;
    fprintf(stderr, "quickstart: %s failed: %s\n%s\n", what, clrt_status_name(status), clrt_error_message());
    return 1;
}

/* The largest |error| of the n x n product prod = a b over a sample of 64 rows,
 * against the host's sum in double. */
static double product_error(const float *a, const float *b, const float *prod, size_t n)
{
    double max_err = 0;
    for (size_t i = 0; i < n; i += (n > 64 ? n / 64 : 1))
        for (size_t j = 0; j < n; j++) {
            double ref = 0;
            for (size_t k = 0; k < n; k++)
                ref += (double)a[i * n + k] * (double)b[k * n + j];
            double err = fabs(ref - (double)prod[i * n + j]);
            if (err > max_err)
                max_err = err;
        }
    return max_err;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 1000;
    if (n == 0) {
        fprintf(stderr, "usage: quickstart [size > 0]\n");
        return 2;
    }
    float *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b);
    float *sum = malloc(n * n * sizeof *sum), *prod = malloc(n * n * sizeof *prod);
    clrt_context *ctx = NULL;
    clrt_queue *q = NULL;
    clrt_buffer *da = NULL, *db = NULL, *dsum = NULL, *dprod = NULL;
    int rc = 1;
    if (!a || !b || !sum || !prod) {
        fprintf(stderr, "quickstart: out of host memory\n");
        goto done;
    }
    srand(1);
    for (size_t i = 0; i < n * n; i++) {
        a[i] = (float)rand() / (float)RAND_MAX - 0.5f;
        b[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    }

    /* 1. a context on the default device, and a queue to put work on */
    if (failed(clrt_context_create(&ctx, NULL), "clrt_context_create") ||
        failed(clrt_queue_create(&q, ctx), "clrt_queue_create"))
        goto done;
    clrt_device_info dev;
    clrt_context_device(ctx, &dev);
    printf("device %zu [%u:%u]: %s (%s, %s)\n", dev.index, dev.platform_index, dev.device_index, dev.name,
           dev.platform, dev.driver);

    /* 2. matrices on the device */
    if (failed(clrt_buffer_create(&da, ctx, CLRT_FLOAT32, n, n), "clrt_buffer_create") ||
        failed(clrt_buffer_create(&db, ctx, CLRT_FLOAT32, n, n), "clrt_buffer_create") ||
        failed(clrt_buffer_create(&dsum, ctx, CLRT_FLOAT32, n, n), "clrt_buffer_create") ||
        failed(clrt_buffer_create(&dprod, ctx, CLRT_FLOAT32, n, n), "clrt_buffer_create"))
        goto done;
    double t0 = now();
    if (failed(clrt_buffer_write(q, da, a, n * n), "clrt_buffer_write") ||
        failed(clrt_buffer_write(q, db, b, n * n), "clrt_buffer_write"))
        goto done;
    double t_write = now() - t0;

    /* 3. the math: enqueued, then waited for. The first call of each op
     *    compiles its kernel for this device, so time a second call too. */
    t0 = now();
    if (failed(clrt_add(q, dsum, da, db), "clrt_add") || failed(clrt_queue_finish(q), "clrt_queue_finish"))
        goto done;
    double t_add_first = now() - t0;
    t0 = now();
    if (failed(clrt_matmul(q, dprod, da, db), "clrt_matmul") || failed(clrt_queue_finish(q), "clrt_queue_finish"))
        goto done;
    double t_mm_first = now() - t0;
    t0 = now();
    if (failed(clrt_matmul(q, dprod, da, db), "clrt_matmul") || failed(clrt_queue_finish(q), "clrt_queue_finish"))
        goto done;
    double t_mm = now() - t0;

    /* 4. results back to the host */
    t0 = now();
    if (failed(clrt_buffer_read(q, dsum, sum, n * n), "clrt_buffer_read") ||
        failed(clrt_buffer_read(q, dprod, prod, n * n), "clrt_buffer_read"))
        goto done;
    double t_read = now() - t0;

    /* 5. check against the host: every sum, and a sample of product rows in double */
    size_t bad = 0;
    for (size_t i = 0; i < n * n; i++)
        bad += sum[i] != a[i] + b[i];
    double max_err = product_error(a, b, prod, n);
    /* fp32 error of a length-n dot product of values in [-0.5, 0.5] */
    double bound = 1e-6 * (double)n;
    printf("add     %zux%zu: first call %.1f ms (includes kernel build); %zu wrong\n", n, n,
           t_add_first * 1e3, bad);
    printf("matmul  %zux%zu: first call %.1f ms, then %.2f ms = %.1f GFLOP/s; max |error| %.2e (bound %.1e)\n",
           n, n, t_mm_first * 1e3, t_mm * 1e3, 2.0 * (double)n * n * n / t_mm * 1e-9, max_err, bound);
    printf("transfers: write 2 x %.1f MB in %.1f ms, read 2 x %.1f MB in %.1f ms\n",
           (double)n * n * 4 / 1e6, t_write * 1e3, (double)n * n * 4 / 1e6, t_read * 1e3);
    rc = (bad == 0 && max_err <= bound) ? 0 : 1;
    printf("%s\n", rc == 0 ? "OK: results match the host" : "FAILED: results differ from the host");

done:
    clrt_buffer_destroy(da);
    clrt_buffer_destroy(db);
    clrt_buffer_destroy(dsum);
    clrt_buffer_destroy(dprod);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    free(a);
    free(b);
    free(sum);
    free(prod);
    return rc;
}
