#include "common/test_util.h"

#include <clrt/clrt_cl.h>

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/debug.h"
#include "base/error.h"
#include "kernels/table.h"
#include "runtime/handles.h"

void tu_require_device(void)
{
    size_t n = 0;
    if (clrt_device_list(NULL, 0, &n) != CLRT_OK) {
        fprintf(stderr, "clrt_device_list failed: %s\n", clrt_error_message());
        exit(1);
    }
    if (n > 0)
        return;
    if (getenv("CLRT_TEST_REQUIRE_DEVICE")) {
        fprintf(stderr, "no OpenCL device, but this run requires one (CLRT_TEST_REQUIRE_DEVICE; "
                        "OCL_ICD_VENDORS=%s)\n",
                getenv("OCL_ICD_VENDORS") ? getenv("OCL_ICD_VENDORS") : "(unset)");
        exit(1);
    }
    fprintf(stderr, "no OpenCL platform installed: skipping\n");
    exit(77);
}

int tu_small(void)
{
    const char *s = getenv("CLRT_TEST_SMALL");
    return s && *s && strcmp(s, "0") != 0;
}

size_t tu_dtype_size(clrt_dtype dtype) { return dtype == CLRT_FLOAT64 ? 8 : 4; }

int tu_n_dtypes(void) { return tu_fx->dev.has_fp64 ? 2 : 1; }

clrt_dtype tu_dtype_at(int i) { return i ? CLRT_FLOAT64 : CLRT_FLOAT32; }

const char *tu_dtype_name(clrt_dtype dtype)
{
    return dtype == CLRT_FLOAT64 ? "f64" : dtype == CLRT_INT32 ? "i32" : "f32";
}

double tu_epsilon(clrt_dtype dtype) { return dtype == CLRT_FLOAT64 ? 0x1p-52 : 0x1p-23; }

double tu_get(const void *p, clrt_dtype dtype, size_t i)
{
    switch (dtype) {
    case CLRT_FLOAT64:
        return ((const double *)p)[i];
    case CLRT_INT32:
        return ((const int32_t *)p)[i];
    default:
        return ((const float *)p)[i];
    }
}

void tu_put(void *p, clrt_dtype dtype, size_t i, double v)
{
    switch (dtype) {
    case CLRT_FLOAT64:
        ((double *)p)[i] = v;
        break;
    case CLRT_INT32:
        ((int32_t *)p)[i] = (int32_t)v;
        break;
    default:
        ((float *)p)[i] = (float)v;
    }
}

void tu_expect_close(const char *what, const double *got, const double *ref, const double *absref, size_t n,
                     double tol)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if (!(fabs(got[i] - ref[i]) <= tol * (absref[i] + 1e-300))) {
            if (!bad)
                first = i;
            bad++;
        }
    if (bad)
        fail_msg("%s: %zu of %zu wrong; first [%zu] %.17g, expected %.17g (bound %.3g)", what, bad, n, first,
                 got[first], ref[first], tol * absref[first]);
}

size_t tu_matmul_check(const void *c, const void *a, const void *b, clrt_dtype dtype, size_t M, size_t N,
                       size_t K)
{
    return clrt__ref_gemm_wrong(dtype, 0, 0, a, b, c, M, N, K, M, NULL, stdout);
}

void tu_assert_matmul(const void *c, const void *a, const void *b, clrt_dtype dtype, size_t M, size_t N,
                      size_t K)
{
    size_t bad = tu_matmul_check(c, a, b, dtype, M, N, K);
    if (bad == SIZE_MAX)
        fail_msg("matmul M=%zu N=%zu K=%zu: no host memory for the reference", M, N, K);
    if (bad)
        fail_msg("matmul M=%zu N=%zu K=%zu %s: %zu of %zu wrong", M, N, K, tu_dtype_name(dtype),
                 bad, M * N);
}

double *tu_random_doubles(size_t n, unsigned seed, clrt_dtype dtype)
{
    double *h = malloc((n ? n : 1) * sizeof *h);
    assert_non_null(h);
    clrt__ref_fill(h, CLRT_FLOAT64, n, seed);
    for (size_t i = 0; dtype == CLRT_FLOAT32 && i < n; i++)
        h[i] = (double)(float)h[i];
    return h;
}

void tu_write_doubles(clrt_queue *q, clrt_buffer *buf, const double *h, size_t n)
{
    const clrt_dtype dtype = clrt_buffer_dtype(buf);
    void *t = malloc((n ? n : 1) * tu_dtype_size(dtype));
    assert_non_null(t);
    for (size_t i = 0; i < n; i++)
        tu_put(t, dtype, i, h[i]);
    TU_OK(clrt_buffer_write(q, buf, t, n));
    free(t);
}

void tu_read_doubles(clrt_queue *q, const clrt_buffer *buf, double *h, size_t n)
{
    const clrt_dtype dtype = clrt_buffer_dtype(buf);
    void *t = malloc((n ? n : 1) * tu_dtype_size(dtype));
    assert_non_null(t);
    TU_OK(clrt_buffer_read(q, buf, t, n));
    for (size_t i = 0; i < n; i++)
        h[i] = tu_get(t, dtype, i);
    free(t);
}

clrt_buffer *tu_upload(clrt_context *ctx, clrt_queue *q, clrt_dtype dtype, size_t rows, size_t cols,
                       const void *host)
{
    clrt_buffer *buf = NULL;
    TU_OK(clrt_buffer_create(&buf, ctx, dtype, rows, cols));
    if (host)
        TU_OK(clrt_buffer_write(q, buf, host, rows * cols));
    return buf;
}

void tu_device_add(clrt_context *ctx, clrt_queue *q, clrt_dtype dtype, void *c, const void *a, const void *b,
                   size_t n)
{
    clrt_buffer *da = tu_upload(ctx, q, dtype, 1, n, a), *db = tu_upload(ctx, q, dtype, 1, n, b);
    clrt_buffer *dc = tu_upload(ctx, q, dtype, 1, n, NULL);
    TU_OK(clrt_add(q, dc, da, db));
    TU_OK(clrt_buffer_read(q, dc, c, n));
    TU_DESTROY_BUFFERS(da, db, dc);
}

void tu_device_matmul(clrt_context *ctx, clrt_queue *q, clrt_dtype dtype, void *c, const void *a, const void *b,
                      size_t M, size_t N, size_t K)
{
    clrt_buffer *da = tu_upload(ctx, q, dtype, M, K, a), *db = tu_upload(ctx, q, dtype, K, N, b);
    clrt_buffer *dc = tu_upload(ctx, q, dtype, M, N, NULL);
    TU_OK(clrt_matmul(q, dc, da, db));
    TU_OK(clrt_buffer_read(q, dc, c, M * N));
    TU_DESTROY_BUFFERS(da, db, dc);
}

clrt_context *tu_context_on(const clrt_device_info *dev)
{
    char sel[32];
    snprintf(sel, sizeof sel, "%zu", dev->index);
    clrt_context *ctx = NULL;
    TU_OK(clrt_context_create(&ctx, sel));
    clrt_device_info got;
    TU_OK(clrt_context_device(ctx, &got));
    assert_int_equal(got.index, dev->index); /* the selector picked that very device */
    return ctx;
}

static const unsigned char canary_byte = 0xA5;

clrt_buffer *tu_padded_buffer(clrt_context *ctx, clrt_queue *q, clrt_dtype dtype, size_t rows,
                              size_t cols, size_t canary)
{
    size_t elem = tu_dtype_size(dtype), total = rows * cols + canary;
    clrt_buffer *buf = NULL;
    TU_OK(clrt_buffer_create(&buf, ctx, dtype, 1, total));
    unsigned char *init = malloc(total * elem);
    assert_non_null(init);
    memset(init, canary_byte, total * elem);
    TU_OK(clrt_buffer_write(q, buf, init, total));
    free(init);
    /* Shrink the shape, not the allocation: kernels see rows x cols only. */
    buf->rows = rows;
    buf->cols = cols;
    buf->ld = cols;
    return buf;
}

int tu_canary_intact(clrt_queue *q, const clrt_buffer *buf, size_t canary)
{
    size_t elem = tu_dtype_size(buf->dtype);
    unsigned char *tail = malloc(canary * elem);
    assert_non_null(tail);
    const size_t end = (buf->offset + (buf->rows - 1) * buf->ld + buf->cols) * elem;
    cl_int err = clEnqueueReadBuffer(q->cl, buf->cl, CL_TRUE, end, canary * elem, tail, 0, NULL, NULL);
    assert_int_equal(err, CL_SUCCESS);
    int intact = 1;
    for (size_t i = 0; i < canary * elem; i++)
        intact &= tail[i] == canary_byte;
    free(tail);
    return intact;
}

void tu_destroy_buffers(clrt_buffer *const *bufs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        clrt_buffer_destroy(bufs[i]);
}

void tu_free_all(void *const *ptrs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(ptrs[i]);
}

void tu_run_threads(size_t count, void *(*fn)(void *), void *jobs, size_t job_size)
{
    pthread_t *th = malloc((count ? count : 1) * sizeof *th);
    assert_non_null(th);
    for (size_t i = 0; i < count; i++)
        assert_int_equal(pthread_create(&th[i], NULL, fn, (char *)jobs + i * job_size), 0);
    for (size_t i = 0; i < count; i++)
        assert_int_equal(pthread_join(th[i], NULL), 0);
    free(th);
}

void tu_assert_no_live_handles(void)
{
    static const char *const kinds[] = {"contexts", "queues", "buffers", "programs", "kernels", "scratch buffers", "events"};
    for (int k = 0; k < CLRT__LIVE_KINDS; k++)
        if (clrt__debug_live(k) != 0)
            fail_msg("%ld %s still live at teardown", clrt__debug_live(k), kinds[k]);
}

void tu_check_refusal(int status, int expected, const char *call, const char *phrase)
{
    if (status != expected)
        fail_msg("%s returned %s, expected %s: %s", call, clrt_status_name(status), clrt_status_name(expected),
                 clrt_error_message());
    const char *msg = clrt_error_message();
    size_t name = strcspn(call, "(");
    if (strncmp(msg, call, name) != 0 || msg[name] != ':')
        fail_msg("%s: message \"%s\" does not start with the function name", call, msg);
    if (phrase && !strstr(msg, phrase))
        fail_msg("%s: message \"%s\" does not mention \"%s\"", call, msg, phrase);
}

int tu_teardown_no_live(void **state)
{
    (void)state;
    tu_assert_no_live_handles();
    return 0;
}

tu_fixture *tu_fx;

int tu_fixture_setup(void **state)
{
    tu_fixture *f = calloc(1, sizeof *f);
    if (!f || clrt_context_create(&f->ctx, NULL) != CLRT_OK || clrt_queue_create(&f->q, f->ctx) != CLRT_OK ||
        clrt_context_device(f->ctx, &f->dev) != CLRT_OK) {
        fprintf(stderr, "setup: %s\n", f ? clrt_error_message() : "out of host memory");
        if (f) { /* what was made before the failure goes (destroy(NULL) is a no-op) */
            clrt_queue_destroy(f->q);
            clrt_context_destroy(f->ctx);
        }
        free(f);
        return -1;
    }
    *state = f;
    tu_fx = f;
    return 0;
}

int tu_fixture_teardown(void **state)
{
    tu_fixture *f = *state;
    clrt_queue_destroy(f->q);
    clrt_context_destroy(f->ctx);
    if (tu_fx == f)
        tu_fx = NULL;
    free(f);
    tu_assert_no_live_handles();
    return 0;
}

clrt_context *tu_fresh_context(clrt_queue **q)
{
    clrt_context *ctx = tu_context_on(&tu_fx->dev);
    TU_OK(clrt_queue_create(q, ctx));
    return ctx;
}

clrt_buffer *tu_buffer(clrt_dtype dtype, size_t rows, size_t cols)
{
    clrt_buffer *buf = NULL;
    TU_OK(clrt_buffer_create(&buf, tu_fx->ctx, dtype, rows, cols));
    return buf;
}

int tu_only_fixture_live(void **state)
{
    (void)state;
    assert_int_equal(clrt__debug_live(CLRT__LIVE_CONTEXT), 1);
    assert_int_equal(clrt__debug_live(CLRT__LIVE_QUEUE), 1);
    assert_int_equal(clrt__debug_live(CLRT__LIVE_BUFFER), 0);
    return 0;
}

int tu_run_fixture_suite(const struct CMUnitTest *tests, size_t count)
{
    tu_require_device();
    return _cmocka_run_group_tests("tests", tests, count, tu_fixture_setup, tu_fixture_teardown);
}

long tu_param(const char *params, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = params; p && *p;) {
        while (*p == ' ')
            p++;
        if (strncmp(p, key, n) == 0 && p[n] == '=')
            return strtol(p + n + 1, NULL, 10);
        p = strchr(p, ' ');
    }
    return -1;
}

void tu_override(clrt_context *ctx, const char *kernel, clrt_dtype dtype, const char *params)
{
    TU_OK(clrt_tune_override(ctx, kernel, dtype, params));
    char now[256];
    clrt_params_origin origin = CLRT_PARAMS_DEFAULT;
    TU_OK(clrt_tune_current(ctx, kernel, dtype, now, sizeof now, &origin));
    assert_int_equal(origin, CLRT_PARAMS_OVERRIDE);
    tu_assert_ran(ctx, kernel, dtype, params);
}

void tu_assert_ran(clrt_context *ctx, const char *kernel, clrt_dtype dtype, const char *want)
{
    char now[256];
    clrt_params_origin origin;
    TU_OK(clrt_tune_current(ctx, kernel, dtype, now, sizeof now, &origin));
    size_t wg = 0; /* what the built kernel takes */
    cl_kernel k = clrt_context_kernel_cl(ctx, kernel, dtype);
    assert_non_null(k);
    assert_int_equal(clGetKernelWorkGroupInfo(k, clrt_context_cl_device(ctx), CL_KERNEL_WORK_GROUP_SIZE, sizeof wg,
                                              &wg, NULL),
                     CL_SUCCESS);
    long group_want = 1, group_now = 1;
    int group_differs = 0;
    for (const char *p = want; *p;) {
        while (*p == ' ')
            p++;
        const char *eq = strchr(p, '=');
        if (!*p || !eq)
            break;
        char key[32];
        snprintf(key, sizeof key, "%.*s", (int)(eq - p), p);
        long w = strtol(eq + 1, NULL, 10), got = tu_param(now, key);
        int group = !strcmp(key, "wgx") || !strcmp(key, "wgy") || !strcmp(key, "wg");
        if (group) {
            group_want *= w;
            group_now *= got;
            group_differs |= got != w;
            if (got > w)
                fail_msg("%s ran with %s=%ld, above the %ld asked for (%s)", kernel, key, got, w, now);
        } else if (got != w) {
            fail_msg("%s %s ran with \"%s\", not %s=%ld as forced", kernel, tu_dtype_name(dtype),
                     now, key, w);
        }
        p = eq + 1 + strcspn(eq + 1, " ");
    }
    if (group_differs && (group_want <= (long)wg || group_now > (long)wg))
        fail_msg("%s ran with a work-group of %ld, not the %ld asked for, though the built kernel takes %zu (%s)",
                 kernel, group_now, group_want, wg, now);
}
