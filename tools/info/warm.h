/* clrt-info --warm [--jobs N] [SELECTOR]: fill the caches for a device
 * (clrt_warm_share), the plan shared among N processes, with progress on
 * stderr. */
#ifndef CLRT_TOOLS_INFO_WARM_H
#define CLRT_TOOLS_INFO_WARM_H

#include <stddef.h>

/* The exit status: 0, 1 when a step failed, 2 for a selector that matches
 * no device. jobs processes (this one and jobs - 1 started from it) each run
 * a share of the plan; if a helper cannot start, this one runs it alone. */
int info_warm(const char *selector, size_t jobs);

/* A helper's part (--warm-share I/N): share I of N, quiet, its count of
 * compiled programs on stdout for the first process; the same exit status. */
int info_warm_share(const char *selector, size_t share, size_t shares);

#endif
