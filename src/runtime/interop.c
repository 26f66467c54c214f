/* The raw OpenCL objects behind clrt handles (include/clrt/clrt_cl.h). clrt
 * keeps ownership; these only look. A NULL or foreign handle gives NULL, with
 * the message set by the same checks every entry point uses. */
#include "clrt/clrt_cl.h"

#include "base/error.h"
#include "kernels/table.h"
#include "runtime/handles.h"
#include "runtime/kcache.h"

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

cl_kernel clrt_context_kernel_cl(clrt_context *ctx, const char *kernel, clrt_dtype dtype)
{
    static const char func[] = "clrt_context_kernel_cl";
    if (clrt__check_context(ctx, func) != CLRT_OK)
        return NULL;
    int id = clrt__kernel_find(kernel);
    if (id < 0 || !clrt__kernel_takes(clrt__kernel_at(id), (int)dtype)) {
        clrt__fail(CLRT_EINVAL, func, "no built-in kernel '%.60s' for dtype %d", kernel ? kernel : "(null)",
                   (int)dtype);
        return NULL;
    }
    if (dtype == CLRT_FLOAT64 && !ctx->info.has_fp64) {
        clrt__fail(CLRT_EUNSUPPORTED, func, "device '%s' has no fp64 (cl_khr_fp64)", ctx->info.name);
        return NULL;
    }
    clrt__built *b;
    if (clrt__check_usable(ctx, func) != CLRT_OK || clrt__kcache_get(ctx, id, (int)dtype, 0, func, &b) != CLRT_OK)
        return NULL;
    return b->main;
}
