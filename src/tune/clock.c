/* The tuner's clock (see tune/clock.h). */
#include "tune/clock.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

double clrt__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(const double *t, int n)
{
    if (n <= 0)
        return 0;
    double s[CLRT__TT_MAX_ROUNDS];
    memcpy(s, t, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return (n % 2) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

int clrt__time_rounds(clrt__timed_run *runs, size_t n, int warmup, int min_reps, int max_reps, double min_time,
                      double max_time)
{
    if (max_reps > CLRT__TT_MAX_ROUNDS)
        max_reps = CLRT__TT_MAX_ROUNDS;
    double spent = 0, last_round = 0;
    for (size_t i = 0; i < n; i++) {
        runs[i].failed = 0;
        runs[i].reps = 0;
        runs[i].median = 0;
    }
    for (int w = 0; w < warmup; w++)
        for (size_t i = 0; i < n; i++)
            if (!runs[i].failed && runs[i].run(runs[i].arg) != 0)
                runs[i].failed = 1;
    for (int round = 0; round < max_reps; round++) {
        if (round >= min_reps && spent >= min_time)
            break;
        if (round >= 1 && spent + last_round > max_time)
            break;
        double t0 = clrt__now();
        for (size_t j = 0; j < n; j++) {
            clrt__timed_run *r = &runs[(round % 2) ? n - 1 - j : j];
            if (r->failed)
                continue;
            double s = clrt__now();
            if (r->run(r->arg) != 0) {
                r->failed = 1;
                continue;
            }
            r->t[r->reps++] = clrt__now() - s;
        }
        last_round = clrt__now() - t0;
        spent += last_round;
    }
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        failed += runs[i].failed;
        runs[i].median = runs[i].failed ? 0 : median_of(runs[i].t, runs[i].reps);
    }
    return failed;
}

double clrt__paired_ratio(const clrt__timed_run *a, const clrt__timed_run *b)
{
    if (a->failed || b->failed || a->reps <= 0 || b->reps <= 0)
        return 0;
    int n = a->reps < b->reps ? a->reps : b->reps;
    double r[CLRT__TT_MAX_ROUNDS];
    for (int i = 0; i < n; i++)
        r[i] = b->t[i] > 0 ? a->t[i] / b->t[i] : 0;
    return median_of(r, n);
}
