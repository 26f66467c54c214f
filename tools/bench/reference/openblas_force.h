/* OpenBLAS at its best core for this CPU. OpenBLAS reads OPENBLAS_CORETYPE
 * once, when it loads, before main(); a release that does not know the CPU
 * falls back to an old core (0.3.21: Prescott, SSE3, on recent Intel Xeons,
 * a fifth of its speed there). So clrt-bench, when OpenBLAS chose a core
 * older than the best this build has for the CPU (bench/reference/openblas_core.h) and
 * the user did not set OPENBLAS_CORETYPE, starts itself again once with it
 * set to that core, and says so. A user's OPENBLAS_CORETYPE is respected,
 * and reported when it is older than the best. */
#ifndef CLRT_TOOLS_BENCH_OPENBLAS_FORCE_H
#define CLRT_TOOLS_BENCH_OPENBLAS_FORCE_H

#include "reference/openblas_core.h"

/* Set in the restarted process's environment to the core OpenBLAS chose by
 * itself: how the restarted process knows it was forced, and never restarts. */
#define BENCH_OPENBLAS_CHOSE_ENV "CLRT_BENCH_OPENBLAS_CHOSE"
/* For tests: act as if OpenBLAS had chosen this core, so the restart can be
 * checked on a CPU that OpenBLAS knows. */
#define BENCH_OPENBLAS_PRETEND_ENV "CLRT_BENCH_TEST_OPENBLAS_CHOICE"

/* First thing in main (before any thread starts): fill the state and, when
 * OpenBLAS's own choice is older than the best and OPENBLAS_CORETYPE is
 * unset, replace the process with itself (argv as given) under the best core.
 * Returns when nothing is to be done, or when the restart failed (the note
 * says so). No-op without OpenBLAS. */
void bench_openblas_settle(char **argv);
/* Only fill the state: the core that runs, the best, who set it. */
void bench_openblas_inspect(void);
const bench_openblas_state *bench_openblas_state_get(void);

#endif
