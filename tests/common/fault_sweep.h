/* The fault sweep shared by the device suites: one user's session run again
 * and again, each time with one OpenCL call failing (src/base/debug.h's
 * clrt__fault seam), until every call of every chosen site has failed once;
 * each run must give its named status and leave nothing alive. */
#ifndef CLRT_TESTS_COMMON_FAULT_SWEEP_H
#define CLRT_TESTS_COMMON_FAULT_SWEEP_H

#include <clrt/clrt.h>

#include "base/debug.h"

/* One user's session on a context of its own, stopping at the first failure
 * and always cleaning up: the first failing status, or CLRT_OK with its
 * results checked. */
typedef int (*tu_session_fn)(void);
/* Given the calls per site of the session run once without a fault, assert
 * that it reaches what the sweep is meant to test. */
typedef void (*tu_fault_calls_fn)(const unsigned long calls[CLRT__FAULT_SITES]);
/* The status the session must give when call nth of site fails, knowing the
 * status it gave (for outcomes that depend on the machine). */
typedef int (*tu_fault_expect_fn)(int site, unsigned long nth, int got);

/* A session's opening: a context on the default device and a queue on it in
 * *ctx and *q. The first failing status; what was made stays there (the rest
 * NULL) for the session's own cleanup. */
int tu_session_open(clrt_context **ctx, clrt_queue **q);

/* Run session once without a fault (it must give CLRT_OK) to count its calls
 * per site, and pass the counts to check_calls (when not NULL); then, for each
 * site from first_site up to (not including) end_site and each of its calls,
 * run it again with that call failing with CL_OUT_OF_RESOURCES: fail the test,
 * naming the call, unless the status is expect's (NULL: tu_fault_expected's)
 * and the live handles are back to what they were before the sweep. Prints
 * how many sessions ran with a fault, ends with one more clean session
 * (nothing stuck), and returns that count. Main thread only (cmocka asserts). */
unsigned tu_fault_sweep(tu_session_fn session, int first_site, int end_site, tu_fault_calls_fn check_calls,
                        tu_fault_expect_fn expect);

/* The status a plain session gets when one call at site fails with
 * CL_OUT_OF_RESOURCES: CLRT_ENODEVICE for the device query (the platform is
 * skipped), CLRT_EDEVICE for the late sites (a transfer, clFinish, an event
 * wait: a kernel died, the context is failed), CLRT_EOPENCL for a launch (a
 * work-group the device cannot hold, not memory), CLRT_ENOMEM for the rest. */
int tu_fault_expected(int site);

/* The OpenCL call behind a fault site ("clCreateBuffer"), for messages. */
const char *tu_fault_site_call(int site);

#endif
