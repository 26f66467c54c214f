/* In-order command queues. */
#include <stdlib.h>

#include "base/debug.h"
#include "base/error.h"
#include "base/util.h"
#include "runtime/context.h"
#include "runtime/scratch.h"

static int queue_create(clrt_queue **out, clrt_context *ctx, unsigned flags, const char *func)
{
    if (!out)
        return clrt__fail(CLRT_EINVAL, func, "out is NULL");
    *out = NULL;
    int status = clrt__check_context(ctx, func);
    if (status == CLRT_OK)
        status = clrt__check_usable(ctx, func);
    if (status != CLRT_OK)
        return status;
    if (flags & ~(unsigned)CLRT_QUEUE_PROFILING)
        return clrt__fail(CLRT_EINVAL, func, "unknown flags 0x%x (only CLRT_QUEUE_PROFILING)", flags);

    clrt_queue *q = calloc(1, sizeof *q);
    if (!q)
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    cl_int err = clrt__fault(CLRT__FAULT_CREATE_QUEUE);
    if (err == CL_SUCCESS)
        q->cl = clCreateCommandQueue(ctx->cl, ctx->device,
                                     (flags & CLRT_QUEUE_PROFILING) ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
    if (err != CL_SUCCESS || !q->cl) {
        free(q);
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clCreateCommandQueue", &ctx->info,
                             "cannot create a command queue");
    }
    q->tag = CLRT__TAG_QUEUE;
    atomic_init(&q->refs, 1);
    q->profiling = (flags & CLRT_QUEUE_PROFILING) != 0;
    q->ctx = ctx;
    clrt_mutex_init_recursive(&q->scratch_lock);
    clrt__context_retain(ctx);
    clrt__live(CLRT__LIVE_QUEUE, +1);
    *out = q;
    return CLRT_OK;
}

int clrt_queue_create(clrt_queue **out, clrt_context *ctx)
{
    return queue_create(out, ctx, 0, "clrt_queue_create");
}

int clrt_queue_create_with(clrt_queue **out, clrt_context *ctx, unsigned flags)
{
    return queue_create(out, ctx, flags, "clrt_queue_create_with");
}

void clrt__queue_retain(clrt_queue *q) { atomic_fetch_add(&q->refs, 1); }

void clrt__queue_release(clrt_queue *q)
{
    if (atomic_fetch_sub(&q->refs, 1) == 1)
        free(q);
}

int clrt_queue_finish(clrt_queue *q)
{
    static const char func[] = "clrt_queue_finish";
    int status = clrt__check_queue(q, func);
    if (status == CLRT_OK)
        status = clrt__check_usable(q->ctx, func);
    if (status != CLRT_OK)
        return status;
    cl_int err = clrt__fault(CLRT__FAULT_FINISH);
    if (err == CL_SUCCESS)
        err = clFinish(q->cl);
    if (err != CL_SUCCESS)
        return clrt__context_fail_late(q->ctx, func, err, "clFinish");
    return CLRT_OK;
}

void clrt_queue_destroy(clrt_queue *q)
{
    if (!q)
        return;
    if (q->tag != CLRT__TAG_QUEUE) {
        clrt__report("clrt_queue_destroy", "%p is not a live clrt queue; ignored", (void *)q);
        return;
    }
    q->tag = CLRT__TAG_DEAD;
    /* Work still queued may use buffers the caller frees next: wait for it.
     * A failure here was (or will be) reported by finish or read. */
    clFinish(q->cl);
    clrt__scratch_free(q);
    clrt_mutex_destroy(&q->scratch_lock);
    clReleaseCommandQueue(q->cl);
    clrt__live(CLRT__LIVE_QUEUE, -1);
    /* The struct stays, tagged dead, while events of this queue live (they
     * hold the context themselves, so it counts only them from now on). */
    clrt__context_release(q->ctx);
    clrt__queue_release(q);
}
