/* clrt-info --warm --jobs N: N processes share the plan (clrt_warm_share)
 * and together build all of it. From empty caches of its own, --jobs 2 ends
 * with "(2 processes)" and exit 0, its first process having run half the
 * steps that --jobs 1 runs (so the plan was split, not run twice); that
 * --jobs 1 on those caches then compiles nothing, which it would if a share
 * had skipped a step. Bad options, values and selectors exit 2 with one
 * line naming them (common/tool_args.h), once. On POCL (a real run of the tool). */
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

/* Whether exactly one line of stderr is clrt-info's ("clrt-info: ..."; a
 * list of the devices may follow it) and it says every '|'-separated word of
 * want. */
static int one_line_saying(const char *want)
{
    int lines = 0;
    const char *line = NULL;
    for (const char *l = err; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
        if (!strncmp(l, "clrt-info: ", 11)) {
            lines++;
            line = l;
        }
    if (lines != 1)
        return 0;
    char words[256], one[1024];
    snprintf(words, sizeof words, "%s", want);
    snprintf(one, sizeof one, "%.*s", (int)strcspn(line, "\n"), line);
    for (char *w = strtok(words, "|"); w; w = strtok(NULL, "|"))
        if (!strstr(one, w))
            return 0;
    return 1;
}

/* Each refused with exit 2 and one line naming the option (or argument) at
 * fault, said once: a selector that matches nothing too, though --jobs 2
 * would start a helper that meets it as well. */
static void bad_arguments(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"--warm --jobs 0", "--jobs 0|must be 1 to 64"},
        {"--warm --jobs x", "--jobs x|not a whole number"},
        {"--warm --jobs 65", "--jobs 65|must be 1 to 64"},
        {"--warm --jobs", "--jobs|needs a value"},
        {"--warm --jobs -1", "--jobs -1|not a whole number"},
        {"--warm-share 3/2", "--warm-share 3/2|not I/N"},
        {"--warm-share 0/2", "--warm-share 0/2|not I/N"},
        {"--warm-share 1", "--warm-share 1|not I/N"},
        {"--warm-share 1/65", "--warm-share 1/65|not I/N with 1 <= I <= N <= 64"},
        {"--warm-share 1/x", "--warm-share 1/x|not I/N"},
        {"--warm-share 0000000000000000000000000000000001/2", "--warm-share 00000000000000000000000000000|not I/N"},
        {"--warm --warm-share 1/2", "go alone"},
        {"--warm a b", "one device at a time|'a'|'b'"},
        {"--warm --other", "unknown option --other"},
        {"--bogus", "clrt-info: unknown option --bogus"},
        {"--kernels --warm", "go alone"},
        {"--jobs 2", "--jobs goes with --warm"},
        {"--default cpu", "a device selector goes with --warm"},
        {"--warm --jobs 2 nonsense", "clrt-info: --warm: |\"nonsense\" matches no device"},
    };
    char out[1024];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const int rc = info(cases[i][0], out, sizeof out);
        if (rc != 2 || !one_line_saying(cases[i][1]))
            fail_msg("clrt-info %s: exit %d, expected 2 and one line saying \"%s\"; stderr \"%s\"", cases[i][0], rc,
                     cases[i][1], err);
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
