/* The tools' notice of kernel compiles (see build_notice.h). */
#include "build_notice.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clrt/clrt.h>

/* A build from the driver's cache takes a few hundredths of a second; a
 * compile from source, tenths to seconds (POCL, 2-core machine). */
#define COMPILE_SECONDS 0.25

static atomic_size_t compiles;
static atomic_int said;
static int quiet_mode;
static int log_lines; /* $CLRT_LOG on: every build's line too, as the library alone would print */

static void on_build(const clrt_build_event *ev, const char *line, void *user)
{
    (void)user;
    if (log_lines)
        fprintf(stderr, "%s\n", line);
    if (ev->source != CLRT_BUILD_COMPILED || ev->seconds < COMPILE_SECONDS)
        return;
    atomic_fetch_add(&compiles, 1);
    if (quiet_mode || atomic_exchange(&said, 1))
        return;
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
    clrt_set_log(on_build, NULL);
}

size_t tool_build_notice_compiles(void) { return atomic_load(&compiles); }
