/* The host's FMA peak probe (see bench/reference/peak.h). Each kernel runs CHAINS
 * independent accumulator chains, a = a * m + c, CHAINS vector FMAs per
 * iteration: more chains than an FMA's latency times the FMA units (4 cycles
 * x 2 units on the CPUs we meet), so the units never wait for a result, and
 * few enough to stay in registers (16 ymm/xmm with AVX2 and SSE2). m just
 * under 1 and c small keep the values near 1: no overflow, no denormals. */
#include "reference/peak.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "measure/timing.h"
#include "reference/cpu_features.h"

enum { CHAINS = 12, TRIALS = 4 };
/* each timed run lasts about this long; the calibration run starts at
 * CALIBRATE_ITERS and grows until it takes long enough to scale from */
static const double TRIAL_S = 0.01;
enum { CALIBRATE_ITERS = 1 << 14 };

typedef void (*peak_kernel)(long iters, void *out);

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/* One kernel: V the vector type of T, SET1 a broadcast, FMA(a, m, c) the
 * multiply-add, ADD and STOREU to fold the chains and keep the result alive.
 * Written out chain by chain, so that they stay in registers at any -O. */
#define PEAK_KERNEL(name, tgt, V, T, SET1, FMA, ADD, STOREU)                                              \
    __attribute__((target(tgt))) static void name(long iters, void *out)                                \
    {                                                                                                     \
        const V m = SET1((T)0.9999), c = SET1((T)1e-4);                                                   \
        V a0 = SET1((T)1), a1 = SET1((T)2), a2 = SET1((T)3), a3 = SET1((T)4), a4 = SET1((T)5);            \
        V a5 = SET1((T)6), a6 = SET1((T)7), a7 = SET1((T)8), a8 = SET1((T)9), a9 = SET1((T)10);           \
        V a10 = SET1((T)11), a11 = SET1((T)12);                                                           \
        for (long i = 0; i < iters; i++) {                                                                \
            a0 = FMA(a0, m, c), a1 = FMA(a1, m, c), a2 = FMA(a2, m, c), a3 = FMA(a3, m, c);               \
            a4 = FMA(a4, m, c), a5 = FMA(a5, m, c), a6 = FMA(a6, m, c), a7 = FMA(a7, m, c);               \
            a8 = FMA(a8, m, c), a9 = FMA(a9, m, c), a10 = FMA(a10, m, c), a11 = FMA(a11, m, c);           \
        }                                                                                                 \
        a0 = ADD(ADD(ADD(a0, a1), ADD(a2, a3)), ADD(ADD(a4, a5), ADD(a6, a7)));                           \
        STOREU((T *)out, ADD(a0, ADD(ADD(a8, a9), ADD(a10, a11))));                                       \
    }

/* SSE2 has no FMA: a multiply, then an add (2 FLOP all the same) */
#define MULADD_PS(a, m, c) _mm_add_ps(_mm_mul_ps(a, m), c)
#define MULADD_PD(a, m, c) _mm_add_pd(_mm_mul_pd(a, m), c)

PEAK_KERNEL(avx512_f32, "avx512f", __m512, float, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps, _mm512_storeu_ps)
PEAK_KERNEL(avx512_f64, "avx512f", __m512d, double, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_add_pd,
            _mm512_storeu_pd)
PEAK_KERNEL(avx2_f32, "avx2,fma", __m256, float, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps, _mm256_storeu_ps)
PEAK_KERNEL(avx2_f64, "avx2,fma", __m256d, double, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_add_pd,
            _mm256_storeu_pd)
PEAK_KERNEL(sse2_f32, "sse2", __m128, float, _mm_set1_ps, MULADD_PS, _mm_add_ps, _mm_storeu_ps)
PEAK_KERNEL(sse2_f64, "sse2", __m128d, double, _mm_set1_pd, MULADD_PD, _mm_add_pd, _mm_storeu_pd)

/* The widest the CPU (and its OS) can run: kernels[dbl], lanes[dbl], a name. */
static const char *pick(peak_kernel kernels[2], int lanes[2])
{
    const unsigned f = bench_cpu_detect().features;
    if (f & BENCH_CPU_AVX512F) {
        kernels[0] = avx512_f32, kernels[1] = avx512_f64, lanes[0] = 16, lanes[1] = 8;
        return "AVX-512 FMA";
    }
    if ((f & BENCH_CPU_AVX2) && (f & BENCH_CPU_FMA)) {
        kernels[0] = avx2_f32, kernels[1] = avx2_f64, lanes[0] = 8, lanes[1] = 4;
        return "AVX2 FMA";
    }
    kernels[0] = sse2_f32, kernels[1] = sse2_f64, lanes[0] = 4, lanes[1] = 2;
    return "SSE2 mul+add";
}
#else
static const char *pick(peak_kernel kernels[2], int lanes[2])
{
    (void)kernels, (void)lanes;
    return NULL;
}
#endif

/* ---- one timed run on every thread */

/* Holds the threads until all have started (thread creation is not timed),
 * then lets them go at once; or tells them to quit when one would not start. */
typedef struct gate {
    pthread_mutex_t lock;
    pthread_cond_t open;
    int state; /* 0 closed, 1 go, -1 quit */
} gate;

typedef struct worker {
    peak_kernel kernel;
    long iters;
    gate *gate;
    double elapsed;
    double out[8]; /* one vector's worth (64 bytes) */
} worker;

static volatile double sink; /* the results go somewhere, so no compiler drops the work */

/* The calling thread's CPU time, in seconds: the probe times what a core does
 * while the thread runs on it, so that the time slices other jobs of a shared
 * machine take do not count against the peak (they do against the products,
 * which can only read lower for it). */
static double thread_cpu_s(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return bench_now();
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *work(void *arg)
{
    worker *w = arg;
    pthread_mutex_lock(&w->gate->lock);
    while (w->gate->state == 0)
        pthread_cond_wait(&w->gate->open, &w->gate->lock);
    const int go = w->gate->state > 0;
    pthread_mutex_unlock(&w->gate->lock);
    if (!go)
        return NULL;
    const double t0 = thread_cpu_s();
    w->kernel(w->iters, w->out);
    w->elapsed = thread_cpu_s() - t0;
    return NULL;
}

static void gate_set(gate *g, int state)
{
    pthread_mutex_lock(&g->lock);
    g->state = state;
    pthread_cond_broadcast(&g->open);
    pthread_mutex_unlock(&g->lock);
}

/* Iterations per second of all threads together (each thread's iterations
 * over its own CPU time, summed); the slowest thread's CPU time into *slowest;
 * < 0 when threads would not start. */
static double timed_run(peak_kernel kernel, long iters, int threads, double *slowest)
{
    enum { MAX = 64 };
    worker w[MAX];
    pthread_t tid[MAX];
    gate g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    int started = 1;
    for (int t = 0; t < threads; t++)
        w[t] = (worker){kernel, iters, &g, 0, {0}};
    for (; started < threads; started++)
        if (pthread_create(&tid[started], NULL, work, &w[started]) != 0)
            break;
    gate_set(&g, started == threads ? 1 : -1);
    if (started == threads)
        work(&w[0]);
    for (int t = 1; t < started; t++)
        pthread_join(tid[t], NULL);
    double rate = 0;
    *slowest = 0;
    for (int t = 0; t < started; t++) {
        sink = sink + w[t].out[0];
        rate += w[t].elapsed > 0 ? (double)iters / w[t].elapsed : 0;
        *slowest = w[t].elapsed > *slowest ? w[t].elapsed : *slowest;
    }
    return started == threads && *slowest > 0 ? rate : -1;
}

/* Best GFLOP/s of TRIALS runs of about TRIAL_S each; < 0 on failure. */
static double measure(peak_kernel kernel, int lanes, int threads)
{
    long iters = CALIBRATE_ITERS;
    double s = 0, rate = timed_run(kernel, iters, threads, &s);
    while (rate > 0 && s < TRIAL_S / 8 && iters < (1L << 40)) {
        iters *= 4;
        rate = timed_run(kernel, iters, threads, &s);
    }
    if (rate <= 0)
        return -1;
    iters = (long)((double)iters * TRIAL_S / s) + 1;
    double best = 0;
    for (int k = 0; k < TRIALS; k++) {
        rate = timed_run(kernel, iters, threads, &s);
        if (rate <= 0)
            return -1;
        best = rate > best ? rate : best;
    }
    return best * 2.0 * CHAINS * lanes * 1e-9; /* an FMA is 2 FLOP per lane */
}

int bench_peak_measure(bench_peak *p, int threads)
{
    memset(p, 0, sizeof *p);
    peak_kernel kernels[2];
    const char *isa = pick(kernels, p->lanes);
    if (!isa) {
        snprintf(p->method, sizeof p->method, "not measured: the probe has x86 kernels only");
        return -1;
    }
    /* no more threads than CPUs: two threads sharing one CPU would each
     * count the CPU's whole rate on its own CPU time */
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    p->threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
    p->threads = cpus > 0 && p->threads > cpus ? (int)cpus : p->threads;
    p->chains = CHAINS;
    p->trials = TRIALS;
    p->trial_s = TRIAL_S;
    snprintf(p->isa, sizeof p->isa, "%s", isa);
    for (int dbl = 0; dbl < 2; dbl++) {
        p->gflops[dbl] = measure(kernels[dbl], p->lanes[dbl], p->threads);
        if (p->gflops[dbl] <= 0) {
            snprintf(p->method, sizeof p->method, "not measured: its %d threads would not start", p->threads);
            return -1;
        }
    }
    snprintf(p->method, sizeof p->method,
             "%d independent chains of %s (%d fp32 / %d fp64 lanes) on each of %d threads%s, on each thread's "
             "CPU time, best of %d runs of about %.0f ms",
             CHAINS, isa, p->lanes[0], p->lanes[1], p->threads, p->threads < threads ? " (one per CPU)" : "",
             TRIALS, TRIAL_S * 1e3);
    p->measured = 1;
    return 0;
}
