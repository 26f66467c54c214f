/* OpenBLAS at its best core: the check at start-up, the restart under
 * OPENBLAS_CORETYPE, and the line that reports it (see
 * bench/reference/openblas_force.h). */
#include "reference/openblas_force.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "reference/cpu_features.h"
#include "reference/host_ref.h"
#include "reference/openblas_core.h"

static bench_openblas_state state;

const bench_openblas_state *bench_openblas_state_get(void) { return &state; }

/* Whether the loaded OpenBLAS has a core's kernels: a DYNAMIC_ARCH build
 * exports one table per core it was built with, gotoblas_<CORE> (a core its
 * compiler could not build is missing, or aliased to an older one, under a
 * name the library does not export). */
static int has_core(const char *core, void *handle)
{
    char sym[64] = "gotoblas_";
    size_t n = strlen(sym);
    for (; *core && n + 1 < sizeof sym; core++)
        sym[n++] = (char)toupper((unsigned char)*core);
    sym[n] = '\0';
    return dlsym(handle, sym) != NULL;
}

/* The best core for this CPU among those the build has; "" when unknown. */
static void find_best(void)
{
    void *self = dlopen(NULL, RTLD_LAZY); /* the process's global scope: libopenblas among it */
    /* a static OpenBLAS exports nothing: then any core of the list may be tried */
    const int listed = self && dlsym(self, "gotoblas_PRESCOTT") != NULL;
    const char *best = NULL;
    if (state.dynamic)
        best = bench_openblas_best_core(bench_cpu_detect(), listed ? has_core : NULL, self);
    else /* one core built in: the best for the CPU, only to say how far it is from it */
        best = bench_openblas_best_core(bench_cpu_detect(), NULL, NULL);
    snprintf(state.best, sizeof state.best, "%s", best ? best : "");
    if (self)
        dlclose(self);
}

/* Start again under OPENBLAS_CORETYPE=best; returns only when that failed. */
static void restart(char **argv, const char *chose)
{
    if (setenv("OPENBLAS_CORETYPE", state.best, 1) != 0 || setenv(BENCH_OPENBLAS_CHOSE_ENV, chose, 1) != 0) {
        snprintf(state.note, sizeof state.note, "not forced to %s: cannot set the environment", state.best);
        return;
    }
    fflush(NULL);
    execv("/proc/self/exe", argv); /* the binary that runs, whatever argv[0] says */
    execvp(argv[0], argv);
    snprintf(state.note, sizeof state.note, "not forced to %s: cannot start itself again (%s)", state.best,
             strerror(errno));
    unsetenv("OPENBLAS_CORETYPE");
    unsetenv(BENCH_OPENBLAS_CHOSE_ENV);
}

void bench_openblas_inspect(void)
{
    memset(&state, 0, sizeof state);
    if (!bench_have_openblas())
        return;
    state.present = 1;
    snprintf(state.core, sizeof state.core, "%s", bench_openblas_core());
    state.dynamic = strstr(bench_openblas_config(), "DYNAMIC_ARCH") != NULL;
    find_best();
    const char *env = getenv("OPENBLAS_CORETYPE"), *chose = getenv(BENCH_OPENBLAS_CHOSE_ENV);
    snprintf(state.env, sizeof state.env, "%s", env ? env : "");
    if (chose && chose[0]) { /* the restarted process */
        state.forced = 1;
        snprintf(state.chosen, sizeof state.chosen, "%s", chose);
        if (strcasecmp(state.core, state.env) != 0)
            snprintf(state.note, sizeof state.note,
                     "clrt-bench's OPENBLAS_CORETYPE=%s did not take: OpenBLAS runs %s", state.env, state.core);
    } else if (state.env[0]) {
        state.user_set = 1;
        if (strcasecmp(state.core, state.env) != 0) /* a name it does not know: it warns, then detects */
            snprintf(state.note, sizeof state.note, "OPENBLAS_CORETYPE=%s did not take: OpenBLAS runs %s",
                     state.env, state.core);
    }
    state.older = bench_openblas_core_is_older(state.core, state.best);
}

void bench_openblas_settle(char **argv)
{
    bench_openblas_inspect();
    if (!state.present || state.forced || state.user_set)
        return;
    const char *pretend = getenv(BENCH_OPENBLAS_PRETEND_ENV);
    const char *own = pretend && pretend[0] ? pretend : state.core;
    if (!bench_openblas_core_is_older(own, state.best))
        return;
    if (state.dynamic)
        restart(argv, own); /* returns only when it failed */
    else
        snprintf(state.note, sizeof state.note, "not forced: this OpenBLAS is built for one core only (no DYNAMIC_ARCH)");
}
