/* The order in which the CPU matmul's work-items walk C's tiles (kernels/matmul_plan.h
 * clrt__matmul_rows_first), no device needed: with the shipped rows_first = 1, an
 * Intel CPU walks row tiles first for every product whose B is over a core's L2 and
 * whose K is long (its last-level cache feeds a core too slowly to stream B's panels
 * once per row tile), any other CPU only for a small A and a long K; rows_first = 0
 * and 2 mean never and always on every CPU, and the GPU variant never walks rows.
 * Also the k blocks an Intel CPU runs large products with a long K in. */
#include "common/fake_device.h"
#include "common/test_util.h"

#include <stdio.h>

#include "kernels/matmul.h"
#include "kernels/matmul_plan.h"

/* A fake CPU of the given vendor (as POCL reports it) and its shipped defaults. */
static clrt__matmul_params cpu_defaults(clrt__device_facts *facts, const char *vendor, size_t elem)
{
    clrt_device_info info;
    tu_fake_cpu_device(&info, facts);
    snprintf(facts->vendor, sizeof facts->vendor, "%s", vendor);
    clrt__pvals pv;
    clrt__k_matmul.defaults(facts, elem, &pv);
    return clrt__mm(&pv);
}

typedef struct {
    size_t M, N, K;
    int intel, other; /* rows first on an Intel CPU, on any other CPU */
} walk_case;

static const walk_case f32_cases[] = {
    {1024, 1024, 1024, 1, 0},  /* B 4 MiB */
    {2048, 2048, 2048, 1, 0},  /* 16 MiB */
    {4096, 4096, 4096, 1, 0},  /* 64 MiB */
    {2048, 2048, 512, 1, 0},   /* 4 MiB */
    {4096, 4096, 256, 1, 0},   /* 4 MiB, the shortest K that takes it */
    {2048, 2048, 256, 1, 0},   /* 2 MiB: the smallest B that takes it */
    {2048, 2047, 256, 0, 0},   /* just under 2 MiB */
    {1024, 1024, 256, 0, 0},   /* 1 MiB: in L2 either way */
    {4096, 512, 512, 0, 0},    /* 1 MiB */
    {2048, 16384, 128, 0, 0},  /* 8 MiB but a short K: C written a tile at a time */
    {2048, 2048, 64, 0, 0},
    {1024, 1024, 1, 0, 0},
    {50, 4096, 500, 1, 1},     /* a small A and a long K: every CPU */
    {32, 1024, 1024, 1, 1},
    {64, 4096, 256, 1, 0},     /* A 64 KiB but K not over 4 M: the Intel rule only */
};

static void shipped_walk(void **state)
{
    (void)state;
    for (int v = 0; v < 2; v++) {
        clrt__device_facts dev;
        const clrt__matmul_params p = cpu_defaults(&dev, v ? "AuthenticAMD" : "GenuineIntel", 4);
        assert_int_equal(p.use_local, 0);
        assert_int_equal(p.rows_first, 1); /* the same parameters on both: the rule differs */
        for (size_t i = 0; i < sizeof f32_cases / sizeof *f32_cases; i++) {
            const walk_case *c = &f32_cases[i];
            const int got = clrt__matmul_rows_first(&dev, &p, c->M, c->N, c->K, 4);
            if (got != (v ? c->other : c->intel))
                fail_msg("%s %zux%zux%zu: rows first %d", dev.vendor, c->M, c->N, c->K, got);
        }
    }
}

/* fp64: the same bytes of B at half the columns */
static void shipped_walk_f64(void **state)
{
    (void)state;
    clrt__device_facts intel, amd;
    const clrt__matmul_params pi = cpu_defaults(&intel, "GenuineIntel", 8);
    const clrt__matmul_params pa = cpu_defaults(&amd, "AuthenticAMD", 8);
    assert_int_equal(clrt__matmul_rows_first(&intel, &pi, 1024, 1024, 1024, 8), 1);
    assert_int_equal(clrt__matmul_rows_first(&intel, &pi, 1024, 1024, 256, 8), 1); /* 2 MiB */
    assert_int_equal(clrt__matmul_rows_first(&intel, &pi, 1024, 1023, 256, 8), 0);
    assert_int_equal(clrt__matmul_rows_first(&intel, &pi, 2048, 8192, 128, 8), 0);
    assert_int_equal(clrt__matmul_rows_first(&amd, &pa, 1024, 1024, 1024, 8), 0);
    assert_int_equal(clrt__matmul_rows_first(&amd, &pa, 4096, 4096, 4096, 8), 0);
}

/* rows_first = 0 never and 2 always, on either vendor; a GPU never (the local-tile
 * variant has no such walk); work-groups that are not square never (the swapped
 * dimensions would change the group's shape) */
static void explicit_walk(void **state)
{
    (void)state;
    const char *vendors[] = {"GenuineIntel", "AuthenticAMD"};
    for (int v = 0; v < 2; v++) {
        clrt__device_facts dev;
        clrt__matmul_params p = cpu_defaults(&dev, vendors[v], 4);
        p.rows_first = 0;
        assert_int_equal(clrt__matmul_rows_first(&dev, &p, 2048, 2048, 2048, 4), 0);
        assert_int_equal(clrt__matmul_rows_first(&dev, &p, 50, 4096, 500, 4), 0);
        p.rows_first = 2;
        assert_int_equal(clrt__matmul_rows_first(&dev, &p, 2048, 2048, 64, 4), 1);
        assert_int_equal(clrt__matmul_rows_first(&dev, &p, 1024, 1024, 1, 4), 1);
        p.rows_first = 1;
        p.wgx = 2;
        assert_int_equal(clrt__matmul_rows_first(&dev, &p, 2048, 2048, 2048, 4), 0);
    }
    for (int c = 0; c < TU_GPU_CLASSES; c++) {
        const clrt__device_facts gpu = tu_fake_gpu((tu_gpu_class)c);
        clrt__pvals pv;
        clrt__k_matmul.defaults(&gpu, 4, &pv);
        const clrt__matmul_params p = clrt__mm(&pv);
        assert_int_equal(clrt__matmul_rows_first(&gpu, &p, 4096, 4096, 4096, 4), 0);
    }
}

/* k blocks of 1024 on an Intel CPU for a C of at least 2^20 elements and K over 2048;
 * one pass everywhere else (another vendor, the GPU variant) */
static void k_blocks(void **state)
{
    (void)state;
    for (size_t elem = 4; elem <= 8; elem += 4) {
        clrt__device_facts intel, amd;
        const clrt__matmul_params pi = cpu_defaults(&intel, "GenuineIntel", elem);
        const clrt__matmul_params pa = cpu_defaults(&amd, "AuthenticAMD", elem);
        assert_int_equal(clrt__matmul_k_block(&intel, &pi, 4096, 4096, 4096), 1024);
        assert_int_equal(clrt__matmul_k_block(&intel, &pi, 1024, 1024, 2049), 1024);
        assert_int_equal(clrt__matmul_k_block(&intel, &pi, 1024, 1024, 2048), 0);
        assert_int_equal(clrt__matmul_k_block(&intel, &pi, 1024, 1023, 4096), 0); /* C under 2^20 */
        assert_int_equal(clrt__matmul_k_block(&intel, &pi, 50, 500, 16384), 0);
        assert_int_equal(clrt__matmul_k_block(&amd, &pa, 4096, 4096, 4096), 0);
    }
    const clrt__device_facts gpu = tu_fake_gpu(TU_GPU_INTEL);
    clrt__pvals pv;
    clrt__k_matmul.defaults(&gpu, 4, &pv);
    const clrt__matmul_params p = clrt__mm(&pv);
    assert_int_equal(clrt__matmul_k_block(&gpu, &p, 4096, 4096, 4096), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shipped_walk),
        cmocka_unit_test(shipped_walk_f64),
        cmocka_unit_test(explicit_walk),
        cmocka_unit_test(k_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
