/* clrt-bench's FMA peak probe (tools/bench/reference/peak.c) on the machine that runs
 * the test: it measures, with the widest vector FMA the CPU's features allow
 * (tools/bench/reference/cpu_features.c), and its figures hold together: fp64 at about
 * half of fp32 (half the lanes, same instructions per cycle), a GFLOP/s figure
 * a CPU core can reach, two threads not slower than one. Off x86 it says
 * that it did not measure. */
#include <string.h>
#include <unistd.h>

#include "common/test_util.h"

#include "reference/cpu_features.h"
#include "reference/peak.h"

#if defined(__x86_64__) || defined(__i386__)
static void test_measures(void **state)
{
    (void)state;
    bench_peak one, two;
    assert_int_equal(bench_peak_measure(&one, 1), 0);
    assert_true(one.measured);
    assert_int_equal(one.threads, 1);
    assert_int_equal(one.lanes[0], 2 * one.lanes[1]);
    const unsigned f = bench_cpu_detect().features;
    const char *isa = (f & BENCH_CPU_AVX512F) ? "AVX-512 FMA"
                      : (f & BENCH_CPU_AVX2) && (f & BENCH_CPU_FMA) ? "AVX2 FMA"
                                                                    : "SSE2 mul+add";
    assert_string_equal(one.isa, isa);
    assert_non_null(strstr(one.method, isa));
    /* one core: at least 1 GFLOP/s fp32, under 1000 (64 FLOP a cycle at 10 GHz) */
    assert_true(one.gflops[0] > 1 && one.gflops[0] < 1000);
    const double half = one.gflops[1] / one.gflops[0];
    assert_true(half > 0.35 && half < 0.65);
    /* each thread's own CPU time counts: a second thread adds, even on a busy machine */
    assert_int_equal(bench_peak_measure(&two, 2), 0);
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) { /* one thread per CPU, never two sharing one */
        assert_int_equal(two.threads, 1);
        return;
    }
    assert_true(two.gflops[0] > 1.3 * one.gflops[0]);
    assert_non_null(strstr(two.method, "on each of 2 threads"));
}
#else
static void test_measures(void **state)
{
    (void)state;
    bench_peak p;
    assert_int_equal(bench_peak_measure(&p, 1), -1);
    assert_false(p.measured);
    assert_non_null(strstr(p.method, "not measured"));
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_measures)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
