/* The build log (clrt_set_log, $CLRT_LOG): each program build reported with
 * what was built, for which device, how long it took and where it came from,
 * so that a program (or a tool) can tell its user that kernels are being
 * compiled instead of leaving a silent first run. */
#ifndef CLRT_RUNTIME_BUILD_LOG_H
#define CLRT_RUNTIME_BUILD_LOG_H

#include "runtime/handles.h"

/* What a build is: the built-in kernel's name, dtype and variant options, or
 * "user", "" and "" for a program of the caller's. */
typedef struct clrt__build_what {
    const char *kernel, *dtype, *variant;
} clrt__build_what;

/* Seconds on a monotonic clock, for timing builds. */
double clrt__build_clock(void);

/* Report one build to the callback or, with $CLRT_LOG on, to stderr; nothing
 * when neither. cached: it came from clrt's program cache. */
void clrt__build_log(const clrt_context *ctx, const clrt__build_what *what, double seconds, int cached);

#endif
