/* What the tools say on real runs, on POCL: how a failure reads and what it
 * does to the exit status, and what a newcomer's first runs print.
 * - clrt-bench's child processes: one that fails (its three matrices refused
 *   by an address-space limit the parent fits in) is reported with how it
 *   ended and its own reason, and fails the run (exit 1), in the table and
 *   in --json. gnuplot's end is reported the same way.
 * - clrt-bench --cold: a row for each operation from its two children, exit 0.
 * - clrt-bench --device that matches nothing: exit 2 (like clrt-info and
 *   clrt-train), naming it, with the list of devices.
 * - clrt-train: a run shorter than --print-every still prints a loss line
 *   each epoch (the documented --limit 2000 printed none); fewer images than
 *   one mini-batch is said on stderr (it trained one step an epoch without a
 *   word).
 * - clrt-info and clrt-bench --list mark a checking device (Oclgrind,
 *   rusticl's llvmpipe), where those drivers are tested. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* The loss on out's line that starts with head ("[1,     4] loss: "): a
 * mean over the line's mini-batches, near ln 10 = 2.3 for an untrained
 * network on 10 classes (a sum over them, or one divided by --print-every's
 * 2000, is far from it); fails the test when missing or out of [0.5, 5]. */
static void loss_near_chance(const char *head)
{
    const char *line = strstr(out, head);
    const double loss = line ? strtod(line + strlen(head), NULL) : -1;
    if (!(loss >= 0.5 && loss <= 5))
        fail_msg("\"%s\": loss %g, expected a mean near 2.3; stdout \"%s\"; stderr \"%s\"", head, loss, out, err);
}

/* A loss line each epoch, though --print-every's default 2000 is more than
 * an epoch's 4 mini-batches, with the running loss of those 4 (their mean);
 * and a note when the images are fewer than one mini-batch. */
static void train_short_runs_print_losses(void **state)
{
    (void)state;
    int rc = run("'" CLRT_TRAIN_PATH "' --no-progress --data d --epochs 2 --batch 4 --test-limit 16");
    if (rc != 0 || strstr(err, "clrt-train:"))
        fail_msg("exit %d; stdout \"%s\"; stderr \"%s\"", rc, out, err);
    loss_near_chance("[1,     4] loss: ");
    loss_near_chance("[2,     4] loss: ");
    rc = run("'" CLRT_TRAIN_PATH "' --no-progress --data d --limit 3 --epochs 2 --batch 4 --test-limit 16");
    if (rc != 0 ||
        !strstr(err, "clrt-train: only 3 training images (--limit), fewer than one mini-batch of --batch 4") ||
        !strstr(err, "expect a test accuracy near chance"))
        fail_msg("--limit 3: exit %d; stdout \"%s\"; stderr \"%s\"", rc, out, err);
    loss_near_chance("[1,     1] loss: ");
    loss_near_chance("[2,     1] loss: ");
}

static void bench_unknown_device(void **state)
{
    (void)state;
    const int rc = run("'" CLRT_BENCH_PATH "' --quick --device nonsense --no-progress");
    if (rc != 2 || !strstr(err, "clrt-bench: --device nonsense: no device matches it") || !strstr(err, "0  [0:0]  "))
        fail_msg("exit %d; stderr \"%s\"", rc, err);
    const int split = run("'" CLRT_BENCH_PATH "' --op split --device 0 --device nonsense --sizes 64");
    if (split != 2 || !strstr(err, "clrt-bench: --device nonsense: ") || !strstr(err, "matches no device"))
        fail_msg("--op split: exit %d; stderr \"%s\"", split, err);
}

/* --cold: a row per operation and dtype from two children (empty caches,
 * then what they left), exit 0 when every row came; the same in --json. The
 * cold child makes POCL generate code on purpose: its runs carry the
 * suppressions for POCL 3.1's LLVM leaks (tests/harness/lsan-pocl-compile.supp),
 * as every such run in the suite does. */
#define COLD_ENV "LSAN_OPTIONS=suppressions='" CLRT_POCL_COMPILE_SUPP "':print_suppressions=0 "

static void bench_cold_rows(void **state)
{
    (void)state;
    double cold = 0, warm = 0;
    int rc = run(COLD_ENV "'" CLRT_BENCH_PATH "' --cold --op add --dtype f32 --device 0");
    const char *row = strstr(out, "  add        f32  1000000 ");
    if (rc != 0 || !row || sscanf(row + 27, "%lf %lf", &cold, &warm) != 2 || !(cold > 0 && warm > 0))
        fail_msg("--cold: exit %d (cold %g s, warm %g s); stdout \"%s\"; stderr \"%s\"", rc, cold, warm, out, err);
    rc = run(COLD_ENV "'" CLRT_BENCH_PATH "' --cold --op add --dtype f32 --device 0 --json");
    if (rc != 0 || !strstr(out, "{\"cold_start\": [") ||
        !strstr(out, "\"op\": \"add\", \"dtype\": \"f32\", \"size\": 1000000, \"cold_s\": "))
        fail_msg("--cold --json: exit %d; stdout \"%s\"; stderr \"%s\"", rc, out, err);
}

/* --plot through a gnuplot that dies: how it ended, and exit 3 (no plot). */
static void bench_gnuplot_end_reported(void **state)
{
    (void)state;
    tf_write("fake/gnuplot", "#!/bin/sh\nkill -SEGV $$\n", 25);
    char path[512];
    tf_path(path, sizeof path, "fake/gnuplot");
    assert_int_equal(chmod(path, 0755), 0);
    const int rc = run("PATH=\"$PWD/fake:$PATH\" '" CLRT_BENCH_PATH "' --quick --op add --dtype f32 --add-sizes 1000 "
                       "--no-child --no-overhead --reps 1 --min-reps 1 --min-time 0 --no-progress --plot p.png");
    if (rc != 3 || !strstr(err, "clrt-bench: gnuplot was killed by signal 11") || !strstr(err, "no plot written"))
        fail_msg("exit %d; stderr \"%s\"", rc, err);
}

#ifdef CLRT_CHECKING_ICD
/* The checking driver's device is marked as one, in both listings. */
static void checking_device_marked(void **state)
{
    (void)state;
    int rc = run("OCL_ICD_VENDORS='" CLRT_CHECKING_ICD "' RUSTICL_ENABLE=llvmpipe '" CLRT_INFO_PATH "'");
    if (rc != 0 || !strstr(out, "(checking device)") || !strstr(out, "for checking only"))
        fail_msg("clrt-info: exit %d; stdout \"%s\"", rc, out);
    rc = run("OCL_ICD_VENDORS='" CLRT_CHECKING_ICD "' RUSTICL_ENABLE=llvmpipe '" CLRT_BENCH_PATH "' --list");
    if (rc != 0 || !strstr(out, "a checking device: measured only when selected"))
        fail_msg("clrt-bench --list: exit %d; stdout \"%s\"", rc, out);
    /* and POCL's is not */
    rc = run("'" CLRT_INFO_PATH "'");
    if (rc != 0 || strstr(out, "checking"))
        fail_msg("clrt-info on POCL: exit %d; stdout \"%s\"", rc, out);
}
#endif

int main(void)
{
    tu_require_device();
    if (tf_init("tool-runs") != 0)
        return 1;
    tf_dataset("d", 16);
    char fake[512];
    tf_path(fake, sizeof fake, "fake");
    mkdir(fake, 0755);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bench_child_failure_fails_the_run),
        cmocka_unit_test(train_short_runs_print_losses),
        cmocka_unit_test(bench_unknown_device),
        cmocka_unit_test(bench_cold_rows),
        cmocka_unit_test(bench_gnuplot_end_reported),
#ifdef CLRT_CHECKING_ICD
        cmocka_unit_test(checking_device_marked),
#endif
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    tf_done();
    return failed;
}
