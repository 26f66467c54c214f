/* clrt-bench's child processes (tools/bench/measure/child.c): every child's
 * end is reported. This program is its own child (bench_child_run starts
 * /proc/self/exe): run with "child" and a mode, it prints a result line and
 * exits 0, prints an ERROR line and exits 1, or dies of SIGSEGV or SIGABRT.
 * The parent must get 0 only for the first; for the others -1 with a reason
 * that says how the child ended and, when it gave one, its own ERROR line. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

#include "common/wait_status.h"
#include "measure/child.h"

/* The child's part: what mode says. */
static int child_main(const char *mode)
{
    if (!strcmp(mode, "ok")) {
        printf("FIRST 1 2 3\n");
        return 0;
    }
    if (!strcmp(mode, "error")) {
        printf("ERROR no host memory for three 9x9 matrices\n");
        return 1;
    }
    if (!strcmp(mode, "quiet-error"))
        return 3;
    if (!strcmp(mode, "flood")) { /* far more than a pipe holds, then the result */
        for (int i = 0; i < 16384; i++)
            printf("progress line %05d of a chatty child\n", i);
        printf("FIRST 4 5 6\n");
        return 0;
    }
    fflush(stdout);
    signal(!strcmp(mode, "segv") ? SIGSEGV : SIGABRT, SIG_DFL);
    raise(!strcmp(mode, "segv") ? SIGSEGV : SIGABRT);
    return 0;
}

/* bench_child_run on this program in mode: its return, *out and *why. */
static int run(const char *mode, char *out, size_t cap, char *why, size_t why_cap)
{
    char *argv[] = {"unit_bench_child", "child", (char *)mode, NULL};
    double t;
    why[0] = '\0';
    return bench_child_run(argv, BENCH_CACHES_AS_IS, out, cap, &t, why, why_cap);
}

static void test_success(void **state)
{
    (void)state;
    char out[256], why[300];
    assert_int_equal(run("ok", out, sizeof out, why, sizeof why), 0);
    assert_non_null(strstr(out, "FIRST 1 2 3"));
}

/* A child that writes more than out holds (and than a pipe holds): read to
 * its end, out cut at its cap, the child's exit 0 seen (the parent stopped
 * reading at cap and closed the pipe: the child, still writing, was killed
 * by SIGPIPE and its run reported failed). */
static void test_long_output(void **state)
{
    (void)state;
    char out[256], why[300];
    assert_int_equal(run("flood", out, sizeof out, why, sizeof why), 0);
    assert_int_equal(strlen(out), sizeof out - 1);
    assert_non_null(strstr(out, "progress line 00000 of a chatty child"));
}

static void test_exit_status(void **state)
{
    (void)state;
    char out[256], why[300];
    assert_int_equal(run("error", out, sizeof out, why, sizeof why), -1);
    if (!strstr(why, "exited with status 1") || !strstr(why, "no host memory for three 9x9 matrices"))
        fail_msg("why: \"%s\"", why);
    assert_int_equal(run("quiet-error", out, sizeof out, why, sizeof why), -1);
    if (!strstr(why, "exited with status 3"))
        fail_msg("why: \"%s\"", why);
    assert_null(strchr(why, '\n'));
}

static void test_signals(void **state)
{
    (void)state;
    char out[256], why[300];
    assert_int_equal(run("segv", out, sizeof out, why, sizeof why), -1);
    if (!strstr(why, "was killed by signal 11"))
        fail_msg("why: \"%s\"", why);
    assert_int_equal(run("abort", out, sizeof out, why, sizeof why), -1);
    if (!strstr(why, "was killed by signal 6"))
        fail_msg("why: \"%s\"", why);
}

/* The words for each end, as every tool prints them. */
static void test_status_text(void **state)
{
    (void)state;
    char buf[96];
    tool_wait_status_text(0, buf, sizeof buf);
    assert_string_equal(buf, "exited normally");
    tool_wait_status_text(2 << 8, buf, sizeof buf);
    assert_string_equal(buf, "exited with status 2");
    tool_wait_status_text(SIGKILL, buf, sizeof buf);
    assert_non_null(strstr(buf, "was killed by signal 9 ("));
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "child"))
        return child_main(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_success),
        cmocka_unit_test(test_long_output),
        cmocka_unit_test(test_exit_status),
        cmocka_unit_test(test_signals),
        cmocka_unit_test(test_status_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
