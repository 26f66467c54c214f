/* The tools' notice of kernel compiles (see build_notice.h). */
#include "build_notice.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>

#include <clrt/clrt.h>

/* A build from the driver's cache takes a few hundredths of a second; a
 * compile from source, tenths to seconds (POCL, 2-core machine). A test sets
 * $CLRT_TOOLS_COMPILE_S to 0 to have the first compile say it. */
#define COMPILE_SECONDS 0.25
/* While compiling goes on, a line at most this often (seconds; a test sets
 * $CLRT_TOOLS_STILL_S to 0 to see every one): most of a cold run's compile
 * time passes between builds (POCL generates a kernel's code at its first
 * launch), so a line per build would be too many and too few. */
#define STILL_SECONDS 5.0

static atomic_size_t compiles;
static int quiet_mode;
static int log_lines; /* $CLRT_LOG on: every build's line too, as the library alone would print */
static double compile_s = COMPILE_SECONDS, still_s = STILL_SECONDS;

/* Builds may be reported from several threads: one at a time past here, so
 * that the notice comes first and every count is printed in order. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int said;           /* the notice was printed */
static size_t built_since; /* programs compiled from source since the notice */
static double first_s, last_s;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void on_build(const clrt_build_event *ev, const char *line, void *user)
{
    (void)user;
    if (log_lines)
        fprintf(stderr, "%s\n", line);
    if (ev->source != CLRT_BUILD_COMPILED)
        return;
    pthread_mutex_lock(&lock);
    const double now = now_s();
    if (said && !quiet_mode) {
        /* after the notice: "still compiling" at most every still_s while compiles go on */
        built_since++;
        if (now - last_s >= still_s) {
            last_s = now;
            fprintf(stderr, "clrt: still compiling kernels: %zu more programs in %.0f s\n", built_since,
                    now - first_s);
        }
    } else if (ev->seconds >= compile_s) {
        atomic_fetch_add(&compiles, 1);
        if (!quiet_mode) {
            said = 1;
            first_s = last_s = now;
            if (ev->cache_dir[0])
                fprintf(stderr, "clrt: compiling kernels for %s (first run only; cached in %s)\n", ev->device,
                        ev->cache_dir);
            else if (ev->uncached && ev->uncached[0])
                fprintf(stderr, "clrt: compiling kernels for %s (not cached: %s)\n", ev->device, ev->uncached);
            else
                fprintf(stderr, "clrt: compiling kernels for %s (first run only)\n", ev->device);
        }
    }
    pthread_mutex_unlock(&lock);
}

/* A number of seconds from the environment, else fallback. */
static double env_seconds(const char *name, double fallback)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return fallback;
    char *end = NULL;
    const double x = strtod(v, &end);
    return x >= 0 && *end == '\0' ? x : fallback;
}

void tool_build_notice_install(int quiet)
{
    static atomic_int installed;
    if (atomic_exchange(&installed, 1))
        return;
    quiet_mode = quiet;
    /* the library's own reading of $CLRT_LOG: 1, on, yes, true in any case */
    const char *v = getenv("CLRT_LOG");
    log_lines = v && (!strcasecmp(v, "1") || !strcasecmp(v, "on") || !strcasecmp(v, "yes") || !strcasecmp(v, "true"));
    compile_s = env_seconds("CLRT_TOOLS_COMPILE_S", COMPILE_SECONDS);
    still_s = env_seconds("CLRT_TOOLS_STILL_S", STILL_SECONDS);
    clrt_set_log(on_build, NULL);
}

size_t tool_build_notice_compiles(void) { return atomic_load(&compiles); }
