/* This thread's failure message, and the status for an OpenCL error code. */
#ifndef CLRT_BASE_ERROR_H
#define CLRT_BASE_ERROR_H

#include "base/opencl.h"
#include "clrt/clrt.h"

#if defined(__GNUC__)
#define CLRT__PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define CLRT__PRINTF(fmt, args)
#endif

/* Record this thread's failure message ("<func>: <text>") and return status. */
int clrt__fail(int status, const char *func, const char *fmt, ...) CLRT__PRINTF(3, 4);
/* Same, appending "(<clcall> returned <CL_NAME> (<code>) on device '<dev>', <platform>)";
 * dev may be NULL (no device yet). */
int clrt__fail_cl(int status, const char *func, cl_int code, const char *clcall, const clrt_device_info *dev,
                  const char *fmt, ...) CLRT__PRINTF(6, 7);
/* Append text to this thread's message (build logs, device lists). */
void clrt__error_append(const char *text);
/* A caller bug that a void function (destroy) cannot return: set the message
 * as clrt__fail(CLRT_EINVAL, ...) would, and print it to stderr. */
void clrt__report(const char *func, const char *fmt, ...) CLRT__PRINTF(2, 3);
/* Empty this thread's message (tests: to see that a failure sets it). */
void clrt__error_clear(void);
/* This thread's message, set aside (the thread's message is then empty) and
 * put back: a log callback (runtime/build_log.h) may call clrt, failing or
 * not, without changing what the call that built reports. */
typedef struct clrt__stashed_message {
    char *text;
    size_t len, cap;
} clrt__stashed_message;
void clrt__error_stash(clrt__stashed_message *s);
void clrt__error_unstash(clrt__stashed_message *s);
/* The name of an OpenCL error code, e.g. "CL_OUT_OF_RESOURCES" (base/cl_names.c). */
const char *clrt__cl_error_name(cl_int code);
/* A status for an OpenCL error returned at creation or enqueue time. */
int clrt__status_from_cl(cl_int code);

/* The status and message text for a failed clEnqueueNDRangeKernel:
 * CL_OUT_OF_RESOURCES there is a work-group the device cannot hold
 * (CLRT_EOPENCL), not memory. */
int clrt__launch_status(cl_int code);
const char *clrt__launch_why(cl_int code);

#endif
