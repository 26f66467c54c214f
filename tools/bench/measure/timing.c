/* clrt-bench timing (see bench/measure/timing.h). */
#include "measure/timing.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* CPU time of every thread of this process but the calling one, in seconds,
 * from /proc/self/task/<tid>/schedstat (its first field: nanoseconds on a
 * CPU); -1 when unreadable. */
static double others_cpu(void)
{
    /* this thread's id: /proc/thread-self links to "<pid>/task/<tid>" */
    char link[64], self[64] = "";
    ssize_t len = readlink("/proc/thread-self", link, sizeof link - 1);
    if (len > 0) {
        link[len] = '\0';
        const char *slash = strrchr(link, '/');
        snprintf(self, sizeof self, "%s", slash ? slash + 1 : link);
    }
    DIR *dir = opendir("/proc/self/task");
    if (!dir)
        return -1;
    double sum = 0;
    int others = 0, read_any = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, self) == 0)
            continue;
        char path[300];
        snprintf(path, sizeof path, "/proc/self/task/%s/schedstat", e->d_name);
        others = 1;
        FILE *f = fopen(path, "r");
        unsigned long long ns = 0;
        if (!f)
            continue; /* the thread has just ended */
        if (fscanf(f, "%llu", &ns) == 1) {
            sum += 1e-9 * (double)ns;
            read_any = 1;
        }
        fclose(f);
    }
    closedir(dir);
    /* no other thread: nothing can spin; others, none readable: blind */
    return read_any ? sum : others ? -1 : 0;
}

static bench_quiet quiet;

const bench_quiet *bench_quiet_stats(void) { return &quiet; }

double bench_wait_quiet(double max_s)
{
    enum { WINDOW_MS = 10 };
    double t0 = bench_now();
    double last = others_cpu(), t_last = t0;
    quiet.waits++;
    if (last < 0) {
        /* no per-thread CPU times (no schedstats): wait out OpenBLAS's default
         * spin, 2^28 time-stamp cycles, with room for a slow clock */
        quiet.blind++;
        sleep_s(max_s < 0.3 ? max_s : 0.3);
    } else {
        for (;;) {
            sleep_s(WINDOW_MS * 1e-3);
            double now = bench_now(), cpu = others_cpu();
            if (cpu >= 0 && cpu - last < 0.1 * (now - t_last))
                break;
            if (now - t0 >= max_s) {
                quiet.timeouts++;
                break;
            }
            last = cpu;
            t_last = now;
        }
    }
    double waited = bench_now() - t0;
    quiet.total += waited;
    if (waited > quiet.max)
        quiet.max = waited;
    return waited;
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

enum { MAX_IMPLS = 16 };

/* The longest wait for spinning threads to stop: OpenBLAS's spin for 2^28
 * cycles of the time-stamp counter by default (0.11 s at 2.6 GHz), 2^30 at
 * most (OPENBLAS_THREAD_TIMEOUT=30). */
#define QUIET_MAX_S 2.0

/* The order of a round: the implementations that do not spin, every other
 * round in reverse order (A B C, C B A, ...), so that none always runs right
 * after the same other one; then those that spin. */
static void round_order(const bench_impl *impls, size_t n, int round, size_t *order)
{
    size_t k = 0;
    for (size_t j = 0; j < n; j++) {
        size_t i = (round % 2) ? n - 1 - j : j;
        if (!impls[i].spins)
            order[k++] = i;
    }
    for (size_t i = 0; i < n; i++)
        if (impls[i].spins)
            order[k++] = i;
}

/* Below this a run after a quiet wait is repeated, untimed, first: the
 * device's threads have gone to sleep meanwhile, and waking them would be
 * charged to a short run alone (the others run right after one another). */
#define REWARM_BELOW_S 0.05

/* One timed run of x, in *t; last: its previous timed run (< 0: none). Nothing
 * runs while the threads that the last spinning implementation left behind
 * are still busy (*spinning); a spinning one is primed, untimed, right before
 * its run. */
static int run_once(bench_impl *x, int *spinning, double last, double *t)
{
    if (*spinning) {
        bench_wait_quiet(QUIET_MAX_S);
        *spinning = 0;
        if (!x->spins && last >= 0 && last < REWARM_BELOW_S && x->run(x->arg) != 0)
            return -1;
    }
    if (x->prime && x->prime(x->arg) != 0)
        return -1;
    double t0 = bench_now();
    int st = x->run(x->arg);
    *t = bench_now() - t0;
    *spinning = x->spins;
    return st;
}

int bench_measure(bench_impl *impls, size_t n, const bench_budget *budget)
{
    int max_reps = budget->max_reps > 0 ? budget->max_reps : 1;
    if (max_reps > BENCH_MAX_ROUNDS)
        max_reps = BENCH_MAX_ROUNDS;
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
    int spinning = 0;
    double t;
    size_t order[MAX_IMPLS];
    round_order(impls, n, 0, order);
    for (int w = 0; w < budget->warmup; w++)
        for (size_t k = 0; k < n; k++) {
            size_t i = order[k];
            if (!impls[i].failed && run_once(&impls[i], &spinning, -1, &t) != 0)
                impls[i].failed = 1;
        }

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
        round_order(impls, n, round, order);
        for (size_t k = 0; k < n; k++) {
            size_t i = order[k];
            if (impls[i].failed || capped[i])
                continue;
            if (run_once(&impls[i], &spinning, reps[i] ? last[i] : -1, &t) != 0) {
                impls[i].failed = 1;
                continue;
            }
            samples[i * (size_t)max_reps + (size_t)reps[i]++] = t;
            own[i] += t;
            last[i] = t;
        }
    }
    if (spinning) /* whatever runs next, undisturbed */
        bench_wait_quiet(QUIET_MAX_S);
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
