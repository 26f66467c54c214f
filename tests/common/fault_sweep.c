/* The fault sweep shared by the device suites (see fault_sweep.h). */
#include "common/fault_sweep.h"

#include "common/test_util.h"

static const char *const site_call[CLRT__FAULT_SITES] = {
    [CLRT__FAULT_PLATFORM_IDS] = "clGetPlatformIDs",
    [CLRT__FAULT_DEVICE_IDS] = "clGetDeviceIDs",
    [CLRT__FAULT_CREATE_CONTEXT] = "clCreateContext",
    [CLRT__FAULT_CREATE_QUEUE] = "clCreateCommandQueue",
    [CLRT__FAULT_CREATE_BUFFER] = "clCreateBuffer",
    [CLRT__FAULT_WRITE] = "clEnqueueWriteBuffer",
    [CLRT__FAULT_READ] = "clEnqueueReadBuffer",
    [CLRT__FAULT_CREATE_PROGRAM] = "clCreateProgramWithSource",
    [CLRT__FAULT_BUILD] = "clBuildProgram",
    [CLRT__FAULT_CREATE_KERNEL] = "clCreateKernel",
    [CLRT__FAULT_SET_ARG] = "clSetKernelArg",
    [CLRT__FAULT_ENQUEUE_KERNEL] = "clEnqueueNDRangeKernel",
    [CLRT__FAULT_FINISH] = "clFinish",
    [CLRT__FAULT_MARKER] = "clEnqueueMarkerWithWaitList",
    [CLRT__FAULT_EVENT_WAIT] = "clWaitForEvents",
};

const char *tu_fault_site_call(int site)
{
    return site >= 0 && site < CLRT__FAULT_SITES ? site_call[site] : "(no such site)";
}

int tu_fault_expected(int site)
{
    switch (site) {
    case CLRT__FAULT_DEVICE_IDS:
        return CLRT_ENODEVICE;
    case CLRT__FAULT_WRITE:
    case CLRT__FAULT_READ:
    case CLRT__FAULT_FINISH:
    case CLRT__FAULT_EVENT_WAIT:
        return CLRT_EDEVICE;
    case CLRT__FAULT_ENQUEUE_KERNEL:
        return CLRT_EOPENCL;
    default:
        return CLRT_ENOMEM;
    }
}

int tu_session_open(clrt_context **ctx, clrt_queue **q)
{
    *ctx = NULL;
    *q = NULL;
    int s = clrt_context_create(ctx, NULL);
    if (s == CLRT_OK)
        s = clrt_queue_create(q, *ctx);
    return s;
}

/* Call nth of site failing: the status and the live handles checked. */
static void fail_one_call(tu_session_fn session, tu_fault_expect_fn expect, int site, unsigned long nth,
                          unsigned long calls, long live)
{
    clrt__debug_fault_arm(site, (unsigned)nth, CL_OUT_OF_RESOURCES);
    const int status = session();
    clrt__debug_fault_clear();
    const int want = expect ? expect(site, nth, status) : tu_fault_expected(site);
    if (status != want)
        fail_msg("%s call %lu of %lu failing with CL_OUT_OF_RESOURCES gave %s, expected %s: %s", site_call[site], nth,
                 calls, clrt_status_name(status), clrt_status_name(want), clrt_error_message());
    if (clrt__debug_live_total() != live)
        fail_msg("%s call %lu failing leaked %ld handle(s)", site_call[site], nth, clrt__debug_live_total() - live);
}

unsigned tu_fault_sweep(tu_session_fn session, int first_site, int end_site, tu_fault_calls_fn check_calls,
                        tu_fault_expect_fn expect)
{
    assert_true(first_site >= 0 && end_site <= CLRT__FAULT_SITES);
    const long live = clrt__debug_live_total(); /* a fixture's own, if any */
    clrt__debug_fault_clear();                  /* zeroes the call counts */
    TU_OK(session());
    unsigned long calls[CLRT__FAULT_SITES];
    for (int site = 0; site < CLRT__FAULT_SITES; site++)
        calls[site] = clrt__debug_fault_calls(site);
    if (check_calls)
        check_calls(calls);
    unsigned runs = 0;
    for (int site = first_site; site < end_site; site++)
        for (unsigned long nth = 1; nth <= calls[site]; nth++, runs++)
            fail_one_call(session, expect, site, nth, calls[site], live);
    print_message("fault sweep: %u sessions, one failed OpenCL call each\n", runs);
    TU_OK(session()); /* and nothing stuck afterwards */
    return runs;
}
