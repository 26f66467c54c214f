/* The raw OpenCL objects behind clrt handles (include/clrt/clrt_cl.h). clrt
 * keeps ownership; these only look. A NULL or foreign handle gives NULL, with
 * the message set by the same checks every entry point uses. */
#include "clrt/clrt_cl.h"

#include "internal.h"

cl_context clrt_context_cl(const clrt_context *ctx)
{
    return clrt__check_context(ctx, "clrt_context_cl") ? NULL : ctx->cl;
}

cl_device_id clrt_context_cl_device(const clrt_context *ctx)
{
    return clrt__check_context(ctx, "clrt_context_cl_device") ? NULL : ctx->device;
}

cl_command_queue clrt_queue_cl(const clrt_queue *q)
{
    return clrt__check_queue(q, "clrt_queue_cl") ? NULL : q->cl;
}

cl_mem clrt_buffer_cl(const clrt_buffer *buf)
{
    return clrt__check_buffer(buf, "clrt_buffer_cl", "buf") ? NULL : buf->cl;
}

cl_program clrt_program_cl(const clrt_program *program)
{
    return clrt__check_program(program, "clrt_program_cl") ? NULL : program->cl;
}
