/* clrt-bench host references and result checks: OpenBLAS gemm (when built
 * with it), a 2-thread host add loop, reproducible inputs, and checks of
 * device results against a double-precision host computation. */
#ifndef CLRT_TOOLS_BENCH_HOST_REF_H
#define CLRT_TOOLS_BENCH_HOST_REF_H

#include <stddef.h>

#include "hostref/ref.h"

/* ---- OpenBLAS (CLRT_BENCH_OPENBLAS at build time) */
int bench_have_openblas(void);
/* The core OpenBLAS picked (openblas_get_corename), its thread count and
 * build config; "" / 0 without OpenBLAS. */
const char *bench_openblas_core(void);
int bench_openblas_threads(void);
const char *bench_openblas_config(void);
/* Whether that core is OpenBLAS's best for this CPU, and forcing it when
 * not: bench/reference/openblas_force.h. */

/* The name of the CPU the bench runs on, as the kernel reports it
 * (/proc/cpuinfo's "model name", or an ARM kernel's "Model" or "Hardware"),
 * into buf; "" where there is none. Reports name the machine they ran on from
 * this, never from a name written into the bench. */
void bench_cpu_model(char *buf, size_t cap);
/* C(MxN) = op(A) op(B), row-major, float (dbl = 0) or double; op(A) is
 * MxK (A stored KxM when ta), op(B) KxN (B stored NxK when tb). 0, or -1
 * without OpenBLAS. */
int bench_host_gemm(int dbl, int ta, int tb, size_t M, size_t N, size_t K, const void *a, const void *b, void *c);
/* An untimed 256 x 256 x 256 gemm that wakes OpenBLAS's worker threads, so
 * that the call after it runs as back-to-back calls do, with its threads
 * already spinning. 0, or -1 without OpenBLAS or memory. */
int bench_host_gemm_wake(int dbl);

/* ---- host loops on a pool of threads (the caller's thread + threads-1):
 * the add loop here, the math family's in bench/reference/host_math.h */
int bench_host_add_start(int threads); /* start the pool: 0 or -1 */
void bench_host_add_stop(void);
int bench_host_threads(void);          /* the pool's threads (1 when not started) */
/* A job's share: called once on every thread of the pool, w = 0..threads-1
 * (0 is the caller's thread), all at once; bench_host_run returns when every
 * share has. */
typedef void (*bench_host_job)(void *arg, int w, int threads);
void bench_host_run(bench_host_job job, void *arg);
/* Share w of [0, n) in even parts whose length is a multiple of align (so
 * that, with align elements to a cache line, no two threads write one line). */
void bench_host_share(size_t n, size_t align, int w, int threads, size_t *lo, size_t *hi);
/* c = a + b over n elements, split evenly over the pool. */
void bench_host_add(int dbl, size_t n, const void *a, const void *b, void *c);

/* ---- inputs and checks */
/* Inputs and products come from the host reference (hostref/ref.h), which
 * the library's tuner and the tests use too; the bench checks
 * BENCH_CHECK_ROWS rows of each product (large cases would take longer to
 * check than to time). */
enum { BENCH_CHECK_ROWS = 16 };
/* c == a + b exactly (one IEEE rounding on both sides). Wrong elements. */
size_t bench_check_add(int dbl, const void *a, const void *b, const void *c, size_t n);

#endif
