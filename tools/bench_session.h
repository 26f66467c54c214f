/* clrt-bench's hold on one device: the context users get (tuned parameters
 * when there are some) and, when needed, one forced to the defaults. Shared
 * by the case runner (bench_cases.c), the first-call and overhead
 * measurements, and the tuner (bench_tune.c). */
#ifndef CLRT_BENCH_SESSION_H
#define CLRT_BENCH_SESSION_H

#include <stddef.h>

#include <clrt/clrt.h>

#include "bench_out.h"

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

/* Build ctx's kernel of (op = enum bench_op, dtype) now; force_default makes
 * it use the device defaults (fitted) whatever a tuned file says. */
int bench_resolve(clrt_context *ctx, clrt_queue *q, int op, int dbl, int force_default);
/* The parameters ctx's built kernel runs with, as text; returns 1 when they
 * came from a tuned file. */
int bench_params_of(const clrt_context *ctx, int op, int dbl, char *buf, size_t cap);

/* The context that runs with the default parameters, made on first use. */
int bench_session_default(bench_session *s);

/* One clrt_matmul or clrt_add (op: enum bench_op) and the finish: a
 * bench_run_fn for bench_measure. */
typedef struct bench_dev_run {
    clrt_queue *q;
    clrt_buffer *a, *b, *c;
    int op;
} bench_dev_run;
int bench_run_dev(void *arg);

/* Device buffers for one case in one context: inputs written from the host
 * arrays ha and hb, c for clrt's output, c2 (when with_c2) for CLBlast's. */
typedef struct bench_bufs {
    clrt_buffer *a, *b, *c, *c2;
} bench_bufs;
/* CLRT_OK, or a status with why set and nothing left allocated. */
int bench_bufs_make(bench_bufs *d, clrt_context *ctx, clrt_queue *q, const bench_case *c, const void *ha,
                    const void *hb, int with_c2, char *why, size_t cap);
void bench_bufs_free(bench_bufs *d);

#endif
