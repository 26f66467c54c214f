/* clrt-bench host references and checks (see bench/reference/host_ref.h). */
#include "reference/host_ref.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CLRT_BENCH_OPENBLAS
#include <cblas.h>
#endif

/* ---- OpenBLAS */

int bench_have_openblas(void)
{
#ifdef CLRT_BENCH_OPENBLAS
    return 1;
#else
    return 0;
#endif
}

const char *bench_openblas_core(void)
{
#ifdef CLRT_BENCH_OPENBLAS
    const char *s = openblas_get_corename();
    return s ? s : "?";
#else
    return "";
#endif
}

void bench_cpu_model(char *buf, size_t cap)
{
    static const char *const keys[] = {"model name", "Model", "Hardware"};
    buf[0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (!buf[0] && fgets(line, sizeof line, f)) {
        const char *v = strchr(line, ':');
        size_t key = v ? (size_t)(v - line) : 0;
        while (key > 0 && (line[key - 1] == ' ' || line[key - 1] == '\t'))
            key--;
        for (size_t k = 0; v && k < sizeof keys / sizeof *keys; k++) {
            if (key != strlen(keys[k]) || strncmp(line, keys[k], key) != 0)
                continue;
            v += strspn(v + 1, " \t") + 1;
            snprintf(buf, cap, "%.*s", (int)strcspn(v, "\n"), v);
        }
    }
    fclose(f);
}

int bench_openblas_threads(void)
{
#ifdef CLRT_BENCH_OPENBLAS
    return openblas_get_num_threads();
#else
    return 0;
#endif
}

const char *bench_openblas_config(void)
{
#ifdef CLRT_BENCH_OPENBLAS
    const char *s = openblas_get_config();
    return s ? s : "?";
#else
    return "";
#endif
}

int bench_host_gemm(int dbl, int ta, int tb, size_t M, size_t N, size_t K, const void *a, const void *b, void *c)
{
#ifdef CLRT_BENCH_OPENBLAS
    const enum CBLAS_TRANSPOSE oa = ta ? CblasTrans : CblasNoTrans, ob = tb ? CblasTrans : CblasNoTrans;
    const blasint lda = (blasint)(ta ? M : K), ldb = (blasint)(tb ? K : N);
    if (dbl)
        cblas_dgemm(CblasRowMajor, oa, ob, (blasint)M, (blasint)N, (blasint)K, 1.0, a, lda, b, ldb, 0.0, c,
                    (blasint)N);
    else
        cblas_sgemm(CblasRowMajor, oa, ob, (blasint)M, (blasint)N, (blasint)K, 1.0f, a, lda, b, ldb, 0.0f, c,
                    (blasint)N);
    return 0;
#else
    (void)dbl, (void)ta, (void)tb, (void)M, (void)N, (void)K, (void)a, (void)b, (void)c;
    return -1;
#endif
}

int bench_host_gemm_wake(int dbl)
{
    /* Large enough for OpenBLAS to use every thread (it runs below 64^3
     * on one), small enough to cost well under a millisecond. */
    enum { WAKE_N = 256 };
    static double *buf; /* a, b, c; zeros serve */
    if (!buf)
        buf = calloc(3 * WAKE_N * WAKE_N, sizeof *buf);
    if (!buf)
        return -1;
    return bench_host_gemm(dbl, 0, 0, WAKE_N, WAKE_N, WAKE_N, buf, buf + WAKE_N * WAKE_N, buf + 2 * WAKE_N * WAKE_N);
}

/* ---- host pool: workers wait at a barrier for a job, run their share of
 * it, and meet at a second barrier; the caller's thread is worker 0. */

enum { MAX_THREADS = 64 };

static struct {
    int threads;
    pthread_t tid[MAX_THREADS];
    pthread_barrier_t start, done;
    int quit;
    bench_host_job job;
    void *arg;
} pool;

static void *worker(void *arg)
{
    int w = (int)(intptr_t)arg;
    for (;;) {
        pthread_barrier_wait(&pool.start);
        if (pool.quit)
            return NULL;
        pool.job(pool.arg, w, pool.threads);
        pthread_barrier_wait(&pool.done);
    }
}

int bench_host_add_start(int threads)
{
    if (threads < 1)
        threads = 1;
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    pool.threads = threads;
    pool.quit = 0;
    if (pthread_barrier_init(&pool.start, NULL, (unsigned)threads) != 0)
        return -1;
    if (pthread_barrier_init(&pool.done, NULL, (unsigned)threads) != 0) {
        pthread_barrier_destroy(&pool.start);
        return -1;
    }
    for (int w = 1; w < threads; w++) {
        if (pthread_create(&pool.tid[w], NULL, worker, (void *)(intptr_t)w) != 0) {
            /* run with the threads that started */
            pool.threads = w;
            pthread_barrier_destroy(&pool.start);
            pthread_barrier_destroy(&pool.done);
            pthread_barrier_init(&pool.start, NULL, (unsigned)w);
            pthread_barrier_init(&pool.done, NULL, (unsigned)w);
            break;
        }
    }
    return 0;
}

void bench_host_add_stop(void)
{
    if (pool.threads <= 0)
        return;
    pool.quit = 1;
    pthread_barrier_wait(&pool.start);
    for (int w = 1; w < pool.threads; w++)
        pthread_join(pool.tid[w], NULL);
    pthread_barrier_destroy(&pool.start);
    pthread_barrier_destroy(&pool.done);
    pool.threads = 0;
}

int bench_host_threads(void) { return pool.threads > 1 ? pool.threads : 1; }

void bench_host_run(bench_host_job job, void *arg)
{
    if (pool.threads <= 1) {
        job(arg, 0, 1);
        return;
    }
    pool.job = job;
    pool.arg = arg;
    pthread_barrier_wait(&pool.start);
    job(arg, 0, pool.threads);
    pthread_barrier_wait(&pool.done);
}

void bench_host_share(size_t n, size_t align, int w, int threads, size_t *lo, size_t *hi)
{
    size_t per = (n + (size_t)threads - 1) / (size_t)threads;
    if (align > 1)
        per = (per + align - 1) / align * align;
    *lo = per * (size_t)w;
    *hi = *lo + per;
    if (*lo > n)
        *lo = n;
    if (*hi > n)
        *hi = n;
}

/* ---- the add loop */

typedef struct add_job {
    int dbl;
    size_t n;
    const void *a, *b;
    void *c;
} add_job;

static void add_f(size_t lo, size_t hi, const float *restrict a, const float *restrict b, float *restrict c)
{
    for (size_t i = lo; i < hi; i++)
        c[i] = a[i] + b[i];
}

static void add_d(size_t lo, size_t hi, const double *restrict a, const double *restrict b,
                  double *restrict c)
{
    for (size_t i = lo; i < hi; i++)
        c[i] = a[i] + b[i];
}

static void add_share(void *arg, int w, int threads)
{
    const add_job *j = arg;
    size_t lo, hi;
    /* shares of whole 64-byte lines, so that no two threads write one line */
    bench_host_share(j->n, 16, w, threads, &lo, &hi);
    if (j->dbl)
        add_d(lo, hi, j->a, j->b, j->c);
    else
        add_f(lo, hi, j->a, j->b, j->c);
}

void bench_host_add(int dbl, size_t n, const void *a, const void *b, void *c)
{
    add_job j = {dbl, n, a, b, c};
    bench_host_run(add_share, &j);
}

/* ---- inputs and checks */

size_t bench_check_add(int dbl, const void *a, const void *b, const void *c, size_t n)
{
    size_t wrong = 0;
    if (dbl) {
        const double *x = a, *y = b, *z = c;
        for (size_t i = 0; i < n; i++)
            wrong += !(z[i] == x[i] + y[i]);
    } else {
        const float *x = a, *y = b, *z = c;
        for (size_t i = 0; i < n; i++) {
            float s = x[i] + y[i];
            wrong += !(z[i] == s);
        }
    }
    return wrong;
}
