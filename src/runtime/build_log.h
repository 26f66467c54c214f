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
 * when neither. cached: it came from clrt's program cache. The report waits
 * until this thread holds no lock of clrt's (below). */
void clrt__build_log(const clrt_context *ctx, const clrt__build_what *what, double seconds, int cached);

/* Around every lock that is held while a build may run (the context's
 * program lock, its built-in kernels' lock, a queue's scratch lock): hold
 * before taking it, release after letting it go. Reports of the builds made
 * meanwhile wait, and the release that leaves this thread holding none hands
 * them to the callback. So the callback runs with no lock of clrt's held by
 * its thread, and may call clrt on the context that built (a callback run
 * under the lock that its own call takes again would wait forever), and a
 * call it makes on the same queue cannot come between an operation's use of
 * the queue's scratch memory and the launches that read it. */
void clrt__log_hold(void);
void clrt__log_release(void);

#endif
