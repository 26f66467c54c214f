/* clrt-bench command line: what to run, how long, and how to report it. */
#ifndef CLRT_TOOLS_BENCH_OPTS_H
#define CLRT_TOOLS_BENCH_OPTS_H

#include <stddef.h>
#include <stdio.h>

#include "cli/ops.h"

enum { BENCH_MAX_SIZES = 64, BENCH_MAX_DEVICES = 32 };
enum bench_format { BENCH_TABLE, BENCH_JSON, BENCH_CSV };

/* A product's shape: op(A) M x K, op(B) K x N, with op = transpose when ta / tb. */
typedef struct bench_shape {
    size_t m, n, k;
    int ta, tb;
} bench_shape;

typedef struct bench_opts {
    const char *devices[BENCH_MAX_DEVICES]; /* selectors; none: every real device */
    size_t ndevices;
    int run[BENCH_OPS];         /* enum bench_op: which operations to time */
    int run_f32, run_f64;
    bench_shape matmul[BENCH_MAX_SIZES];
    size_t nmatmul;
    size_t add[BENCH_MAX_SIZES];
    size_t nadd;
    size_t math[BENCH_MAX_SIZES]; /* element counts for the math family: --add-sizes, else 1e6 and 1e7 */
    size_t nmath;
    int quick;
    int warmup, min_reps, max_reps;
    double min_time, max_time;  /* seconds per case */
    int first;                  /* first call on a fresh context, per case */
    int child;                  /* a new process's first matmul */
    int cold;                   /* ... also with every build cache off */
    int forced_cache;           /* ... also with clrt's own program cache forced on (CLRT_CACHE=1) */
    size_t first_size;
    int overhead;               /* tiny-add overhead against a raw enqueue */
    size_t overhead_n;
    int overhead_ops;
    int peak;                   /* the host's FMA peak (with matmul) */
    int openblas, clblast, host;
    int host_threads;
    int compare_default;        /* also time the default parameters when tuned ones are in use */
    int gemm_extras;            /* products: also alpha/beta and views side by side */
    int products;               /* --op products: the batched and fused products' rows (bench/measure/products.c) */
    int split;                  /* --op split: one product split across the --device list (bench/measure/split.c) */
    int cold_start;             /* --cold: the cold-start table (bench/measure/cold.c) instead of the benchmark */
    int sizes_given;            /* --sizes was given (split: else its own default size) */
    enum bench_format format;
    const char *plot;           /* PNG path, or NULL */
    int progress;               /* -1: when stderr is a terminal */
    int list;
    int openblas_query;         /* --openblas-core: say the best OpenBLAS core and the one that runs, and exit */
    /* --tune */
    int tune;
    size_t tune_size;
    int tune_passes;
    const char *tune_file;      /* write here instead of the standard place */
    int tune_dry_run;
    /* internal: the child of the first-call measurement */
    int child_mode;             /* 1: --child-first-call, 2: --child-raw-first, 3: --child-cold */
    int child_op;               /* --child-cold: enum bench_op */
    const char *child_device;
    int child_dbl;
    size_t child_n;
    const char *child_raw_binary; /* --child-raw-first: its program binary file, NULL: from source */
} bench_opts;

/* Fill from argv (common/tool_args.h's rules: an unknown option, a missing value
 * or a bad one is one line on stderr naming it). 0: run; 1: done (help
 * printed); 2: usage error (message printed). Every size and count is
 * range-checked here: a shape is N or MxNxK, each at least 1, and the
 * arrays of every case must fit in this machine's memory
 * (bench_opts_check_memory), so that no element count times an element
 * size can wrap later. */
int bench_opts_parse(bench_opts *o, int argc, char **argv);
/* 0 when every case's host arrays (products of --sizes, --add-sizes counts,
 * --first-size's product, --tune-size's at twice the size), in float64 when
 * it runs, fit in host_bytes; else 2 after a message naming the option, the
 * size, what it needs and what there is. */
int bench_opts_check_memory(const bench_opts *o, unsigned long long host_bytes);
/* This machine's physical memory in bytes. */
unsigned long long bench_host_memory(void);
void bench_usage(FILE *f);

#endif
