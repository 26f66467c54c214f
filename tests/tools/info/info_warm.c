/* clrt-info --warm --jobs N: N processes share the plan (clrt_warm_share)
 * and together build all of it. From empty caches of its own, --jobs 2 ends
 * with "(2 processes)" and exit 0, its first process having run half the
 * steps that --jobs 1 runs (so the plan was split, not run twice); that
 * --jobs 1 on those caches then compiles nothing, which it would if a share
 * had skipped a step. Bad
 * --jobs values and helper arguments exit 2 with a line saying why. On POCL
 * (a real run of the tool). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"
#include "tools/train/train_files.h"

static const char *err = "";

/* clrt-info with args, its stdout into out (cap bytes); the exit status. */
static int info(const char *args, char *out, size_t cap)
{
    char cmd[2048], path[512];
    tf_path(path, sizeof path, "stdout.txt");
    /* empty caches of its own: POCL compiles here on purpose, and its LLVM
     * leaks under LeakSanitizer (tests/harness/lsan-pocl-compile.supp) */
    snprintf(cmd, sizeof cmd,
             "LSAN_OPTIONS=suppressions='%s':print_suppressions=0 CLRT_CACHE_DIR=clrt POCL_CACHE_DIR=pocl '%s' %s "
             ">stdout.txt",
             CLRT_POCL_COMPILE_SUPP, CLRT_INFO_PATH, args);
    const int rc = tf_run(cmd, &err);
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f) {
        const size_t n = fread(out, 1, cap - 1, f);
        out[n] = '\0';
        fclose(f);
    }
    return rc;
}

/* The steps the first process ran: the total its last progress line on
 * stderr gives ("clrt-info: warming N/N ..."), 0 when there is none. */
static size_t steps_run(void)
{
    size_t done = 0, total = 0;
    for (const char *l = strstr(err, "clrt-info: warming "); l; l = strstr(l + 1, "clrt-info: warming "))
        if (sscanf(l, "clrt-info: warming %zu/%zu", &done, &total) != 2)
            total = 0;
    return total;
}

static void shares_build_the_whole_plan(void **state)
{
    (void)state;
    char out[4096];
    int rc = info("--warm --jobs 2 pocl", out, sizeof out);
    if (rc != 0 || !strstr(out, "warmed ") || !strstr(out, "(2 processes)"))
        fail_msg("exit %d; stdout \"%s\"; stderr \"%s\"", rc, out, err);
    const size_t half = steps_run();
    rc = info("--warm --jobs 1 pocl", out, sizeof out);
    if (rc != 0 || !strstr(out, ": 0 programs built in") || !strstr(out, "(1 process)"))
        fail_msg("expected nothing left to compile: exit %d; stdout \"%s\"; stderr \"%s\"", rc, out, err);
    const size_t all = steps_run();
    if (all < 100 || (half != all / 2 && half != all / 2 + 1))
        fail_msg("the first of 2 processes ran %zu steps of the %zu one process runs; stderr \"%s\"", half, all, err);
}

static void bad_arguments(void **state)
{
    (void)state;
    static const char *const jobs[] = {"--warm --jobs 0", "--warm --jobs x", "--warm --jobs 65", "--warm --jobs",
                                       "--warm --jobs -1"};
    char out[1024];
    for (size_t i = 0; i < sizeof jobs / sizeof *jobs; i++) {
        const int rc = info(jobs[i], out, sizeof out);
        if (rc != 2 || !strstr(err, "--jobs takes a whole number from 1 to 64"))
            fail_msg("%s: exit %d; stderr \"%s\"", jobs[i], rc, err);
    }
    static const char *const others[] = {"--warm-share 3/2", "--warm-share 0/2", "--warm-share 1", "--warm a b",
                                         "--warm --other"};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        const int rc = info(others[i], out, sizeof out);
        if (rc != 2 || !strstr(err, "usage: clrt-info"))
            fail_msg("%s: exit %d; stderr \"%s\"", others[i], rc, err);
    }
}

int main(void)
{
    tu_require_device();
    if (tf_init("info-warm") != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_arguments),
        cmocka_unit_test(shares_build_the_whole_plan),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    tf_done();
    return failed;
}
