/* libFuzzer target: clrt-bench's command line (tools/bench/cli/opts.c,
 * bench_opts_parse, over tools/common/tool_args.c) on arbitrary argument lists:
 * the input split at its NUL bytes into argv[1..]. Beyond "no crash, no
 * sanitizer report": a parse returns 0, 1 or 2; one accepted has every list
 * within its bounds, every size and count at least 1, every case's host
 * arrays within this machine's memory (so that no count times an element
 * size can wrap later), every budget in its range; and each --sizes item it
 * accepted has the grammar N or MxNxK, optionally :NN/:NT/:TN/:TT (no
 * trailing or doubled 'x'). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_NAME "fuzz_bench_opts"
#include "fuzz_check.h"

#include "cli/opts.h"
#include "measure/timing.h"

enum { MAX_ARGS = 48, MAX_INPUT = 4096 };

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* --help prints the usage on stdout: not what is checked */
    if (!freopen("/dev/null", "w", stdout))
        return 0;
    return 0;
}

/* A number as the shape grammar writes it: a digit first, then digits, '.',
 * 'e', 'E' or '+' (the count reader decides the rest). */
static const char *number(const char *p)
{
    if (*p < '0' || *p > '9')
        return NULL;
    return p + strspn(p, "0123456789.eE+");
}

/* item matches N, or NxNxN, either with ":XY" (X, Y: N or T) after it. */
static int shape_grammar(const char *item, size_t len)
{
    char s[160];
    if (len >= sizeof s)
        return 0;
    memcpy(s, item, len);
    s[len] = '\0';
    const char *p = number(s);
    for (int parts = 1; p; parts++) {
        if (*p == '\0')
            return parts == 1 || parts == 3;
        if (*p == ':')
            return (parts == 1 || parts == 3) && strchr("NT", p[1]) && p[1] && strchr("NT", p[2]) && p[2] &&
                   !p[3];
        if ((*p != 'x' && *p != 'X') || parts == 3)
            return 0;
        p = number(p + 1);
    }
    return 0;
}

/* How many values follow an option (clrt-bench --help's table, written
 * again here: the parser's own table is what is under test). */
static int values_of(const char *arg)
{
    static const char *const one[] = {"--device", "-d", "--op", "--dtype", "--sizes", "--trans", "--add-sizes",
                                      "--reps", "--min-reps", "--min-time", "--max-time", "--warmup", "--first-size",
                                      "--threads", "--plot", "--tune-size", "--tune-passes", "--tune-file"};
    for (size_t i = 0; i < sizeof one / sizeof *one; i++)
        if (strcmp(arg, one[i]) == 0)
            return 1;
    return strcmp(arg, "--child-raw-first") == 0    ? 2
           : strcmp(arg, "--child-first-call") == 0 ? 3
           : strcmp(arg, "--child-cold") == 0       ? 4
                                                    : 0;
}

/* Every item of every --sizes value in argv has the grammar. */
static void check_sizes_grammar(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--sizes") != 0) {
            i += values_of(argv[i]);
            continue;
        }
        const char *list = argv[++i];
        for (const char *p = list;; p++) {
            const size_t len = strcspn(p, ",");
            CHECK(shape_grammar(p, len), "--sizes %s accepted: item '%.*s' is not N or MxNxK", list, (int)len, p);
            p += len;
            if (!*p)
                break;
        }
    }
}

/* What an accepted command line promises the rest of clrt-bench. */
static void check_accepted(const bench_opts *o, int argc, char **argv)
{
    const double host = (double)bench_host_memory(), es = o->run_f64 ? 8 : 4;
    CHECK(o->nmatmul <= BENCH_MAX_SIZES && o->nadd <= BENCH_MAX_SIZES && o->nmath <= BENCH_MAX_SIZES,
          "%zu products, %zu counts, %zu math counts", o->nmatmul, o->nadd, o->nmath);
    CHECK(o->ndevices <= BENCH_MAX_DEVICES, "%zu devices", o->ndevices);
    for (size_t i = 0; i < o->nmatmul; i++) {
        const bench_shape *s = &o->matmul[i];
        const double m = (double)s->m, n = (double)s->n, k = (double)s->k;
        CHECK(s->m >= 1 && s->n >= 1 && s->k >= 1, "a product %zux%zux%zu", s->m, s->n, s->k);
        CHECK((m * k + k * n + 2 * m * n) * es <= host, "a product %zux%zux%zu past the host's memory", s->m, s->n,
              s->k);
    }
    for (size_t i = 0; i < o->nadd; i++)
        CHECK(o->add[i] >= 1 && 4 * (double)o->add[i] * es <= host, "an add count %zu", o->add[i]);
    for (size_t i = 0; i < o->nmath; i++)
        CHECK(o->math[i] >= 1 && 4 * (double)o->math[i] * es <= host, "a math count %zu", o->math[i]);
    CHECK(o->max_reps >= 1 && o->max_reps <= BENCH_MAX_ROUNDS && o->min_reps >= 1 && o->min_reps <= o->max_reps,
          "reps %d..%d", o->min_reps, o->max_reps);
    CHECK(o->warmup >= 0 && o->warmup <= 100, "warmup %d", o->warmup);
    CHECK(o->min_time >= 0 && o->min_time <= 1e6 && o->max_time >= 0 && o->max_time <= 1e6, "times %g, %g",
          o->min_time, o->max_time);
    CHECK(o->host_threads >= 1 && o->host_threads <= 64, "%d threads", o->host_threads);
    CHECK(o->tune_passes >= 1 && o->tune_passes <= 10, "%d tuning passes", o->tune_passes);
    CHECK(o->first_size >= 1 && o->tune_size >= 1, "first size %zu, tune size %zu", o->first_size, o->tune_size);
    CHECK(o->child_mode >= 0 && o->child_mode <= 3, "child mode %d", o->child_mode);
    CHECK(!o->child_mode || o->child_mode == 2 || o->child_n >= 1, "a child's size %zu", o->child_n);
    check_sizes_grammar(argc, argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_INPUT)
        return 0;
    /* the arguments: the input's NUL-separated pieces, each its own string */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[MAX_ARGS + 2] = {"clrt-bench"};
    int argc = 1;
    for (size_t at = 0; at <= size && argc <= MAX_ARGS; at += strlen(text + at) + 1)
        argv[argc++] = text + at;
    argv[argc] = NULL;
    bench_opts o;
    const int rc = bench_opts_parse(&o, argc, argv);
    CHECK(rc == 0 || rc == 1 || rc == 2, "returned %d", rc);
    if (rc == 0)
        check_accepted(&o, argc, argv);
    free(text);
    return 0;
}
