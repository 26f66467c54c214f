/* clrt-bench's target lines (tools/bench/report/targets.c) on a made-up
 * report, as a newcomer reads them: a MISS says, in plain words on the line
 * under it, what clrt was compared with, how it did and what the goal is
 * (a speed at least, a time at most, ms at most),
 * and the list ends saying what a miss means (slower than the aim, the
 * results right); a run with no miss has no such paragraph. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

#include "report/report.h"
#include "report/targets.h"

/* A product of n, clrt at clrt_gflops and OpenBLAS at blas_gflops (one
 * timed run each), side by side. */
static void add_product(bench_report *r, size_t n, double clrt_gflops, double blas_gflops)
{
    bench_case *c = bench_report_add(r);
    assert_non_null(c);
    c->op = BENCH_MATMUL;
    c->m = c->n = c->k = n;
    const double flop = 2.0 * (double)n * (double)n * (double)n;
    const double rates[2] = {clrt_gflops, blas_gflops};
    const int kinds[2] = {IMPL_CLRT, IMPL_OPENBLAS};
    for (int i = 0; i < 2; i++) {
        bench_result *x = &c->r[kinds[i]];
        x->present = 1;
        x->rate = rates[i];
        x->st.reps = 1;
        x->st.median = x->st.min = x->st.max = flop / (rates[i] * 1e9);
    }
    c->ratio[IMPL_OPENBLAS] = clrt_gflops / blas_gflops;
}

/* The target lines of r, printed, into a string (malloc'd). */
static char *targets_of(const bench_report *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    bench_print_targets(f, r);
    assert_int_equal(fclose(f), 0);
    char *copy = strdup(text); /* the stream's buffer, handed over as the test's own */
    free(text);
    assert_non_null(copy);
    return copy;
}

static void test_miss_in_plain_words(void **state)
{
    (void)state;
    static bench_report r;
    memset(&r, 0, sizeof r);
    r.ndevices = 1;
    add_product(&r, 1024, 50, 100); /* half OpenBLAS's speed: the goal is 0.95 */
    add_product(&r, 2048, 120, 100);
    char *text = targets_of(&r);
    if (!strstr(text, "MISS  dev 0  matmul f32 1024x1024x1024 vs OpenBLAS sgemm") ||
        !strstr(text, "clrt ran at 0.50 times the speed of OpenBLAS's sgemm on the host, the same product; the goal "
                      "is at least 0.95 times") ||
        !strstr(text, "PASS  dev 0  matmul f32 2048x2048x2048 vs OpenBLAS sgemm") ||
        !strstr(text, "A MISS is not an error: every result above was checked and is right") ||
        !strstr(text, "MISS: it is not"))
        fail_msg("targets: \"%s\"", text);
    /* the plain-words line follows its MISS line, and no PASS line has one */
    const char *miss = strstr(text, "MISS  dev 0");
    assert_non_null(strstr(miss, "\n          clrt ran at 0.50"));
    assert_null(strstr(text, "clrt ran at 1.20"));
    free(text);
    bench_report_free(&r);
}

/* The two upper limits in plain words: a tiny add's cost over a raw
 * enqueue's (times as long), a new process's first matmul (ms more). */
static void test_upper_limits_in_plain_words(void **state)
{
    (void)state;
    static bench_report r;
    memset(&r, 0, sizeof r);
    r.ndevices = 1;
    bench_overhead *o = &r.devices[0].overhead;
    o->measured = 1;
    o->clrt_op = 9e-6;
    o->raw_op = 3e-6;
    o->ratio = 3.0; /* the goal: at most 1.2 */
    bench_first *p = &r.devices[0].first[0];
    p->measured = p->ok = 1;
    p->n = 1024;
    p->overhead = 0.080; /* the goal: at most 50 ms */
    char *text = targets_of(&r);
    if (!strstr(text, "MISS  dev 0  tiny add per op vs raw enqueue") ||
        !strstr(text, "clrt took 3.00 times as long as the same kernel enqueued with plain OpenCL calls; the goal "
                      "is at most 1.20 times") ||
        !strstr(text, "MISS  dev 0  new process first matmul f32 1024, ms over it warm") ||
        !strstr(text, "being first cost 80.0 ms more than the same steps again in that process") ||
        !strstr(text, "the goal is at most 50 ms") || !strstr(text, "A MISS is not an error"))
        fail_msg("targets: \"%s\"", text);
    free(text);
    /* within both goals: passes, no plain-words lines */
    o->ratio = 1.1;
    p->overhead = 0.020;
    text = targets_of(&r);
    if (strstr(text, "MISS  ") || strstr(text, "clrt took") || strstr(text, "being first cost") ||
        !strstr(text, "PASS  dev 0  tiny add per op") || !strstr(text, "PASS  dev 0  new process first matmul"))
        fail_msg("targets within the goals: \"%s\"", text);
    free(text);
    bench_report_free(&r);
}

static void test_no_miss_no_paragraph(void **state)
{
    (void)state;
    static bench_report r;
    memset(&r, 0, sizeof r);
    r.ndevices = 1;
    add_product(&r, 1024, 110, 100);
    char *text = targets_of(&r);
    if (!strstr(text, "PASS  dev 0") || strstr(text, "MISS  ") || strstr(text, "A MISS is not an error"))
        fail_msg("targets: \"%s\"", text);
    free(text);
    bench_report_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_miss_in_plain_words),
        cmocka_unit_test(test_upper_limits_in_plain_words),
        cmocka_unit_test(test_no_miss_no_paragraph),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
