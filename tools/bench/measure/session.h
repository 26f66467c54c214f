/* clrt-bench's hold on one device: the context users get (tuned parameters
 * when there are some) and, when needed, one forced to the defaults. Shared
 * by the case runner (bench/measure/cases.c), the first-call and overhead
 * measurements, and the tuner (bench/tune/bench_tune.c). */
#ifndef CLRT_TOOLS_BENCH_SESSION_H
#define CLRT_TOOLS_BENCH_SESSION_H

#include <stddef.h>

#include <clrt/clrt.h>

#include "report/report.h"

typedef struct bench_session {
    clrt_device_info info;
    char selector[32];          /* "N": this device */
    clrt_context *ctx, *ctx_def;
    clrt_queue *q, *q_def;
    char error[400];
} bench_session;

/* 0 (CLRT_OK) or a status with s->error set. */
int bench_session_open(bench_session *s, const clrt_device_info *info);
void bench_session_close(bench_session *s);

/* Open a context and an in-order queue on selector. CLRT_OK, or a status
 * with both left NULL and (when why is given) the reason in why. */
int bench_open(const char *selector, clrt_context **ctx, clrt_queue **q, char *why, size_t cap);
/* Destroy both (NULL is fine) and set them to NULL. */
void bench_close(clrt_context **ctx, clrt_queue **q);

/* The built-in kernel clrt_tune.h calls (enum bench_op): "elementwise" (add
 * and the elementwise ops), "matmul", "reduce" (the sums and argmax),
 * "transpose". */
const char *bench_kernel_name(int op);

/* The default parameters of (op, dtype) on ctx's device, as text, before fitting. */
void bench_params_default(clrt_context *ctx, int op, int dbl, char *buf, size_t cap);

/* Build ctx's kernel of (op = enum bench_op, dtype) now; force (NULL: none)
 * makes it use those parameters (then fitted) whatever a tuned file says. */
int bench_resolve(clrt_context *ctx, int op, int dbl, const char *force);
/* The parameters ctx's kernel runs with, as text (building it if needed);
 * returns 1 when they came from a tuned file. */
int bench_params_of(clrt_context *ctx, int op, int dbl, char *buf, size_t cap);

/* The context that runs with the default parameters, made on first use. */
int bench_session_default(bench_session *s);

/* One operation of a case (op: enum bench_op) and the finish: a
 * bench_run_fn for bench_measure. c = op(a, b) (axpby: b = 2 a + 0.5 b);
 * copy: clrt_copy(c, a) instead, the copy reference. A failing run leaves its
 * status and clrt's message in status and why, so the caller need not run it
 * again to report it (clrt's message is per thread and later calls overwrite
 * it). */
typedef struct bench_dev_run {
    clrt_queue *q;
    clrt_buffer *a, *b, *c;
    int op;
    int copy;              /* run clrt_copy(q, c, a) instead of op */
    int ta, tb;            /* matmul: clrt_gemm's transposes */
    double alpha, beta;    /* matmul: 0, 0 means 1, 0 (clrt_matmul's product) */
    int status;       /* of the last run */
    char why[160];    /* "STATUS: message" of the last failing run */
} bench_dev_run;
int bench_run_dev(void *arg);

/* The shapes of a case's operands (rows x cols): a, b (0 x 0: none), the
 * output c (0 x 0: none, axpby writes b), and whether c holds int32
 * (argmax). */
typedef struct bench_shapes {
    size_t ar, ac, br, bc, cr, cc;
    int c_int32;
} bench_shapes;
bench_shapes bench_shapes_of(const bench_case *c);
/* Whether every operand of s (and a's read-back copy) has a byte count a
 * size_t holds at element size es: 0, or -1 when one would wrap. What the
 * host arrays are allocated from is checked here before any malloc. */
int bench_shapes_fit(const bench_shapes *s, size_t es);

/* Device buffers for one case in one context: inputs written from the host
 * arrays ha and hb (stored as the case's transposes say), c for clrt's
 * output, c2 (when with_c2) for CLBlast's (matmul) or the copy reference's
 * (a's shape). view: a, b and c are views at (1, 3) of parents 2 rows and 5
 * columns larger (held in parents[]). */
typedef struct bench_bufs {
    clrt_buffer *a, *b, *c, *c2;
    clrt_buffer *parents[3];
} bench_bufs;
/* CLRT_OK, or a status with why set and nothing left allocated. */
int bench_bufs_make(bench_bufs *d, clrt_context *ctx, clrt_queue *q, const bench_case *c, const void *ha,
                    const void *hb, int with_c2, int view, char *why, size_t cap);
void bench_bufs_free(bench_bufs *d);

#endif
