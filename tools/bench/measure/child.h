/* clrt-bench: running clrt-bench again as a child process, for what only a
 * new process shows (the first call's latency): the child prints one line
 * of times on stdout, which the parent reads back. */
#ifndef CLRT_TOOLS_BENCH_CHILD_H
#define CLRT_TOOLS_BENCH_CHILD_H

#include <stddef.h>

/* The build caches a child runs with. */
typedef enum bench_child_caches {
    BENCH_CACHES_AS_IS,     /* the parent's environment */
    BENCH_CACHES_OFF,       /* CLRT_CACHE=0 and POCL_KERNEL_CACHE=0: the full compile */
    BENCH_CACHES_CLRT_ON    /* CLRT_CACHE=1: clrt's own program cache forced on */
} bench_child_caches;

/* Run this binary again with argv (argv[0] included, NULL-terminated) and
 * collect what it writes on stdout into out (NUL-terminated, cut at cap).
 * *t_spawn: bench_now() just before the start. 0 on success (whatever the
 * child's exit status: its output says); -1 with why filled when it could
 * not be started. */
int bench_child_run(char *const argv[], bench_child_caches caches, char *out, size_t cap, double *t_spawn,
                    char *why, size_t why_cap);

/* The same with the environment's entries of set (NULL-terminated
 * "NAME=value" strings) replaced or added, and those set names bare
 * ("NAME") removed. */
int bench_child_run_env(char *const argv[], const char *const *set, char *out, size_t cap, double *t_spawn,
                        char *why, size_t why_cap);

/* The index of the median of v[0..2]: the child reported of three runs. */
int bench_median_of3(const double v[3]);

/* The child's "ERROR ..." line (or a generic reason) into why, one line. */
void bench_child_why(const char *out, char *why, size_t cap);

#endif
