/* clrt-bench's hold on one device: the context users get (tuned parameters
 * when there are some) and, when needed, one forced to the defaults. Shared
 * by the case runner (clrt-bench.c) and the tuner (bench_tune.c). */
#ifndef CLRT_BENCH_SESSION_H
#define CLRT_BENCH_SESSION_H

#include <stddef.h>

#include <clrt/clrt.h>

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

/* A progress line on stderr (when on). */
void bench_progress(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
