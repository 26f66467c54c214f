/* The build log (see build_log.h). */
#include "runtime/build_log.h"

#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "base/disk.h"
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

void clrt_set_log(clrt_log_fn fn, void *user)
{
    clrt_mutex_lock(&lock);
    target.fn = fn;
    target.user = user;
    clrt_mutex_unlock(&lock);
}

double clrt__build_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
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

void clrt__build_log(const clrt_context *ctx, const clrt__build_what *what, double seconds, int cached)
{
    clrt_mutex_lock(&lock);
    const log_target t = target;
    clrt_mutex_unlock(&lock);
    if (!t.fn && !clrt__env_flag("CLRT_LOG", 0))
        return;
    char dir[512], line[1024];
    const char *uncached;
    cache_dir(ctx, dir, sizeof dir, &uncached);
    const clrt_build_event ev = {what->kernel, what->dtype, what->variant, ctx->info.name, dir, seconds,
                                 cached ? CLRT_BUILD_CACHED : CLRT_BUILD_COMPILED, uncached};
    snprintf(line, sizeof line, "clrt: built %s%s%s%s%s%s for %s in %.2f s (%s)", ev.kernel, ev.dtype[0] ? " " : "",
             ev.dtype, ev.variant[0] ? " [" : "", ev.variant, ev.variant[0] ? "]" : "", ev.device, seconds,
             cached ? "from clrt's program cache" : "built from source");
    if (t.fn)
        t.fn(&ev, line, t.user);
    else
        fprintf(stderr, "%s\n", line);
}
