/* In-order command queues. */
#include <stdlib.h>

#include "debug.h"
#include "context.h"
#include "error.h"
#include "nn_launch.h"
#include "util.h"

int clrt_queue_create(clrt_queue **out, clrt_context *ctx)
{
    static const char func[] = "clrt_queue_create";
    if (!out)
        return clrt__fail(CLRT_EINVAL, func, "out is NULL");
    *out = NULL;
    int status = clrt__check_context(ctx, func);
    if (status == CLRT_OK)
        status = clrt__check_usable(ctx, func);
    if (status != CLRT_OK)
        return status;

    clrt_queue *q = calloc(1, sizeof *q);
    if (!q)
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    cl_int err = clrt__fault(CLRT__FAULT_CREATE_QUEUE);
    if (err == CL_SUCCESS)
        q->cl = clCreateCommandQueue(ctx->cl, ctx->device, 0, &err);
    if (err != CL_SUCCESS || !q->cl) {
        free(q);
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clCreateCommandQueue", &ctx->info,
                             "cannot create a command queue");
    }
    q->tag = CLRT__TAG_QUEUE;
    q->ctx = ctx;
    clrt_mutex_init(&q->scratch_lock);
    clrt_mutex_init(&q->nn_lock);
    clrt__context_retain(ctx);
    clrt__live(CLRT__LIVE_QUEUE, +1);
    *out = q;
    return CLRT_OK;
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
    if (q->scratch) {
        clReleaseMemObject(q->scratch);
        clrt__live(CLRT__LIVE_SCRATCH, -1);
    }
    clrt_mutex_destroy(&q->scratch_lock);
    clrt__nn_scratch_free(q);
    clrt_mutex_destroy(&q->nn_lock);
    clReleaseCommandQueue(q->cl);
    clrt__context_release(q->ctx);
    free(q);
    clrt__live(CLRT__LIVE_QUEUE, -1);
}
