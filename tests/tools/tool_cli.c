/* The tools' command lines (tools/common/tool_args.h): every refusal exits 2 with
 * one line on stderr that names the tool, the option and the value at fault,
 * before any device is opened (this suite runs with no OpenCL platform).
 * clrt-bench's sizes above all: a shape is N or MxNxK ("5x", "5x5x5x" are
 * refused), and a size whose arrays cannot exist on this machine is refused
 * with what it needs, never wrapped into a small malloc; its children, run
 * by hand at such a size, say so on their ERROR line and exit 1, never die
 * of a signal. clrt-train's own refusals are in train/train_cli.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"
#include "tools/train/train_files.h"

static const char *err = "";

/* tool with args, stdout into out (cap bytes): the exit status (128 +
 * the signal that ended it). */
static int run(const char *tool, const char *args, char *out, size_t cap)
{
    char cmd[4096], path[512];
    tf_path(path, sizeof path, "stdout.txt");
    snprintf(cmd, sizeof cmd, "'%s' %s >stdout.txt", tool, args);
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

/* Refused as promised: exit 2, stderr exactly one line, saying every
 * '|'-separated word of want. */
static void refused(const char *tool, const char *args, const char *want)
{
    char out[4096];
    const int rc = run(tool, args, out, sizeof out);
    const char *nl = strchr(err, '\n');
    int says = rc == 2 && nl && !nl[1];
    char words[512];
    snprintf(words, sizeof words, "%s", want);
    for (char *w = strtok(words, "|"); says && w; w = strtok(NULL, "|"))
        says = strstr(err, w) != NULL;
    if (!says)
        fail_msg("%s %s: exit %d, expected 2 and one line saying \"%s\"; stderr \"%s\"", strrchr(tool, '/') + 1, args,
                 rc, want, err);
}

static void bench_refuses(const char *args, const char *want) { refused(CLRT_BENCH_PATH, args, want); }

static void unknown_options(void **state)
{
    (void)state;
    bench_refuses("--bogus", "clrt-bench: unknown option --bogus|clrt-bench --help");
    refused(CLRT_INFO_PATH, "--bogus", "clrt-info: unknown option --bogus|clrt-info --help");
    refused(CLRT_TRAIN_PATH, "--bogus", "clrt-train: unknown option --bogus|clrt-train --help");
    refused(CLRT_INFO_PATH, "stray", "clrt-info: a device selector goes with --warm");
    bench_refuses("stray", "clrt-bench: unexpected argument stray");
}

/* "5x" was read as 5 and "5x5x5x" as 5x5x5: every 'x' stands between two
 * numbers, and there are one or three. */
static void bench_shapes(void **state)
{
    (void)state;
    static const char *const bad[] = {"5x", "5x5x5x", "x5", "5xx5", "5x5", "5x5x5x5", "5:NX", "5::NT", "0",
                                      "5x0x5", "-5", "5.5", "abc", "64,", ",64", "64,,64"};
    char args[128], want[160];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(args, sizeof args, "--sizes '%s'", bad[i]);
        snprintf(want, sizeof want, "clrt-bench: --sizes %s: ", bad[i]);
        bench_refuses(args, want);
    }
    bench_refuses("--sizes 64,5x", "--sizes 64,5x: '5x': a size is N or MxNxK");
    bench_refuses("--trans NX", "--trans NX: 'NX': not NN, NT, TN or TT");
    bench_refuses("--op matmul,nope", "--op matmul,nope: 'nope': no such operation");
    bench_refuses("--dtype f16", "--dtype f16: 'f16': not f32 or f64");
}

/* Sizes whose arrays no machine holds: refused before any work with what
 * they need (2^31 squared float64 elements wrapped to a 0-byte malloc). */
static void bench_sizes_that_cannot_exist(void **state)
{
    (void)state;
    bench_refuses("--sizes 2147483648", "--sizes 2147483648x2147483648x2147483648|EiB|no such buffers can exist");
    bench_refuses("--sizes 4294967296x4294967296x1 --dtype f32", "--sizes|in float32|no such buffers can exist");
    bench_refuses("--sizes 1x1x18446744073709551615", "--sizes 1x1x18446744073709551615|no such buffers");
    bench_refuses("--sizes 18446744073709551616", "--sizes 18446744073709551616|out of range");
    bench_refuses("--first-size 2147483648", "--first-size 2147483648|no such buffers can exist");
    bench_refuses("--add-sizes 4e18", "--add-sizes 4000000000000000000|no such buffers can exist");
    bench_refuses("--add-sizes 1e20", "--add-sizes 1e20: '1e20': out of range");
    bench_refuses("--tune --tune-size 1e7", "--tune-size 10000000|no such buffers can exist");
}

static void bench_counts(void **state)
{
    (void)state;
    bench_refuses("--reps 0", "--reps 0: must be 1 to 1000");
    bench_refuses("--reps 1001", "--reps 1001: must be 1 to 1000");
    bench_refuses("--min-reps -1", "--min-reps -1: not a whole number");
    bench_refuses("--warmup 101", "--warmup 101: must be 0 to 100");
    bench_refuses("--threads 65", "--threads 65: must be 1 to 64");
    bench_refuses("--tune-passes 0", "--tune-passes 0: must be 1 to 10");
    bench_refuses("--min-time -1", "--min-time -1: must be 0 to");
    bench_refuses("--max-time nan", "--max-time nan: must be 0 to");
    bench_refuses("--first-size 0", "--first-size 0: must be at least 1");
    bench_refuses("--sizes", "--sizes: needs a value");
    bench_refuses("--device ''", "--device: needs a value");
    bench_refuses("--child-first-call 0 f32", "--child-first-call: needs 3 values");
    bench_refuses("--child-first-call 0 f16 64", "--child-first-call f16: not f32 or f64");
    bench_refuses("--child-cold nope f32 64 0", "--child-cold nope: no such operation");
}

/* "a,b,...": the comma list from first to last, into buf. */
static const char *numbers(char *buf, size_t cap, int first, int last)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = first; i <= last && used < cap; i++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%d", i > first ? "," : "", i);
    return buf;
}

/* The lists' bounds: 64 products, 64 counts, 32 devices, an item of 127
 * characters; --trans and --cnn refused when what they add passes 64. */
static void bench_list_bounds(void **state)
{
    (void)state;
    char list[512], args[1024];
    snprintf(args, sizeof args, "--sizes %s", numbers(list, sizeof list, 1, 65));
    bench_refuses(args, ",64,65: more than 64 products");
    snprintf(args, sizeof args, "--add-sizes %s", numbers(list, sizeof list, 1, 65));
    bench_refuses(args, ",64,65: more than 64 counts");
    args[0] = '\0';
    for (int i = 0; i < 33; i++)
        snprintf(args + strlen(args), sizeof args - strlen(args), " --device %d", i);
    bench_refuses(args, "--device 32: more than 32 devices");
    snprintf(args, sizeof args, "--sizes %s --trans NN,NT,TT", numbers(list, sizeof list, 1, 22));
    bench_refuses(args, "clrt-bench: --trans: more than 64 products in all");
    /* 63: accepted (--list: then nothing runs) */
    snprintf(args, sizeof args, "--sizes %s --trans NN,NT,TT --list", numbers(list, sizeof list, 1, 21));
    char out[4096];
    const int rc = run(CLRT_BENCH_PATH, args, out, sizeof out);
    if (rc != 0 || strstr(err, "more than 64"))
        fail_msg("63 products with --trans refused (exit %d): \"%s\"", rc, err);
    snprintf(args, sizeof args, "--sizes %s --cnn", numbers(list, sizeof list, 1, 56));
    bench_refuses(args, "clrt-bench: --cnn: more than 64 products with --sizes");
    char item[160];
    memset(item, '1', 128);
    item[128] = '\0';
    snprintf(args, sizeof args, "--add-sizes %s", item);
    bench_refuses(args, "an item longer than 127 characters");
    item[70] = '\0';
    snprintf(args, sizeof args, "--sizes %s", item);
    bench_refuses(args, "too long; a size is N or MxNxK");
}

/* nn-conv-phases [batch [rounds]]: a bad one named, with the usage, exit 2
 * (atoi read "abc" as 0 rounds and strtoul "-1" as 2^64 - 1 images). */
static void conv_phases_refuses(void **state)
{
    (void)state;
    static const char *const bad[][2] = {{"0", "nn-conv-phases: 0: must be 1 to 1048576"},
                                         {"1048577", "nn-conv-phases: 1048577: must be 1 to"},
                                         {"-1", "nn-conv-phases: -1: not a whole number"},
                                         {"64 abc", "nn-conv-phases: abc: not a whole number"},
                                         {"64 0", "nn-conv-phases: 0: must be 1 to"}};
    char out[4096];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const int rc = run(CLRT_CONV_PHASES_PATH, bad[i][0], out, sizeof out);
        if (rc != 2 || strncmp(err, bad[i][1], strlen(bad[i][1])) != 0 || !strstr(err, "\nusage: nn-conv-phases"))
            fail_msg("nn-conv-phases %s: exit %d, expected 2 and \"%s\" then the usage; stderr \"%s\"", bad[i][0], rc,
                     bad[i][1], err);
    }
}

/* A child run by hand at a size whose arrays cannot exist: its ERROR line
 * and exit 1, before any device (it segfaulted in the fill). */
static void bench_children_check_their_sizes(void **state)
{
    (void)state;
    char out[4096];
    int rc = run(CLRT_BENCH_PATH, "--child-first-call 0 f64 2147483648", out, sizeof out);
    if (rc != 1 || !strstr(out, "ERROR a 2147483648x2147483648 matrix of f64 has more bytes than this machine"))
        fail_msg("--child-first-call at 2^31: exit %d; stdout \"%s\"; stderr \"%s\"", rc, out, err);
    rc = run(CLRT_BENCH_PATH, "--child-cold add f32 18446744073709551615 0", out, sizeof out);
    if (rc != 1 || !strstr(out, "ERROR the arrays of add at 18446744073709551615 have more bytes"))
        fail_msg("--child-cold at 2^64 - 1: exit %d; stdout \"%s\"; stderr \"%s\"", rc, out, err);
}

int main(void)
{
    if (tf_init("tool-cli") != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unknown_options),
        cmocka_unit_test(bench_shapes),
        cmocka_unit_test(bench_sizes_that_cannot_exist),
        cmocka_unit_test(bench_counts),
        cmocka_unit_test(bench_list_bounds),
        cmocka_unit_test(conv_phases_refuses),
        cmocka_unit_test(bench_children_check_their_sizes),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    tf_done();
    return failed;
}
