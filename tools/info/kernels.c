/* clrt-info --kernels. For each built-in kernel and dtype: the parameters
 * clrt runs it with, and what the compiler reports for the built kernel
 * (work-group limit, private and local memory per work-item / group, the
 * warnings in its build log when it was compiled from source here). A
 * private size above zero on a GPU usually means registers spilled. On
 * NVIDIA the kernel's program is built once more with -cl-nv-verbose and the
 * compiler's own register and spill lines are printed (the ptxas report). */
#include "kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clrt/clrt.h>
#include <clrt/clrt_cl.h>
#include <clrt/clrt_tune.h>

/* Prints the lines of prog's build log for dev that contain any of the
 * words (a NULL-ended list), indented; returns how many, -1 when the log
 * cannot be read. */
static int print_log_lines(cl_program prog, cl_device_id dev, const char *const *words)
{
    size_t len = 0;
    if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) != CL_SUCCESS)
        return -1;
    char *log = malloc(len + 1);
    int n = -1;
    if (log && clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL) == CL_SUCCESS) {
        log[len] = '\0';
        n = 0;
        for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n"))
            for (const char *const *w = words; *w; w++)
                if (strstr(line, *w)) {
                    printf("      %s\n", line);
                    n++;
                    break;
                }
    }
    free(log);
    return n;
}

/* The kernel's program built again from its own source and options plus
 * flag (-cl-nv-verbose); the log lines that name registers, spills or memory. */
static void rebuild_verbose(cl_kernel k, cl_device_id dev, const char *flag)
{
    cl_program prog;
    cl_context cx;
    size_t len = 0, olen = 0;
    if (clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof prog, &prog, NULL) != CL_SUCCESS ||
        clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof cx, &cx, NULL) != CL_SUCCESS ||
        clGetProgramInfo(prog, CL_PROGRAM_SOURCE, 0, NULL, &len) != CL_SUCCESS ||
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_OPTIONS, 0, NULL, &olen) != CL_SUCCESS) {
        printf("      (cannot read the program back)\n");
        return;
    }
    if (len <= 1) {
        printf("      (program came from a binary: no source to rebuild; run with CLRT_CACHE=0)\n");
        return;
    }
    char *src = malloc(len), *opts = malloc(olen + 32);
    if (!src || !opts) {
        free(src);
        free(opts);
        return;
    }
    clGetProgramInfo(prog, CL_PROGRAM_SOURCE, len, src, NULL);
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_OPTIONS, olen, opts, NULL);
    strcat(opts, flag);
    cl_int err;
    const char *srcs[1] = {src};
    cl_program again = clCreateProgramWithSource(cx, 1, srcs, NULL, &err);
    if (err == CL_SUCCESS) {
        err = clBuildProgram(again, 1, &dev, opts, NULL, NULL);
        static const char *const report[] = {"registers", "spill", "bytes", "error", "warning", NULL};
        print_log_lines(again, dev, report);
        clReleaseProgram(again);
    }
    if (err == CL_SUCCESS)
        printf("      (rebuilt from source with '%s')\n", flag);
    else
        printf("      (rebuild with '%s' failed: OpenCL error %d)\n", flag, (int)err);
    free(src);
    free(opts);
}

/* The warnings in the log of k's program, printed; how many, or -1 when the
 * program came from a binary (nothing was compiled: no log to read). */
static int build_warnings(cl_kernel k, cl_device_id dev)
{
    cl_program prog;
    size_t len = 0;
    if (clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof prog, &prog, NULL) != CL_SUCCESS ||
        clGetProgramInfo(prog, CL_PROGRAM_SOURCE, 0, NULL, &len) != CL_SUCCESS || len <= 1)
        return -1;
    static const char *const warning[] = {"warning", NULL};
    return print_log_lines(prog, dev, warning);
}

/* Whether k's program was met before (the neural-network kernels share one
 * program: its log and rebuild are shown once); records it otherwise. */
static int program_seen(cl_kernel k, cl_program *seen, size_t *n, size_t cap)
{
    cl_program prog;
    if (clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof prog, &prog, NULL) != CL_SUCCESS)
        return 0;
    for (size_t i = 0; i < *n; i++)
        if (seen[i] == prog)
            return 1;
    if (*n < cap)
        seen[(*n)++] = prog;
    return 0;
}

int info_kernels(void)
{
    clrt_context *ctx;
    if (clrt_context_create(&ctx, NULL) != CLRT_OK) {
        fprintf(stderr, "clrt-info: %s\n", clrt_error_message());
        return 1;
    }
    clrt_device_info d;
    clrt_context_device(ctx, &d);
    const cl_device_id dev = clrt_context_cl_device(ctx);
    const int nvidia = strstr(d.platform, "NVIDIA") || strstr(d.vendor, "NVIDIA");
    /* CLRT_INFO_REBUILD=1: the rebuild and log filter on any driver, with no
     * vendor flag (how .ci/gpu-check.sh --dry-run rehearses it on POCL) */
    const char *rebuild = getenv("CLRT_INFO_REBUILD");
    const int rehearse = rebuild && strcmp(rebuild, "1") == 0;
    printf("built-in kernels on %zu [%u:%u] %s (%s)\n", d.index, d.platform_index, d.device_index, d.name,
           d.driver);
    int failed = 0, warnings = 0, compiled = 0;
    cl_program seen[64];
    size_t nseen = 0;
    for (size_t i = 0; clrt_tune_kernel_name(i); i++) {
        const char *name = clrt_tune_kernel_name(i);
        for (int dbl = 0; dbl < 2; dbl++) {
            const clrt_dtype dt = dbl ? CLRT_FLOAT64 : CLRT_FLOAT32;
            if (dbl && !d.has_fp64)
                continue;
            cl_kernel k = clrt_context_kernel_cl(ctx, name, dt);
            if (!k) {
                printf("  %s %s: %s\n", name, dbl ? "f64" : "f32", clrt_error_message());
                failed = 1;
                continue;
            }
            char params[256] = "";
            clrt_tune_current(ctx, name, dt, params, sizeof params, NULL);
            size_t wg = 0, mult = 0;
            cl_ulong priv = 0, local = 0;
            clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
            clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof mult, &mult, NULL);
            clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv, NULL);
            clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
            printf("  %s %s: %s\n", name, dbl ? "f64" : "f32", params);
            printf("      work-group limit %zu (multiple %zu), private %llu bytes/item, local %llu bytes/group\n", wg,
                   mult, (unsigned long long)priv, (unsigned long long)local);
            if (program_seen(k, seen, &nseen, sizeof seen / sizeof *seen)) {
                printf("      (the same program as a kernel above: its log is there)\n");
                continue;
            }
            const int w = build_warnings(k, dev);
            if (w >= 0) {
                compiled++;
                warnings += w;
            }
            if (nvidia || rehearse)
                rebuild_verbose(k, dev, nvidia ? " -cl-nv-verbose" : "");
        }
    }
    /* kernels whose program came from a binary (clrt's cache) have no log */
    printf("compiler warnings: %d, in the %d programs compiled from source here%s\n", warnings, compiled,
           compiled ? "" : " (all came from clrt's program cache: CLRT_CACHE=0 compiles them)");
    clrt_context_destroy(ctx);
    return failed;
}
