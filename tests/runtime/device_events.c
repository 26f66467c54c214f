/* Events, asynchronous transfers, several queues, device-side timing and the
 * split of one product across contexts (clrt_event.h): every result against
 * the host reference, every documented refusal, failures injected through
 * the event seams, from several threads, and nothing leaked. */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/test_util.h"

#include "base/debug.h"

static int no_live(void **state)
{
    (void)state;
    clrt__debug_fault_clear();
    tu_assert_no_live_handles();
    return 0;
}

static int is_oclgrind(const clrt_device_info *dev) { return strstr(dev->platform, "Oclgrind") != NULL; }

static float *random_floats(size_t count, unsigned seed)
{
    float *p = malloc(count * sizeof *p);
    assert_non_null(p);
    clrt__ref_fill(p, CLRT_FLOAT32, count, seed);
    return p;
}

/* A rows x cols float32 buffer of ctx. */
static clrt_buffer *buffer(clrt_context *ctx, size_t rows, size_t cols)
{
    clrt_buffer *b = NULL;
    TU_OK(clrt_buffer_create(&b, ctx, CLRT_FLOAT32, rows, cols));
    return b;
}

/* ---- markers, host waits, completion */

/* c = a b enqueued, a marker after it: once the marker is waited for, the
 * product is there (read without a finish), and the marker says it is done. */
static void marker_after_work(void **state)
{
    (void)state;
    clrt_context *ctx;
    clrt_queue *q;
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_queue_create(&q, ctx));
    const size_t M = tu_small() ? 19 : 301, N = tu_small() ? 13 : 257, K = tu_small() ? 11 : 199;
    float *ha = random_floats(M * K, 1), *hb = random_floats(K * N, 2), *hc = calloc(M * N, sizeof(float));
    assert_non_null(hc);
    clrt_buffer *a = buffer(ctx, M, K), *b = buffer(ctx, K, N), *c = buffer(ctx, M, N);
    clrt_event *wa, *wb, *done, *rd;
    TU_OK(clrt_buffer_write_async(q, a, ha, M * K, &wa));
    TU_OK(clrt_buffer_write_async(q, b, hb, K * N, &wb));
    TU_OK(clrt_matmul(q, c, a, b));
    TU_OK(clrt_event_record(&done, q));
    TU_OK(clrt_event_wait(done));
    int is_done = -1;
    TU_OK(clrt_event_done(done, &is_done));
    assert_int_equal(is_done, 1);
    TU_OK(clrt_event_done(wa, &is_done)); /* earlier work on an in-order queue is done too */
    assert_int_equal(is_done, 1);
    TU_OK(clrt_buffer_read_async(q, c, hc, M * N, &rd));
    /* poll: clrt_event_record and the async calls flush, so this ends */
    do
        TU_OK(clrt_event_done(rd, &is_done));
    while (!is_done);
    tu_assert_matmul(hc, ha, hb, CLRT_FLOAT32, M, N, K);
    clrt_event_destroy(wa);
    clrt_event_destroy(wb);
    clrt_event_destroy(done);
    clrt_event_destroy(rd);
    clrt_event_destroy(NULL); /* a no-op */
    TU_DESTROY_BUFFERS(a, b, c);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    free(ha);
    free(hb);
    free(hc);
}

/* Asynchronous copies of views (rectangles) and of whole buffers, odd sizes,
 * no event asked for: the queue orders them and a finish waits for them. */
static void async_views(void **state)
{
    (void)state;
    clrt_context *ctx;
    clrt_queue *q;
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_queue_create(&q, ctx));
    const size_t R = tu_small() ? 23 : 517, C = tu_small() ? 17 : 333;
    float *full = random_floats(R * C, 3), *back = calloc(R * C, sizeof(float));
    assert_non_null(back);
    clrt_buffer *p = buffer(ctx, R, C), *v;
    TU_OK(clrt_buffer_write_async(q, p, full, R * C, NULL));
    TU_OK(clrt_buffer_view(&v, p, 3, 5, R - 7, C - 9));
    float *win = random_floats((R - 7) * (C - 9), 4), *winback = calloc((R - 7) * (C - 9), sizeof(float));
    assert_non_null(winback);
    TU_OK(clrt_buffer_write_async(q, v, win, (R - 7) * (C - 9), NULL));
    clrt_event *ev;
    TU_OK(clrt_buffer_read_async(q, v, winback, (R - 7) * (C - 9), NULL));
    TU_OK(clrt_buffer_read_async(q, p, back, R * C, &ev));
    TU_OK(clrt_event_wait(ev));
    assert_memory_equal(winback, win, (R - 7) * (C - 9) * sizeof(float));
    for (size_t r = 0; r < R; r++)
        for (size_t c = 0; c < C; c++) {
            const int inside = r >= 3 && r < R - 4 && c >= 5 && c < C - 4;
            const float want = inside ? win[(r - 3) * (C - 9) + (c - 5)] : full[r * C + c];
            if (back[r * C + c] != want)
                fail_msg("(%zu, %zu): %g, expected %g", r, c, (double)back[r * C + c], (double)want);
        }
    clrt_event_destroy(ev);
    TU_OK(clrt_queue_finish(q));
    clrt_buffer_destroy(v);
    clrt_buffer_destroy(p);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    TU_FREE_ALL(full, back, win, winback);
}

/* ---- several queues */

/* A queue that waits for another queue's marker reads what that queue
 * computed: without the wait, the idle second queue would read c at once,
 * long before the product is there (c starts as zeros). */
static void queue_waits_for_other_queue(void **state)
{
    (void)state;
    clrt_context *ctx;
    clrt_queue *q1, *q2;
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_queue_create(&q1, ctx));
    TU_OK(clrt_queue_create(&q2, ctx));
    const size_t n = tu_small() ? 33 : 515;
    float *ha = random_floats(n * n, 13), *hc = calloc(n * n, sizeof(float));
    assert_non_null(hc);
    clrt_buffer *a = buffer(ctx, n, n), *c = buffer(ctx, n, n);
    TU_OK(clrt_buffer_write(q2, c, hc, n * n)); /* zeros */
    TU_OK(clrt_queue_finish(q2));
    clrt_event *ready, *got;
    TU_OK(clrt_buffer_write_async(q1, a, ha, n * n, NULL));
    TU_OK(clrt_matmul(q1, c, a, a));
    TU_OK(clrt_event_record(&ready, q1));
    TU_OK(clrt_queue_wait(q2, ready));
    TU_OK(clrt_buffer_read_async(q2, c, hc, n * n, &got));
    TU_OK(clrt_event_wait(got));
    tu_assert_matmul(hc, ha, ha, CLRT_FLOAT32, n, n, n);
    clrt_event_destroy(ready);
    clrt_event_destroy(got);
    clrt_buffer_destroy(a);
    clrt_buffer_destroy(c);
    clrt_queue_destroy(q1);
    clrt_queue_destroy(q2);
    clrt_context_destroy(ctx);
    free(ha);
    free(hc);
}

/* An upload queue and a compute queue, ordered by events only: the compute
 * queue waits for the upload of each slice, the upload queue waits for the
 * product of slice i before overwriting its input (two input slots). */
static void two_queues_pipeline(void **state)
{
    (void)state;
    clrt_context *ctx;
    clrt_queue *up, *run;
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_queue_create(&up, ctx));
    TU_OK(clrt_queue_create(&run, ctx));
    const size_t slices = 5, S = tu_small() ? 7 : 97, N = tu_small() ? 9 : 131, K = tu_small() ? 13 : 173;
    const size_t M = slices * S;
    float *ha = random_floats(M * K, 5), *hb = random_floats(K * N, 6), *hc = calloc(M * N, sizeof(float));
    assert_non_null(hc);
    clrt_buffer *b = buffer(ctx, K, N), *slot[2] = {buffer(ctx, S, K), buffer(ctx, S, K)}, *c = buffer(ctx, M, N);
    clrt_event *b_ready, *freed[2] = {NULL, NULL};
    TU_OK(clrt_buffer_write_async(up, b, hb, K * N, &b_ready));
    TU_OK(clrt_queue_wait(run, b_ready));
    for (size_t i = 0; i < slices; i++) {
        const size_t s = i % 2;
        if (freed[s]) { /* the product that read this slot has finished */
            TU_OK(clrt_queue_wait(up, freed[s]));
            clrt_event_destroy(freed[s]);
        }
        clrt_event *loaded;
        TU_OK(clrt_buffer_write_async(up, slot[s], ha + i * S * K, S * K, &loaded));
        TU_OK(clrt_queue_wait(run, loaded));
        clrt_event_destroy(loaded); /* the wait is enqueued: the handle may go */
        clrt_buffer *ci;
        TU_OK(clrt_buffer_view(&ci, c, i * S, 0, S, N));
        TU_OK(clrt_matmul(run, ci, slot[s], b));
        clrt_buffer_destroy(ci);
        TU_OK(clrt_event_record(&freed[s], run));
    }
    TU_OK(clrt_buffer_read(run, c, hc, M * N));
    tu_assert_matmul(hc, ha, hb, CLRT_FLOAT32, M, N, K);
    for (int s = 0; s < 2; s++)
        clrt_event_destroy(freed[s]);
    clrt_event_destroy(b_ready);
    clrt_buffer_destroy(slot[0]);
    clrt_buffer_destroy(slot[1]);
    clrt_buffer_destroy(b);
    clrt_buffer_destroy(c);
    clrt_queue_destroy(up);
    clrt_queue_destroy(run);
    clrt_context_destroy(ctx);
    free(ha);
    free(hb);
    free(hc);
}

/* ---- device-side timing */

static void elapsed_between_markers(void **state)
{
    (void)state;
    clrt_context *ctx;
    clrt_queue *q, *plain;
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_queue_create_with(&q, ctx, CLRT_QUEUE_PROFILING));
    TU_OK(clrt_queue_create_with(&plain, ctx, 0));
    const size_t n = tu_small() ? 24 : 384;
    clrt_buffer *a = buffer(ctx, n, n), *c = buffer(ctx, n, n);
    float *ha = random_floats(n * n, 7);
    clrt_event *e0, *e1, *w, *other;
    TU_OK(clrt_buffer_write_async(q, a, ha, n * n, &w));
    TU_OK(clrt_event_record(&e0, q));
    TU_OK(clrt_matmul(q, c, a, a));
    TU_OK(clrt_matmul(q, a, c, c));
    TU_OK(clrt_event_record(&e1, q));
    double t = 0, back = 0, wt = -1;
    clrt_device_info dev;
    TU_OK(clrt_context_device(ctx, &dev));
    const int status = clrt_event_elapsed(&t, e0, e1);
    if (status == CLRT_EUNSUPPORTED && strcmp(dev.platform, "rusticl") == 0) {
        /* Mesa 22.3's placeholder timestamps, refused with a message naming them */
        TU_REFUSED(CLRT_EUNSUPPORTED, "placeholder timestamps", clrt_event_elapsed(&t, e0, e1));
        TU_REFUSED(CLRT_EUNSUPPORTED, "placeholder timestamps", clrt_event_elapsed(&t, w, e1));
        print_message("rusticl: no device timestamps (placeholders), refused\n");
    } else {
        TU_OK(status);
        TU_OK(clrt_event_elapsed(&back, e1, e0));
        if (!(t > 0 && t < 60))
            fail_msg("elapsed %g s between markers around two products", t);
        assert_true(back == -t);
        TU_OK(clrt_event_elapsed(&wt, w, e0)); /* a transfer's event has timestamps too */
        assert_true(wt >= 0 && wt <= t + 60);
        TU_OK(clrt_event_elapsed(&wt, e0, e0));
        assert_true(wt == 0);
    }
    /* without profiling: refused, naming which one */
    TU_OK(clrt_event_record(&other, plain));
    TU_REFUSED(CLRT_EINVAL, "CLRT_QUEUE_PROFILING", clrt_event_elapsed(&t, e0, other));
    TU_REFUSED(CLRT_EINVAL, "event end", clrt_event_elapsed(&t, e0, other));
    TU_REFUSED(CLRT_EINVAL, "seconds is NULL", clrt_event_elapsed(NULL, e0, e1));
    clrt_event_destroy(other);
    clrt_event_destroy(e0);
    clrt_event_destroy(e1);
    clrt_event_destroy(w);
    clrt_buffer_destroy(a);
    clrt_buffer_destroy(c);
    clrt_queue_destroy(q);
    clrt_queue_destroy(plain);
    clrt_context_destroy(ctx);
    free(ha);
}

/* ---- refusals */

static void refusals(void **state)
{
    (void)state;
    clrt_context *ctx, *ctx2;
    clrt_queue *q, *q2, *gone;
    TU_OK(clrt_context_create(&ctx, NULL));
    clrt_device_info dev;
    TU_OK(clrt_context_device(ctx, &dev));
    ctx2 = tu_context_on(&dev);
    TU_OK(clrt_queue_create(&q, ctx));
    TU_OK(clrt_queue_create(&q2, ctx2));
    TU_REFUSED(CLRT_EINVAL, "unknown flags", clrt_queue_create_with(&gone, ctx, 2));
    assert_null(gone);
    TU_REFUSED(CLRT_EINVAL, "out is NULL", clrt_queue_create_with(NULL, ctx, 0));
    TU_REFUSED(CLRT_EINVAL, "context is NULL", clrt_queue_create_with(&gone, NULL, 0));
    TU_OK(clrt_queue_create(&gone, ctx));

    clrt_event *ev = (clrt_event *)1, *ev2, *of_gone;
    TU_REFUSED(CLRT_EINVAL, "out is NULL", clrt_event_record(NULL, q));
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_event_record(&ev, NULL));
    assert_null(ev);
    TU_REFUSED(CLRT_EINVAL, "not a live clrt queue", clrt_event_record(&ev, (clrt_queue *)ctx));
    TU_OK(clrt_event_record(&ev, q));
    TU_OK(clrt_event_record(&ev2, q2));
    TU_OK(clrt_event_record(&of_gone, gone));
    int done = 7;
    TU_REFUSED(CLRT_EINVAL, "event ev is NULL", clrt_event_wait(NULL));
    TU_REFUSED(CLRT_EINVAL, "not a live clrt event", clrt_event_wait((clrt_event *)q));
    TU_REFUSED(CLRT_EINVAL, "event ev is NULL", clrt_event_done(NULL, &done));
    TU_REFUSED(CLRT_EINVAL, "done is NULL", clrt_event_done(ev, NULL));
    TU_REFUSED(CLRT_EINVAL, "event ev is NULL", clrt_queue_wait(q, NULL));
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_queue_wait(NULL, ev));
    /* another context's event */
    TU_REFUSED(CLRT_EINVAL, "another context", clrt_queue_wait(q, ev2));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_event_elapsed(&(double){0}, ev, ev2));
    /* an event of a destroyed queue: refused everywhere, still destroyable */
    clrt_queue_destroy(gone);
    TU_REFUSED(CLRT_EINVAL, "queue that was destroyed", clrt_event_wait(of_gone));
    TU_REFUSED(CLRT_EINVAL, "queue that was destroyed", clrt_event_done(of_gone, &done));
    TU_REFUSED(CLRT_EINVAL, "queue that was destroyed", clrt_queue_wait(q, of_gone));
    TU_REFUSED(CLRT_EINVAL, "queue that was destroyed", clrt_event_elapsed(&(double){0}, ev, of_gone));
    clrt_event_destroy(of_gone);
    /* async transfers: the checks of the blocking ones, *done set to NULL */
    clrt_buffer *b = buffer(ctx, 3, 5), *b2 = buffer(ctx2, 3, 5);
    float host[15] = {0};
    clrt_event *d = (clrt_event *)1;
    TU_REFUSED(CLRT_EINVAL, "count is 14", clrt_buffer_write_async(q, b, host, 14, &d));
    assert_null(d);
    d = (clrt_event *)1;
    TU_REFUSED(CLRT_EINVAL, "host pointer is NULL", clrt_buffer_read_async(q, b, NULL, 15, &d));
    assert_null(d);
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_buffer_write_async(q, b2, host, 15, NULL));
    TU_REFUSED(CLRT_EINVAL, "buffer src is NULL", clrt_buffer_read_async(q, NULL, host, 15, NULL));
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_buffer_write_async(NULL, b, host, 15, NULL));
    clrt_buffer_destroy(b);
    clrt_buffer_destroy(b2);
    clrt_event_destroy(ev);
    clrt_event_destroy(ev2);
    clrt_queue_destroy(q);
    clrt_queue_destroy(q2);
    clrt_context_destroy(ctx);
    clrt_context_destroy(ctx2);
}

/* Events still live when their context is destroyed are reported like
 * buffers; the context goes with the last of them. */
static void leaked_events_reported(void **state)
{
    (void)state;
    clrt_context *ctx;
    clrt_queue *q;
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_queue_create(&q, ctx));
    clrt_event *e1, *e2;
    TU_OK(clrt_event_record(&e1, q));
    TU_OK(clrt_event_record(&e2, q));
    clrt_queue_destroy(q);
    assert_int_equal(clrt__debug_live(CLRT__LIVE_EVENT), 2);
    clrt__error_clear();
    clrt_context_destroy(ctx);
    if (!strstr(clrt_error_message(), "2 queue(s)/buffer(s)/program(s)/event(s)"))
        fail_msg("context destroy with 2 live events said: \"%s\"", clrt_error_message());
    assert_int_equal(clrt__debug_live(CLRT__LIVE_CONTEXT), 1);
    clrt_event_destroy(e1);
    clrt_event_destroy(e2);
    assert_int_equal(clrt__debug_live(CLRT__LIVE_CONTEXT), 0);
}

/* ---- failures through events */

/* A device failure seen through an event marks the context failed: the call
 * says CLRT_EDEVICE naming the OpenCL call, every later call that works on
 * the context too (on any queue), and it can still be torn down. */
static void failure_through_event(void **state)
{
    (void)state;
    for (int how = 0; how < 3; how++) {
        clrt_context *ctx;
        clrt_queue *q, *q2;
        TU_OK(clrt_context_create(&ctx, NULL));
        TU_OK(clrt_queue_create_with(&q, ctx, CLRT_QUEUE_PROFILING));
        TU_OK(clrt_queue_create(&q2, ctx));
        clrt_buffer *b = buffer(ctx, 4, 4);
        float host[16] = {0};
        clrt_event *ev;
        TU_OK(clrt_buffer_write_async(q, b, host, 16, &ev));
        clrt__debug_fault_arm(CLRT__FAULT_EVENT_WAIT, 1, CL_OUT_OF_RESOURCES);
        int done = 5;
        double t;
        const int status = how == 0 ? clrt_event_wait(ev) : how == 1 ? clrt_event_done(ev, &done)
                                                                     : clrt_event_elapsed(&t, ev, ev);
        clrt__debug_fault_clear();
        assert_int_equal(status, CLRT_EDEVICE);
        if (!strstr(clrt_error_message(), "CL_OUT_OF_RESOURCES") || !strstr(clrt_error_message(), "failed"))
            fail_msg("message \"%s\"", clrt_error_message());
        if (how == 1)
            assert_int_equal(done, 0);
        TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_queue_finish(q2));
        TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_event_wait(ev));
        TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_event_done(ev, &done));
        TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_queue_wait(q2, ev));
        clrt_event *none;
        TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_event_record(&none, q2));
        TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_buffer_read_async(q2, b, host, 16, NULL));
        /* arguments are still checked first */
        TU_REFUSED(CLRT_EINVAL, "done is NULL", clrt_event_done(ev, NULL));
        clrt_event_destroy(ev);
        clrt_buffer_destroy(b);
        clrt_queue_destroy(q);
        clrt_queue_destroy(q2);
        clrt_context_destroy(ctx);
        tu_assert_no_live_handles();
    }
}

/* One session of the event calls; *after: clrt_queue_finish on the second
 * queue once the session failed (CLRT_EDEVICE when the failure was late). */
static int event_session(int *after)
{
    clrt_context *ctx;
    int s = clrt_context_create(&ctx, NULL);
    if (s != CLRT_OK)
        return s;
    clrt_queue *up = NULL, *run = NULL;
    clrt_buffer *a = NULL, *b = NULL, *c = NULL;
    clrt_event *wa = NULL, *wb = NULL, *m = NULL, *rd = NULL;
    const size_t n = 5;
    float ha[25], hb[25], hc[25];
    for (int i = 0; i < 25; i++) {
        ha[i] = (float)i;
        hb[i] = (float)(2 * i);
    }
    s = clrt_queue_create(&up, ctx);
    if (s == CLRT_OK)
        s = clrt_queue_create_with(&run, ctx, CLRT_QUEUE_PROFILING);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&a, ctx, CLRT_FLOAT32, n, n);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&b, ctx, CLRT_FLOAT32, n, n);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&c, ctx, CLRT_FLOAT32, n, n);
    if (s == CLRT_OK)
        s = clrt_buffer_write_async(up, a, ha, 25, &wa);
    if (s == CLRT_OK)
        s = clrt_buffer_write_async(up, b, hb, 25, &wb);
    if (s == CLRT_OK)
        s = clrt_event_record(&m, up);
    if (s == CLRT_OK)
        s = clrt_queue_wait(run, m);
    if (s == CLRT_OK)
        s = clrt_add(run, c, a, b);
    if (s == CLRT_OK)
        s = clrt_buffer_read_async(run, c, hc, 25, &rd);
    int done = 0;
    if (s == CLRT_OK)
        s = clrt_event_wait(rd);
    if (s == CLRT_OK)
        s = clrt_event_done(wb, &done);
    double t;
    if (s == CLRT_OK && (s = clrt_event_elapsed(&t, rd, rd)) == CLRT_EUNSUPPORTED)
        s = CLRT_OK; /* rusticl's placeholder timestamps: the waits before them still ran */
    if (s == CLRT_OK && !done)
        s = CLRT_EOPENCL - 100; /* not a status: the sweep reports it */
    for (int i = 0; s == CLRT_OK && i < 25; i++)
        if (hc[i] != 3.0f * (float)i)
            s = CLRT_EOPENCL - 101;
    *after = s == CLRT_OK || !run ? CLRT_OK : clrt_queue_finish(run);
    clrt_event_destroy(wa);
    clrt_event_destroy(wb);
    clrt_event_destroy(m);
    clrt_event_destroy(rd);
    TU_DESTROY_BUFFERS(a, b, c);
    clrt_queue_destroy(up);
    clrt_queue_destroy(run);
    clrt_context_destroy(ctx);
    return s;
}

/* Each call of the transfer and event sites failing in turn: the named
 * status, late ones failing the context, and nothing leaked. */
static void fault_sweep(void **state)
{
    (void)state;
    int after;
    clrt__debug_fault_clear();
    TU_OK(event_session(&after));
    static const int sites[] = {CLRT__FAULT_WRITE, CLRT__FAULT_READ, CLRT__FAULT_MARKER, CLRT__FAULT_EVENT_WAIT};
    unsigned long calls[4];
    for (int i = 0; i < 4; i++)
        calls[i] = clrt__debug_fault_calls(sites[i]);
    assert_int_equal(calls[0], 2); /* two uploads */
    assert_int_equal(calls[1], 1);
    assert_int_equal(calls[2], 2); /* the marker, the queue's wait */
    assert_true(calls[3] >= 3);    /* wait, done, elapsed's two waits */
    unsigned runs = 0;
    for (int i = 0; i < 4; i++)
        for (unsigned long nth = 1; nth <= calls[i]; nth++) {
            clrt__debug_fault_arm(sites[i], (unsigned)nth, CL_OUT_OF_RESOURCES);
            const int s = event_session(&after);
            clrt__debug_fault_clear();
            const int late = sites[i] != CLRT__FAULT_MARKER;
            const int expect = late ? CLRT_EDEVICE : CLRT_ENOMEM;
            if (s != expect || after != (late ? CLRT_EDEVICE : CLRT_OK))
                fail_msg("site %d call %lu failing: %s then finish %s, expected %s then %s: %s", sites[i], nth,
                         clrt_status_name(s), clrt_status_name(after), clrt_status_name(expect),
                         late ? "CLRT_EDEVICE" : "CLRT_OK", clrt_error_message());
            if (clrt__debug_live_total() != 0)
                fail_msg("site %d call %lu failing leaked %ld handle(s)", sites[i], nth, clrt__debug_live_total());
            runs++;
        }
    print_message("event fault sweep: %u sessions\n", runs);
    TU_OK(event_session(&after));
}

/* ---- threads */

typedef struct worker {
    clrt_context *ctx;
    clrt_event *shared; /* one event every thread waits for and polls */
    unsigned seed;
    size_t wrong;
    int status;
    char message[512];
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    const size_t M = 37 + w->seed, N = 29, K = 41;
    clrt_queue *up = NULL, *run = NULL;
    clrt_buffer *a = NULL, *b = NULL, *c = NULL;
    clrt_event *ra = NULL, *rb = NULL, *rc = NULL;
    float *ha = malloc(M * K * sizeof(float)), *hb = malloc(K * N * sizeof(float)), *hc = malloc(M * N * sizeof(float));
    int s = ha && hb && hc ? CLRT_OK : CLRT_ENOMEM;
    if (s == CLRT_OK) {
        clrt__ref_fill(ha, CLRT_FLOAT32, M * K, w->seed);
        clrt__ref_fill(hb, CLRT_FLOAT32, K * N, w->seed + 100);
    }
    int done = 0;
    for (int round = 0; s == CLRT_OK && round < 4; round++) {
        if (s == CLRT_OK)
            s = clrt_event_wait(w->shared);
        if (s == CLRT_OK)
            s = clrt_event_done(w->shared, &done);
        if (s == CLRT_OK && !done)
            s = CLRT_EOPENCL;
        if (s == CLRT_OK)
            s = clrt_queue_create(&up, w->ctx);
        if (s == CLRT_OK)
            s = clrt_queue_create(&run, w->ctx);
        if (s == CLRT_OK)
            s = clrt_queue_wait(run, w->shared);
        if (s == CLRT_OK)
            s = clrt_buffer_create(&a, w->ctx, CLRT_FLOAT32, M, K);
        if (s == CLRT_OK)
            s = clrt_buffer_create(&b, w->ctx, CLRT_FLOAT32, K, N);
        if (s == CLRT_OK)
            s = clrt_buffer_create(&c, w->ctx, CLRT_FLOAT32, M, N);
        if (s == CLRT_OK)
            s = clrt_buffer_write_async(up, a, ha, M * K, &ra);
        if (s == CLRT_OK)
            s = clrt_buffer_write_async(up, b, hb, K * N, &rb);
        if (s == CLRT_OK)
            s = clrt_queue_wait(run, ra);
        if (s == CLRT_OK)
            s = clrt_queue_wait(run, rb);
        if (s == CLRT_OK)
            s = clrt_matmul(run, c, a, b);
        if (s == CLRT_OK)
            s = clrt_buffer_read_async(run, c, hc, M * N, &rc);
        if (s == CLRT_OK)
            s = clrt_event_wait(rc);
        if (s == CLRT_OK)
            w->wrong += tu_matmul_check(hc, ha, hb, CLRT_FLOAT32, M, N, K);
        clrt_event_destroy(ra);
        clrt_event_destroy(rb);
        clrt_event_destroy(rc);
        TU_DESTROY_BUFFERS(a, b, c);
        clrt_queue_destroy(up);
        clrt_queue_destroy(run);
        ra = rb = rc = NULL;
        a = b = c = NULL;
        up = run = NULL;
    }
    if (s != CLRT_OK)
        snprintf(w->message, sizeof w->message, "%s", clrt_error_message());
    w->status = s;
    free(ha);
    free(hb);
    free(hc);
    return NULL;
}

/* Threads sharing one context, each with its own pair of queues ordered by
 * events, all waiting for (and polling) one event of a third queue. */
static void threads(void **state)
{
    (void)state;
    clrt_context *ctx;
    clrt_queue *q;
    TU_OK(clrt_context_create(&ctx, NULL));
    clrt_device_info dev;
    TU_OK(clrt_context_device(ctx, &dev));
    if (is_oclgrind(&dev)) { /* one kernel at a time per process (tests/CMakeLists.txt) */
        clrt_context_destroy(ctx);
        skip();
    }
    TU_OK(clrt_queue_create(&q, ctx));
    const size_t n = 256;
    clrt_buffer *x = buffer(ctx, n, n), *y = buffer(ctx, n, n);
    float *hx = random_floats(n * n, 9);
    TU_OK(clrt_buffer_write(q, x, hx, n * n));
    TU_OK(clrt_matmul(q, y, x, x)); /* some work for the shared event to stand after */
    enum { T = 4 };
    worker w[T];
    clrt_event *shared;
    TU_OK(clrt_event_record(&shared, q));
    for (int i = 0; i < T; i++)
        w[i] = (worker){.ctx = ctx, .shared = shared, .seed = 10u + (unsigned)i};
    tu_run_threads(T, work, w, sizeof *w);
    for (int i = 0; i < T; i++) {
        if (w[i].status != CLRT_OK)
            fail_msg("thread %d: %s: %s", i, clrt_status_name(w[i].status), w[i].message);
        assert_int_equal(w[i].wrong, 0);
    }
    clrt_event_destroy(shared);
    clrt_buffer_destroy(x);
    clrt_buffer_destroy(y);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    free(hx);
}

/* ---- one product split across contexts */

static void split_rows_arithmetic(void **state)
{
    (void)state;
    size_t counts[4];
    TU_OK(clrt_split_rows(counts, 2, 1000, (const double[]){1, 3}, 8));
    assert_int_equal(counts[0] + counts[1], 1000);
    assert_int_equal(counts[0] % 8, 0);
    assert_true(counts[0] >= 240 && counts[0] <= 256); /* a quarter, to a block */
    TU_OK(clrt_split_rows(counts, 3, 1001, (const double[]){2, 0, 1}, 16));
    assert_int_equal(counts[1], 0); /* weight 0: no rows */
    assert_int_equal(counts[0] + counts[2], 1001);
    assert_int_equal(counts[0] % 16, 0); /* the last non-empty block takes the remainder */
    assert_true(counts[0] >= 656 && counts[0] <= 672);
    TU_OK(clrt_split_rows(counts, 2, 5, (const double[]){1, 2}, 8)); /* fewer rows than a block */
    assert_int_equal(counts[0], 0);
    assert_int_equal(counts[1], 5);
    TU_OK(clrt_split_rows(counts, 4, 7, (const double[]){1, 1, 1, 1}, 1));
    assert_int_equal(counts[0] + counts[1] + counts[2] + counts[3], 7);
    for (int i = 0; i < 4; i++)
        assert_true(counts[i] == 1 || counts[i] == 2);
    TU_OK(clrt_split_rows(counts, 1, 0, (const double[]){1}, 4));
    assert_int_equal(counts[0], 0);
    TU_REFUSED(CLRT_EINVAL, "counts is NULL", clrt_split_rows(NULL, 2, 10, (const double[]){1, 1}, 1));
    TU_REFUSED(CLRT_EINVAL, "weights is NULL", clrt_split_rows(counts, 2, 10, NULL, 1));
    TU_REFUSED(CLRT_EINVAL, "parts is 0", clrt_split_rows(counts, 0, 10, (const double[]){1}, 1));
    TU_REFUSED(CLRT_EINVAL, "align is 0", clrt_split_rows(counts, 1, 10, (const double[]){1}, 0));
    TU_REFUSED(CLRT_EINVAL, "weights[1] is -1", clrt_split_rows(counts, 2, 10, (const double[]){1, -1}, 1));
    TU_REFUSED(CLRT_EINVAL, "weights[0] is nan", clrt_split_rows(counts, 1, 10, (const double[]){NAN}, 1));
    TU_REFUSED(CLRT_EINVAL, "sum to 0", clrt_split_rows(counts, 2, 10, (const double[]){0, 0}, 1));
}

static void split_hung(int sig)
{
    (void)sig;
    static const char msg[] = "device_events: clrt_split_rows never returned (alarm)\n";
    if (write(2, msg, sizeof msg - 1) < 0) {
        /* nothing more to say */
    }
    _exit(1);
}

/* counts[0..parts) sum to rows exactly (without wrapping), every part but the
 * last non-empty one is a multiple of align, each part's blocks are its share
 * blocks * w / sum(w) rounded down or up (to the doubles' precision), and a
 * weight of 0 gets none. */
static void assert_split(const size_t *counts, size_t parts, size_t rows, const double *w, size_t align)
{
    double total = 0, largest = 0;
    size_t last = parts, sum = 0;
    for (size_t i = 0; i < parts; i++) {
        largest = w[i] > largest ? w[i] : largest;
        if (counts[i] > 0)
            last = i;
    }
    for (size_t i = 0; i < parts; i++)
        total += w[i] / largest;
    const size_t blocks = rows / align;
    for (size_t i = 0; i < parts; i++) {
        assert_true(counts[i] <= rows - sum); /* no wrap */
        sum += counts[i];
        const size_t own = i == last ? counts[i] - rows % align : counts[i];
        if (i != last)
            assert_int_equal(counts[i] % align, 0);
        if (blocks == 0)
            continue;
        const double share = (double)blocks * (w[i] / largest / total), got = (double)(own / align);
        /* the boundaries are sums of up to parts doubles: that many roundings of blocks */
        if (!(fabs(got - share) <= 1.0 + 2.0 * (double)parts * DBL_EPSILON * (double)blocks))
            fail_msg("part %zu of %zu: %zu blocks for a share of %.17g", i, parts, own / align, share);
        if (w[i] == 0)
            assert_int_equal(counts[i], 0);
    }
    assert_true(sum == rows);
}

/* Sizes and weights at their limits: SIZE_MAX rows (the share of a part once
 * overflowed its conversion to size_t and the loop after it ran 2^64 times:
 * an alarm turns that into a failure), weights near DBL_MAX (their sum is
 * not finite: once refused), denormal ones, many parts, and the refusals. */
static void split_rows_extremes(void **state)
{
    (void)state;
    signal(SIGALRM, split_hung);
    alarm(60);
    size_t counts[8];
    TU_OK(clrt_split_rows(counts, 1, SIZE_MAX, (const double[]){1}, 1));
    assert_true(counts[0] == SIZE_MAX);
    static const struct {
        size_t parts, rows, align;
        double w[4];
    } cases[] = {
        {2, SIZE_MAX, 1, {1, 1}},
        {2, SIZE_MAX, 8, {1, 3}},
        {3, SIZE_MAX - 5, 1000, {0, 7, 2}},
        {4, SIZE_MAX, 1, {1e-300, 1, 1e300, 0}},
        {2, 1000, 1, {DBL_MAX, DBL_MAX}},
        {3, 999, 3, {DBL_MAX, DBL_MAX / 3, 0}},
        {3, 1001, 1, {1e308, 4.9e-324, 1e308}},
        {2, SIZE_MAX, SIZE_MAX, {1, 1}},
        {2, 12345, 1, {4.9e-324, 4.9e-324}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        TU_OK(clrt_split_rows(counts, cases[c].parts, cases[c].rows, cases[c].w, cases[c].align));
        assert_split(counts, cases[c].parts, cases[c].rows, cases[c].w, cases[c].align);
    }
    TU_OK(clrt_split_rows(counts, 2, 1000, (const double[]){DBL_MAX, DBL_MAX}, 1));
    assert_true(counts[0] == 500 && counts[1] == 500);
    /* many parts, random weights, against the shares */
    enum { MANY = 10007 };
    size_t *many = malloc(MANY * sizeof *many);
    double *w = malloc(MANY * sizeof *w);
    assert_true(many && w);
    srand(7);
    for (size_t i = 0; i < MANY; i++)
        w[i] = i % 5 == 0 ? 0 : (double)rand() / RAND_MAX * 1e6;
    const size_t sizes[] = {MANY - 1, 3 * MANY + 17, (size_t)1 << 40, SIZE_MAX};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        TU_OK(clrt_split_rows(many, MANY, sizes[k], w, 4));
        assert_split(many, MANY, sizes[k], w, 4);
    }
    free(many);
    free(w);
    alarm(0);
    TU_REFUSED(CLRT_EINVAL, "weights[0] is inf", clrt_split_rows(counts, 1, 10, (const double[]){INFINITY}, 1));
    TU_REFUSED(CLRT_EINVAL, "weights[1] is -inf",
               clrt_split_rows(counts, 2, 10, (const double[]){1, -INFINITY}, 1));
    TU_REFUSED(CLRT_EINVAL, "weights[2] is nan", clrt_split_rows(counts, 3, 10, (const double[]){1, 1, NAN}, 1));
    TU_REFUSED(CLRT_EINVAL, "weights[0] is -0.5", clrt_split_rows(counts, 2, 10, (const double[]){-0.5, 1}, 1));
    TU_REFUSED(CLRT_EINVAL, "parts is 0", clrt_split_rows(counts, 0, SIZE_MAX, (const double[]){1}, 1));
    TU_REFUSED(CLRT_EINVAL, "sum to 0", clrt_split_rows(counts, 3, SIZE_MAX, (const double[]){0, 0, 0}, 1));
}

/* C = A B with A's and C's rows split over two contexts (both on the device
 * under test here; two devices on a machine that has them), B on each: all
 * parts enqueued before any is waited for, then checked against the host. */
static void split_product(void **state)
{
    (void)state;
    clrt_context *ctx[2];
    TU_OK(clrt_context_create(&ctx[0], NULL));
    clrt_device_info dev;
    TU_OK(clrt_context_device(ctx[0], &dev));
    ctx[1] = tu_context_on(&dev);
    const size_t M = tu_small() ? 45 : 611, N = tu_small() ? 17 : 263, K = tu_small() ? 23 : 301;
    float *ha = random_floats(M * K, 11), *hb = random_floats(K * N, 12), *hc = calloc(M * N, sizeof(float));
    assert_non_null(hc);
    size_t rows[2], first = 0;
    TU_OK(clrt_split_rows(rows, 2, M, (const double[]){1.0, 2.0}, 8));
    assert_true(rows[0] > 0 && rows[1] > rows[0]);
    clrt_queue *q[2];
    clrt_buffer *a[2], *b[2], *c[2];
    clrt_event *got[2];
    for (int d = 0; d < 2; d++) {
        TU_OK(clrt_queue_create(&q[d], ctx[d]));
        a[d] = buffer(ctx[d], rows[d], K);
        b[d] = buffer(ctx[d], K, N);
        c[d] = buffer(ctx[d], rows[d], N);
        TU_OK(clrt_buffer_write_async(q[d], a[d], ha + first * K, rows[d] * K, NULL));
        TU_OK(clrt_buffer_write_async(q[d], b[d], hb, K * N, NULL));
        TU_OK(clrt_matmul(q[d], c[d], a[d], b[d]));
        TU_OK(clrt_buffer_read_async(q[d], c[d], hc + first * N, rows[d] * N, &got[d]));
        first += rows[d];
    }
    for (int d = 0; d < 2; d++)
        TU_OK(clrt_event_wait(got[d]));
    tu_assert_matmul(hc, ha, hb, CLRT_FLOAT32, M, N, K);
    for (int d = 0; d < 2; d++) {
        clrt_event_destroy(got[d]);
        clrt_buffer_destroy(a[d]);
        clrt_buffer_destroy(b[d]);
        clrt_buffer_destroy(c[d]);
        clrt_queue_destroy(q[d]);
        clrt_context_destroy(ctx[d]);
    }
    free(ha);
    free(hb);
    free(hc);
}

int main(void)
{
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(marker_after_work, no_live),
        cmocka_unit_test_teardown(async_views, no_live),
        cmocka_unit_test_teardown(queue_waits_for_other_queue, no_live),
        cmocka_unit_test_teardown(two_queues_pipeline, no_live),
        cmocka_unit_test_teardown(elapsed_between_markers, no_live),
        cmocka_unit_test_teardown(refusals, no_live),
        cmocka_unit_test_teardown(leaked_events_reported, no_live),
        cmocka_unit_test_teardown(failure_through_event, no_live),
        cmocka_unit_test_teardown(fault_sweep, no_live),
        cmocka_unit_test_teardown(threads, no_live),
        cmocka_unit_test_teardown(split_rows_arithmetic, no_live),
        cmocka_unit_test_teardown(split_rows_extremes, no_live),
        cmocka_unit_test_teardown(split_product, no_live),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
