/* clrt-info --warm (see warm.h). */
#include "warm.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <clrt/clrt.h>

#include "common/wait_status.h"

extern char **environ;

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

/* One share of the plan in this process; *builds counts its compiles. A
 * helper process (quiet) shows no progress: the first process speaks for
 * the run. */
static int run_share(const char *selector, size_t share, size_t shares, int quiet, int *builds, clrt_device_info *d)
{
    clrt_context *ctx;
    int st = clrt_context_create(&ctx, selector);
    if (st != CLRT_OK) {
        if (!quiet) /* a helper's failure is said by the first process, once */
            fprintf(stderr, "clrt-info: --warm: %s\n", clrt_error_message());
        return st == CLRT_ENODEVICE ? 2 : 1;
    }
    clrt_context_device(ctx, d);
    if (!quiet)
        fprintf(stderr, "clrt-info: building every kernel clrt uses on %zu [%u:%u] %s into the caches (%zu %s)\n",
                d->index, d->platform_index, d->device_index, d->name, shares, shares == 1 ? "process" : "processes");
    clrt_set_log(on_build, builds);
    progress p = {!quiet && isatty(STDERR_FILENO), now(), now()};
    st = clrt_warm_share(ctx, share, shares, quiet ? NULL : on_step, &p);
    clrt_set_log(NULL, NULL);
    if (p.tty)
        fputc('\n', stderr);
    if (st != CLRT_OK)
        fprintf(stderr, "clrt-info: --warm (share %zu of %zu): %s: %s\n", share + 1, shares, clrt_status_name(st),
                clrt_error_message());
    clrt_context_destroy(ctx);
    return st == CLRT_OK ? 0 : 1;
}

int info_warm_share(const char *selector, size_t share, size_t shares)
{
    int builds = 0;
    clrt_device_info d;
    const int rc = run_share(selector, share, shares, 1, &builds, &d);
    if (rc == 0)
        printf("%d\n", builds); /* read by the first process */
    return rc;
}

/* A helper process running share i of n, its stdout into *out; 0 or -1. */
static int spawn_share(const char *selector, size_t i, size_t n, pid_t *pid, FILE **out)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    char share[64];
    snprintf(share, sizeof share, "%zu/%zu", i + 1, n);
    char *argv[] = {"clrt-info", "--warm-share", share, (char *)selector, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    posix_spawn_file_actions_addclose(&fa, fd[1]);
    const int err = posix_spawn(pid, "/proc/self/exe", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (err != 0 || !(*out = fdopen(fd[0], "r"))) {
        fprintf(stderr, "clrt-info: --warm: cannot start a helper process: %s\n", strerror(err ? err : errno));
        if (err == 0) {
            kill(*pid, SIGTERM);
            waitpid(*pid, NULL, 0);
        }
        close(fd[0]);
        return -1;
    }
    return 0;
}

/* A helper's exit status, its compiles added to *builds; 0 when it warmed
 * its share. A helper that failed is said on stderr with how it ended
 * (share i of n), unless told: stopped by this process (SIGTERM, when it
 * runs the plan alone). */
static int join_share(pid_t pid, FILE *out, int *builds, size_t i, size_t n, int told)
{
    int k = 0, status = 0;
    const int got = fscanf(out, "%d", &k);
    fclose(out);
    if (tool_wait_child(pid, &status) != 0) {
        fprintf(stderr, "clrt-info: --warm: cannot wait for helper process %zu of %zu: %s\n", i + 1, n,
                strerror(errno));
        return 1;
    }
    if (got == 1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        *builds += k;
        return 0;
    }
    if (!told) {
        char how[96];
        tool_wait_status_text(status, how, sizeof how);
        fprintf(stderr, "clrt-info: --warm: helper process %zu of %zu (share %zu of the plan) %s%s\n", i + 1, n,
                i + 1, how, got == 1 || !WIFEXITED(status) || WEXITSTATUS(status) ? "" : " without its count");
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 2 ? 2 : 1;
}

int info_warm(const char *selector, size_t jobs)
{
    enum { MAX_JOBS = 64 };
    pid_t pid[MAX_JOBS];
    FILE *out[MAX_JOBS];
    size_t started = 1;
    const double t0 = now();
    /* a selector that matches nothing is said once, before any helper starts */
    clrt_device_info d;
    if (clrt_device_select(selector, &d) != CLRT_OK) {
        fprintf(stderr, "clrt-info: --warm: %s\n", clrt_error_message());
        return 2;
    }
    for (; started < jobs && started < MAX_JOBS; started++)
        if (spawn_share(selector, started, jobs, &pid[started], &out[started]) != 0)
            break;
    /* helpers that could not start: this process runs the plan alone */
    const size_t shares = started == jobs ? jobs : 1;
    int builds = 0;
    int rc = run_share(selector, 0, shares, 0, &builds, &d);
    for (size_t i = 1; i < started; i++) {
        if (shares == 1)
            kill(pid[i], SIGTERM);
        const int h = join_share(pid[i], out[i], &builds, i, started, shares == 1);
        if (shares > 1 && h != 0 && rc == 0)
            rc = h;
    }
    if (rc == 0)
        printf("warmed %s: %d programs built in %.1f s (%zu %s)\n", d.name, builds, now() - t0, shares,
               shares == 1 ? "process" : "processes");
    return rc;
}
