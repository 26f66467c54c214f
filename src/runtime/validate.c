/* Argument checks shared by every entry point. They run before any OpenCL
 * call so that a bad argument never reaches a driver. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/error.h"
#include "runtime/handles.h"

int clrt__matrix_bytes(size_t rows, size_t cols, size_t elem, size_t *bytes)
{
    if (rows == 0 || cols == 0 || elem == 0)
        return -1;
    if (rows > SIZE_MAX / cols || rows * cols > SIZE_MAX / elem)
        return -1;
    *bytes = rows * cols * elem;
    return 0;
}

int clrt__check_usable(const clrt_context *ctx, const char *func)
{
    if (atomic_load(&ctx->failed))
        return clrt__fail(CLRT_EDEVICE, func,
                          "the context on device '%s' failed earlier and can only be destroyed: %s",
                          ctx->info.name, ctx->failure);
    return CLRT_OK;
}

int clrt__check_context(const clrt_context *ctx, const char *func)
{
    if (!ctx)
        return clrt__fail(CLRT_EINVAL, func, "context is NULL");
    if (ctx->tag != CLRT__TAG_CONTEXT)
        return clrt__fail(CLRT_EINVAL, func, "%p is not a live clrt context (destroyed, or not a context)",
                          (const void *)ctx);
    /* The caller gave the context up: no new queues or buffers on it. Those
     * it still has keep working until they are destroyed. */
    if (atomic_load(&ctx->destroyed))
        return clrt__fail(CLRT_EINVAL, func, "the context was destroyed");
    return CLRT_OK;
}

int clrt__check_queue(const clrt_queue *q, const char *func)
{
    if (!q)
        return clrt__fail(CLRT_EINVAL, func, "queue is NULL");
    if (q->tag != CLRT__TAG_QUEUE)
        return clrt__fail(CLRT_EINVAL, func, "%p is not a live clrt queue (destroyed, or not a queue)",
                          (const void *)q);
    return CLRT_OK;
}

int clrt__check_buffer(const clrt_buffer *b, const char *func, const char *what)
{
    if (!b)
        return clrt__fail(CLRT_EINVAL, func, "buffer %s is NULL", what);
    if (b->tag != CLRT__TAG_BUFFER)
        return clrt__fail(CLRT_EINVAL, func,
                          "buffer %s (%p) is not a live clrt buffer (destroyed, or not a buffer)", what,
                          (const void *)b);
    return CLRT_OK;
}

int clrt__check_program(const clrt_program *p, const char *func)
{
    if (!p)
        return clrt__fail(CLRT_EINVAL, func, "program is NULL");
    if (p->tag != CLRT__TAG_PROGRAM)
        return clrt__fail(CLRT_EINVAL, func, "%p is not a live clrt program (destroyed, or not a program)",
                          (const void *)p);
    if (atomic_load(&p->destroyed))
        return clrt__fail(CLRT_EINVAL, func, "the program was destroyed");
    return CLRT_OK;
}

int clrt__check_event(const clrt_event *ev, const char *func, const char *what)
{
    if (!ev)
        return clrt__fail(CLRT_EINVAL, func, "event %s is NULL", what);
    if (ev->tag != CLRT__TAG_EVENT)
        return clrt__fail(CLRT_EINVAL, func, "event %s (%p) is not a live clrt event (destroyed, or not an event)",
                          what, (const void *)ev);
    if (ev->queue->tag != CLRT__TAG_QUEUE)
        return clrt__fail(CLRT_EINVAL, func, "event %s belongs to a queue that was destroyed", what);
    return CLRT_OK;
}

int clrt__context_fail_late(clrt_context *ctx, const char *func, cl_int code, const char *clcall)
{
    int status = (code == CL_MEM_OBJECT_ALLOCATION_FAILURE || code == CL_OUT_OF_HOST_MEMORY) ? CLRT_ENOMEM
                                                                                              : CLRT_EDEVICE;
    clrt__fail_cl(status, func, code, clcall, &ctx->info,
                  status == CLRT_ENOMEM ? "the device ran out of memory for queued work; this context is now failed"
                                        : "the device failed while running work; this context is now failed");
    /* The first failure is the one kept. Not under a lock that kernel builds
     * hold (they may take seconds). Readers look at failure[] only after
     * seeing failed set, which is stored after it. */
    if (!atomic_exchange(&ctx->failing, 1)) {
        snprintf(ctx->failure, sizeof ctx->failure, "%s", clrt_error_message());
        atomic_store(&ctx->failed, 1);
    }
    return status;
}

int clrt__is_16bit(clrt_dtype dtype) { return dtype == CLRT_FLOAT16 || dtype == CLRT_BFLOAT16; }

int clrt__refuse_16bit(const char *func)
{
    return clrt__fail(CLRT_EUNSUPPORTED, func,
                      "float16 and bfloat16 buffers are storage: create, write, read, view, clrt_copy and "
                      "clrt_convert (to float32 or float64 for arithmetic)");
}

int clrt__contiguous(const clrt_buffer *b) { return b->rows == 1 || b->ld == b->cols; }

int clrt__same_window(const clrt_buffer *a, const clrt_buffer *b)
{
    /* one shape at one offset is one window unless the row strides differ (a reshape) */
    return a->cl == b->cl && a->offset == b->offset && a->rows == b->rows && a->cols == b->cols &&
           (a->rows == 1 || a->ld == b->ld);
}

int clrt__overlap(const clrt_buffer *a, const clrt_buffer *b)
{
    if (a->cl != b->cl)
        return 0;
    if (a->ld != b->ld) {
        /* a reshape (clrt_buffer_reshape) against another shape of the memory:
         * the spans, first to last element, meet (safe: a refusal at worst) */
        const size_t a_end = a->offset + (a->rows - 1) * a->ld + a->cols;
        const size_t b_end = b->offset + (b->rows - 1) * b->ld + b->cols;
        return a->offset < b_end && b->offset < a_end;
    }
    /* both are windows of one allocation with one row stride */
    const size_t ar = a->offset / a->ld, ac = a->offset % a->ld;
    const size_t br = b->offset / b->ld, bc = b->offset % b->ld;
    return ar < br + b->rows && br < ar + a->rows && ac < bc + b->cols && bc < ac + a->cols;
}

int clrt__check_in_place(const clrt_buffer *out, const clrt_buffer *in, const char *what, const char *func)
{
    if (clrt__overlap(out, in) && !clrt__same_window(out, in))
        return clrt__fail(CLRT_EINVAL, func,
                          "the output overlaps %s only in part (in place needs the very same window)", what);
    return CLRT_OK;
}

cl_int clrt__zero_on_emulator(clrt_queue *q, cl_mem m, size_t bytes)
{
    if (!q->ctx->facts.emulator)
        return CL_SUCCESS;
    void *zeros = calloc(1, bytes);
    if (!zeros)
        return CL_OUT_OF_HOST_MEMORY;
    cl_int err = clEnqueueWriteBuffer(q->cl, m, CL_TRUE, 0, bytes, zeros, 0, NULL, NULL);
    free(zeros);
    return err;
}
