/* The elementwise kernel's launch geometry (kernels/elementwise.h), no device
 * needed: every element covered by whole groups within the parameters' wg, on a
 * CPU one group shape per row width whatever the rows (its driver compiles a
 * kernel once per group shape: shrinking groups to the rows cost a compile per
 * batch size), on a GPU groups no taller than the rows need. */
#include "common/fake_device.h"
#include "common/test_util.h"

#include "kernels/elementwise.h"

/* global covers rows x per-row work-items in whole groups of at most wg */
static void assert_covers(const clrt__ew_params *p, size_t rows, size_t cols, const size_t g[2], const size_t l[2])
{
    const size_t per_row = (cols + p->vw * p->items - 1) / (p->vw * p->items);
    assert_true(l[0] >= 1 && l[1] >= 1 && l[0] * l[1] <= p->wg);
    assert_int_equal(g[0] % l[0], 0);
    assert_int_equal(g[1] % l[1], 0);
    assert_true(g[0] >= per_row && g[0] < per_row + l[0]);
    assert_true(g[1] >= rows && g[1] < rows + l[1]);
}

static void geometry(void **state)
{
    (void)state;
    clrt_device_info info;
    clrt__device_facts cpu;
    tu_fake_cpu_device(&info, &cpu);
    const clrt__device_facts gpu = tu_fake_gpu(TU_GPU_NVIDIA);
    const clrt__device_facts *devs[] = {&cpu, &gpu};
    static const size_t widths[] = {1, 10, 500, 4097, 100000};
    static const size_t rows[] = {1, 2, 4, 5, 64, 257, 3000};
    for (int d = 0; d < 2; d++) {
        clrt__pvals pv;
        clrt__k_elementwise.defaults(devs[d], 4, &pv);
        const clrt__ew_params p = clrt__ew(&pv);
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
            size_t first[2] = {0, 0};
            for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
                size_t g[2], l[2];
                clrt__ew_geometry(&p, devs[d], rows[r], widths[w], g, l);
                assert_covers(&p, rows[r], widths[w], g, l);
                if (rows[r] == 1) {
                    assert_int_equal(l[1], 1);
                    continue;
                }
                if (!first[0]) {
                    first[0] = l[0];
                    first[1] = l[1];
                }
                if (devs[d] == &cpu) { /* one shape for every number of rows over 1 */
                    assert_int_equal(l[0], first[0]);
                    assert_int_equal(l[1], first[1]);
                } else if (l[1] > 1) { /* no taller than the rows need */
                    assert_true(l[1] / 2 < rows[r]);
                }
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(geometry)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
