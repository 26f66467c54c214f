/* The tuner's clock: interleaved rounds of several runs, so that every ratio
 * compares runs made side by side (machines are shared; absolute times
 * drift). */
#ifndef CLRT_TUNE_CLOCK_H
#define CLRT_TUNE_CLOCK_H

#include <stddef.h>

enum { CLRT__TT_MAX_ROUNDS = 64 };

/* Seconds on CLOCK_MONOTONIC. */
double clrt__now(void);

/* One synchronous run: 0, or nonzero when it failed. */
typedef int (*clrt__run_fn)(void *arg);

typedef struct clrt__timed_run {
    clrt__run_fn run;
    void *arg;
    int failed;                          /* a run returned nonzero: no more runs */
    int reps;                            /* timed rounds */
    double t[CLRT__TT_MAX_ROUNDS];       /* seconds of each round, in round order */
    double median;                       /* of t */
} clrt__timed_run;

/* Rounds run every run once, in turn (every other round in reverse order),
 * after `warmup` untimed rounds; they go on until max_reps rounds, or
 * min_reps rounds and min_time seconds, or when another round would pass
 * max_time. Returns how many failed. */
int clrt__time_rounds(clrt__timed_run *runs, size_t n, int warmup, int min_reps, int max_reps, double min_time,
                      double max_time);

/* Median over rounds of a.t[r] / b.t[r]: how many times longer a took than b,
 * round by round; 0 when either has no rounds. */
double clrt__paired_ratio(const clrt__timed_run *a, const clrt__timed_run *b);

#endif
