/* The tools' notice of kernel compiles (see common/build_notice.h). */
#include "common/build_notice.h"

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
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
static atomic_int installed;
static int quiet_mode;
static int log_lines; /* $CLRT_LOG on: every build's line too, as the library alone would print */
static double compile_s = COMPILE_SECONDS, still_s = STILL_SECONDS;

/* Builds may be reported from several threads: one at a time past here, so
 * that the notice comes first and every count is printed in order. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int said;                  /* the notice was printed */
static double first_s, last_line_s, last_build_s;
static size_t programs;           /* compiled since the notice, its own included */
static double program_s;          /* their build time */
static size_t pending;            /* compiled since the last line */
static double pending_s;
static char pending_names[160];   /* "elementwise float32, reduce float32, ..." */
/* tool_build_notice_wait: the timer thread while the tool waits */
static int waiting, ready_said;
static pthread_t ticker;
static int ticking;
static pthread_cond_t wake;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double mtime_of(const struct stat *st) { return (double)st->st_mtim.tv_sec + st->st_mtim.tv_nsec * 1e-9; }

/* Whether a build that just ended after `seconds` stored anything new in
 * dir: a folder or a non-empty file there made or changed since the build
 * began (POCL's cache adds <dir>/XX/<hash>/ for a program it compiles and
 * nothing for one it serves, though it leaves empty temporary files at its
 * top, whatever it does; clrt's program cache adds a file). 1, 0, or -1
 * when dir cannot be read. */
static int stored_since(const char *dir, double seconds)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    const double since = (double)now.tv_sec + now.tv_nsec * 1e-9 - seconds - 0.05;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int fresh = 0;
    for (struct dirent *e; !fresh && (e = readdir(d));) {
        char sub[4352];
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        fresh = stat(sub, &st) == 0 && (S_ISDIR(st.st_mode) || st.st_size > 0) && mtime_of(&st) >= since;
    }
    closedir(d);
    return fresh;
}

/* "matmul float32" */
static void build_name(const clrt_build_event *ev, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s%s", ev->kernel, ev->dtype[0] ? " " : "", ev->dtype);
}

/* The first compile: what and where, once. */
static void say_notice(const clrt_build_event *ev)
{
    char what[96];
    build_name(ev, what, sizeof what);
    if (ev->cache_dir[0])
        fprintf(stderr, "clrt: compiling kernels for %s (first run only; cached in %s): %s took %.2f s\n",
                ev->device, ev->cache_dir, what, ev->seconds);
    else if (ev->uncached && ev->uncached[0])
        fprintf(stderr, "clrt: compiling kernels for %s (not cached: %s): %s took %.2f s\n", ev->device,
                ev->uncached, what, ev->seconds);
    else
        fprintf(stderr, "clrt: compiling kernels for %s (first run only): %s took %.2f s\n", ev->device, what,
                ev->seconds);
}

/* The compiles since the last line, said and forgotten. Under the lock. */
static void say_pending(double now)
{
    if (!pending)
        return;
    fprintf(stderr, "clrt: compiled %zu more program%s in %.1f s (%s); %zu so far\n", pending, pending == 1 ? "" : "s",
            pending_s, pending_names, programs);
    pending = 0;
    pending_s = 0;
    pending_names[0] = '\0';
    last_line_s = now;
}

/* One more compile after the notice. Under the lock. */
static void count_compile(const clrt_build_event *ev, double now)
{
    char what[96];
    build_name(ev, what, sizeof what);
    programs++;
    program_s += ev->seconds;
    pending++;
    pending_s += ev->seconds;
    const size_t used = strlen(pending_names);
    if (used + strlen(what) + 8 < sizeof pending_names)
        snprintf(pending_names + used, sizeof pending_names - used, "%s%s", used ? ", " : "", what);
    else if (!strstr(pending_names, "..."))
        snprintf(pending_names + used, sizeof pending_names - used, ", ...");
    if (now - last_line_s >= still_s)
        say_pending(now);
}

static void on_build(const clrt_build_event *ev, const char *line, void *user)
{
    (void)user;
    if (log_lines)
        fprintf(stderr, "%s\n", line);
    if (ev->source != CLRT_BUILD_COMPILED)
        return;
    /* served by the cache it names, however long it took (a loaded machine) */
    if (ev->cache_dir[0] && stored_since(ev->cache_dir, ev->seconds) == 0)
        return;
    pthread_mutex_lock(&lock);
    const double now = now_s();
    last_build_s = now;
    if (ev->seconds >= compile_s)
        atomic_fetch_add(&compiles, 1);
    if (said) {
        count_compile(ev, now);
    } else if (ev->seconds >= compile_s && !quiet_mode) {
        said = 1;
        first_s = last_line_s = now;
        programs = 1;
        program_s = ev->seconds;
        say_notice(ev);
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
    if (atomic_exchange(&installed, 1))
        return;
    quiet_mode = quiet;
    /* the library's own reading of $CLRT_LOG: 1, on, yes, true in any case */
    const char *v = getenv("CLRT_LOG");
    log_lines = v && (!strcasecmp(v, "1") || !strcasecmp(v, "on") || !strcasecmp(v, "yes") || !strcasecmp(v, "true"));
    compile_s = env_seconds("CLRT_TOOLS_COMPILE_S", COMPILE_SECONDS);
    still_s = env_seconds("CLRT_TOOLS_STILL_S", STILL_SECONDS);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&wake, &ca);
    pthread_condattr_destroy(&ca);
    clrt_set_log(on_build, NULL);
}

size_t tool_build_notice_compiles(void) { return atomic_load(&compiles); }

/* While the tool waits: after the notice, a line every still_s (at least a
 * second apart) that no build has said anything in, with the time since the
 * notice; the builds' own lines take the place of it while they come. */
static void *tick(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    while (waiting) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += 250000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&wake, &lock, &until);
        const double now = now_s(), every = still_s > 1 ? still_s : 1;
        if (waiting && said && now - last_line_s >= every && now - last_build_s >= every) {
            say_pending(now);
            fprintf(stderr, "clrt: still compiling: the kernels' first launches, %.0f s so far\n", now - first_s);
            last_line_s = now;
        }
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

void tool_build_notice_wait(int on)
{
    if (!atomic_load(&installed)) /* no notice, nothing to wait for */
        return;
    pthread_mutex_lock(&lock);
    if (on && !waiting && !quiet_mode) {
        waiting = 1;
        ticking = pthread_create(&ticker, NULL, tick, NULL) == 0;
        pthread_mutex_unlock(&lock);
        return;
    }
    if (on || !waiting) {
        pthread_mutex_unlock(&lock);
        return;
    }
    waiting = 0;
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);
    if (ticking)
        pthread_join(ticker, NULL);
    ticking = 0;
    pthread_mutex_lock(&lock);
    if (said && !ready_said) {
        const double now = now_s();
        say_pending(now);
        fprintf(stderr, "clrt: kernels ready: %zu program%s compiled in %.1f s, %.1f s since the notice\n", programs,
                programs == 1 ? "" : "s", program_s, now - first_s);
        ready_said = 1;
    }
    pthread_mutex_unlock(&lock);
}
