/* example_util.h: the little the timing examples (bench_devices,
 * host_staging, profiling_cost, stream_overlap) share that is not clrt:
 * a wall clock and the median of a run of timings. Copy it along with an
 * example; quickstart.c needs nothing beyond clrt and stays one file. */
#ifndef CLRT_EXAMPLE_UTIL_H
#define CLRT_EXAMPLE_UTIL_H

#include <stdlib.h>
#include <time.h>

/* Seconds on a monotonic clock: differences are elapsed time, whatever the
 * system clock does meanwhile. */
static inline double example_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int example_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n timings (n odd), sorting t in place: one slow run (a page
 * fault, another process) moves it no more than a fast one. */
static inline double example_median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, example_cmp_double);
    return t[n / 2];
}

#endif
