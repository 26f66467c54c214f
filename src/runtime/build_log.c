/* The build log (see build_log.h). */
#include "runtime/build_log.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "base/disk.h"
#include "base/error.h"
#include "base/util.h"
#include "device/driver_env.h"
#include "runtime/binary_cache.h"

/* The callback and its argument change together: one struct, swapped whole
 * under a lock so that a build never pairs one callback with another's user
 * pointer. */
typedef struct log_target {
    clrt_log_fn fn;
    void *user;
} log_target;

static clrt_mutex lock = CLRT_MUTEX_INITIALIZER;
static log_target target;

/* One build's report, waiting for this thread to hold no lock of clrt's
 * (build_log.h says why): its strings copied, since the build's are gone by
 * then. */
typedef struct pending {
    struct pending *next;
    clrt_build_source source;
    double seconds;
    const char *uncached; /* a string literal */
    char kernel[64], dtype[16], variant[256], device[256], dir[512], line[1024];
} pending;

/* This thread's: the holds taken (clrt__log_hold) and the reports waiting. */
static _Thread_local unsigned held;
static _Thread_local pending *first_waiting, *last_waiting;

void clrt_set_log(clrt_log_fn fn, void *user)
{
    clrt_mutex_lock(&lock);
    target.fn = fn;
    target.user = user;
    clrt_mutex_unlock(&lock);
}

static log_target current_target(void)
{
    clrt_mutex_lock(&lock);
    const log_target t = target;
    clrt_mutex_unlock(&lock);
    return t;
}

double clrt__build_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Where later processes find this build: clrt's program folder when clrt
 * stores it, else the driver's own cache where clrt knows it (POCL's); with
 * neither, *uncached says why where it is known. */
static void cache_dir(const clrt_context *ctx, char *out, size_t cap, const char **uncached)
{
    out[0] = '\0';
    *uncached = "";
    if (clrt__binary_cache_stores(ctx)) {
        if (clrt__cache_dir("programs", 0, out, cap) != 0)
            out[0] = '\0';
        return;
    }
    if (!clrt__icontains(ctx->info.platform, "portable computing language", 27))
        return;
    if (clrt__pocl_cache_off())
        *uncached = "POCL's cache is off, every run compiles";
    else
        clrt__pocl_cache_dir(out, cap);
}

/* Where a build that did not come from clrt's cache came from, and the words
 * for it. On POCL with its cache on, its folder tells (driver_env.h); with
 * its cache off, it compiled; elsewhere clrt cannot know. */
static clrt_build_source driver_source(const clrt_context *ctx, const char *dir, double seconds, const char **words)
{
    const int pocl = clrt__icontains(ctx->info.platform, "portable computing language", 27);
    if (pocl && !dir[0]) {
        *words = "built from source";
        return CLRT_BUILD_COMPILED;
    }
    if (pocl) {
        /* 50 ms early: file times come from the kernel's coarser clock (a tick behind) */
        const clrt__pocl_probe probe = clrt__pocl_cache_probe(dir, wall_clock() - seconds - 0.05);
        if (probe == CLRT__POCL_PROBE_SERVED) {
            *words = "from POCL's cache";
            return CLRT_BUILD_DRIVER_CACHED;
        }
        if (probe == CLRT__POCL_PROBE_COMPILED) {
            *words = "built from source";
            return CLRT_BUILD_COMPILED;
        }
    }
    *words = "compiled by the driver; its own cache may have served it";
    return CLRT_BUILD_COMPILED;
}

/* The report of one build, copied for later delivery; NULL without memory. */
static pending *describe(const clrt_context *ctx, const clrt__build_what *what, double seconds, int cached)
{
    pending *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    cache_dir(ctx, p->dir, sizeof p->dir, &p->uncached);
    const char *words = "from clrt's program cache";
    p->source = cached ? CLRT_BUILD_CACHED : driver_source(ctx, p->dir, seconds, &words);
    p->seconds = seconds;
    snprintf(p->kernel, sizeof p->kernel, "%s", what->kernel);
    snprintf(p->dtype, sizeof p->dtype, "%s", what->dtype);
    snprintf(p->variant, sizeof p->variant, "%s", what->variant);
    snprintf(p->device, sizeof p->device, "%s", ctx->info.name);
    snprintf(p->line, sizeof p->line, "clrt: built %s%s%s%s%s%s for %s in %.2f s (%s)", p->kernel,
             p->dtype[0] ? " " : "", p->dtype, p->variant[0] ? " [" : "", p->variant, p->variant[0] ? "]" : "",
             p->device, seconds, words);
    return p;
}

/* Hand every waiting report to the callback (or stderr), this thread holding
 * no lock of clrt's. The callback may call clrt: builds it causes are
 * reported from inside it, by the same loop one level down. The thread's
 * failure message is set aside meanwhile, so that the callback's calls do
 * not replace what the call that built reports. */
static void deliver(void)
{
    clrt__stashed_message saved;
    clrt__error_stash(&saved);
    while (first_waiting) {
        pending *p = first_waiting;
        first_waiting = p->next;
        if (!first_waiting)
            last_waiting = NULL;
        const log_target t = current_target();
        const clrt_build_event ev = {p->kernel, p->dtype, p->variant, p->device, p->dir, p->seconds, p->source,
                                     p->uncached};
        if (t.fn)
            t.fn(&ev, p->line, t.user);
        else if (clrt__env_flag("CLRT_LOG", 0))
            fprintf(stderr, "%s\n", p->line);
        free(p);
    }
    clrt__error_unstash(&saved);
}

void clrt__log_hold(void) { held++; }

void clrt__log_release(void)
{
    if (--held == 0 && first_waiting)
        deliver();
}

void clrt__build_log(const clrt_context *ctx, const clrt__build_what *what, double seconds, int cached)
{
    if (!current_target().fn && !clrt__env_flag("CLRT_LOG", 0))
        return;
    pending *p = describe(ctx, what, seconds, cached);
    if (!p)
        return; /* a report lost to a host out of memory: the build itself stands */
    if (last_waiting)
        last_waiting->next = p;
    else
        first_waiting = p;
    last_waiting = p;
    if (held == 0)
        deliver();
}
