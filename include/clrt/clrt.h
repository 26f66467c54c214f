/*
 * clrt — a portable OpenCL compute runtime.
 *
 * Pick a device on any OpenCL implementation (NVIDIA, AMD, Intel, POCL on the
 * CPU), put dense matrices on it and run elementwise add and matrix multiply,
 * with kernels compiled at run time and parameters fitted to that device.
 *
 * Conventions
 *   - Every function is clrt_<object>_<verb>; output parameter first.
 *   - Functions return an int status: CLRT_OK (0) or a negative CLRT_E* code.
 *     clrt_error_message() then tells, for this thread, what failed in detail.
 *   - A failing call leaves nothing allocated, and a call refused for its
 *     arguments leaves its outputs untouched, except that an output handle
 *     pointer is set to NULL. (A read that fails on the device may have
 *     written part of its destination.)
 *   - Arguments are checked before the device's state: a bad argument is
 *     CLRT_EINVAL (or CLRT_ESHAPE...) even on a context that has failed.
 *   - *_destroy(NULL) is a no-op. Handles are opaque.
 *   - The caller owns what it creates. A context outlives its queues and
 *     buffers: destroying it while they live is reported (clrt_error_message
 *     and stderr) and the context is released when the last of them goes.
 *   - Use after destroy: every handle carries a tag that destroy overwrites,
 *     so a stale handle is refused (CLRT_EINVAL, or reported and ignored by
 *     *_destroy) as long as its memory is still the library's. That is the case
 *     for a context destroyed while its queues or buffers live: using it, or
 *     destroying it again, is caught. Otherwise destroy frees the handle, and
 *     using it or destroying it a second time is undefined behaviour that the
 *     library cannot detect (AddressSanitizer or valgrind will): set your
 *     pointer to NULL after destroying, since *_destroy(NULL) is a no-op.
 *   - Contexts, queues and buffers may be used from several threads.
 *     OpenCL objects are never shared unsafely between threads. Any number
 *     of threads may make a process's first clrt calls at once: device
 *     discovery is serialised inside clrt.
 *   - fork(): the OpenCL drivers keep threads that a forked child does not
 *     have. Once a process has made any clrt call that lists devices (device
 *     list, context creation), a child it forks must not use clrt or OpenCL
 *     at all: on POCL 3.1 and rusticl, the child's first enqueue blocks
 *     forever, on a context made before the fork or a new one made in the
 *     child alike. Such a child may exec (a new program starts clean). A
 *     process that forks before its first clrt call can use clrt in the
 *     parent and in the child, and the parent's contexts keep working after
 *     any fork.
 *   - Loading and unloading libclrt.so with dlopen/dlclose, many times, is
 *     supported; destroy every handle before unloading.
 *
 * The raw OpenCL objects behind the handles are in <clrt/clrt_cl.h>.
 */
#ifndef CLRT_CLRT_H
#define CLRT_CLRT_H

#include <stddef.h>
#include <stdint.h>

#include "clrt/clrt_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup version Version
 *  @{ */
/** Major version: changes break the API. */
#define CLRT_VERSION_MAJOR 0
/** Minor version: while MAJOR is 0, changes may break the API (the SONAME is MAJOR.MINOR). */
#define CLRT_VERSION_MINOR 1
/** Patch version: fixes only. */
#define CLRT_VERSION_PATCH 0
/** The version as one number, MAJOR*10000 + MINOR*100 + PATCH. */
#define CLRT_VERSION_NUMBER \
    (CLRT_VERSION_MAJOR * 10000 + CLRT_VERSION_MINOR * 100 + CLRT_VERSION_PATCH)
/** The version of the library actually linked, e.g. "0.1.0". */
CLRT_API const char *clrt_version(void);
/** @} */

/** @defgroup status Status codes
 *  Every function that can fail returns one of these. The list is an X-macro:
 *  X(name, value, sentence). Codes are stable; new ones are only appended.
 *  @{ */
/** X(name, value, sentence) for every status code: CLRT_OK, CLRT_EINVAL,
 *  CLRT_ESHAPE, CLRT_ENODEVICE, CLRT_ENOMEM, CLRT_EBUILD, CLRT_EUNSUPPORTED,
 *  CLRT_EDEVICE, CLRT_EOPENCL. */
#define CLRT_STATUS_MAP(X)                                                              \
    X(CLRT_OK, 0, "success")                                                            \
    X(CLRT_EINVAL, -1, "invalid argument: a NULL or foreign handle or pointer, "       \
                       "an unknown dtype, a zero or overflowing size, or a wrong count") \
    X(CLRT_ESHAPE, -2, "operands have incompatible shapes or dtypes")                  \
    X(CLRT_ENODEVICE, -3, "no OpenCL device matches the request")                      \
    X(CLRT_ENOMEM, -4, "out of memory on the host or the device")                      \
    X(CLRT_EBUILD, -5, "an OpenCL kernel failed to compile for the device")            \
    X(CLRT_EUNSUPPORTED, -6, "the device does not support this operation or dtype")    \
    X(CLRT_EDEVICE, -7, "the device failed while running work; the context is unusable") \
    X(CLRT_EOPENCL, -8, "an OpenCL call failed unexpectedly")

/** The status codes: 0 for success, negative for failures (see CLRT_STATUS_MAP
 *  for the sentence of each, and clrt_status_string()). */
enum clrt_status {
#define CLRT_STATUS_ENUM_(name, value, text) name = value,
    CLRT_STATUS_MAP(CLRT_STATUS_ENUM_)
#undef CLRT_STATUS_ENUM_
};

/** The code's name, e.g. "CLRT_ESHAPE"; "CLRT_UNKNOWN" for other values. Never NULL. */
CLRT_API const char *clrt_status_name(int status);
/** One human sentence describing the code. Never NULL. */
CLRT_API const char *clrt_status_string(int status);
/** This thread's last failure in detail: what failed, the OpenCL call and its
 *  code by name, the device, and for build failures the full build log.
 *  Empty string when nothing has failed on this thread. Never NULL. The text is
 *  valid until the next clrt call on this thread. */
CLRT_API const char *clrt_error_message(void);
/** How many objects clrt holds in this process right now: live contexts,
 *  queues, buffers, programs, kernels, events, and the OpenCL objects clrt
 *  keeps on their behalf (compiled programs, built-in kernels, a queue's
 *  scratch memory). For leak checks in tests and language bindings: once every
 *  handle a program made is destroyed, the count is back to what it was
 *  before its first clrt call (0). Never fails. */
CLRT_API long clrt_live_objects(void);
/** @} */

/** @defgroup device Devices
 *  Every device of every platform the OpenCL ICD loader knows, in one list.
 *
 *  Selector grammar (for clrt_context_create and $CLRT_DEVICE):
 *    - "N"        the index N as clrt_device_list / clrt-info print it
 *    - "P:D"      device D of platform P (P counts every platform the loader lists)
 *    - "gpu", "cpu", "accelerator"   the best-ranked device of that type
 *    - anything else: a case-insensitive substring of platform, vendor or device name;
 *      the best-ranked matching device is taken.
 *  Default ranking: GPU, then accelerator, then CPU; checking or emulating
 *  devices (Oclgrind, Mesa llvmpipe) below every native driver; then compute
 *  units x clock. A selector that matches nothing is an error, never a fall-back.
 *  @{ */
/** What kind of device: clrt_device_info::type. */
enum clrt_device_type {
    CLRT_DEVICE_CPU = 1,         /**< a CPU (POCL, Intel's CPU runtime, llvmpipe) */
    CLRT_DEVICE_GPU = 2,         /**< a GPU */
    CLRT_DEVICE_ACCELERATOR = 3, /**< an accelerator (FPGA, DSP, ...) */
    CLRT_DEVICE_OTHER = 4        /**< anything else (custom devices) */
};

/** One device, as clrt_device_list() and clrt_context_device() describe it. */
typedef struct clrt_device_info {
    size_t index;               /**< position in clrt_device_list order: selector "N" */
    unsigned platform_index;    /**< P of selector "P:D"; counts every platform, even empty ones */
    unsigned device_index;      /**< D of selector "P:D" */
    int type;                   /**< exactly one of enum clrt_device_type */
    char name[256];             /**< CL_DEVICE_NAME */
    char vendor[256];           /**< CL_DEVICE_VENDOR */
    char platform[256];         /**< CL_PLATFORM_NAME */
    char driver[256];           /**< CL_DRIVER_VERSION */
    unsigned compute_units;     /**< CL_DEVICE_MAX_COMPUTE_UNITS */
    uint64_t global_mem;        /**< bytes */
    uint64_t max_alloc;         /**< bytes: the largest single buffer */
    uint64_t local_mem;         /**< bytes */
    size_t max_work_group;      /**< work-items */
    int has_fp64;               /**< nonzero when CLRT_FLOAT64 buffers are possible */
} clrt_device_info;

/** Fill out[0..min(count, capacity)) and set *count to the number of devices.
 *  out may be NULL (with any capacity) to only count. No OpenCL platform
 *  installed is not an error: CLRT_OK and *count = 0. count must not be NULL. */
CLRT_API int clrt_device_list(clrt_device_info *out, size_t capacity, size_t *count);
/** The device a selector picks, as clrt_context_create() would pick it (NULL
 *  or blank: $CLRT_DEVICE, else the default ranking), without opening it:
 *  out->index is its clrt_device_list() index. CLRT_ENODEVICE as
 *  clrt_context_create() gives it. */
CLRT_API int clrt_device_select(const char *selector, clrt_device_info *out);
/** Nonzero for a checking or emulating device that the default ranking puts
 *  below every native driver (Oclgrind, Mesa's llvmpipe): correct, but not a
 *  device to measure speed on. 0 for NULL. */
CLRT_API int clrt_device_is_emulator(const clrt_device_info *info);
/** "cpu", "gpu", "accelerator" or "other" for a clrt_device_type (the words
 *  selectors take); "unknown" for anything else. Never NULL. */
CLRT_API const char *clrt_device_type_name(int type);
/** @} */

/** @defgroup context Contexts
 *  @{ */
/** A context: one device, with its compiled programs. */
typedef struct clrt_context clrt_context;

/** Open a context on one device. selector NULL or "" (or only blanks) means
 *  $CLRT_DEVICE when set, else the default ranking. CLRT_ENODEVICE when nothing matches (the
 *  message lists the devices that exist) or when no platform is installed. */
CLRT_API int clrt_context_create(clrt_context **out, const char *selector);
/** Release the context. Its queues and buffers should be destroyed first. */
CLRT_API void clrt_context_destroy(clrt_context *ctx);
/** The device the context runs on. */
CLRT_API int clrt_context_device(const clrt_context *ctx, clrt_device_info *out);
/** @} */

/** @defgroup queue Queues
 *  An in-order queue. Operations enqueued on it are asynchronous; a device
 *  failure may only show at clrt_queue_finish or clrt_buffer_read (or the
 *  blocking clrt_buffer_write, or a wait for an event: <clrt/clrt_event.h>),
 *  as CLRT_EDEVICE or CLRT_ENOMEM, after which
 *  the context is marked failed and every later call that does work on it
 *  (on any of its queues) returns CLRT_EDEVICE; it can still be destroyed.
 *  @{ */
/** An in-order command queue of a context. */
typedef struct clrt_queue clrt_queue;

/** Create a queue on ctx's device. CLRT_EINVAL for a NULL out or a NULL,
 *  foreign or destroyed context; CLRT_EDEVICE on a failed context. */
CLRT_API int clrt_queue_create(clrt_queue **out, clrt_context *ctx);
/** Block until everything enqueued on q has completed. */
CLRT_API int clrt_queue_finish(clrt_queue *q);
/** Waits for the queue's work, then releases it. Events recorded on it
 *  (<clrt/clrt_event.h>) stay handles to destroy, refused (CLRT_EINVAL) by
 *  every other call. */
CLRT_API void clrt_queue_destroy(clrt_queue *q);
/** @} */

/** @defgroup buffer Buffers
 *  A dense row-major rows x cols matrix on the device; a vector is 1 x n.
 *  @{ */
/** Element type of a buffer. */
typedef enum {
    CLRT_FLOAT32 = 1, /**< float, 4 bytes */
    CLRT_FLOAT64 = 2, /**< double, 8 bytes: needs a device with fp64 (clrt_device_info::has_fp64) */
    CLRT_INT32 = 3,   /**< int32_t, 4 bytes: labels and indices. Create, write, read, view, copy,
                           fill, transpose, argmax's output; arithmetic on it is CLRT_EUNSUPPORTED */
    CLRT_FLOAT16 = 4, /**< IEEE binary16, 2 bytes; host data for write and read is uint16_t holding its
                           bits. Storage on every device (no cl_khr_fp16 needed): create, write, read,
                           view, copy and clrt_convert() (to and from the float dtypes, rounded to
                           nearest even), fill and transpose; GEMM, elementwise and reductions
                           computed in float32 (docs/half.md: the elementwise calls read and
                           write it in one pass, the rest go through float32 copies); the
                           neural-network calls are CLRT_EUNSUPPORTED */
    CLRT_BFLOAT16 = 5 /**< bfloat16, 2 bytes: the top 16 bits of a float; host data is uint16_t.
                           Runs where CLRT_FLOAT16 does, the same way */
} clrt_dtype;

/** A dense row-major matrix on a context's device, or a view: a window of
 *  one (clrt_buffer_view() in <clrt/clrt_math.h>). */
typedef struct clrt_buffer clrt_buffer;

/** CLRT_EINVAL for a zero dimension, an unknown dtype or a byte size that
 *  overflows; CLRT_ENOMEM above the device's max_alloc (both before any
 *  OpenCL call); CLRT_EUNSUPPORTED for CLRT_FLOAT64 on a device without fp64.
 *  The contents start undefined. */
CLRT_API int clrt_buffer_create(clrt_buffer **out, clrt_context *ctx, clrt_dtype dtype,
                                size_t rows, size_t cols);
/** Release the buffer (or view). Work already enqueued that uses it still
 *  completes; views of it keep its memory alive. */
CLRT_API void clrt_buffer_destroy(clrt_buffer *buf);
/** 0 for NULL. */
CLRT_API size_t clrt_buffer_rows(const clrt_buffer *buf);
/** 0 for NULL. */
CLRT_API size_t clrt_buffer_cols(const clrt_buffer *buf);
/** 0 (not a dtype) for NULL. */
CLRT_API clrt_dtype clrt_buffer_dtype(const clrt_buffer *buf);

/** Copy count elements (of the buffer's dtype, row-major) from host memory.
 *  count must equal rows*cols. Returns when src may be reused. For a view,
 *  only its window is written (src holds rows*cols elements, dense). */
CLRT_API int clrt_buffer_write(clrt_queue *q, clrt_buffer *dst, const void *src, size_t count);
/** Copy count = rows*cols elements to host memory, after all earlier work on
 *  q; blocks until dst is filled. For a view, its window, dense. */
CLRT_API int clrt_buffer_read(clrt_queue *q, const clrt_buffer *src, void *dst, size_t count);
/** @} */

/** @defgroup builds Builds: the log, and warming the caches
 *  clrt compiles its kernels at run time for the device, once per process and
 *  set of parameters; the driver's build cache (and, where it pays, clrt's
 *  own: docs/tuning.md) keeps them for later processes. A first run on empty
 *  caches compiles; these calls say when, and let a program compile ahead.
 *  @{ */
/** Where a build came from. */
typedef enum clrt_build_source {
    CLRT_BUILD_COMPILED = 1,      /**< compiled by the driver: from source, or where clrt cannot
                                       tell (a driver other than POCL), perhaps from the driver's
                                       own cache; the line says which ("built from source", or
                                       "compiled by the driver; its own cache may have served it") */
    CLRT_BUILD_CACHED = 2,        /**< loaded from clrt's program cache on disk */
    CLRT_BUILD_DRIVER_CACHED = 3  /**< served by the driver's own cache: POCL's, whose folder shows
                                       the program used and none compiled during the build */
} clrt_build_source;
/** One program build, as the log reports it. The strings live until the
 *  callback returns. */
typedef struct clrt_build_event {
    const char *kernel;  /**< the built-in kernel ("matmul", "elementwise", ...), or "user" */
    const char *dtype;   /**< "float32", "float64", "int32"; "" for a user program */
    const char *variant; /**< the options that pick its variant ("-DTA=0 -DTB=1 ..."); "" for none */
    const char *device;  /**< the device's name */
    const char *cache_dir; /**< where this build is kept for later processes: clrt's
                                program cache or the driver's own folder; "" when unknown */
    double seconds;      /**< wall time of the build. POCL generates machine code at
                              a kernel's first launch, after this */
    clrt_build_source source; /**< compiled, loaded from clrt's cache, or served by the driver's */
    const char *uncached; /**< when cache_dir is "": why no cache keeps this build, when
                               known ("POCL's cache is off, every run compiles"); else "" */
} clrt_build_event;
/** Called once per build, on the thread that asked for it: the event and a
 *  one-line text of it ("clrt: built matmul float32 [...] for <device> in
 *  0.21 s (built from source)"; the parenthesis as clrt_build_source says).
 *  It is called once the build is over and the call that built holds no lock
 *  of clrt's, before that call returns: it may call any clrt function, on the
 *  context that built too (a build that its own calls make is reported by a
 *  call of the callback from inside it, so it must be reentrant), and its calls
 *  do not change clrt_error_message() as the call that built leaves it.
 *  docs/threads.md lists what runs user code and under which locks. */
typedef void (*clrt_log_fn)(const clrt_build_event *event, const char *line, void *user);
/** Report every later build to fn (NULL: stop). With no callback set and
 *  $CLRT_LOG on (1, on, yes, true), each build's line goes to stderr. Set it
 *  before builds run on other threads. */
CLRT_API void clrt_set_log(clrt_log_fn fn, void *user);
/** Progress of clrt_warm(): called after each step, with the steps done and
 *  in all and a few words naming the step ("gemm float32 NT 7x300x200"). */
typedef void (*clrt_progress_fn)(size_t done, size_t total, const char *what, void *user);
/** Build every built-in kernel and launch variant this library uses on ctx's
 *  device, running each once at small shapes on a queue of its own, so that
 *  later processes find them in the caches (the driver's, and clrt's where
 *  it keeps one): the math family in every dtype the device has, every
 *  transpose and thin-matrix variant of the product, the reductions, the
 *  transpose, and the neural-network layers at the article's CNN shapes. On
 *  empty caches it takes about two minutes (POCL on 2 cores); on warm ones,
 *  about a second. progress may be NULL. Returns CLRT_OK, or the first
 *  failure's status (the steps after it still run; the message is the
 *  first failure's). A CI job runs it once (clrt-info --warm) and keeps the
 *  cache folders between runs: docs/ci-with-pocl.md. */
CLRT_API int clrt_warm(clrt_context *ctx, clrt_progress_fn progress, void *user);
/** clrt_warm's steps shared among `shares` processes, each with its own
 *  context on the same device: this call runs steps share, share + shares,
 *  share + 2 shares, ... of the same plan, so that together they run every
 *  step once and fill the caches in parallel (POCL compiles independent
 *  programs about twice as fast on 2 cores that way). progress counts this
 *  share's steps. Processes, not threads of one process: POCL 3.1 can abort
 *  when launches of one kernel from several queues overlap. clrt-info --warm
 *  --jobs N does this. CLRT_EINVAL when shares is 0 or share >= shares;
 *  otherwise as clrt_warm. */
CLRT_API int clrt_warm_share(clrt_context *ctx, size_t share, size_t shares, clrt_progress_fn progress, void *user);
/** @} */

/** @defgroup ops Math
 *  Destination first; enqueued on q, not waited for. The kernels' parameters
 *  can be read, forced per context and tuned through <clrt/clrt_tune.h>.
 *  All operands belong to
 *  q's context (else CLRT_EINVAL) and have the same dtype (else CLRT_ESHAPE).
 *  @{ */
/** c = a + b elementwise; a, b, c of one shape (float32/float64). May run in
 *  place (c == a or c == b); a c that overlaps an input only in part is
 *  CLRT_EINVAL. clrt_binary(q, CLRT_OP_ADD, c, a, b) with more shapes. */
CLRT_API int clrt_add(clrt_queue *q, clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b);
/** c(MxN) = a(MxK) b(KxN) (float32/float64): clrt_gemm() with no transposes,
 *  alpha 1 and beta 0. c must not be a or b, nor share memory with them
 *  (CLRT_EINVAL, checked before contexts, dtypes and shapes). M, N and K above 2^32-1 are
 *  CLRT_EUNSUPPORTED (the kernels index rows with 32-bit counts).
 *  On CPU devices a large product first copies b, a slice at a time, into a
 *  scratch buffer that q keeps for later calls (at most a quarter of the
 *  device's cache size or 8 MiB, whichever is larger); clrt_queue_destroy
 *  frees it. Without that memory the product runs on b in place. */
CLRT_API int clrt_matmul(clrt_queue *q, clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b);
/** @} */

#ifdef __cplusplus
}
#endif

/* User kernels: clrt_program_*, clrt_kernel_*. */
#include "clrt/clrt_kernel.h"
/* The math family and views: clrt_gemm, clrt_binary, ..., clrt_buffer_view. */
#include "clrt/clrt_math.h"
#include "clrt/clrt_nn.h"
/* Events, asynchronous transfers, splitting a product across devices. */
#include "clrt/clrt_event.h"

#endif /* CLRT_CLRT_H */
