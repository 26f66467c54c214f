/* The raw OpenCL objects behind clrt handles (include/clrt/clrt_cl.h). clrt
 * keeps ownership; these only look. */
#include "clrt/clrt_cl.h"

#include "internal.h"

/* NULL (with the message set) for a NULL or foreign handle. */
static void *refuse(const char *func, const char *what, const void *handle)
{
    if (!handle)
        clrt__fail(CLRT_EINVAL, func, "%s is NULL", what);
    else
        clrt__fail(CLRT_EINVAL, func, "%p is not a live clrt %s", handle, what);
    return NULL;
}

cl_context clrt_context_cl(const clrt_context *ctx)
{
    if (!ctx || ctx->tag != CLRT_TAG_CONTEXT || atomic_load(&ctx->destroyed))
        return refuse("clrt_context_cl", "context", ctx);
    return ctx->cl;
}

cl_device_id clrt_context_cl_device(const clrt_context *ctx)
{
    if (!ctx || ctx->tag != CLRT_TAG_CONTEXT || atomic_load(&ctx->destroyed))
        return refuse("clrt_context_cl_device", "context", ctx);
    return ctx->device;
}

cl_command_queue clrt_queue_cl(const clrt_queue *q)
{
    if (!q || q->tag != CLRT_TAG_QUEUE)
        return refuse("clrt_queue_cl", "queue", q);
    return q->cl;
}

cl_mem clrt_buffer_cl(const clrt_buffer *buf)
{
    if (!buf || buf->tag != CLRT_TAG_BUFFER)
        return refuse("clrt_buffer_cl", "buffer", buf);
    return buf->cl;
}

cl_program clrt_program_cl(const clrt_program *program)
{
    if (!program || program->tag != CLRT_TAG_PROGRAM || atomic_load(&program->destroyed))
        return refuse("clrt_program_cl", "program", program);
    return program->cl;
}
