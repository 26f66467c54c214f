/* Device limits are queried at run time, never assumed: kernel parameters
 * asking for more work-items per group or more local memory than the device
 * (or the built kernel) allows are fitted down, and still give correct
 * results; running out of device memory is CLRT_ENOMEM (where the driver
 * refuses at all: POCL overcommits, see device_memory_exhaustion). ctest also runs this
 * on POCL made GPU-like (POCL_MAX_WORK_GROUP_SIZE=256, POCL_MEMORY_LIMIT=1),
 * where $CLRT_TEST_EXPECT_MAX_WG checks that the limit really took effect,
 * and on Oclgrind (32 KiB of local memory). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

#include "base/debug.h"
#include "base/error.h"
#include "kernels/table.h"
#include "runtime/handles.h"

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

/* c = a + b and c = a b on a fresh context whose kernels are forced to mm and
 * add (clrt_tune_override), checked against the host; mm_got and add_got
 * (256 bytes each) get the parameters the kernels were really built with. */
static void check_ops(size_t M, size_t N, size_t K, const char *mm, const char *add, char *mm_got, char *add_got)
{
    clrt_context *ctx;
    clrt_queue *q;
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT32, mm));
    TU_OK(clrt_tune_override(ctx, "add", CLRT_FLOAT32, add));
    TU_OK(clrt_queue_create(&q, ctx));
    float *a = malloc(M * K * sizeof *a), *b = malloc(K * N * sizeof *b), *c = malloc(M * N * sizeof *c);
    assert_true(a && b && c);
    clrt__ref_fill(a, CLRT_FLOAT32, M * K, 3);
    clrt__ref_fill(b, CLRT_FLOAT32, K * N, 4);
    clrt_buffer *da = tu_upload(ctx, q, CLRT_FLOAT32, M, K, a), *db = tu_upload(ctx, q, CLRT_FLOAT32, K, N, b);
    clrt_buffer *dc = tu_upload(ctx, q, CLRT_FLOAT32, M, N, NULL), *ds = tu_upload(ctx, q, CLRT_FLOAT32, M, K, NULL);
    TU_OK(clrt_matmul(q, dc, da, db));
    TU_OK(clrt_add(q, ds, da, da));
    TU_OK(clrt_buffer_read(q, dc, c, M * N));
    tu_assert_matmul(c, a, b, CLRT_FLOAT32, M, N, K);
    float *s = malloc(M * K * sizeof *s);
    assert_non_null(s);
    TU_OK(clrt_buffer_read(q, ds, s, M * K));
    for (size_t i = 0; i < M * K; i++)
        assert_true(s[i] == a[i] + a[i]);
    free(s);
    clrt_params_origin o1, o2;
    TU_OK(clrt_tune_current(ctx, "matmul", CLRT_FLOAT32, mm_got, 256, &o1));
    TU_OK(clrt_tune_current(ctx, "add", CLRT_FLOAT32, add_got, 256, &o2));
    assert_int_equal(o1, CLRT_PARAMS_OVERRIDE);
    assert_int_equal(o2, CLRT_PARAMS_OVERRIDE);
    TU_DESTROY_BUFFERS(da, db, dc, ds);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    free(a);
    free(b);
    free(c);
}

/* The device's facts, as the library sees them. */
static clrt__device_facts device_facts(void)
{
    clrt_context *ctx;
    TU_OK(clrt_context_create(&ctx, NULL));
    clrt__device_facts f = ctx->facts;
    clrt_context_destroy(ctx);
    return f;
}

/* Work-groups four times the device maximum: refused by the check with the
 * device's limit named, and what the kernel rules fit them down to is
 * accepted, runs, and gives correct results. Only on GPU-like limits (at most
 * 1024 work-items): a CPU driver allowing 4096 would spend minutes compiling
 * a 16384-item group. */
static void oversized_work_groups_are_fitted(void **state)
{
    (void)state;
    if (dev.max_work_group > 1024) {
        print_message("%zu work-items per group: skipped (runs on the GPU-like drivers)\n", dev.max_work_group);
        skip();
    }
    unsigned side = 1;
    while ((size_t)side * side <= dev.max_work_group * 4 && side < 64)
        side *= 2;
    assert_true((size_t)side * side > dev.max_work_group); /* really oversized */
    const clrt__device_facts facts = device_facts();
    for (unsigned use_local = 0; use_local < 2; use_local++) {
        char mm[256], add[256], why[256], mm_got[256], add_got[256];
        snprintf(mm, sizeof mm, "use_local=%u tm=1 tn=1 tk=8 wgx=%u wgy=%u vw=1 pack=0", use_local, side, side);
        snprintf(add, sizeof add, "vw=1 items=1 wg=%u", side * side);
        clrt_context *ctx;
        TU_OK(clrt_context_create(&ctx, NULL));
        TU_REFUSED(CLRT_EINVAL, "exceeds the device's", clrt_tune_override(ctx, "matmul", CLRT_FLOAT32, mm));
        assert_int_equal(clrt_tune_check(ctx, "add", CLRT_FLOAT32, add, why, sizeof why), CLRT_EINVAL);
        assert_non_null(strstr(why, "exceeds the device's"));
        clrt_context_destroy(ctx);
        /* fitted by the kernels' own rules, as a built kernel's limit would make them */
        clrt__pvals p;
        clrt__k_matmul.defaults(&facts, 4, &p);
        assert_int_equal(clrt__params_parse(&clrt__k_matmul, mm, &p, why, sizeof why), 0);
        assert_int_equal(clrt__k_matmul.fit(&facts, 4, facts.max_work_group, &p), 1);
        assert_int_equal(clrt__params_text(&clrt__k_matmul, &p, mm, sizeof mm), 0);
        clrt__k_elementwise.defaults(&facts, 4, &p);
        assert_int_equal(clrt__params_parse(&clrt__k_elementwise, add, &p, why, sizeof why), 0);
        assert_int_equal(clrt__k_elementwise.fit(&facts, 4, facts.max_work_group, &p), 1);
        assert_int_equal(clrt__params_text(&clrt__k_elementwise, &p, add, sizeof add), 0);
        check_ops(33, 17, 9, mm, add, mm_got, add_got);
        /* the groups fit the device; the rest of the variant is as asked */
        if (tu_param(mm_got, "wgx") * tu_param(mm_got, "wgy") > (long)dev.max_work_group ||
            tu_param(add_got, "wg") > (long)dev.max_work_group)
            fail_msg("use_local %u: built with %s and %s, device allows %zu work-items", use_local, mm_got, add_got,
                     dev.max_work_group);
        assert_int_equal(tu_param(mm_got, "use_local"), use_local);
        assert_int_equal(tu_param(mm_got, "tm"), 1);
        assert_int_equal(tu_param(mm_got, "tn"), 1);
        assert_int_equal(tu_param(mm_got, "tk"), 8);
        assert_int_equal(tu_param(add_got, "vw"), 1);
    }
}

/* Local-memory tiles twice the device's local memory: refused by the check,
 * and fitted down by the kernel's rules to tiles that fit and run. */
static void oversized_local_tiles_are_fitted(void **state)
{
    (void)state;
    if (dev.local_mem == 0 || dev.local_mem > 64 * 1024) {
        print_message("%llu KiB of local memory: skipped (runs where it is GPU-sized)\n",
                      (unsigned long long)dev.local_mem >> 10);
        skip();
    }
    /* (8*4 + 8*4) * tk floats = 2 x local memory (the check counts 3 such tiles: both kernels) */
    unsigned tk = 8;
    while ((uint64_t)64 * tk * sizeof(float) < 2 * dev.local_mem && tk < 4096)
        tk *= 2;
    char mm[256], why[256], got[256], add_got[256];
    snprintf(mm, sizeof mm, "use_local=1 tm=4 tn=4 tk=%u wgx=8 wgy=8 vw=4", tk);
    clrt_context *ctx;
    TU_OK(clrt_context_create(&ctx, NULL));
    assert_int_equal(clrt_tune_check(ctx, "matmul", CLRT_FLOAT32, mm, why, sizeof why), CLRT_EINVAL);
    assert_non_null(strstr(why, "local memory"));
    clrt_context_destroy(ctx);
    const clrt__device_facts facts = device_facts();
    clrt__pvals p;
    clrt__k_matmul.defaults(&facts, 4, &p);
    assert_int_equal(clrt__params_parse(&clrt__k_matmul, mm, &p, why, sizeof why), 0);
    assert_int_equal(clrt__k_matmul.fit(&facts, 4, facts.max_work_group, &p), 1);
    clrt__matmul_params fitted = clrt__mm(&p);
    assert_true(fitted.use_local && clrt__matmul_local_bytes(&fitted, sizeof(float)) <= dev.local_mem);
    assert_true(fitted.tk < tk); /* the k tile is what shrinks first */
    assert_int_equal(clrt__params_text(&clrt__k_matmul, &p, mm, sizeof mm), 0);
    check_ops(40, 36, 70, mm, "vw=1", got, add_got);
    assert_int_equal(tu_param(got, "use_local"), 1);
    assert_int_equal(tu_param(got, "tk"), fitted.tk);
}

/* POCL's platform: it accepts more buffers than it has memory for (below). */
static int is_pocl(void) { return strstr(dev.platform, "Portable Computing Language") != NULL; }

/* Filling the device: buffers of max_alloc bytes, each written from one host
 * array so that its memory is really taken (a driver may allocate only on
 * first use), until one is refused or there are global_mem / max_alloc + 2
 * of them, more than the device holds. The refusal must be CLRT_ENOMEM: from
 * clrt_buffer_create (naming clCreateBuffer; the context stays usable) or
 * from the blocking clrt_buffer_write (naming clEnqueueWriteBuffer; a late
 * error, so the context is failed and a new one works). Buffers that were
 * accepted keep their own contents. Oclgrind mallocs and shadows every byte
 * (minutes), so this runs only where ctest asks for it
 * ($CLRT_TEST_MEMORY_EXHAUSTION, the POCL_MEMORY_LIMIT=1 run) and where the
 * device memory is at most 1 GiB.
 * POCL cannot be made to refuse: POCL_MEMORY_LIMIT only lowers the global
 * memory it reports; POCL 3.1 took and wrote 20 buffers of 256 MiB under
 * POCL_MEMORY_LIMIT=1, and when the host really runs out (RLIMIT_AS) it
 * aborts (assertion in pocl_create_migration_commands) instead of returning
 * an error. So on POCL this verifies only that the overcommitted buffers all
 * hold their own data, and that any refusal would be the documented one;
 * on any other driver it fails unless the device says CLRT_ENOMEM. */
static void device_memory_exhaustion(void **state)
{
    (void)state;
    if (!getenv("CLRT_TEST_MEMORY_EXHAUSTION") || dev.global_mem > ((uint64_t)1 << 30)) {
        print_message("global memory %llu MiB: skipped (runs under POCL_MEMORY_LIMIT=1, with $CLRT_TEST_MEMORY_EXHAUSTION)\n",
                      (unsigned long long)dev.global_mem >> 20);
        skip();
    }
    clrt_context *ctx;
    clrt_queue *q;
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_queue_create(&q, ctx));
    size_t cols = (size_t)(dev.max_alloc / sizeof(float));
    float *host = calloc(cols, sizeof *host);
    assert_non_null(host);
    enum { MAX_BUFFERS = 64 };
    clrt_buffer *bufs[MAX_BUFFERS] = {NULL};
    int n = 0, status = CLRT_OK, refused_by_write = 0, most = (int)(dev.global_mem / dev.max_alloc) + 2;
    float one = 1.0f, back = 0.0f;
    while (n < most && n < MAX_BUFFERS) {
        clrt_buffer *b = NULL;
        clrt__error_clear();
        status = clrt_buffer_create(&b, ctx, CLRT_FLOAT32, 1, cols);
        if (status != CLRT_OK) {
            tu_check_refusal(status, CLRT_ENOMEM, "clrt_buffer_create", "clCreateBuffer");
            assert_null(b);
            break;
        }
        bufs[n++] = b;
        /* the first and last element tell the buffers apart */
        host[0] = host[cols - 1] = (float)n;
        clrt__error_clear();
        status = clrt_buffer_write(q, b, host, cols);
        if (status != CLRT_OK) {
            tu_check_refusal(status, CLRT_ENOMEM, "clrt_buffer_write", "clEnqueueWriteBuffer");
            refused_by_write = 1;
            break;
        }
    }
    print_message("%d buffers of %llu MiB (device: %llu MiB), then %s%s\n", n, (unsigned long long)dev.max_alloc >> 20,
                  (unsigned long long)dev.global_mem >> 20, clrt_status_name(status),
                  status == CLRT_OK ? " (the driver overcommits)" : refused_by_write ? " from the write" : "");
    if (status == CLRT_OK) {
        if (!is_pocl())
            fail_msg("%d buffers of %llu MiB, more than the device's %llu MiB, were created and written: "
                     "expected CLRT_ENOMEM",
                     n, (unsigned long long)dev.max_alloc >> 20, (unsigned long long)dev.global_mem >> 20);
        print_message("POCL overcommits and cannot be made to refuse: verified that the %d buffers keep their own "
                      "data, not CLRT_ENOMEM\n",
                      n);
    }
    if (!refused_by_write) {
        for (int i = 0; i < n; i++) {
            host[0] = host[cols - 1] = -1.0f;
            TU_OK(clrt_buffer_read(q, bufs[i], host, cols));
            if (host[0] != (float)(i + 1) || host[cols - 1] != (float)(i + 1))
                fail_msg("buffer %d of %d holds %g ... %g, not what was written to it", i + 1, n, (double)host[0],
                         (double)host[cols - 1]);
        }
    } else {
        /* a late error: this context is failed for good */
        clrt_buffer *b = (clrt_buffer *)0x1;
        TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_buffer_create(&b, ctx, CLRT_FLOAT32, 1, 1));
        assert_null(b);
    }
    for (int i = 0; i < n; i++)
        clrt_buffer_destroy(bufs[i]);
    free(host);
    if (refused_by_write) {
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
        TU_OK(clrt_context_create(&ctx, NULL));
        TU_OK(clrt_queue_create(&q, ctx));
    }
    /* the context (or, after a failed write, a new one) works */
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
