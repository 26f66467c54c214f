/* add and matmul against a double-precision host reference, at odd,
 * non-square and degenerate sizes, for float and (where the device has it)
 * double, in every kernel variant, with a canary after every output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

#include "base/debug.h"

enum { CANARY = 67 };

/* c = a + b, exact. in_place: 0 c is its own buffer, 1 c == a, 2 c == b (both
 * allowed by clrt_add; the kernel must read each element before writing it). */
enum { SEPARATE, C_IS_A, C_IS_B };
static const char *const in_place_name[] = {"", " in place (c == a)", " in place (c == b)"};

static void check_add(clrt_context *ctx, clrt_queue *q, clrt_dtype dtype, size_t rows, size_t cols, int in_place)
{
    size_t n = rows * cols, es = tu_dtype_size(dtype);
    unsigned char *a = malloc(n * es), *b = malloc(n * es), *c = malloc((n + 1) * es);
    assert_true(a && b && c);
    clrt__ref_fill(a, dtype, n, (unsigned)(rows * 31 + cols));
    clrt__ref_fill(b, dtype, n, (unsigned)(rows * 17 + cols + 5));
    clrt_buffer *da = tu_padded_buffer(ctx, q, dtype, rows, cols, CANARY);
    clrt_buffer *db = tu_padded_buffer(ctx, q, dtype, rows, cols, CANARY);
    clrt_buffer *dc = in_place == C_IS_A ? da
                      : in_place == C_IS_B ? db
                                           : tu_padded_buffer(ctx, q, dtype, rows, cols, CANARY);
    TU_OK(clrt_buffer_write(q, da, a, n));
    TU_OK(clrt_buffer_write(q, db, b, n));
    TU_OK(clrt_add(q, dc, da, db));
    memset(c + n * es, 0x3c, es); /* host canary after the read */
    TU_OK(clrt_buffer_read(q, dc, c, n));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (dtype == CLRT_FLOAT64)
            bad += ((double *)c)[i] != ((double *)a)[i] + ((double *)b)[i];
        else
            bad += ((float *)c)[i] != ((float *)a)[i] + ((float *)b)[i];
    }
    if (bad)
        fail_msg("add %zux%zu %s%s: %zu of %zu wrong", rows, cols, tu_dtype_name(dtype),
                 in_place_name[in_place], bad, n);
    for (size_t i = 0; i < es; i++)
        assert_int_equal(c[n * es + i], 0x3c);
    assert_true(tu_canary_intact(q, dc, CANARY));
    assert_true(tu_canary_intact(q, da, CANARY));
    assert_true(tu_canary_intact(q, db, CANARY));
    clrt_buffer_destroy(da);
    clrt_buffer_destroy(db);
    if (in_place == SEPARATE)
        clrt_buffer_destroy(dc);
    free(a);
    free(b);
    free(c);
}

static void check_matmul(clrt_context *ctx, clrt_queue *q, clrt_dtype dtype, size_t M, size_t N, size_t K)
{
    size_t es = tu_dtype_size(dtype);
    unsigned char *a = malloc(M * K * es), *b = malloc(K * N * es), *c = malloc(M * N * es);
    assert_true(a && b && c);
    clrt__ref_fill(a, dtype, M * K, (unsigned)(M * 7 + K));
    clrt__ref_fill(b, dtype, K * N, (unsigned)(K * 13 + N));
    clrt_buffer *da = tu_padded_buffer(ctx, q, dtype, M, K, CANARY);
    clrt_buffer *db = tu_padded_buffer(ctx, q, dtype, K, N, CANARY);
    clrt_buffer *dc = tu_padded_buffer(ctx, q, dtype, M, N, CANARY);
    TU_OK(clrt_buffer_write(q, da, a, M * K));
    TU_OK(clrt_buffer_write(q, db, b, K * N));
    TU_OK(clrt_matmul(q, dc, da, db));
    TU_OK(clrt_buffer_read(q, dc, c, M * N));
    tu_assert_matmul(c, a, b, dtype, M, N, K);
    if (!tu_canary_intact(q, dc, CANARY))
        fail_msg("matmul M=%zu N=%zu K=%zu wrote past the end of c", M, N, K);
    assert_true(tu_canary_intact(q, da, CANARY));
    assert_true(tu_canary_intact(q, db, CANARY));
    TU_DESTROY_BUFFERS(da, db, dc);
    free(a);
    free(b);
    free(c);
}

static const size_t add_sizes_full[][2] = {{1, 1}, {1, 7}, {7, 1}, {3, 5}, {1, 17}, {1, 63}, {1, 64},
                                           {1, 65}, {17, 17}, {127, 129}, {1, 1000}, {1000, 1000},
                                           {1, 1000003}};
static const size_t add_sizes_small[][2] = {{1, 1}, {1, 7}, {1, 15}, {1, 16}, {1, 17}, {1, 63}, {1, 64},
                                            {1, 65}, {5, 13}};

static void run_add(clrt_context *ctx, clrt_queue *q, clrt_dtype dtype)
{
    int small = tu_small();
    size_t count = small ? sizeof add_sizes_small / sizeof add_sizes_small[0]
                         : sizeof add_sizes_full / sizeof add_sizes_full[0];
    for (size_t i = 0; i < count; i++) {
        const size_t *s = small ? add_sizes_small[i] : add_sizes_full[i];
        check_add(ctx, q, dtype, s[0], s[1], SEPARATE);
        check_add(ctx, q, dtype, s[0], s[1], C_IS_A);
        check_add(ctx, q, dtype, s[0], s[1], C_IS_B);
    }
}

static void run_matmul(clrt_context *ctx, clrt_queue *q, clrt_dtype dtype)
{
    static const size_t dims_full[] = {1, 7, 17, 65, 127};
    static const size_t dims_small[] = {1, 7, 16, 17, 64};
    const size_t *dims = tu_small() ? dims_small : dims_full;
    for (size_t i = 0; i < 5; i++)
        for (size_t j = 0; j < 5; j++)
            for (size_t k = 0; k < 5; k++)
                check_matmul(ctx, q, dtype, dims[i], dims[j], dims[k]);
    if (!tu_small()) {
        check_matmul(ctx, q, dtype, 1000, 1000, 1);   /* K = 1 */
        check_matmul(ctx, q, dtype, 1, 1000, 1000);   /* a row vector */
        check_matmul(ctx, q, dtype, 1000, 1, 1000);   /* a column result */
        check_matmul(ctx, q, dtype, 256, 256, 256);   /* whole tiles only */
        check_matmul(ctx, q, dtype, 300, 257, 1031);  /* long K, ragged edges */
    }
}

static void add_f32(void **state)
{
    (void)state;
    run_add(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32);
}

static void add_f64(void **state)
{
    (void)state;
    if (!tu_fx->dev.has_fp64) {
        print_message("device has no fp64: CLRT_FLOAT64 is refused (tested in device_api)\n");
        skip();
    }
    run_add(tu_fx->ctx, tu_fx->q, CLRT_FLOAT64);
}

static void matmul_f32(void **state)
{
    (void)state;
    run_matmul(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32);
}

static void matmul_f32_1000(void **state)
{
    (void)state;
    if (tu_small()) {
        print_message("$CLRT_TEST_SMALL: 1000^3 skipped\n");
        skip();
    }
    check_matmul(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, 1000, 1000, 1000);
}

static void matmul_f64(void **state)
{
    (void)state;
    if (!tu_fx->dev.has_fp64) {
        print_message("device has no fp64: CLRT_FLOAT64 is refused (tested in device_api)\n");
        skip();
    }
    run_matmul(tu_fx->ctx, tu_fx->q, CLRT_FLOAT64);
}

/* The other matmul variant than the device's default, and tiny tiles, so that
 * every code path of cl/matmul_cpu.cl and cl/matmul_gpu.cl runs on every device
 * (Oclgrind included), forced through the public tuning API. */
static void matmul_every_variant(void **state)
{
    (void)state;
    static const char *const variants[] = {
        "use_local=0 tm=4 tn=8 tk=16 wgx=1 wgy=4 vw=4 pack=0 tkp=0",
        "use_local=1 tm=2 tn=4 tk=8 wgx=4 wgy=4 vw=2 pack=0",
        "use_local=1 tm=1 tn=1 tk=4 wgx=8 wgy=8 vw=1 pack=0",
        "use_local=0 tm=1 tn=1 tk=1 wgx=1 wgy=1 vw=1 pack=0 tkp=0",
        /* B packed first (pack_b), whenever the tiles are full; its own k block */
        "use_local=0 tm=4 tn=8 tk=16 wgx=1 wgy=4 vw=4 pack=2 tkp=8 pack_kib=0",
        /* ... in slices of a few column panels (1 KiB of scratch), groups 2 panels wide */
        "use_local=0 tm=2 tn=4 tk=8 wgx=2 wgy=2 vw=2 pack=2 tkp=0 pack_kib=1",
    };
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        const long scratch = clrt__debug_live(CLRT__LIVE_SCRATCH); /* the fixture's queue may have one */
        clrt_queue *q;
        clrt_context *ctx = tu_fresh_context(&q); /* a variant of its own */
        tu_override(ctx, "matmul", CLRT_FLOAT32, variants[v]);
        static const size_t dims[] = {1, 7, 16, 17, 33};
        for (size_t i = 0; i < 5; i++)
            for (size_t k = 0; k < 5; k++)
                check_matmul(ctx, q, CLRT_FLOAT32, dims[i], dims[(i + k) % 5], dims[k]);
        if (tu_fx->dev.has_fp64) {
            tu_override(ctx, "matmul", CLRT_FLOAT64, variants[v]);
            check_matmul(ctx, q, CLRT_FLOAT64, 17, 9, 33);
            tu_assert_ran(ctx, "matmul", CLRT_FLOAT64, variants[v]);
        }
        if (tu_param(variants[v], "pack") > 0) /* the packed path ran: the queue keeps its scratch */
            assert_int_equal(clrt__debug_live(CLRT__LIVE_SCRATCH), scratch + 1);
        if (tu_param(variants[v], "pack_kib") == 1) {
            clrt__debug_fault_clear(); /* zeroes the call counts */
            check_matmul(ctx, q, CLRT_FLOAT32, 5, 33, 16);
            /* 9 panels of 4 columns of 16 x 4 floats (256 bytes) in 1 KiB: 3 slices of
             * up to 4 panels, each a pack_b and a matmul launch */
            assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 6);
        }
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
    }
}

static void add_every_variant(void **state)
{
    (void)state;
    static const char *const variants[] = {"vw=1 items=1 wg=1", "vw=4 items=3 wg=8", "vw=16 items=2 wg=4",
                                           "vw=8 items=1 wg=64"};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        clrt_queue *q;
        clrt_context *ctx = tu_fresh_context(&q); /* a variant of its own */
        tu_override(ctx, "add", CLRT_FLOAT32, variants[v]);
        static const size_t lens[] = {1, 7, 15, 16, 17, 63, 64, 65, 200};
        for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            check_add(ctx, q, CLRT_FLOAT32, 1, lens[i], SEPARATE);
            check_add(ctx, q, CLRT_FLOAT32, 1, lens[i], C_IS_A);
            check_add(ctx, q, CLRT_FLOAT32, 1, lens[i], C_IS_B);
        }
        tu_assert_ran(ctx, "add", CLRT_FLOAT32, variants[v]);
        if (tu_fx->dev.has_fp64) {
            tu_override(ctx, "add", CLRT_FLOAT64, variants[v]);
            check_add(ctx, q, CLRT_FLOAT64, 3, 21, C_IS_A);
            check_add(ctx, q, CLRT_FLOAT64, 3, 21, C_IS_B);
        }
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_FIXTURE_TEST(add_f32),
        TU_FIXTURE_TEST(add_f64),
        TU_FIXTURE_TEST(matmul_f32),
        TU_FIXTURE_TEST(matmul_f32_1000),
        TU_FIXTURE_TEST(matmul_f64),
        TU_FIXTURE_TEST(matmul_every_variant),
        TU_FIXTURE_TEST(add_every_variant),
    };
    return TU_RUN_FIXTURE_SUITE(tests);
}
