/* What the tools say on real runs, on POCL: how a failure reads and what it
 * does to the exit status. clrt-bench's child processes: one that fails
 * (its three matrices refused by an address-space limit the parent fits
 * in) is reported with how it ended and its own reason, and fails the run
 * (exit 1), in the table and in --json. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"
#include "tools/train/train_files.h"

static const char *err = "";
static char out[1 << 16];

/* cmd (a shell line run in the suite's folder), its stdout into out: the
 * exit status. */
static int run(const char *cmd)
{
    char line[4096], path[512];
    tf_path(path, sizeof path, "stdout.txt");
    snprintf(line, sizeof line, "%s >stdout.txt", cmd);
    const int rc = tf_run(line, &err);
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f) {
        const size_t n = fread(out, 1, sizeof out - 1, f);
        out[n] = '\0';
        fclose(f);
    }
    return rc;
}

/* A short product run whose new-process child is given --first-size 20000:
 * three 1.6 GB matrices, which the parent's memory check lets through and
 * the child's malloc cannot have under a 3 GB address-space limit. */
#define BENCH_CHILD_FAILS                                                                                             \
    "ulimit -v 3000000; exec '" CLRT_BENCH_PATH "' --op matmul --dtype f32 --sizes 64 --first-size 20000 --reps 1 "   \
    "--min-reps 1 --min-time 0 --no-progress --no-cold --no-overhead --no-peak --no-openblas --no-clblast"

static void bench_child_failure_fails_the_run(void **state)
{
    (void)state;
#ifdef CLRT_TEST_SANITIZED
    /* a sanitizer's shadow memory needs more address space than any limit
     * that still refuses the child's matrices: the unsanitized suite checks it */
    print_message("skipped under a sanitizer: an address-space limit stops the sanitized parent too\n");
#else
    int rc = run(BENCH_CHILD_FAILS);
    if (rc != 1 || !strstr(out, "first matmul in a new process, f32: the child clrt-bench exited with status 1: no "
                                "host memory for three 20000x20000 matrices of f32") ||
        !strstr(err, "clrt-bench: 1 failure(s)"))
        fail_msg("exit %d; stdout \"%s\"; stderr \"%s\"", rc, out, err);
    rc = run(BENCH_CHILD_FAILS " --json");
    if (rc != 1 || !strstr(out, "\"failed\": true") || !strstr(out, "exited with status 1: no host memory"))
        fail_msg("--json: exit %d; stdout \"%s\"; stderr \"%s\"", rc, out, err);
#endif
}

int main(void)
{
    tu_require_device();
    if (tf_init("tool-runs") != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bench_child_failure_fails_the_run),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    tf_done();
    return failed;
}
