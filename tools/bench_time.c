/* clrt-bench timing (see bench_time.h). */
#include "bench_time.h"

#include <stdlib.h>
#include <time.h>

double bench_now(void)
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

void bench_stats_of(double *t, int n, bench_stats *out)
{
    out->reps = n;
    if (n <= 0) {
        out->median = out->min = out->max = 0;
        return;
    }
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    out->min = t[0];
    out->max = t[n - 1];
    out->median = (n % 2) ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

enum { MAX_ROUNDS = 1000, MAX_IMPLS = 16 };

int bench_measure(bench_impl *impls, size_t n, const bench_budget *budget)
{
    int max_reps = budget->max_reps > 0 ? budget->max_reps : 1;
    if (max_reps > MAX_ROUNDS)
        max_reps = MAX_ROUNDS;
    if (n > MAX_IMPLS)
        n = MAX_IMPLS;
    double *samples = calloc(n * (size_t)max_reps + 1, sizeof *samples);
    int failed = 0;
    int reps[MAX_IMPLS] = {0};
    double own[MAX_IMPLS] = {0}, last[MAX_IMPLS] = {0};
    for (size_t i = 0; i < n; i++) {
        impls[i].failed = 0;
        impls[i].stats.reps = 0;
        impls[i].stats.median = impls[i].stats.min = impls[i].stats.max = 0;
    }
    if (!samples) {
        for (size_t i = 0; i < n; i++)
            impls[i].failed = 1;
        return (int)n;
    }
    for (int w = 0; w < budget->warmup; w++)
        for (size_t i = 0; i < n; i++)
            if (!impls[i].failed && impls[i].run(impls[i].arg) != 0)
                impls[i].failed = 1;

    /* An implementation much slower than the rest (CLBlast on a CPU at 4096)
     * sits out once it has used a share of max_time; the others go on. Its
     * samples are still the first rounds, so round-by-round pairs stay side
     * by side. */
    int capped[MAX_IMPLS] = {0};
    for (int round = 0; round < max_reps; round++) {
        int all_min = 1, active = 0;
        double next = 0, spent = 0; /* by the implementations still running */
        for (size_t i = 0; i < n && round > 0; i++) {
            double others = 0;
            for (size_t j = 0; j < n; j++)
                if (j != i && !impls[j].failed && last[j] > others)
                    others = last[j];
            if (own[i] >= budget->max_time / 2 ||
                (others > 0 && last[i] > 3 * others && own[i] >= budget->max_time / 8))
                capped[i] = 1;
        }
        for (size_t i = 0; i < n; i++) {
            if (impls[i].failed || capped[i])
                continue;
            active++;
            next += last[i];
            spent += own[i];
            if (reps[i] < budget->min_reps)
                all_min = 0;
        }
        if (!active || (all_min && spent >= budget->min_time))
            break;
        if (round >= 1 && spent + next > budget->max_time)
            break;
        /* every other round in reverse order (A B C, C B A, ...), so that
         * no implementation always runs right after the same other one */
        for (size_t k = 0; k < n; k++) {
            size_t i = (round % 2) ? n - 1 - k : k;
            if (impls[i].failed || capped[i])
                continue;
            double t0 = bench_now();
            if (impls[i].run(impls[i].arg) != 0) {
                impls[i].failed = 1;
                continue;
            }
            double t = bench_now() - t0;
            samples[i * (size_t)max_reps + (size_t)reps[i]++] = t;
            own[i] += t;
            last[i] = t;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (impls[i].failed) {
            failed++;
            continue;
        }
        if (impls[i].rounds)
            for (int r = 0; r < reps[i]; r++)
                impls[i].rounds[r] = samples[i * (size_t)max_reps + (size_t)r];
        bench_stats_of(samples + i * (size_t)max_reps, reps[i], &impls[i].stats);
    }
    free(samples);
    return failed;
}

double bench_paired_ratio(const bench_impl *a, const bench_impl *b)
{
    if (a->failed || b->failed || !a->rounds || !b->rounds || a->stats.reps <= 0 || b->stats.reps <= 0)
        return 0;
    /* the first rounds of both: each pair ran in the same round */
    int n = a->stats.reps < b->stats.reps ? a->stats.reps : b->stats.reps;
    double *r = malloc((size_t)n * sizeof *r);
    if (!r)
        return 0;
    for (int i = 0; i < n; i++)
        r[i] = b->rounds[i] > 0 ? a->rounds[i] / b->rounds[i] : 0;
    bench_stats st;
    bench_stats_of(r, n, &st);
    free(r);
    return st.median;
}
