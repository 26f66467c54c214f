/* Every output of every tool (tools/common/output.h, docs/train.md): clrt-train's
 * --save, --json and --out, clrt-bench's report and --plot, clrt-info's
 * listing. Each is whole or not there: a regular file is replaced through a
 * temporary and rename, a symbolic link has its target written and stays a
 * link, a character device or FIFO is written where it is (as root,
 * /dev/null stays the device), a folder or a missing folder is refused before
 * any work. A write that fails (a file size limit, /dev/full, a full tmpfs as
 * root, stdout on /dev/full) exits 2 with one line naming the file and the
 * OS's reason, leaves the earlier file as it was and no temporary file; so
 * does a tuned file clrt-bench --tune may not write (a folder anyone may
 * write). On POCL (real runs of the tools, on a tiny dataset). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/temp_files.h"
#include "common/test_util.h"
#include "tools/train/train_files.h"

static const char sentinel[] = "earlier\n";

/* The last run's stderr. */
static const char *err = "";

static int run(const char *cmd) { return tf_run(cmd, &err); }

/* clrt-train on the 16-image set "d": one short epoch, then args. */
static int train(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "'%s' --no-progress --data d --epochs 1 --batch 4 --print-every 2 --test-limit 16 %s",
             CLRT_TRAIN_PATH, args);
    return run(cmd);
}

static const char bench_args[] = "--quick --op add --dtype f32 --sizes 64 --add-sizes 1000 --first-size 64 --reps 1 "
                                 "--min-reps 1 --min-time 0 --no-progress";

static int bench(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' %s %s", CLRT_BENCH_PATH, bench_args, args);
    return run(cmd);
}

static void count_temp(const char *p, void *n)
{
    if (strstr(p, ".tmp"))
        ++*(int *)n;
}

static void assert_no_temp(const char *sub)
{
    char d[512];
    tf_path(d, sizeof d, sub);
    int n = 0;
    tu_each_entry(d, count_temp, &n);
    if (n)
        fail_msg("a temporary file was left in %s", d);
}

/* Whether line (up to its newline) says every '|'-separated word of want. */
static int says(const char *line, const char *want)
{
    char words[512], one[2048];
    snprintf(words, sizeof words, "%s", want);
    snprintf(one, sizeof one, "%.*s", (int)strcspn(line, "\n"), line);
    for (char *w = strtok(words, "|"); w; w = strtok(NULL, "|"))
        if (!strstr(one, w))
            return 0;
    return 1;
}

/* The line after l in a text, or its end. */
static const char *next_line(const char *l)
{
    const char *nl = strchr(l, '\n');
    return nl ? nl + 1 : l + strlen(l);
}

/* Lines of the last run's stderr that say every '|'-separated word of text. */
static int lines_with(const char *text)
{
    int n = 0;
    for (const char *l = err; *l; l = next_line(l))
        n += says(l, text);
    return n;
}

/* Failed as promised: exit 2, and one line on stderr (beside what the run
 * reports anyway) saying every '|'-separated word of want. */
static void failed(int rc, const char *want)
{
    const int lines = lines_with(want);
    if (rc != 2 || lines != 1)
        fail_msg("exit %d, expected 2 and one line saying \"%s\"; stderr: \"%s\"", rc, want, err);
}

static void ok(int rc)
{
    if (rc != 0)
        fail_msg("exit %d; stderr: %s", rc, err);
}

static int kind(const char *name)
{
    char p[512];
    struct stat st;
    tf_path(p, sizeof p, name);
    return lstat(name[0] == '/' ? name : p, &st) == 0 ? (int)(st.st_mode & S_IFMT) : 0;
}

static void assert_sentinel(const char *name)
{
    size_t n;
    unsigned char *b = tf_read(name, &n);
    assert_non_null(b);
    if (strcmp((char *)b, sentinel) != 0)
        fail_msg("%s was written over", name);
    free(b);
}

static void regular_files_and_links(void **state)
{
    (void)state;
    ok(train("--save a.state --json a.json"));
    size_t n;
    unsigned char *j = tf_read("a.json", &n);
    assert_non_null(j);
    assert_true(n > 10 && j[0] == '{' && j[n - 2] == '}' && j[n - 1] == '\n');
    free(j);
    /* through links: to a file, and to one not there yet (made) */
    char p[512];
    tf_path(p, sizeof p, "real");
    mkdir(p, 0755);
    tf_write("real/target.json", sentinel, strlen(sentinel));
    tf_path(p, sizeof p, "link.json");
    assert_int_equal(symlink("real/target.json", p), 0);
    tf_path(p, sizeof p, "link.state");
    assert_int_equal(symlink("real/new.state", p), 0);
    ok(train("--save link.state --json link.json"));
    assert_int_equal(kind("link.json"), S_IFLNK);
    assert_int_equal(kind("link.state"), S_IFLNK);
    j = tf_read("real/target.json", &n);
    assert_true(j && j[0] == '{');
    free(j);
    assert_int_equal(kind("real/new.state"), S_IFREG);
    ok(train("--resume link.state --epochs 2")); /* the file saved through the link */
    assert_no_temp(".");
    assert_no_temp("real");
}

static void devices_and_fifos(void **state)
{
    (void)state;
    ok(train("--json /dev/null --save /dev/null"));
    assert_int_equal(kind("/dev/null"), S_IFCHR); /* as root a rename would have replaced it */
    failed(train("--json /dev/full"), "/dev/full|No space left on device");
    assert_int_equal(kind("/dev/full"), S_IFCHR);
    ok(train("--save p.state"));
    failed(run("'" CLRT_TRAIN_PATH "' --predict p.state --data d --test-limit 16 --out /dev/full"),
           "/dev/full|No space left on device");
    char fifo[512];
    tf_path(fifo, sizeof fifo, "fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    ok(train("--json fifo & cat fifo > from-fifo.json; wait $!"));
    size_t n;
    unsigned char *j = tf_read("from-fifo.json", &n);
    assert_true(j && n > 10 && j[0] == '{');
    free(j);
    assert_int_equal(kind("fifo"), S_IFIFO);
}

/* Refused before any work: nothing trained, nothing written. */
static void folders_refused_first(void **state)
{
    (void)state;
    char p[512];
    tf_path(p, sizeof p, "adir");
    mkdir(p, 0755);
    failed(train("--json adir"), "adir|Is a directory");
    failed(train("--save no-such/x.state"), "no-such/x.state|No such file or directory");
    failed(bench("--plot adir"), "adir|Is a directory");
}

/* A write past RLIMIT_FSIZE fails (EFBIG, SIGXFSZ ignored): a save of
 * 3.4 MB under a limit of 3 MiB, above what POCL's compiler writes. */
static void failed_writes_keep_earlier_files(void **state)
{
    (void)state;
    tf_write("big.state", sentinel, strlen(sentinel));
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' --no-progress --data d --epochs 1 --batch 4 --test-limit 16 --save big.state",
             CLRT_TRAIN_PATH);
    failed(tf_run_limited(cmd, 3 << 20, &err), "big.state|File too large");
    assert_sentinel("big.state");
    assert_no_temp(".");
    failed(run("'" CLRT_TRAIN_PATH "' --no-progress --data d --epochs 1 --test-limit 16 > /dev/full"),
           "stdout|No space left on device");
    failed(bench("--json > /dev/full"), "stdout|No space left on device");
    failed(bench("--plot /dev/full > /dev/null"), "/dev/full|No space left on device");
    failed(run("'" CLRT_INFO_PATH "' > /dev/full"), "stdout|No space left on device");
}

/* A real ENOSPC (root: a 64 KiB tmpfs): the save does not fit. */
static void full_filesystem(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        print_message("skipped: mounting a small tmpfs needs root\n");
        return;
    }
    char mnt[512];
    tf_path(mnt, sizeof mnt, "small");
    assert_int_equal(mkdir(mnt, 0755), 0);
    if (mount("tmpfs", mnt, "tmpfs", 0, "size=64k") != 0) {
        print_message("skipped: cannot mount a tmpfs here (%s)\n", strerror(errno));
        return;
    }
    tf_write("small/run.state", sentinel, strlen(sentinel));
    int rc = train("--save small/run.state");
    assert_sentinel("small/run.state");
    assert_no_temp("small");
    assert_int_equal(umount(mnt), 0);
    failed(rc, "small/run.state|No space left on device");
}

/* --plot through a link writes the PNG there and keeps the link. */
static void bench_plot_through_link(void **state)
{
    (void)state;
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        print_message("skipped: no gnuplot\n");
        return;
    }
    char p[512];
    tf_path(p, sizeof p, "plot.png");
    assert_int_equal(symlink("real/plot-target.png", p), 0);
    ok(bench("--plot plot.png > /dev/null"));
    assert_int_equal(kind("plot.png"), S_IFLNK);
    size_t n;
    unsigned char *png = tf_read("real/plot-target.png", &n);
    assert_true(png && n > 8 && memcmp(png, "\x89PNG", 4) == 0);
    free(png);
}

/* The report's measurements are made, not replaced by a note: the tiny add's
 * cost against a raw enqueue of the same kernel (clrt's add kernel found by its
 * own name, whatever program holds it) and its round trip. */
static void bench_overhead_measured(void **state)
{
    (void)state;
    ok(bench("--json > overhead.json"));
    size_t n;
    char *json = (char *)tf_read("overhead.json", &n);
    assert_non_null(json);
    const char *o = strstr(json, "\"tiny_add_overhead\"");
    if (!o || !strstr(o, "\"raw_op_s\"") || !strstr(o, "\"raw_round_trip_median_s\""))
        fail_msg("no tiny-add overhead measured in clrt-bench --json: \"%.300s\"", o ? o : json);
    free(json);
}

/* --op products: a row per product in the JSON report, each measured (a time for
 * clrt's call and for what it replaces) and checked against the host reference
 * with nothing wrong. */
static void bench_products_measured(void **state)
{
    (void)state;
    ok(bench("--op products --no-openblas --json > products.json"));
    size_t n;
    char *json = (char *)tf_read("products.json", &n);
    assert_non_null(json);
    const char *p = strstr(json, "\"products\": [");
    int rows = 0;
    for (const char *r = p; r && (r = strstr(r, "\"name\": ")) != NULL; r++, rows++) {
        const char *end = strchr(r, '}');
        assert_non_null(end);
        const char *t = strstr(r, "\"clrt_median_s\": "), *u = strstr(r, "\"speedup_vs_replaced\": ");
        const char *w = strstr(r, "\"wrong\": 0,"), *none = strstr(r, "\"checked\": 0,");
        if (!t || t > end || !u || u > end || !w || w > end || (none && none < end))
            fail_msg("a product not measured or not checked in clrt-bench --json: \"%.300s\"", r);
    }
    if (rows != 6)
        fail_msg("%d product rows in clrt-bench --json, expected 6: \"%.300s\"", rows, p ? p : json);
    free(json);
}

/* The environment of a run that makes POCL generate code on purpose: a
 * private, empty POCL cache folder (so the run is cold whatever earlier tests
 * left in the shared one) and the suppressions for POCL 3.1's LLVM leaks
 * (tests/harness/lsan-pocl-compile.supp). */
static void cold_env(char *env, size_t size, const char *pocl_dir)
{
    snprintf(env, size, "LSAN_OPTIONS=suppressions='%s':print_suppressions=0 POCL_CACHE_DIR='%s'",
             CLRT_POCL_COMPILE_SUPP, pocl_dir);
}

/* clrt-bench --tune: a --tune-file that cannot be written is refused before
 * the search; a tuned file in a cache folder anyone may write is never
 * written (base/trust.h), and the run says so and exits 2. The tuner
 * compiles candidates that no other test builds (their set depends on the
 * time each takes): its runs are cold on purpose, in a folder of their own,
 * so that the outcome never depends on the order tests ran in. */
static void bench_tuned_file(void **state)
{
    (void)state;
    char cold[1200], cmd[2048];
    cold_env(cold, sizeof cold, "tune-pocl");
    char adir[512];
    tf_path(adir, sizeof adir, "adir");
    mkdir(adir, 0755);
    snprintf(cmd, sizeof cmd, "%s '%s' --tune --tune-only --op add --dtype f32 --quick --no-progress --tune-file adir",
             cold, CLRT_BENCH_PATH);
    failed(run(cmd), "--tune-file|adir|Is a directory");
    char open_dir[512];
    tf_path(open_dir, sizeof open_dir, "open-cache");
    assert_int_equal(mkdir(open_dir, 0777), 0);
    assert_int_equal(chmod(open_dir, 0777), 0);
    snprintf(cmd, sizeof cmd,
             "%s CLRT_CACHE_DIR='%s' '%s' --tune --tune-only --op add --dtype f32 --quick --no-progress >/dev/null",
             cold, open_dir, CLRT_BENCH_PATH);
    failed(run(cmd), "cannot write the tuned|writable by others");
    char tuned[600];
    tf_path(tuned, sizeof tuned, "open-cache/tuned");
    assert_int_equal(tu_each_entry(tuned, NULL, NULL), 0);
}

/* Whether a line of the last run's stderr that starts with prefix appears twice. */
static int repeated(const char *prefix)
{
    const size_t p = strlen(prefix);
    for (const char *l = err; *l; l = next_line(l)) {
        const size_t len = strcspn(l, "\n");
        if (strncmp(l, prefix, p) != 0)
            continue;
        for (const char *m = next_line(l); *m; m = next_line(m))
            if (strcspn(m, "\n") == len && strncmp(m, l, len) == 0)
                return 1;
    }
    return 0;
}

/* On empty caches clrt-train says once that it compiles, what (the first
 * program and its build time) and where the result is kept, then (at most
 * every few seconds) what more it compiled and for how long; while the first
 * mini-batch's kernels compile at their first launches, a timer line; and
 * once that mini-batch is done, that the kernels are ready. With $CLRT_LOG
 * on, every build's line is printed as well, once (the tool's notice does not
 * silence the library's log, nor double it). The thresholds are set to 0
 * ($CLRT_TOOLS_COMPILE_S, $CLRT_TOOLS_STILL_S): the first compile says it,
 * and each later one counts, whatever this machine's speed. On warm caches,
 * the same thresholds print nothing: a build the cache served is no compile,
 * however long a loaded machine makes it (before, any build past the
 * threshold said "first run only"). */
static void compile_notice_and_log(void **state)
{
    (void)state;
    char cold[1200];
    cold_env(cold, sizeof cold, "notice/pocl");
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "%s CLRT_LOG=On CLRT_TOOLS_COMPILE_S=0 CLRT_TOOLS_STILL_S=0 CLRT_CACHE_DIR=notice/clrt "
             "'%s' --no-progress --data d --epochs 1 --batch 4 --test-limit 16 >/dev/null",
             cold, CLRT_TRAIN_PATH);
    ok(run(cmd));
    const int built = lines_with("clrt: built "), compiled = lines_with("clrt: built |(built from source)");
    if (lines_with("clrt: compiling kernels for|first run only; cached in|notice/pocl|: | took ") != 1 ||
        compiled < 3 || lines_with("clrt: compiled 1 more program in ") != compiled - 1 ||
        lines_with("clrt: compiled 2 more programs") != 0 || lines_with("clrt: kernels ready: ") != 1 ||
        lines_with("clrt: still compiling: the kernels' first launches, ") < 1 || repeated("clrt: built "))
        fail_msg("expected the notice, a line per later compile, the timer, one line when the kernels are ready, "
                 "each build logged once (%d, %d compiled); stderr: \"%s\"", built, compiled, err);
    /* warm (POCL's cache filled): the same builds, logged once each, and no
     * notice even at a threshold of 0 s: the cache served them */
    snprintf(cmd, sizeof cmd,
             "CLRT_LOG=1 CLRT_TOOLS_COMPILE_S=0 CLRT_TOOLS_STILL_S=0 CLRT_CACHE_DIR=notice/clrt "
             "POCL_CACHE_DIR=notice/pocl '%s' --no-progress --data d --epochs 1 --batch 4 --test-limit 16 >/dev/null",
             CLRT_TRAIN_PATH);
    ok(run(cmd));
    if (lines_with("clrt: built matmul") < 1 || lines_with("clrt: built ") != built || repeated("clrt: built ") ||
        lines_with("clrt: compiling kernels") || lines_with("clrt: compiled ") || lines_with("clrt: kernels ready") ||
        lines_with("clrt: still compiling"))
        fail_msg("expected CLRT_LOG's line for each of the %d builds, once, and no notice; stderr: \"%s\"", built,
                 err);
    /* POCL's cache off: the notice says the builds are kept nowhere, and why
     * (the library's build event carries the reason; clrt-bench, one add) */
    clrt_device_info dev;
    TU_OK(clrt_device_select(NULL, &dev));
    snprintf(cmd, sizeof cmd, "%s CLRT_TOOLS_COMPILE_S=0 POCL_KERNEL_CACHE=0 '%s' %s >/dev/null", cold,
             CLRT_BENCH_PATH, bench_args);
    ok(run(cmd));
    const char *want = strstr(dev.platform, "Portable Computing Language")
                           ? "clrt: compiling kernels for|(not cached: POCL's cache is off, every run compiles)"
                           : "clrt: compiling kernels for|(first run only)";
    if (lines_with(want) != 1 || lines_with("clrt: compiling kernels for") != 1)
        fail_msg("expected one notice \"%s\"; stderr: \"%s\"", want, err);
}

int main(void)
{
    tu_require_device();
    if (tf_init("tool-outputs") != 0)
        return 1;
    tf_dataset("d", 16);
    char real[512];
    tf_path(real, sizeof real, "real");
    mkdir(real, 0755);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(regular_files_and_links),
        cmocka_unit_test(devices_and_fifos),
        cmocka_unit_test(folders_refused_first),
        cmocka_unit_test(failed_writes_keep_earlier_files),
        cmocka_unit_test(full_filesystem),
        cmocka_unit_test(bench_plot_through_link),
        cmocka_unit_test(bench_overhead_measured),
        cmocka_unit_test(bench_products_measured),
        cmocka_unit_test(bench_tuned_file),
        cmocka_unit_test(compile_notice_and_log),
    };
    int failed_tests = cmocka_run_group_tests(tests, NULL, NULL);
    tf_done();
    return failed_tests;
}
