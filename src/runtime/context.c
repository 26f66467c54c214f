/* Contexts: the OpenCL context on the selected device, and the lifetime rule
 * that a context outlives its queues and buffers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/debug.h"
#include "base/error.h"
#include "device/selector.h"
#include "runtime/context.h"
#include "runtime/kcache.h"
#include "runtime/program.h"

int clrt__context_open(clrt_context **out, const clrt__device_entry *dev, const char *func)
{
    clrt_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform, 0};
    cl_int err = clrt__fault(CLRT__FAULT_CREATE_CONTEXT);
    if (err == CL_SUCCESS)
        ctx->cl = clCreateContext(props, 1, &dev->device, NULL, NULL, &err);
    if (err != CL_SUCCESS || !ctx->cl) {
        int status = clrt__status_from_cl(err);
        if (status == CLRT_EOPENCL) /* any other refusal: the device cannot be used */
            status = CLRT_EDEVICE;
        clrt__fail_cl(status, func, err, "clCreateContext", &dev->info, "cannot open the device");
        free(ctx);
        return status;
    }
    int status = clrt__kcache_create(ctx);
    if (status != CLRT_OK) {
        clReleaseContext(ctx->cl);
        free(ctx);
        return status;
    }
    ctx->tag = CLRT__TAG_CONTEXT;
    atomic_init(&ctx->refs, 1);
    atomic_init(&ctx->destroyed, 0);
    atomic_init(&ctx->failed, 0);
    atomic_init(&ctx->failing, 0);
    atomic_init(&ctx->warming, 0);
    ctx->device = dev->device;
    ctx->platform = dev->platform;
    ctx->info = dev->info;
    ctx->facts = dev->facts;
    clrt_mutex_init(&ctx->lock);
    clrt_mutex_init(&ctx->convert_lock);
    clrt__live(CLRT__LIVE_CONTEXT, +1);
    *out = ctx;
    return CLRT_OK;
}

int clrt_context_create(clrt_context **out, const char *selector)
{
    static const char func[] = "clrt_context_create";
    if (!out)
        return clrt__fail(CLRT_EINVAL, func, "out is NULL");
    *out = NULL;
    clrt__device_entry dev;
    int status = clrt__device_select(selector, func, &dev);
    return status == CLRT_OK ? clrt__context_open(out, &dev, func) : status;
}

void clrt__context_retain(clrt_context *ctx) { atomic_fetch_add(&ctx->refs, 1); }

void clrt__context_release(clrt_context *ctx)
{
    if (atomic_fetch_sub(&ctx->refs, 1) != 1)
        return;
    clrt__kcache_release(ctx);
    for (int i = 0; i <= CLRT_BFLOAT16; i++)
        for (int j = 0; j <= CLRT_BFLOAT16; j++)
            if (ctx->convert[i][j])
                clReleaseKernel(ctx->convert[i][j]);
    clrt__programs_release(ctx);
    clrt_mutex_destroy(&ctx->convert_lock);
    clrt_mutex_destroy(&ctx->lock);
    clReleaseContext(ctx->cl);
    ctx->tag = CLRT__TAG_DEAD;
    free(ctx);
    clrt__live(CLRT__LIVE_CONTEXT, -1);
}

void clrt_context_destroy(clrt_context *ctx)
{
    static const char func[] = "clrt_context_destroy";
    if (!ctx)
        return;
    if (ctx->tag != CLRT__TAG_CONTEXT) {
        clrt__report(func, "%p is not a live clrt context; ignored", (void *)ctx);
        return;
    }
    if (atomic_exchange(&ctx->destroyed, 1)) {
        clrt__report(func, "context destroyed twice; ignored");
        return;
    }
    int children = atomic_load(&ctx->refs) - 1;
    if (children > 0) {
        /* Freeing now would leave the children dangling: the context goes when
         * the last of them is destroyed. Say so, since it is a caller bug. */
        clrt__report(func,
                     "%d queue(s)/buffer(s)/program(s)/event(s) of this context are still live; it will be "
                     "released when the last of them is destroyed",
                     children);
    }
    clrt__context_release(ctx);
}

int clrt_context_device(const clrt_context *ctx, clrt_device_info *out)
{
    static const char func[] = "clrt_context_device";
    int status = clrt__check_context(ctx, func);
    if (status != CLRT_OK)
        return status;
    if (!out)
        return clrt__fail(CLRT_EINVAL, func, "out is NULL");
    *out = ctx->info;
    return CLRT_OK;
}
