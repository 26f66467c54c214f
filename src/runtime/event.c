/* Events: markers on a queue, waits on the host and between queues, and
 * device-side timing. Every failure of the work an event marks is a late
 * failure of its context, exactly as at clrt_queue_finish. */
#include <stdlib.h>

#include "base/debug.h"
#include "base/error.h"
#include "runtime/context.h"
#include "runtime/event.h"

clrt_event *clrt__event_alloc(void) { return calloc(1, sizeof(clrt_event)); }

void clrt__event_publish(clrt_event *ev, clrt_queue *q, cl_event cl)
{
    ev->tag = CLRT__TAG_EVENT;
    ev->queue = q;
    ev->cl = cl;
    clrt__queue_retain(q);
    /* the context counts its events, so that those leaked at its destroy are reported */
    clrt__context_retain(q->ctx);
    clrt__live(CLRT__LIVE_EVENT, +1);
}

int clrt_event_record(clrt_event **out, clrt_queue *q)
{
    static const char func[] = "clrt_event_record";
    if (!out)
        return clrt__fail(CLRT_EINVAL, func, "out is NULL");
    *out = NULL;
    int status = clrt__check_queue(q, func);
    if (status == CLRT_OK)
        status = clrt__check_usable(q->ctx, func);
    if (status != CLRT_OK)
        return status;
    clrt_event *ev = clrt__event_alloc();
    if (!ev)
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    cl_event cl = NULL;
    cl_int err = clrt__fault(CLRT__FAULT_MARKER);
    if (err == CL_SUCCESS)
        err = clEnqueueMarkerWithWaitList(q->cl, 0, NULL, &cl); /* in order: after all earlier work */
    if (err != CL_SUCCESS) {
        free(ev);
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clEnqueueMarkerWithWaitList", &q->ctx->info,
                             "cannot enqueue a marker");
    }
    /* Push the work to the device now: an event polled with clrt_event_done
     * on an unflushed queue may never complete (OpenCL allows a driver to
     * hold commands until a flush). A failure here shows at the wait. */
    clFlush(q->cl);
    clrt__event_publish(ev, q, cl);
    *out = ev;
    return CLRT_OK;
}

/* The event's execution status: CL_COMPLETE, a positive state, or a
 * negative error code (the work failed). */
static cl_int event_status(const clrt_event *ev, cl_int *code)
{
    cl_int err = clrt__fault(CLRT__FAULT_EVENT_WAIT);
    if (err != CL_SUCCESS) { /* injected: the work failed with this code */
        *code = err;
        return CL_SUCCESS;
    }
    return clGetEventInfo(ev->cl, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof *code, code, NULL);
}

/* Wait for ev; CLRT_OK, or the late failure (context marked failed). */
static int wait_one(clrt_event *ev, const char *func)
{
    cl_int err = clrt__fault(CLRT__FAULT_EVENT_WAIT);
    if (err == CL_SUCCESS)
        err = clWaitForEvents(1, &ev->cl);
    if (err != CL_SUCCESS) {
        /* A failed command makes clWaitForEvents say so only in general
         * (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST): its own status
         * names what failed. */
        cl_int code = 0;
        if (err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST &&
            clGetEventInfo(ev->cl, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof code, &code, NULL) == CL_SUCCESS &&
            code < 0)
            err = code;
        return clrt__context_fail_late(ev->queue->ctx, func, err, "clWaitForEvents");
    }
    return CLRT_OK;
}

int clrt_event_wait(clrt_event *ev)
{
    static const char func[] = "clrt_event_wait";
    int status = clrt__check_event(ev, func, "ev");
    if (status == CLRT_OK)
        status = clrt__check_usable(ev->queue->ctx, func);
    return status == CLRT_OK ? wait_one(ev, func) : status;
}

int clrt_queue_wait(clrt_queue *q, const clrt_event *ev)
{
    static const char func[] = "clrt_queue_wait";
    int status = clrt__check_queue(q, func);
    if (status == CLRT_OK)
        status = clrt__check_event(ev, func, "ev");
    if (status != CLRT_OK)
        return status;
    if (ev->queue->ctx != q->ctx)
        return clrt__fail(CLRT_EINVAL, func,
                          "the event belongs to another context (a queue can wait only for events of its own)");
    if ((status = clrt__check_usable(q->ctx, func)) != CLRT_OK)
        return status;
    cl_int err = clrt__fault(CLRT__FAULT_MARKER);
    if (err == CL_SUCCESS)
        err = clEnqueueBarrierWithWaitList(q->cl, 1, &ev->cl, NULL);
    if (err != CL_SUCCESS)
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clEnqueueBarrierWithWaitList", &q->ctx->info,
                             "cannot make the queue wait for the event");
    return CLRT_OK;
}

int clrt_event_done(const clrt_event *ev, int *done)
{
    static const char func[] = "clrt_event_done";
    int status = clrt__check_event(ev, func, "ev");
    if (status != CLRT_OK)
        return status;
    if (!done)
        return clrt__fail(CLRT_EINVAL, func, "done is NULL");
    *done = 0;
    if ((status = clrt__check_usable(ev->queue->ctx, func)) != CLRT_OK)
        return status;
    cl_int code = 0;
    cl_int err = event_status(ev, &code);
    if (err != CL_SUCCESS)
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clGetEventInfo", &ev->queue->ctx->info,
                             "cannot ask the event's status");
    if (code < 0)
        return clrt__context_fail_late(ev->queue->ctx, func, code, "clGetEventInfo");
    *done = code == CL_COMPLETE;
    return CLRT_OK;
}

static int end_time(const clrt_event *ev, cl_ulong *t, const char *func)
{
    cl_ulong queued = 0;
    cl_int err = clGetEventProfilingInfo(ev->cl, CL_PROFILING_COMMAND_QUEUED, sizeof queued, &queued, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev->cl, CL_PROFILING_COMMAND_END, sizeof *t, t, NULL);
    if (err != CL_SUCCESS)
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clGetEventProfilingInfo",
                             &ev->queue->ctx->info, "the driver gave no timestamp for the event");
    /* rusticl in Mesa 22.3 answers 0, 1, 2, 3 (queued .. end) for every
     * command: placeholders, not a clock. No real device clock reads 0 when
     * a command is queued. */
    if (queued == 0 && *t < 16)
        return clrt__fail(CLRT_EUNSUPPORTED, func,
                          "the driver of device '%s' (%s) gives placeholder timestamps (queued %llu, end %llu ns), "
                          "not device times",
                          ev->queue->ctx->info.name, ev->queue->ctx->info.platform, (unsigned long long)queued,
                          (unsigned long long)*t);
    return CLRT_OK;
}

int clrt_event_elapsed(double *seconds, clrt_event *start, clrt_event *end)
{
    static const char func[] = "clrt_event_elapsed";
    if (!seconds)
        return clrt__fail(CLRT_EINVAL, func, "seconds is NULL");
    int status = clrt__check_event(start, func, "start");
    if (status == CLRT_OK)
        status = clrt__check_event(end, func, "end");
    if (status != CLRT_OK)
        return status;
    if (start->queue->ctx != end->queue->ctx)
        return clrt__fail(CLRT_EINVAL, func, "start and end belong to different contexts");
    if (!start->queue->profiling || !end->queue->profiling)
        return clrt__fail(CLRT_EINVAL, func,
                          "event %s comes from a queue created without CLRT_QUEUE_PROFILING (no timestamps)",
                          start->queue->profiling ? "end" : "start");
    if ((status = clrt__check_usable(start->queue->ctx, func)) != CLRT_OK)
        return status;
    if ((status = wait_one(start, func)) != CLRT_OK || (status = wait_one(end, func)) != CLRT_OK)
        return status;
    cl_ulong t0, t1;
    if ((status = end_time(start, &t0, func)) != CLRT_OK || (status = end_time(end, &t1, func)) != CLRT_OK)
        return status;
    *seconds = t1 >= t0 ? 1e-9 * (double)(t1 - t0) : -1e-9 * (double)(t0 - t1);
    return CLRT_OK;
}

void clrt_event_destroy(clrt_event *ev)
{
    if (!ev)
        return;
    if (ev->tag != CLRT__TAG_EVENT) {
        clrt__report("clrt_event_destroy", "%p is not a live clrt event; ignored", (void *)ev);
        return;
    }
    ev->tag = CLRT__TAG_DEAD;
    clrt_context *ctx = ev->queue->ctx;
    clReleaseEvent(ev->cl); /* the work it marks still runs */
    clrt__queue_release(ev->queue);
    clrt__context_release(ctx);
    free(ev);
    clrt__live(CLRT__LIVE_EVENT, -1);
}
