/* Test seams: live-handle accounting and OpenCL fault injection. Internal:
 * not installed and not exported from the shared library; tests link the
 * static library to reach them. */
#ifndef CLRT_DEBUG_H
#define CLRT_DEBUG_H

#include "opencl.h"
#include "params.h"

/* Live objects the library created and has not released yet. Sanitizer
 * suppressions for driver noise also hide leaked cl_mem, so these counts are
 * the real leak check: every test asserts zero at teardown. */
enum clrt_live_kind {
    CLRT_LIVE_CONTEXT,
    CLRT_LIVE_QUEUE,
    CLRT_LIVE_BUFFER,
    CLRT_LIVE_PROGRAM, /* cached cl_programs, and clrt_program handles */
    CLRT_LIVE_KERNEL,  /* built-in cl_kernels, and clrt_kernel handles */
    CLRT_LIVE_SCRATCH, /* a queue's scratch cl_mem (packed B for matmul), freed with it */
    CLRT_LIVE_KINDS
};
long clrt_debug_live(int kind);
long clrt_debug_live_total(void);
void clrt__live(int kind, int delta);

/* Each OpenCL call that can fail is preceded by clrt__fault(site). When armed,
 * the nth such call of that site (1 = the next one) returns code instead of
 * reaching OpenCL; the injection then disarms itself. */
enum clrt_fault_site {
    CLRT_FAULT_PLATFORM_IDS,
    CLRT_FAULT_DEVICE_IDS,
    CLRT_FAULT_CREATE_CONTEXT,
    CLRT_FAULT_CREATE_QUEUE,
    CLRT_FAULT_CREATE_BUFFER,
    CLRT_FAULT_WRITE,
    CLRT_FAULT_READ,
    CLRT_FAULT_CREATE_PROGRAM,
    CLRT_FAULT_BUILD,
    CLRT_FAULT_CREATE_KERNEL, /* clCreateKernel; for user kernels also the queries after it */
    CLRT_FAULT_SET_ARG,
    CLRT_FAULT_ENQUEUE_KERNEL,
    CLRT_FAULT_FINISH,
    CLRT_FAULT_SITES
};
void clrt_debug_fault_arm(int site, unsigned nth, cl_int code);
void clrt_debug_fault_clear(void);
/* How many calls of site were made since the last arm/clear (to find an N). */
unsigned long clrt_debug_fault_calls(int site);
cl_int clrt__fault(int site);

/* Disk program cache outcomes since the process started: hits, plain misses
 * (no entry, or another key's), and rejected entries (corrupt, refused). */
void clrt_debug_cache_stats(unsigned long *hits, unsigned long *misses, unsigned long *rejected);
void clrt__cache_count(int outcome); /* 0 hit, 1 miss, 2 rejected */

/* Kernel parameters to use instead of the device defaults for contexts whose
 * kernels are built from now on (NULL: back to the defaults). Lets tests run
 * every kernel variant on every device, Oclgrind included. */
void clrt_debug_override_matmul(const clrt_matmul_params *p);
/* The most bytes of scratch a queue may hold for packing B (0: back to the library's
 * default). A small value makes matmul pack in several launches. */
void clrt_debug_pack_scratch_max(size_t bytes);
/* The scratch limit matmul packs B within on dev: the seam's value when set,
 * else clrt_matmul_pack_scratch_max(dev). */
size_t clrt__pack_scratch_max(const clrt_device_facts *dev);
void clrt_debug_override_add(const clrt_add_params *p);
/* 1 and *out filled when an override is set. */
int clrt__override_matmul(clrt_matmul_params *out);
int clrt__override_add(clrt_add_params *out);

#endif
