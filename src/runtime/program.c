/* Program cache: each (source, build options) is compiled once per context,
 * on first use, and kept until the context goes. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/debug.h"
#include "base/error.h"
#include "base/util.h"
#include "runtime/binary_cache.h"
#include "runtime/includes.h"
#include "runtime/program.h"

struct clrt__program_entry {
    const char *source;   /* static, or the owned copy below */
    char *owned_source;
    char *options;
    cl_program program;
    struct clrt__program_entry *next;
};

/* Put the device's build log in the error message, whole. */
static void append_build_log(cl_program program, cl_device_id device)
{
    size_t size = 0;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS ||
        size == 0)
        return;
    char *log = malloc(size + 1);
    if (!log)
        return;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL) == CL_SUCCESS) {
        log[size] = '\0';
        clrt__error_append("\nBuild log:\n");
        clrt__error_append(log);
    }
    free(log);
}

/* key: the disk cache's, NULL when it is not used for this program */
static int build_program(clrt_context *ctx, const char *source, const char *options, const char *key,
                         const clrt__build_what *what, const char *func, cl_program *out)
{
    const double t0 = clrt__build_clock();
    if (key && clrt__binary_cache_load(ctx, key, options, out)) {
        clrt__live(CLRT__LIVE_PROGRAM, +1);
        clrt__build_log(ctx, what, clrt__build_clock() - t0, 1);
        return CLRT_OK;
    }
    cl_int err = clrt__fault(CLRT__FAULT_CREATE_PROGRAM);
    cl_program program = NULL;
    if (err == CL_SUCCESS)
        program = clCreateProgramWithSource(ctx->cl, 1, &source, NULL, &err);
    if (err != CL_SUCCESS || !program)
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clCreateProgramWithSource", &ctx->info,
                             "cannot create a program");
    clrt__live(CLRT__LIVE_PROGRAM, +1);

    const cl_int injected = clrt__fault(CLRT__FAULT_BUILD);
    err = injected != CL_SUCCESS ? injected : clBuildProgram(program, 1, &ctx->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        int status = clrt__status_from_cl(err);
        clrt__fail_cl(status, func, err, "clBuildProgram", &ctx->info, "kernel build failed with options \"%s\"",
                      options);
        if (injected != CL_SUCCESS && clrt__fault_build_log()) {
            clrt__error_append("\nBuild log:\n");
            clrt__error_append(clrt__fault_build_log());
        } else {
            append_build_log(program, ctx->device);
        }
        clReleaseProgram(program);
        clrt__live(CLRT__LIVE_PROGRAM, -1);
        return status;
    }
    if (key && clrt__binary_cache_stores(ctx))
        clrt__binary_cache_store(key, program);
    clrt__build_log(ctx, what, clrt__build_clock() - t0, 0);
    *out = program;
    return CLRT_OK;
}

/* The options the driver gets: the caller's, and for a source whose headers
 * clrt followed, -DCLRT_INCLUDES_HASH=<their hash>. A driver's own program
 * cache may key on source and options alone (Mesa's rusticl 22.3 returned
 * the program built from the old version of a header found in the working
 * folder); with the define its key changes with the headers too. */
static char *driver_options(const char *options, int followed, uint64_t hash, size_t files)
{
    char define[64] = "";
    if (followed && files > 0)
        snprintf(define, sizeof define, "%sCLRT_INCLUDES_HASH=0x%016" PRIx64, options[0] ? " -D" : "-D", hash);
    size_t n = strlen(options) + strlen(define) + 1;
    char *opts = malloc(n);
    if (opts)
        snprintf(opts, n, "%s%s", options, define);
    return opts;
}

static int build(clrt_context *ctx, const char *source, const char *options, const clrt__build_what *what,
                 const char *func, cl_program *out)
{
    uint64_t inc_hash = 0;
    size_t inc_files = 0;
    /* headers clrt cannot follow: built, never cached (runtime/includes.h) */
    int followed = clrt__includes_hash(source, options, &inc_hash, &inc_files) == 0;
    char *opts = driver_options(options, followed, inc_hash, inc_files);
    if (!opts)
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    char *key = followed && clrt__binary_cache_enabled(ctx)
                    ? clrt__binary_cache_key(ctx, source, opts, inc_hash, inc_files)
                    : NULL;
    int status = build_program(ctx, source, opts, key, what, func, out);
    free(key);
    free(opts);
    return status;
}


int clrt__program_get(clrt_context *ctx, const char *source, int static_source, const char *options,
                      const clrt__build_what *what, const char *func, cl_program *out)
{
    clrt__log_hold();
    clrt_mutex_lock(&ctx->lock);
    for (struct clrt__program_entry *e = ctx->programs; e; e = e->next) {
        if ((e->source == source || strcmp(e->source, source) == 0) && strcmp(e->options, options) == 0) {
            *out = e->program;
            clrt_mutex_unlock(&ctx->lock);
            clrt__log_release();
            return CLRT_OK;
        }
    }
    /* Built under the lock: two threads asking for the same program wait for
     * one build rather than compiling twice. */
    struct clrt__program_entry *e = calloc(1, sizeof *e);
    int status = CLRT_ENOMEM;
    if (e && (e->options = clrt__strdup(options)) &&
        (static_source || (e->owned_source = clrt__strdup(source)))) {
        e->source = static_source ? source : e->owned_source;
        status = build(ctx, source, options, what, func, &e->program);
    } else {
        clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    }
    if (status != CLRT_OK) {
        if (e) {
            free(e->options);
            free(e->owned_source);
        }
        free(e);
        clrt_mutex_unlock(&ctx->lock);
        clrt__log_release();
        return status;
    }
    e->next = ctx->programs;
    ctx->programs = e;
    *out = e->program;
    clrt_mutex_unlock(&ctx->lock);
    clrt__log_release();
    return CLRT_OK;
}

void clrt__programs_release(clrt_context *ctx)
{
    struct clrt__program_entry *e = ctx->programs;
    while (e) {
        struct clrt__program_entry *next = e->next;
        clReleaseProgram(e->program);
        clrt__live(CLRT__LIVE_PROGRAM, -1);
        free(e->options);
        free(e->owned_source);
        free(e);
        e = next;
    }
    ctx->programs = NULL;
}
