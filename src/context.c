/* Contexts: device selection, the OpenCL context, and the lifetime rule that
 * a context outlives its queues and buffers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "internal.h"
#include "selector.h"

static const char *type_name(int type)
{
    switch (type) {
    case CLRT_DEVICE_CPU:
        return "cpu";
    case CLRT_DEVICE_GPU:
        return "gpu";
    case CLRT_DEVICE_ACCELERATOR:
        return "accelerator";
    }
    return "other";
}

/* Append the device list to the error message: a selector that matches
 * nothing should show what would have. */
static void append_device_list(const clrt_device_entry *devs, size_t n)
{
    clrt__error_append("\nDevices (select by index, P:D, type or name):");
    for (size_t i = 0; i < n; i++) {
        char line[900];
        snprintf(line, sizeof line, "\n  %zu  %u:%u  %-11s %s  [%s; %s]", devs[i].info.index,
                 devs[i].info.platform_index, devs[i].info.device_index, type_name(devs[i].info.type),
                 devs[i].info.name, devs[i].info.platform, devs[i].info.vendor);
        clrt__error_append(line);
    }
}

static int open_device(clrt_context **out, const clrt_device_entry *dev)
{
    static const char func[] = "clrt_context_create";
    clrt_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform, 0};
    cl_int err = clrt__fault(CLRT_FAULT_CREATE_CONTEXT);
    if (err == CL_SUCCESS)
        ctx->cl = clCreateContext(props, 1, &dev->device, NULL, NULL, &err);
    if (err != CL_SUCCESS || !ctx->cl) {
        ctx->info = dev->info; /* for the message */
        int status = clrt__status_from_cl(err);
        if (status == CLRT_EOPENCL) /* any other refusal: the device cannot be used */
            status = CLRT_EDEVICE;
        clrt__fail_cl(status, func, err, "clCreateContext", ctx, "cannot open the device");
        free(ctx);
        return status;
    }
    ctx->tag = CLRT_TAG_CONTEXT;
    atomic_init(&ctx->refs, 1);
    atomic_init(&ctx->destroyed, 0);
    atomic_init(&ctx->failed, 0);
    atomic_init(&ctx->failing, 0);
    ctx->device = dev->device;
    ctx->info = dev->info;
    ctx->facts = dev->facts;
    clrt_mutex_init(&ctx->lock);
    for (int op = 0; op < CLRT_OP_COUNT; op++)
        for (int t = 0; t < 2; t++) {
            atomic_init(&ctx->ops[op][t].ready, 0);
            clrt_mutex_init(&ctx->ops[op][t].launch_lock);
        }
    clrt__live(CLRT_LIVE_CONTEXT, +1);
    *out = ctx;
    return CLRT_OK;
}

int clrt_context_create(clrt_context **out, const char *selector)
{
    static const char func[] = "clrt_context_create";
    if (!out)
        return clrt__fail(CLRT_EINVAL, func, "out is NULL");
    *out = NULL;

    const char *origin = "argument";
    clrt_selector sel;
    clrt__selector_parse(selector, &sel);
    /* NULL, "" and an all-blank argument all defer to $CLRT_DEVICE: a blank
     * argument must not silently override what the environment asks for. */
    if (sel.kind == CLRT_SEL_DEFAULT) {
        selector = getenv("CLRT_DEVICE");
        origin = "$CLRT_DEVICE";
        clrt__selector_parse(selector, &sel);
    }

    clrt_device_entry *devs;
    size_t n;
    int status = clrt__device_enumerate(&devs, &n);
    if (status != CLRT_OK)
        return status;
    if (n == 0) {
        free(devs);
        return clrt__fail(CLRT_ENODEVICE, func,
                          "no OpenCL platform with a device is installed. Install an OpenCL driver: "
                          "your GPU vendor's, or POCL for the CPU (Debian: apt-get install "
                          "pocl-opencl-icd). $OCL_ICD_VENDORS, if set, must name a folder of .icd files.");
    }

    long pick = clrt__selector_pick(&sel, devs, n);
    if (pick < 0) {
        /* A long selector is cut in the message, not in the match. */
        int shown = sel.text_len > 200 ? 200 : (int)sel.text_len;
        clrt__fail(CLRT_ENODEVICE, func, "%s selector \"%.*s%s\" %s", origin, shown,
                   sel.text ? sel.text : "", sel.text_len > 200 ? "..." : "",
                   sel.kind == CLRT_SEL_MALFORMED
                       ? "is malformed: use N (an index), P:D (platform:device), gpu, cpu, "
                         "accelerator, or part of a device name"
                       : "matches no device");
        append_device_list(devs, n);
        free(devs);
        return CLRT_ENODEVICE;
    }
    status = open_device(out, &devs[pick]);
    free(devs);
    return status;
}

void clrt__context_retain(clrt_context *ctx) { atomic_fetch_add(&ctx->refs, 1); }

void clrt__context_release(clrt_context *ctx)
{
    if (atomic_fetch_sub(&ctx->refs, 1) != 1)
        return;
    clrt__ops_release(ctx);
    clrt__programs_release(ctx);
    for (int op = 0; op < CLRT_OP_COUNT; op++)
        for (int t = 0; t < 2; t++)
            clrt_mutex_destroy(&ctx->ops[op][t].launch_lock);
    clrt_mutex_destroy(&ctx->lock);
    clReleaseContext(ctx->cl);
    ctx->tag = CLRT_TAG_DEAD;
    free(ctx);
    clrt__live(CLRT_LIVE_CONTEXT, -1);
}

void clrt_context_destroy(clrt_context *ctx)
{
    static const char func[] = "clrt_context_destroy";
    if (!ctx)
        return;
    if (ctx->tag != CLRT_TAG_CONTEXT) {
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
                     "%d queue(s)/buffer(s)/program(s) of this context are still live; it will be "
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

int clrt__context_fail_late(clrt_context *ctx, const char *func, cl_int code, const char *clcall)
{
    int status = (code == CL_MEM_OBJECT_ALLOCATION_FAILURE || code == CL_OUT_OF_HOST_MEMORY)
                     ? CLRT_ENOMEM
                     : CLRT_EDEVICE;
    clrt__fail_cl(status, func, code, clcall, ctx,
                  status == CLRT_ENOMEM ? "the device ran out of memory for queued work; this context is now failed"
                                        : "the device failed while running work; this context is now failed");
    /* The first failure is the one kept. Not under ctx->lock: that lock is
     * held across kernel builds, which may take seconds. Readers look at
     * failure[] only after seeing failed set, which is stored after it. */
    if (!atomic_exchange(&ctx->failing, 1)) {
        snprintf(ctx->failure, sizeof ctx->failure, "%s", clrt_error_message());
        atomic_store(&ctx->failed, 1);
    }
    return status;
}
