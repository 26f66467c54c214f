/*
 * clrt — interop with plain OpenCL: the raw OpenCL objects behind clrt
 * handles, so that a program can mix clrt with its own OpenCL calls or with
 * libraries such as CLBlast on the same device, queue and memory.
 *
 * The only clrt header that includes <CL/cl.h>. It targets OpenCL 1.2 unless
 * CL_TARGET_OPENCL_VERSION is defined before it is included.
 */
#ifndef CLRT_CLRT_CL_H
#define CLRT_CLRT_CL_H

#include "clrt/clrt.h"

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#if defined(__APPLE__)
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup interop OpenCL interop
 *  The raw cl_context, cl_device_id, cl_command_queue, cl_mem and cl_program
 *  of clrt handles.
 *
 *  Ownership: clrt keeps it. Each object lives as long as the clrt handle it
 *  came from (the program: as long as its context). Do not release it; to
 *  keep it longer, clRetain* it yourself and clRelease* it when done.
 *
 *  Rules that keep clrt's promises true:
 *    - A clrt queue is an in-order queue, and clrt operations (clrt_add,
 *      clrt_matmul, clrt_kernel_launch) are enqueued on it without waiting.
 *      Work you enqueue on the same cl_command_queue runs after clrt's earlier
 *      work and before its later work. On another queue, order it yourself:
 *      clrt_queue_finish(), or clFinish/events.
 *    - A clrt buffer is rows * cols elements of its dtype (4 or 8 bytes),
 *      row-major, from offset 0, no padding: a matrix with leading dimension
 *      cols, as CLBlast's row-major layout expects.
 *    - Do not change a clrt object's properties (a buffer's size, the
 *      context's devices) and do not release it.
 *    - Failures of your own OpenCL calls are yours to handle; clrt only knows
 *      about failures of its own calls.
 *
 *  @code
 *  // CLBlast on clrt's device, queue and memory: C = A B, row-major MxK, KxN
 *  cl_command_queue cq = clrt_queue_cl(q);
 *  CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo,
 *               M, N, K, 1.0f, clrt_buffer_cl(a), 0, K, clrt_buffer_cl(b), 0, N,
 *               0.0f, clrt_buffer_cl(c), 0, N, &cq, NULL);
 *  clrt_buffer_read(q, c, host_c, M * N);   // same queue: runs after the sgemm
 *  @endcode
 *
 *  Each getter returns NULL for a NULL or foreign handle (and sets
 *  clrt_error_message()).
 *  @{ */

/** The context's cl_context (one device). */
CLRT_API cl_context clrt_context_cl(const clrt_context *ctx);
/** The context's device. */
CLRT_API cl_device_id clrt_context_cl_device(const clrt_context *ctx);
/** The queue's in-order cl_command_queue, on the context's device. */
CLRT_API cl_command_queue clrt_queue_cl(const clrt_queue *q);
/** The buffer's cl_mem: rows * cols elements, CL_MEM_READ_WRITE. */
CLRT_API cl_mem clrt_buffer_cl(const clrt_buffer *buf);
/** The program's cl_program, built for the context's device. Shared with
 *  every clrt_program of the same source and options in that context, and
 *  alive until the context is released. */
CLRT_API cl_program clrt_program_cl(const clrt_program *program);
/** The cl_kernel of ctx's built-in kernel (a name clrt_tune_kernel_name()
 *  lists: "add", "matmul") for dtype, built now if it is not yet: for
 *  benchmarks that time clrt against a raw enqueue of the very same code.
 *  Launch it with the geometry its parameters ask for (clrt_tune_current(),
 *  and the launch rule in its cl/ source). clrt sets its arguments from its
 *  own calls: take a second kernel from its program (CL_KERNEL_PROGRAM,
 *  clCreateKernel) rather than changing this one's. NULL for an unknown
 *  kernel or dtype, a device without fp64 for CLRT_FLOAT64, or a build failure
 *  (clrt_error_message() says which). */
CLRT_API cl_kernel clrt_context_kernel_cl(clrt_context *ctx, const char *kernel, clrt_dtype dtype);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLRT_CLRT_CL_H */
