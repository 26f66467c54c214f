/* Bounded soak: several threads create and destroy contexts, queues and
 * buffers and run add and matmul at random shapes for a fixed time, checking
 * every result, every refusal's per-thread message, and zero live handles at
 * the end. Seconds in CI; longer with $CLRT_STRESS_SECONDS or --seconds N. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/test_util.h"

#include "base/debug.h"

enum { THREADS = 4, MAX_DIM = 40 };

static double seconds = 2.0;

typedef struct worker {
    int id;
    clrt_context *shared;  /* opened by the main thread */
    clrt_queue *shared_q;  /* one queue every worker also uses */
    int has_fp64;
    unsigned long ops, contexts, wrong;
    int status;
    char message[600];
} worker;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static unsigned next(unsigned *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* Record the first unexpected status; later steps of the iteration are skipped. */
static int ok(worker *w, int status, int expected, const char *what)
{
    if (status == expected)
        return 1;
    if (w->status == CLRT_OK) {
        w->status = status == CLRT_OK ? CLRT_EOPENCL : status;
        snprintf(w->message, sizeof w->message, "%s gave %s, expected %s: %s", what, clrt_status_name(status),
                 clrt_status_name(expected), clrt_error_message());
    }
    return 0;
}

/* c = a + b (maybe in place: c == a or c == b) or c = a b on ctx, checked on the host. */
static void run_op(worker *w, clrt_context *ctx, clrt_queue *q, unsigned *rng, int matmul, clrt_dtype dtype)
{
    /* add: a, b, c all M x N (K = N, BR = M); matmul: a M x K, b K x N */
    size_t M = 1 + next(rng) % MAX_DIM, N = 1 + next(rng) % MAX_DIM, K = matmul ? 1 + next(rng) % MAX_DIM : N;
    size_t BR = matmul ? K : M, es = tu_dtype_size(dtype);
    int in_place = matmul ? 0 : (int)(next(rng) % 3); /* 0: own c, 1: c == a, 2: c == b */
    void *a = malloc(M * K * es), *b = malloc(BR * N * es), *c = malloc(M * N * es);
    /* recorded, not asserted: cmocka's asserts are not thread-safe */
    int have_host = ok(w, a && b && c ? CLRT_OK : CLRT_ENOMEM, CLRT_OK, "host buffers");
    if (have_host) {
        clrt__ref_fill(a, dtype, M * K, next(rng));
        clrt__ref_fill(b, dtype, BR * N, next(rng));
    }
    clrt_buffer *da = NULL, *db = NULL, *dc = NULL;
    clrt_buffer **dst = in_place == 1 ? &da : in_place == 2 ? &db : &dc; /* the sum's buffer, once made */
    if (have_host && ok(w, clrt_buffer_create(&da, ctx, dtype, M, K), CLRT_OK, "buffer_create") &&
        ok(w, clrt_buffer_create(&db, ctx, dtype, BR, N), CLRT_OK, "buffer_create") &&
        (in_place || ok(w, clrt_buffer_create(&dc, ctx, dtype, M, N), CLRT_OK, "buffer_create")) &&
        ok(w, clrt_buffer_write(q, da, a, M * K), CLRT_OK, "write") &&
        ok(w, clrt_buffer_write(q, db, b, BR * N), CLRT_OK, "write") &&
        /* a refusal in between: the message must be this thread's own */
        ok(w, clrt_buffer_write(q, db, b, BR * N + 1), CLRT_EINVAL, "write with a wrong count") &&
        (strstr(clrt_error_message(), "clrt_buffer_write: count is") ||
         ok(w, CLRT_EOPENCL, CLRT_EINVAL, "per-thread message")) &&
        ok(w, matmul ? clrt_matmul(q, dc, da, db) : clrt_add(q, *dst, da, db), CLRT_OK, "op") &&
        ok(w, clrt_buffer_read(q, *dst, c, M * N), CLRT_OK, "read")) {
        if (matmul) {
            size_t bad = tu_matmul_check(c, a, b, dtype, M, N, K);
            if (ok(w, bad == SIZE_MAX ? CLRT_ENOMEM : CLRT_OK, CLRT_OK, "host reference"))
                w->wrong += bad;
        } else {
            for (size_t i = 0; i < M * N; i++)
                w->wrong += dtype == CLRT_FLOAT64
                                ? ((double *)c)[i] != ((double *)a)[i] + ((double *)b)[i]
                                : ((float *)c)[i] != ((float *)a)[i] + ((float *)b)[i];
        }
        w->ops++;
    }
    TU_DESTROY_BUFFERS(da, db, dc);
    free(a);
    free(b);
    free(c);
}

/* A whole context life on this thread; sometimes the context is destroyed
 * first, so that its queue and buffer release it last. */
static void context_churn(worker *w, unsigned *rng)
{
    clrt_context *ctx = NULL;
    clrt_queue *q = NULL;
    if (ok(w, clrt_context_create(&ctx, NULL), CLRT_OK, "context_create") &&
        ok(w, clrt_queue_create(&q, ctx), CLRT_OK, "queue_create")) {
        run_op(w, ctx, q, rng, 0, CLRT_FLOAT32);
        w->contexts++;
        if (next(rng) & 1) {
            clrt_buffer *b = NULL;
            ok(w, clrt_buffer_create(&b, ctx, CLRT_FLOAT32, 2, 2), CLRT_OK, "buffer_create");
            clrt_context_destroy(ctx); /* reported: children live */
            ctx = NULL;
            clrt_buffer_destroy(b);
        }
    }
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
}

static void *work(void *arg)
{
    worker *w = arg;
    unsigned rng = 0x9e3779b9u * (unsigned)(w->id + 1);
    clrt_queue *own = NULL;
    ok(w, clrt_queue_create(&own, w->shared), CLRT_OK, "queue_create");
    double end = now() + seconds;
    while (w->status == CLRT_OK && w->wrong == 0 && now() < end) {
        unsigned pick = next(&rng) % 16;
        clrt_queue *q = (next(&rng) & 3) == 0 ? w->shared_q : own;
        if (pick == 0) {
            context_churn(w, &rng);
        } else if (pick == 1) {
            clrt_queue *tmp = NULL;
            if (ok(w, clrt_queue_create(&tmp, w->shared), CLRT_OK, "queue_create"))
                run_op(w, w->shared, tmp, &rng, 1, CLRT_FLOAT32);
            clrt_queue_destroy(tmp);
        } else if (pick < 8) {
            run_op(w, w->shared, q, &rng, 0, CLRT_FLOAT32);
        } else if (pick < 14) {
            run_op(w, w->shared, q, &rng, 1, CLRT_FLOAT32);
        } else if (w->has_fp64) {
            run_op(w, w->shared, q, &rng, pick & 1, CLRT_FLOAT64);
        }
    }
    if (w->status == CLRT_OK)
        ok(w, clrt_queue_finish(own), CLRT_OK, "finish");
    clrt_queue_destroy(own);
    return NULL;
}

static void soak(void **state)
{
    (void)state;
    clrt_context *ctx;
    clrt_queue *q;
    clrt_device_info dev;
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_queue_create(&q, ctx));
    TU_OK(clrt_context_device(ctx, &dev));
    worker w[THREADS];
    for (int i = 0; i < THREADS; i++)
        w[i] = (worker){.id = i, .shared = ctx, .shared_q = q, .has_fp64 = dev.has_fp64};
    tu_run_threads(THREADS, work, w, sizeof *w);
    unsigned long ops = 0, contexts = 0;
    for (int i = 0; i < THREADS; i++) {
        ops += w[i].ops;
        contexts += w[i].contexts;
        if (w[i].status != CLRT_OK)
            fail_msg("thread %d: %s", i, w[i].message);
        if (w[i].wrong)
            fail_msg("thread %d: %lu wrong results", i, w[i].wrong);
    }
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    print_message("stress: %d threads, %.0f s: %lu checked ops, %lu extra contexts\n", THREADS, seconds, ops,
                  contexts);
    assert_true(ops > 0);
}

int main(int argc, char **argv)
{
    const char *env = getenv("CLRT_STRESS_SECONDS");
    if (env && *env)
        seconds = atof(env);
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--seconds") == 0)
            seconds = atof(argv[i + 1]);
    if (seconds <= 0)
        seconds = 2.0;
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(soak, tu_teardown_no_live),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
