/* Device limits are queried at run time, never assumed: kernel parameters
 * asking for more work-items per group or more local memory than the device
 * (or the built kernel) allows are fitted down, and still give correct
 * results; running out of device memory is CLRT_ENOMEM. ctest also runs this
 * on POCL made GPU-like (POCL_MAX_WORK_GROUP_SIZE=256, POCL_MEMORY_LIMIT=1),
 * where $CLRT_TEST_EXPECT_MAX_WG checks that the limit really took effect,
 * and on Oclgrind (32 KiB of local memory). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "debug.h"
#include "internal.h"

static clrt_device_info dev;

static int setup(void **state)
{
    (void)state;
    setenv("CLRT_CACHE", "off", 1); /* each override really builds */
    clrt_context *ctx;
    if (clrt_context_create(&ctx, NULL) != CLRT_OK || clrt_context_device(ctx, &dev) != CLRT_OK) {
        fprintf(stderr, "setup: %s\n", clrt_error_message());
        return -1;
    }
    clrt_context_destroy(ctx);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    clrt_debug_override_matmul(NULL);
    clrt_debug_override_add(NULL);
    tu_assert_no_live_handles();
    return 0;
}

static void limits_took_effect(void **state)
{
    (void)state;
    const char *wg = getenv("CLRT_TEST_EXPECT_MAX_WG");
    if (wg)
        assert_int_equal(dev.max_work_group, strtoul(wg, NULL, 10));
    const char *mem = getenv("CLRT_TEST_EXPECT_MAX_GLOBAL_MEM");
    if (mem)
        assert_true(dev.global_mem <= strtoull(mem, NULL, 10));
    print_message("device '%s': %zu work-items per group, %llu KiB local, %llu MiB global, %llu MiB max alloc\n",
                  dev.name, dev.max_work_group, (unsigned long long)dev.local_mem >> 10,
                  (unsigned long long)dev.global_mem >> 20, (unsigned long long)dev.max_alloc >> 20);
}

/* c = a + b and c = a b on a fresh context (built with the current overrides). */
static void check_ops(size_t M, size_t N, size_t K)
{
    clrt_context *ctx;
    clrt_queue *q;
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_queue_create(&q, ctx));
    float *a = malloc(M * K * sizeof *a), *b = malloc(K * N * sizeof *b), *c = malloc(M * N * sizeof *c);
    double *ref = malloc(M * N * sizeof *ref), *absref = malloc(M * N * sizeof *absref);
    assert_true(a && b && c && ref && absref);
    tu_fill(a, CLRT_FLOAT32, M * K, 3);
    tu_fill(b, CLRT_FLOAT32, K * N, 4);
    clrt_buffer *da, *db, *dc, *ds;
    TU_OK(clrt_buffer_create(&da, ctx, CLRT_FLOAT32, M, K));
    TU_OK(clrt_buffer_create(&db, ctx, CLRT_FLOAT32, K, N));
    TU_OK(clrt_buffer_create(&dc, ctx, CLRT_FLOAT32, M, N));
    TU_OK(clrt_buffer_create(&ds, ctx, CLRT_FLOAT32, M, K));
    TU_OK(clrt_buffer_write(q, da, a, M * K));
    TU_OK(clrt_buffer_write(q, db, b, K * N));
    TU_OK(clrt_matmul(q, dc, da, db));
    TU_OK(clrt_add(q, ds, da, da));
    TU_OK(clrt_buffer_read(q, dc, c, M * N));
    tu_matmul_ref(a, b, CLRT_FLOAT32, M, N, K, ref, absref);
    assert_int_equal(tu_matmul_errors(c, CLRT_FLOAT32, ref, absref, M, N, K), 0);
    float *s = malloc(M * K * sizeof *s);
    assert_non_null(s);
    TU_OK(clrt_buffer_read(q, ds, s, M * K));
    for (size_t i = 0; i < M * K; i++)
        assert_true(s[i] == a[i] + a[i]);
    free(s);
    clrt_buffer_destroy(da);
    clrt_buffer_destroy(db);
    clrt_buffer_destroy(dc);
    clrt_buffer_destroy(ds);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    free(a);
    free(b);
    free(c);
    free(ref);
    free(absref);
}

/* Work-groups four times the device maximum: fitted down, not refused.
 * Only on GPU-like limits (at most 1024 work-items): a CPU driver allowing
 * 4096 would spend minutes compiling a 16384-item group. */
static void oversized_work_groups_are_fitted(void **state)
{
    (void)state;
    if (dev.max_work_group > 1024) {
        print_message("%zu work-items per group: skipped (runs on the GPU-like drivers)\n", dev.max_work_group);
        return;
    }
    unsigned side = 1;
    while ((size_t)side * side <= dev.max_work_group * 4 && side < 64)
        side *= 2;
    clrt_add_params add = {.vw = 1, .items = 1, .wg = side * side};
    clrt_matmul_params mm = {.use_local = 0, .tm = 1, .tn = 1, .tk = 8, .wgx = side, .wgy = side, .vw = 1};
    clrt_debug_override_add(&add);
    clrt_debug_override_matmul(&mm);
    check_ops(33, 17, 9);
    mm.use_local = 1;
    clrt_debug_override_matmul(&mm);
    check_ops(33, 17, 9);
}

/* Local-memory tiles twice the device's local memory: fitted down too. */
static void oversized_local_tiles_are_fitted(void **state)
{
    (void)state;
    if (dev.local_mem == 0 || dev.local_mem > 64 * 1024) {
        print_message("%llu KiB of local memory: skipped (runs where it is GPU-sized)\n",
                      (unsigned long long)dev.local_mem >> 10);
        return;
    }
    /* (8*4 + 8*4) * tk floats = 2 x local memory */
    unsigned tk = 8;
    while ((uint64_t)64 * tk * sizeof(float) < 2 * dev.local_mem && tk < (1u << 20))
        tk *= 2;
    clrt_matmul_params mm = {.use_local = 1, .tm = 4, .tn = 4, .tk = tk, .wgx = 8, .wgy = 8, .vw = 4};
    assert_true(clrt_matmul_local_bytes(&mm, sizeof(float)) > dev.local_mem);
    clrt_debug_override_matmul(&mm);
    check_ops(40, 36, 70);
}

/* Filling the device: the allocation that does not fit is CLRT_ENOMEM, the
 * others stay usable. A device honouring its limits refuses by
 * global_mem / max_alloc + 2 buffers, so at most that many are made. POCL
 * overcommits (nothing fails, nothing is touched); Oclgrind mallocs and
 * shadows every byte (minutes), so this runs only where ctest asks for it
 * ($CLRT_TEST_MEMORY_EXHAUSTION, the POCL_MEMORY_LIMIT=1 run) and where the
 * device memory is at most 1 GiB. */
static void device_memory_exhaustion(void **state)
{
    (void)state;
    if (!getenv("CLRT_TEST_MEMORY_EXHAUSTION") || dev.global_mem > ((uint64_t)1 << 30)) {
        print_message("global memory %llu MiB: skipped (runs under POCL_MEMORY_LIMIT=1, with $CLRT_TEST_MEMORY_EXHAUSTION)\n",
                      (unsigned long long)dev.global_mem >> 20);
        return;
    }
    clrt_context *ctx;
    clrt_queue *q;
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_queue_create(&q, ctx));
    size_t cols = (size_t)(dev.max_alloc / sizeof(float));
    enum { MAX_BUFFERS = 64 };
    clrt_buffer *bufs[MAX_BUFFERS] = {NULL};
    int n = 0, status = CLRT_OK, most = (int)(dev.global_mem / dev.max_alloc) + 2;
    float one = 1.0f, back = 0.0f;
    while (n < most && n < MAX_BUFFERS) {
        clrt_buffer *b = NULL;
        status = clrt_buffer_create(&b, ctx, CLRT_FLOAT32, 1, cols);
        if (status != CLRT_OK)
            break;
        bufs[n++] = b;
    }
    print_message("%d buffers of %llu MiB, then %s%s\n", n, (unsigned long long)dev.max_alloc >> 20,
                  clrt_status_name(status), status == CLRT_OK ? " (the driver overcommits)" : "");
    if (status != CLRT_OK) {
        TU_REFUSED(CLRT_ENOMEM, NULL, status);
        assert_non_null(strstr(clrt_error_message(), "clrt_buffer_create: "));
        assert_non_null(strstr(clrt_error_message(), "clCreateBuffer"));
    }
    for (int i = 0; i < n; i++)
        clrt_buffer_destroy(bufs[i]);
    /* the context survives it */
    clrt_buffer *b;
    TU_OK(clrt_buffer_create(&b, ctx, CLRT_FLOAT32, 1, 1));
    TU_OK(clrt_buffer_write(q, b, &one, 1));
    TU_OK(clrt_buffer_read(q, b, &back, 1));
    assert_true(back == 1.0f);
    clrt_buffer_destroy(b);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
}

int main(void)
{
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(limits_took_effect, teardown),
        cmocka_unit_test_teardown(oversized_work_groups_are_fitted, teardown),
        cmocka_unit_test_teardown(oversized_local_tiles_are_fitted, teardown),
        cmocka_unit_test_teardown(device_memory_exhaustion, teardown),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
