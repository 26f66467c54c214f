/* clrt-bench: running clrt-bench again as a child (see bench/measure/child.h). */
#include "measure/child.h"

#include <errno.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/wait_status.h"
#include "measure/timing.h"

extern char **environ;

/* 1 when entry ("NAME=value") sets a name that one of set sets. */
static int overridden(const char *entry, const char *const *set)
{
    for (; set && *set; set++) {
        const char *eq = strchr(*set, '=');
        size_t n = eq ? (size_t)(eq - *set) + 1 : strlen(*set);
        if (strncmp(entry, *set, n) == 0)
            return 1;
    }
    return 0;
}

/* environ with every name that set (NULL-terminated "NAME=value" entries)
 * sets replaced by set's value, and every bare "NAME" of set removed; NULL
 * when out of memory */
static char **child_environment(const char *const *set)
{
    size_t ne = 0, ns = 0;
    while (environ[ne])
        ne++;
    while (set && set[ns])
        ns++;
    char **envp = calloc(ne + ns + 1, sizeof *envp);
    if (!envp)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < ne; i++)
        if (!overridden(environ[i], set))
            envp[k++] = environ[i];
    for (size_t i = 0; i < ns; i++)
        if (strchr(set[i], '=')) /* a bare NAME only removes it */
            envp[k++] = (char *)(uintptr_t)set[i];
    envp[k] = NULL;
    return envp;
}

int bench_child_run(char *const argv[], bench_child_caches caches, char *out, size_t cap, double *t_spawn,
                    char *why, size_t why_cap)
{
    static const char *const off[] = {"CLRT_CACHE=0", "POCL_KERNEL_CACHE=0", NULL};
    static const char *const clrt_on[] = {"CLRT_CACHE=1", NULL};
    const char *const *set = caches == BENCH_CACHES_OFF ? off : caches == BENCH_CACHES_CLRT_ON ? clrt_on : NULL;
    return bench_child_run_env(argv, set, out, cap, t_spawn, why, why_cap);
}

int bench_child_run_env(char *const argv[], const char *const *set, char *out, size_t cap, double *t_spawn,
                        char *why, size_t why_cap)
{
    char **envp = child_environment(set);
    int fds[2];
    if (!envp || pipe(fds) != 0) {
        free(envp);
        snprintf(why, why_cap, "cannot start a child clrt-bench (out of memory or descriptors)");
        return -1;
    }
    /* the parent's own threads (OpenBLAS spinning after its last call) would
     * take a core from the child */
    bench_wait_quiet(1.0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    pid_t pid;
    *t_spawn = bench_now();
    int rc = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    free(envp);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        snprintf(why, why_cap, "cannot start a child clrt-bench");
        return -1;
    }
    /* read to the end, past cap too (dropped): a pipe closed on a child
     * still writing would kill it with SIGPIPE, a healthy run reported failed */
    size_t used = 0;
    for (;;) {
        char spill[4096];
        const int full = used >= cap - 1;
        const ssize_t got = read(fds[0], full ? spill : out + used, full ? sizeof spill : cap - 1 - used);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        used += full ? 0 : (size_t)got;
    }
    out[used] = '\0';
    close(fds[0]);
    int status = 0;
    if (tool_wait_child(pid, &status) != 0) {
        snprintf(why, why_cap, "cannot wait for the child clrt-bench");
        return -1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    /* how it ended, and its own word on why when it gave one */
    char how[96];
    tool_wait_status_text(status, how, sizeof how);
    const char *err = strstr(out, "ERROR ");
    snprintf(why, why_cap, "the child clrt-bench %s%s%.200s", how, err ? ": " : "", err ? err + 6 : "");
    why[strcspn(why, "\n")] = '\0';
    return -1;
}

void bench_child_why(const char *out, char *why, size_t cap)
{
    const char *err = strstr(out, "ERROR ");
    snprintf(why, cap, "the child clrt-bench exited normally without its result%s%.150s", err ? ": " : "",
             err ? err + 6 : "");
    char *nl = strchr(why, '\n');
    if (nl)
        *nl = '\0';
}

int bench_median_of3(const double v[3])
{
    int lo = 0, hi = 0;
    for (int i = 1; i < 3; i++) {
        if (v[i] < v[lo])
            lo = i;
        if (v[i] >= v[hi])
            hi = i;
    }
    return lo == hi ? lo : 3 - lo - hi;
}
