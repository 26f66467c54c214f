/* The tools' notice of kernel compiles (see build_notice.h). */
#include "build_notice.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <clrt/clrt.h>

/* A build from the driver's cache takes a few hundredths of a second; a
 * compile from source, tenths to seconds (POCL, 2-core machine). */
#define COMPILE_SECONDS 0.25
/* While compiling goes on, a line at most this often (seconds; a test sets
 * $CLRT_TOOLS_STILL_S to 0 to see every one): most of a cold run's compile
 * time passes between builds (POCL generates a kernel's code at its first
 * launch), so a line per build would be too many and too few. */
#define STILL_SECONDS 5.0

static atomic_size_t compiles;
static atomic_int said;
static int quiet_mode;
static int log_lines; /* $CLRT_LOG on: every build's line too, as the library alone would print */
static long long still_ms = (long long)(STILL_SECONDS * 1000);
static atomic_size_t built_since;           /* programs compiled from source since the notice */
static _Atomic long long first_ms, last_ms; /* when the notice, and the last line, were printed */

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* After the notice: "still compiling" at most every still_ms while compiles go on. */
static void still_compiling(void)
{
    const size_t n = atomic_fetch_add(&built_since, 1) + 1;
    const long long first = atomic_load(&first_ms), now = now_ms();
    long long last = atomic_load(&last_ms);
    if (first == 0 || now - last < still_ms)
        return;
    if (!atomic_compare_exchange_strong(&last_ms, &last, now))
        return; /* another thread's build printed it */
    fprintf(stderr, "clrt: still compiling kernels: %zu more programs in %.0f s\n", n, (double)(now - first) / 1000.0);
}

static void on_build(const clrt_build_event *ev, const char *line, void *user)
{
    (void)user;
    if (log_lines)
        fprintf(stderr, "%s\n", line);
    if (ev->source != CLRT_BUILD_COMPILED)
        return;
    if (atomic_load(&said) && !quiet_mode)
        still_compiling();
    if (ev->seconds < COMPILE_SECONDS)
        return;
    atomic_fetch_add(&compiles, 1);
    if (quiet_mode || atomic_exchange(&said, 1))
        return;
    const long long t = now_ms();
    atomic_store(&last_ms, t);
    atomic_store(&first_ms, t);
    if (ev->cache_dir[0])
        fprintf(stderr, "clrt: compiling kernels for %s (first run only; cached in %s)\n", ev->device,
                ev->cache_dir);
    else
        fprintf(stderr, "clrt: compiling kernels for %s (first run only)\n", ev->device);
}

void tool_build_notice_install(int quiet)
{
    static atomic_int installed;
    if (atomic_exchange(&installed, 1))
        return;
    quiet_mode = quiet;
    const char *v = getenv("CLRT_LOG");
    log_lines = v && (!strcmp(v, "1") || !strcmp(v, "on") || !strcmp(v, "yes") || !strcmp(v, "true"));
    const char *every = getenv("CLRT_TOOLS_STILL_S");
    if (every && *every)
        still_ms = (long long)(atof(every) * 1000);
    clrt_set_log(on_build, NULL);
}

size_t tool_build_notice_compiles(void) { return atomic_load(&compiles); }
