/* Products with the device's shipped matmul parameters at shapes whose B is over
 * 2 MiB with K >= 256: on an Intel CPU these walk C's row tiles first (kernels/
 * matmul_plan.c; unit_matmul_walk checks the rule itself), B read in place (few
 * rows) and packed (more), every other device walks them as before. Odd sizes,
 * so that the last row and column tiles move back inside C; each checked
 * against the host in double. Emulators and CLRT_TEST_SMALL run small shapes: the
 * rule is the CPU variant's, and the large ones would take minutes there. Also a large product
 * with K over 2048, which an Intel CPU runs in k blocks. */
#include <stdlib.h>

#include "common/test_util.h"

#include "base/util.h"
#include "hostref/ref.h"
#include "kernels/matmul.h"
#include "kernels/matmul_plan.h"
#include "kernels/table.h"
#include "runtime/handles.h"
#include "runtime/kcache.h"

/* Small shapes where the products would take long (CLRT_TEST_SMALL) or where the rule
 * cannot apply (an emulator runs the GPU variant): llvmpipe took a minute for the large ones. */
static int small_shapes(void) { return tu_small() || clrt_device_is_emulator(&tu_fx->dev); }

/* Whether the fixture's matmul, with its shipped parameters, walks rows first at M x N x K. */
static int walks_rows_first(clrt_dtype dt, size_t M, size_t N, size_t K)
{
    clrt__pvals pv;
    clrt__kcache_params(tu_fx->ctx, CLRT__K_MATMUL, (int)dt, &pv);
    const clrt__matmul_params p = clrt__mm(&pv);
    return clrt__matmul_rows_first(&tu_fx->ctx->facts, &p, M, N, K, tu_dtype_size(dt));
}

static void product(clrt_dtype dt, size_t M, size_t N, size_t K)
{
    const size_t es = tu_dtype_size(dt);
    void *a = malloc(M * K * es), *b = malloc(K * N * es), *c = malloc(M * N * es);
    assert_true(a && b && c);
    clrt__ref_fill(a, dt, M * K, (unsigned)(M + K));
    clrt__ref_fill(b, dt, K * N, (unsigned)(K + N));
    tu_device_matmul(tu_fx->ctx, tu_fx->q, dt, c, a, b, M, N, K);
    tu_assert_matmul(c, a, b, dt, M, N, K);
    TU_FREE_ALL(a, b, c);
}

static void long_k_wide_b(void **state)
{
    (void)state;
    const int small = small_shapes();
    for (int d = 0; d < tu_n_dtypes(); d++) {
        const clrt_dtype dt = tu_dtype_at(d);
        /* B of 263 x 2100 floats or 263 x 1050 doubles: 2.2 MiB */
        const size_t N = small ? 37 : dt == CLRT_FLOAT64 ? 1050 : 2100, K = small ? 29 : 263;
        const size_t rows[] = {37, 131}; /* B in place, B packed (clrt__matmul_pack_panels) */
        for (int r = 0; r < 2; r++) {
            const size_t M = small ? rows[r] / 4 : rows[r];
            if (!small && tu_fx->dev.type == CLRT_DEVICE_CPU && clrt__icontains(tu_fx->dev.vendor, "intel", 5))
                assert_int_equal(walks_rows_first(dt, M, N, K), 1);
            product(dt, M, N, K);
        }
    }
}

/* 1024 x 1024 x 2053 (fp32): on an Intel CPU three k blocks, the last one 5 deep, C
 * accumulated over them; one pass elsewhere */
static void k_blocks(void **state)
{
    (void)state;
    const int small = small_shapes();
    const size_t M = small ? 9 : 1024, N = small ? 11 : 1024, K = small ? 40 : 2053;
    if (!small && tu_fx->dev.type == CLRT_DEVICE_CPU && clrt__icontains(tu_fx->dev.vendor, "intel", 5)) {
        clrt__pvals pv;
        clrt__kcache_params(tu_fx->ctx, CLRT__K_MATMUL, CLRT_FLOAT32, &pv);
        const clrt__matmul_params p = clrt__mm(&pv);
        assert_int_equal(clrt__matmul_k_block(&tu_fx->ctx->facts, &p, M, N, K), 1024);
    }
    product(CLRT_FLOAT32, M, N, K);
}

int main(void)
{
    const struct CMUnitTest tests[] = {TU_FIXTURE_TEST(long_k_wide_b), TU_FIXTURE_TEST(k_blocks)};
    return TU_RUN_FIXTURE_SUITE(tests);
}
