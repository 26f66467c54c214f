/* Several threads sharing one context: each with its own queue, and all on
 * one queue. Every thread checks its own results, so a kernel whose arguments
 * were changed by another thread between set-arg and enqueue shows up as a
 * wrong answer. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

#include "base/debug.h"
#include "math/widen.h"

enum { THREADS = 4 };

typedef struct job {
    clrt_context *ctx;
    clrt_queue *shared_q; /* NULL: the thread makes its own queue */
    int id;
    int rounds;
    size_t errors;
    int status;
    char message[512];
} job;

static void record(job *j, int status, const char *what)
{
    if (j->status == CLRT_OK && status != CLRT_OK) {
        j->status = status;
        snprintf(j->message, sizeof j->message, "%s: %s", what, clrt_error_message());
    }
}

static void *worker(void *arg)
{
    job *j = arg;
    clrt_queue *q = j->shared_q;
    if (!q)
        record(j, clrt_queue_create(&q, j->ctx), "queue_create");
    /* a different shape per thread, so that swapped arguments give wrong sizes too */
    size_t M = 9 + (size_t)j->id * 5, N = 13 + (size_t)j->id * 3, K = 11 + (size_t)j->id * 7;
    float *a = malloc(M * K * sizeof *a), *b = malloc(K * N * sizeof *b), *c = malloc(M * N * sizeof *c);
    float *s = malloc(M * K * sizeof *s), *w = malloc(M * K * sizeof *w);
    if (!a || !b || !c || !s || !w) {
        record(j, CLRT_ENOMEM, "host buffers"); /* no cmocka asserts off the main thread */
    } else {
        clrt__ref_fill(a, CLRT_FLOAT32, M * K, (unsigned)j->id);
        clrt__ref_fill(b, CLRT_FLOAT32, K * N, (unsigned)j->id + 100);
    }

    for (int r = 0; r < j->rounds && j->status == CLRT_OK; r++) {
        clrt_buffer *da = NULL, *db = NULL, *dc = NULL, *ds = NULL, *dh = NULL, *dw = NULL;
        record(j, clrt_buffer_create(&da, j->ctx, CLRT_FLOAT32, M, K), "buffer_create");
        record(j, clrt_buffer_create(&db, j->ctx, CLRT_FLOAT32, K, N), "buffer_create");
        record(j, clrt_buffer_create(&dc, j->ctx, CLRT_FLOAT32, M, N), "buffer_create");
        record(j, clrt_buffer_create(&ds, j->ctx, CLRT_FLOAT32, M, K), "buffer_create");
        record(j, clrt_buffer_create(&dh, j->ctx, CLRT_FLOAT16, M, K), "buffer_create");
        record(j, clrt_buffer_create(&dw, j->ctx, CLRT_FLOAT32, M, K), "buffer_create");
        if (j->status == CLRT_OK) {
            record(j, clrt_buffer_write(q, da, a, M * K), "write");
            record(j, clrt_buffer_write(q, db, b, K * N), "write");
            record(j, clrt_matmul(q, dc, da, db), "matmul");
            record(j, clrt_add(q, ds, da, da), "add");
            /* clrt_convert's kernels are the context's, one per dtype pair, shared by the threads */
            record(j, clrt_convert(q, dh, da), "convert");
            record(j, clrt_convert(q, dw, dh), "convert");
            record(j, clrt_buffer_read(q, dw, w, M * K), "read");
            record(j, clrt_buffer_read(q, dc, c, M * N), "read");
            record(j, clrt_buffer_read(q, ds, s, M * K), "read");
        }
        if (j->status == CLRT_OK) {
            for (size_t i = 0; i < M * K; i++)
                j->errors += s[i] != a[i] + a[i] || w[i] != (float)clrt__round_16bit(CLRT_FLOAT16, a[i]);
            /* the suite-wide bound (2 K eps |a||b|), not a looser one of its own */
            size_t bad = tu_matmul_check(c, a, b, CLRT_FLOAT32, M, N, K);
            if (bad == SIZE_MAX)
                record(j, CLRT_ENOMEM, "host reference");
            else
                j->errors += bad;
        }
        TU_DESTROY_BUFFERS(da, db, dc, ds, dh, dw);
    }
    if (!j->shared_q)
        clrt_queue_destroy(q);
    TU_FREE_ALL(a, b, c, s, w);
    return NULL;
}

/* matmul parameters (NULL: the device's), forced on the context. */
static void run_threads(int shared_queue, const char *matmul_params)
{
    int rounds = tu_small() ? 2 : 12;
    clrt_context *ctx;
    clrt_queue *q = NULL;
    TU_OK(clrt_context_create(&ctx, NULL));
    if (matmul_params)
        TU_OK(clrt_tune_override(ctx, "matmul", CLRT_FLOAT32, matmul_params));
    if (shared_queue)
        TU_OK(clrt_queue_create(&q, ctx));
    job jobs[THREADS];
    for (int i = 0; i < THREADS; i++)
        jobs[i] = (job){.ctx = ctx, .shared_q = q, .id = i, .rounds = rounds};
    tu_run_threads(THREADS, worker, jobs, sizeof *jobs);
    for (int i = 0; i < THREADS; i++) {
        if (jobs[i].status != CLRT_OK)
            fail_msg("thread %d: %s %s", i, clrt_status_name(jobs[i].status), jobs[i].message);
        if (jobs[i].errors)
            fail_msg("thread %d: %zu wrong results", i, jobs[i].errors);
    }
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    tu_assert_no_live_handles();
}

static void threads_own_queues(void **state)
{
    (void)state;
    run_threads(0, NULL);
}

static void threads_one_queue(void **state)
{
    (void)state;
    run_threads(1, NULL);
}

/* B packed into the queue's scratch first: threads sharing a queue must not
 * interleave their pack and matmul launches, and their shapes differ, so the
 * scratch also grows while other threads' work on it is still queued. */
static void threads_packed(void **state)
{
    (void)state;
    static const char packed[] = "use_local=0 tm=4 tn=8 tk=16 wgx=1 wgy=4 vw=4 pack=2 tkp=8 pack_kib=0";
    run_threads(1, packed);
    run_threads(0, packed);
}

/* Messages are per thread: a failure on one thread does not overwrite another's. */
static void *fail_with(void *arg)
{
    clrt_buffer *b;
    clrt_buffer_create(&b, NULL, CLRT_FLOAT32, 1, 1);
    return strstr(clrt_error_message(), "context is NULL") ? arg : NULL;
}

static void messages_are_per_thread(void **state)
{
    (void)state;
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_queue_finish(NULL));
    pthread_t t;
    void *ok = NULL;
    assert_int_equal(pthread_create(&t, NULL, fail_with, (void *)1), 0);
    pthread_join(t, &ok);
    assert_non_null(ok);
    assert_non_null(strstr(clrt_error_message(), "clrt_queue_finish"));
}

int main(void)
{
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(threads_own_queues, tu_teardown_no_live),
        cmocka_unit_test_teardown(threads_one_queue, tu_teardown_no_live),
        cmocka_unit_test_teardown(threads_packed, tu_teardown_no_live),
        cmocka_unit_test_teardown(messages_are_per_thread, tu_teardown_no_live),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
