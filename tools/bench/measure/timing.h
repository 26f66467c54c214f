/* clrt-bench timing: a monotonic clock, and interleaved repeated runs of
 * several implementations of one case, so that every ratio compares runs made
 * side by side (machines are shared; absolute times drift). */
#ifndef CLRT_TOOLS_BENCH_TIMING_H
#define CLRT_TOOLS_BENCH_TIMING_H

#include <stddef.h>

/* Seconds on CLOCK_MONOTONIC (comparable between processes on one machine). */
double bench_now(void);

/* One synchronous run: returns 0, or nonzero when it failed (the failure is
 * the implementation's to report). */
typedef int (*bench_run_fn)(void *arg);

typedef struct bench_stats {
    double median, min, max; /* seconds per run */
    int reps;                /* timed runs behind them; 0: not measured */
} bench_stats;

/* How long to measure a case. Rounds run every implementation once, in
 * turn; they go on until max_reps rounds, or min_reps rounds and min_time
 * seconds, or (after one round) when another round would pass max_time.
 * Every other round runs them in reverse order. An implementation much
 * slower than the others sits out the rest once it has used a share of
 * max_time (half of it, or an eighth when 3x slower than the slowest other). */
/* The most rounds bench_measure runs (a larger max_reps is cut to it), so a
 * bench_impl.rounds buffer of this many entries is always large enough. */
enum { BENCH_MAX_ROUNDS = 1000 };

typedef struct bench_budget {
    int warmup;       /* untimed runs of each implementation first */
    int min_reps, max_reps;
    double min_time;  /* seconds of timed rounds */
    double max_time;
} bench_budget;

typedef struct bench_impl {
    bench_run_fn run;
    void *arg;
    /* Set for host code that leaves threads spinning after it returns
     * (OpenBLAS's workers busy-wait ~0.1 s for the next call, and take a core
     * from whatever runs then): it runs last in every round, right after an
     * untimed prime (when given) that wakes those threads, so that it runs at
     * the speed of back-to-back calls; nothing runs after it until the
     * process's other threads are idle again (bench_wait_quiet). */
    int spins;
    bench_run_fn prime;
    int failed;       /* set when a run returned nonzero: no more runs */
    bench_stats stats;
    double *rounds;   /* optional (max_reps entries, at most BENCH_MAX_ROUNDS): each timed run, in round order */
} bench_impl;

/* Wait until the other threads of this process have stopped using the CPU
 * (under 10% of a core over 10 ms), at most max_s seconds; returns the
 * seconds waited. Every wait is counted in bench_quiet_stats. */
double bench_wait_quiet(double max_s);

typedef struct bench_quiet {
    int waits;      /* calls */
    int timeouts;   /* ... that gave up after max_s */
    int blind;      /* ... that could not read /proc/self/task and slept 0.3 s */
    double total, max; /* seconds waited */
} bench_quiet;
const bench_quiet *bench_quiet_stats(void);

/* Measure impls[0..n) interleaved. Returns the number that failed. */
int bench_measure(bench_impl *impls, size_t n, const bench_budget *budget);

/* Median, min and max of t[0..n) (sorted in place). */
void bench_stats_of(double *t, int n, bench_stats *out);

/* Median over rounds of a.rounds[r] / b.rounds[r]: how many times longer a
 * took than b, each round's pair run side by side (robust to the drift of a
 * shared machine). 0 when either has no rounds. */
double bench_paired_ratio(const bench_impl *a, const bench_impl *b);

#endif
