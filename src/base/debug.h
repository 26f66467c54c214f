/* Test seams: live-handle counters, OpenCL fault injection, and counts of
 * what the disk caches did. Internal: not installed and not exported from the
 * shared library; tests link the static library to reach them. Each costs one
 * relaxed atomic operation per call when unused. */
#ifndef CLRT_BASE_DEBUG_H
#define CLRT_BASE_DEBUG_H

#include "base/opencl.h"

/* Live objects the library created and has not released yet. Sanitizer
 * suppressions for driver noise also hide leaked cl_mem, so these counts are
 * the real leak check: every test asserts zero at teardown. */
enum clrt__live_kind {
    CLRT__LIVE_CONTEXT,
    CLRT__LIVE_QUEUE,
    CLRT__LIVE_BUFFER,
    CLRT__LIVE_PROGRAM, /* cached cl_programs, and clrt_program handles */
    CLRT__LIVE_KERNEL,  /* built-in cl_kernels, and clrt_kernel handles */
    CLRT__LIVE_SCRATCH, /* a queue's scratch cl_mem (packed B for matmul), freed with it */
    CLRT__LIVE_EVENT,   /* clrt_event handles */
    CLRT__LIVE_KINDS
};
long clrt__debug_live(int kind);
long clrt__debug_live_total(void);
void clrt__live(int kind, int delta);

/* Each OpenCL call that can fail is preceded by clrt__fault(site). When armed,
 * the nth such call of that site (1 = the next one) returns code instead of
 * reaching OpenCL; the injection then disarms itself. */
enum clrt__fault_site {
    CLRT__FAULT_PLATFORM_IDS,
    CLRT__FAULT_DEVICE_IDS,
    CLRT__FAULT_CREATE_CONTEXT,
    CLRT__FAULT_CREATE_QUEUE,
    CLRT__FAULT_CREATE_BUFFER,
    CLRT__FAULT_WRITE,
    CLRT__FAULT_READ,
    CLRT__FAULT_CREATE_PROGRAM,
    CLRT__FAULT_BUILD,
    CLRT__FAULT_CREATE_KERNEL, /* clCreateKernel; for user kernels also the queries after it */
    CLRT__FAULT_SET_ARG,
    CLRT__FAULT_ENQUEUE_KERNEL,
    CLRT__FAULT_FINISH,
    /* The event sites come last: the fault sweeps of one plain session
     * (device_faults, device_elementwise) stop before them
     * (CLRT__FAULT_SESSION_SITES); device_events sweeps its own. */
    CLRT__FAULT_MARKER,     /* clEnqueueMarkerWithWaitList, clEnqueueBarrierWithWaitList */
    CLRT__FAULT_EVENT_WAIT, /* clWaitForEvents, and an event's execution status (its code as the status) */
    CLRT__FAULT_SITES,
    CLRT__FAULT_SESSION_SITES = CLRT__FAULT_MARKER
};
void clrt__debug_fault_arm(int site, unsigned nth, cl_int code);
/* Every call at site fails with code until clrt__debug_fault_clear (a
 * failure that retrying cannot get past). */
void clrt__debug_fault_arm_every(int site, cl_int code);
void clrt__debug_fault_clear(void);
/* The build log an injected CLRT__FAULT_BUILD failure reports (a static
 * string; NULL: an empty log, as a driver gives); cleared by
 * clrt__debug_fault_clear. clrt__fault_build_log: what program.c reports. */
void clrt__debug_fault_build_log(const char *log);
const char *clrt__fault_build_log(void);
/* How many calls of site were made since the last arm/clear (to find an N). */
unsigned long clrt__debug_fault_calls(int site);
cl_int clrt__fault(int site);

/* Disk program cache outcomes since the process started: hits, plain misses
 * (no entry, or another key's), and rejected entries (corrupt, refused). */
enum clrt__cache_outcome { CLRT__CACHE_HIT, CLRT__CACHE_MISS, CLRT__CACHE_REJECTED };
void clrt__debug_cache_stats(unsigned long *hits, unsigned long *misses, unsigned long *rejected);
void clrt__cache_count(int outcome);

/* Tuned parameters since the process started: entries put to use, files
 * ignored (corrupt, foreign, invalid), and tuned parameters that failed to
 * build or fit and fell back to the defaults. */
enum clrt__tuned_outcome { CLRT__TUNED_USED, CLRT__TUNED_IGNORED, CLRT__TUNED_FALLBACK };
void clrt__debug_tuned_stats(unsigned long *used, unsigned long *ignored, unsigned long *fallbacks);
void clrt__tuned_count(int outcome);

#endif
