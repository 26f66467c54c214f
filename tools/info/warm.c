/* clrt-info --warm (see warm.h). */
#include "warm.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <clrt/clrt.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct progress {
    int tty;
    double t0, last;
} progress;

/* On a terminal one line rewritten; elsewhere a plain line every 5 s, so a
 * CI log shows it moving without one line per step. */
static void on_step(size_t done, size_t total, const char *what, void *user)
{
    progress *p = user;
    const double t = now();
    if (p->tty) {
        fprintf(stderr, "\r\033[Kclrt-info: warming %zu/%zu (%.0f s) %s", done, total, t - p->t0, what);
    } else if (t - p->last >= 5 || done == total) {
        fprintf(stderr, "clrt-info: warming %zu/%zu (%.0f s) %s\n", done, total, t - p->t0, what);
        p->last = t;
    }
}

static void on_build(const clrt_build_event *ev, const char *line, void *user)
{
    (void)line;
    int *builds = user;
    *builds += ev->source == CLRT_BUILD_COMPILED;
}

int info_warm(const char *selector)
{
    clrt_context *ctx;
    int st = clrt_context_create(&ctx, selector);
    if (st != CLRT_OK) {
        fprintf(stderr, "clrt-info: --warm: %s\n", clrt_error_message());
        return st == CLRT_ENODEVICE ? 2 : 1;
    }
    clrt_device_info d;
    clrt_context_device(ctx, &d);
    fprintf(stderr, "clrt-info: building every kernel clrt uses on %zu [%u:%u] %s into the caches\n", d.index,
            d.platform_index, d.device_index, d.name);
    int builds = 0;
    clrt_set_log(on_build, &builds);
    progress p = {isatty(STDERR_FILENO), now(), now()};
    st = clrt_warm(ctx, on_step, &p);
    clrt_set_log(NULL, NULL);
    if (p.tty)
        fputc('\n', stderr);
    if (st != CLRT_OK)
        fprintf(stderr, "clrt-info: --warm: %s: %s\n", clrt_status_name(st), clrt_error_message());
    else
        printf("warmed %s: %d programs built in %.1f s\n", d.name, builds, now() - p.t0);
    clrt_context_destroy(ctx);
    return st == CLRT_OK ? 0 : 1;
}
