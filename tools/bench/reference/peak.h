/* The host CPU's FMA peak, measured: so that a product's GFLOP/s reads as a
 * share of what the machine can do at all, on every machine. A short probe
 * (about 0.1 s of CPU per thread): on each of `threads` threads, independent
 * chains of the widest vector FMA the CPU has (AVX-512, else AVX2 + FMA, else
 * SSE2 mul + add; chosen at run time, each compiled for its own target), so
 * that nothing but the FMA units' throughput bounds it; timed on each
 * thread's own CPU time, so that other jobs of a shared machine do not lower
 * it; the best of a few runs. */
#ifndef CLRT_TOOLS_BENCH_PEAK_H
#define CLRT_TOOLS_BENCH_PEAK_H

typedef struct bench_peak {
    int measured;
    int threads;
    int chains;          /* independent accumulators per thread */
    int lanes[2];        /* [dbl]: elements per vector */
    int trials;          /* timed runs per dtype; the best counts */
    double trial_s;      /* about how long each ran */
    double gflops[2];    /* [dbl]: fp32, fp64 */
    char isa[32];        /* "AVX-512 FMA", "AVX2 FMA", "SSE2 mul+add" */
    char method[256];    /* one line saying all of the above */
} bench_peak;

/* Measure on `threads` threads (1..64). 0, or -1 (p->method says why: off
 * x86, or threads that would not start). */
int bench_peak_measure(bench_peak *p, int threads);

#endif
