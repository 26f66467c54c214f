/*
 * clrt — user kernels: your own OpenCL C, compiled for the context's device
 * and launched on a clrt queue over clrt buffers.
 *
 * Part of the clrt API; <clrt/clrt.h> includes it, so include that.
 */
#ifndef CLRT_CLRT_KERNEL_H
#define CLRT_CLRT_KERNEL_H

#include "clrt/clrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup kernel User kernels
 *  Compile OpenCL C source for a context's device, take kernels from it by
 *  name, set their arguments and launch them over 1 to 3 dimensions.
 *
 *  @code
 *  static const char *src =
 *      "__kernel void saxpy(const uint n, const float a,\n"
 *      "                    __global const float *x, __global float *y) {\n"
 *      "    size_t i = get_global_id(0);\n"
 *      "    if (i < n) y[i] = a * x[i] + y[i];\n"
 *      "}\n";
 *  clrt_program *p;  clrt_kernel *k;
 *  clrt_program_create(&p, ctx, src, "-cl-fast-relaxed-math");
 *  clrt_kernel_create(&k, p, "saxpy");
 *  clrt_program_destroy(p);                  // the kernel keeps it alive
 *  unsigned n = 1000; float a = 2.0f;        // scalars as OpenCL C has them: uint, float
 *  clrt_kernel_set_scalar(k, 0, sizeof n, &n);
 *  clrt_kernel_set_scalar(k, 1, sizeof a, &a);
 *  clrt_kernel_set_buffer(k, 2, x);          // clrt_buffer *, 1 x 1000 float32
 *  clrt_kernel_set_buffer(k, 3, y);
 *  size_t global = 1000, local = 64;         // 1000 is not a multiple of 64:
 *  clrt_kernel_launch_rounded(q, k, 1, &global, &local);  // runs 1024 work-items
 *  clrt_kernel_destroy(k);
 *  @endcode
 *
 *  Programs. The compiled program is kept in the context's program cache,
 *  keyed by source and options, for the context's whole life: creating the
 *  same program again (even after destroying it) does not compile again. A
 *  program that fails to compile gives CLRT_EBUILD, with the driver's full
 *  build log in clrt_error_message(). clrt adds "-cl-kernel-arg-info" to the
 *  options so that it can check arguments against the kernel's declaration;
 *  where the build fails with it but not without it (NVIDIA's compiler does,
 *  for a program holding a kernel without arguments), the program is built
 *  with the caller's options alone and arguments are checked by size only.
 *  Headers the source includes (found in -I folders or the working folder)
 *  are read when the program is built; across contexts and processes, the
 *  on-disk program cache keys on their contents, and does not cache a program
 *  whose includes it cannot follow (docs/tuning.md, "The program cache");
 *  when it could follow them, the driver also gets the define
 *  CLRT_INCLUDES_HASH (the headers' hash), so that a driver's own cache sees
 *  a header change too.
 *
 *  Arguments. Each argument is set once and stays set for later launches until
 *  set again. clrt tracks which are set: launching with one unset is
 *  CLRT_EINVAL, not a driver crash. A buffer set as an argument is kept alive
 *  by the kernel (the OpenCL memory is retained) until the argument is set to
 *  something else or the kernel is destroyed, so destroying the buffer early
 *  cannot make a launch touch freed memory. Where the driver describes the
 *  kernel's arguments (it does for programs built from source; programs that a
 *  driver loads from clrt's on-disk cache may come without), clrt also checks
 *  the kind of each argument (a __global or __constant pointer takes a buffer,
 *  a __local pointer a local size, anything else a scalar), the size of a
 *  scalar of a built-in type (char .. double, and their vectors), and that a
 *  pointer's element type, by its name, matches the buffer's dtype: float
 *  (and float2 .. float16) takes CLRT_FLOAT32, double CLRT_FLOAT64, int and
 *  uint CLRT_INT32 (else CLRT_ESHAPE); pointers to other types (char, short,
 *  long, half, a struct or a typedef's name) take any buffer. Without that
 *  description (a driver that gives none, or the build without
 *  -cl-kernel-arg-info above) the driver's own checks remain, and they do not
 *  see dtypes.
 *
 *  Scalars are passed as their OpenCL C types: int is cl_int, uint cl_uint,
 *  long cl_long (8 bytes), float4 cl_float4, and size_t is not allowed in a
 *  kernel signature.
 *
 *  Threads. Programs may be shared freely. A kernel may be used from several
 *  threads: every call on it is serialised by the kernel's lock, and a launch
 *  uses the arguments as they are at that moment. But arguments are state of
 *  the kernel, so two threads that each set arguments and launch would see
 *  each other's values: give each such thread its own clrt_kernel (creating
 *  another from the same program is cheap; it does not compile), or set the
 *  arguments once and then only launch from several threads.
 *
 *  Launch geometry. global[i] is the number of work-items in dimension i and
 *  local[i] the work-group size (NULL: the driver chooses). clrt_kernel_launch
 *  keeps the OpenCL 1.2 rule that each global[i] is a multiple of local[i]
 *  (else CLRT_EINVAL, saying which dimension);
 *  clrt_kernel_launch_rounded instead rounds each global[i] up to the next
 *  multiple, and the kernel must then skip the work-items beyond the real size
 *  (pass the size as an argument and return early, as saxpy above does).
 *  @{ */

/** A compiled OpenCL program of one context. */
typedef struct clrt_program clrt_program;
/** One kernel of a program, with its arguments. */
typedef struct clrt_kernel clrt_kernel;

/** Compile OpenCL C source for ctx's device, or take it from the context's
 *  program cache when the same source and options were compiled before.
 *  @param out      set to the new program; NULL on failure
 *  @param ctx      the context whose device runs the program
 *  @param source   OpenCL C source, NUL-terminated, not empty; copied
 *  @param options  build options ("-DN=4 -cl-fast-relaxed-math"); NULL means none.
 *                  Checked before the driver sees them, words split as a shell
 *                  does ("-D N" is given to the driver as "-DN")
 *  @return CLRT_OK; CLRT_EINVAL for a NULL or empty argument or a destroyed
 *          context, or options that some driver crashes the process on (a -D or
 *          -I without its word, a quote left open; on rusticl and Oclgrind also
 *          what only they crash on, a word that is not an option among it: the
 *          table in docs/drivers.md), naming the option; CLRT_EBUILD when the
 *          source does not compile or the driver rejects the options (the build
 *          log is in clrt_error_message());
 *          CLRT_EDEVICE on a failed context; CLRT_ENOMEM, CLRT_EOPENCL. */
CLRT_API int clrt_program_create(clrt_program **out, clrt_context *ctx, const char *source,
                                 const char *options);
/** Give the program up. Kernels created from it keep it alive until the last
 *  of them is destroyed, so it may be destroyed right after creating them.
 *  NULL is a no-op. The compiled code stays in the context's cache. */
CLRT_API void clrt_program_destroy(clrt_program *program);

/** Create the kernel called name (a __kernel function of the program).
 *  @return CLRT_OK; CLRT_EINVAL for a NULL argument, a destroyed program or a
 *          name the program does not have (the message lists the kernels it
 *          has); CLRT_EDEVICE on a failed context; CLRT_ENOMEM, CLRT_EOPENCL. */
CLRT_API int clrt_kernel_create(clrt_kernel **out, clrt_program *program, const char *name);
/** Release the kernel and the buffers its arguments kept alive. Work already
 *  launched still completes. NULL is a no-op. */
CLRT_API void clrt_kernel_destroy(clrt_kernel *kernel);
/** The number of arguments the kernel takes; 0 for NULL. */
CLRT_API unsigned clrt_kernel_num_args(const clrt_kernel *kernel);
/** The largest work-group (product of the local sizes) this kernel can be
 *  launched with on its device (CL_KERNEL_WORK_GROUP_SIZE); 0 for NULL. */
CLRT_API size_t clrt_kernel_work_group_size(const clrt_kernel *kernel);

/** Set argument index to a buffer: a __global or __constant pointer argument.
 *  @return CLRT_OK; CLRT_EINVAL for a NULL kernel or buffer, an index out of
 *          range, a buffer of another context, or an argument that is not a
 *          __global or __constant pointer; CLRT_ESHAPE when the argument points
 *          to float, double, int or uint (or their vectors) and buf is not
 *          CLRT_FLOAT32, CLRT_FLOAT64, CLRT_INT32 respectively (checked where
 *          the driver describes the arguments: see Arguments above). */
CLRT_API int clrt_kernel_set_buffer(clrt_kernel *kernel, unsigned index, clrt_buffer *buf);
/** Set argument index to size bytes copied from value (a scalar, vector or
 *  struct passed by value).
 *  @return CLRT_OK; CLRT_EINVAL for a NULL kernel or value, a zero size, an
 *          index out of range, a pointer argument, or a size that differs from
 *          the argument's type (where the driver says what that type is). */
CLRT_API int clrt_kernel_set_scalar(clrt_kernel *kernel, unsigned index, size_t size, const void *value);
/** Set a __local pointer argument to bytes of local memory per work-group.
 *  @return CLRT_OK; CLRT_EINVAL for a NULL kernel, zero bytes, an index out of
 *          range or an argument that is not a __local pointer; CLRT_ENOMEM for
 *          more bytes than the device's local memory. */
CLRT_API int clrt_kernel_set_local(clrt_kernel *kernel, unsigned index, size_t bytes);

/** Enqueue the kernel on q over dims dimensions; not waited for.
 *  @param q       a queue of the kernel's context
 *  @param kernel  with every argument set
 *  @param dims    1, 2 or 3
 *  @param global  dims work-item counts, each > 0
 *  @param local   dims work-group sizes, each > 0 and dividing global[i]; or
 *                 NULL to let the driver choose (or to use the kernel's
 *                 reqd_work_group_size attribute when it has one)
 *  @return CLRT_OK; CLRT_EINVAL for a NULL or foreign handle, a queue of
 *          another context, dims not in 1..3, a NULL global, a zero size, a
 *          global[i] that local[i] does not divide, a local size that differs
 *          from the kernel's reqd_work_group_size, or an argument not set;
 *          CLRT_EUNSUPPORTED for a work-group larger than the device allows
 *          (in one dimension, or clrt_kernel_work_group_size() in all);
 *          CLRT_ENOMEM when the kernel's local memory exceeds the device's;
 *          CLRT_EDEVICE on a failed context. */
CLRT_API int clrt_kernel_launch(clrt_queue *q, clrt_kernel *kernel, unsigned dims, const size_t *global,
                                const size_t *local);
/** Like clrt_kernel_launch, but each global[i] is rounded up to a multiple of
 *  local[i] instead of refused; the kernel must ignore the extra work-items.
 *  With local NULL, clrt picks the work-group: the kernel's
 *  reqd_work_group_size when it has one, else in dimension 0 the device's
 *  preferred multiple for this kernel (CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
 *  within the kernel's limit) and 1 in the others.
 *  @return as clrt_kernel_launch; CLRT_EINVAL also when a rounded size
 *          would overflow size_t. */
CLRT_API int clrt_kernel_launch_rounded(clrt_queue *q, clrt_kernel *kernel, unsigned dims,
                                        const size_t *global, const size_t *local);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLRT_CLRT_KERNEL_H */
