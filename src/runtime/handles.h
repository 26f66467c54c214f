/* The handles behind the public types (context, queue, buffer, program,
 * kernel), the checks every entry point makes on them, and the late-failure
 * state of a context. */
#ifndef CLRT_RUNTIME_HANDLES_H
#define CLRT_RUNTIME_HANDLES_H

#include <stdatomic.h>
#include <stddef.h>

#include "base/opencl.h"
#include "base/thread.h"
#include "clrt/clrt.h"
#include "device/device.h"

/* ---- handle tags: catch stale or foreign pointers while the memory is ours */
enum {
    CLRT__TAG_CONTEXT = 0x636c4358, /* "clCX" */
    CLRT__TAG_QUEUE = 0x636c5155,   /* "clQU" */
    CLRT__TAG_BUFFER = 0x636c4246,  /* "clBF" */
    CLRT__TAG_PROGRAM = 0x636c5047, /* "clPG" */
    CLRT__TAG_KERNEL = 0x636c4b4e,  /* "clKN" */
    CLRT__TAG_EVENT = 0x636c4556,   /* "clEV" */
    CLRT__TAG_DEAD = 0x64656164     /* written on destroy, before the memory is freed */
};

struct clrt__program_entry; /* runtime/program.c: the context's compiled programs */
struct clrt__kcache;        /* runtime/kcache.c: the context's built-in kernels */
struct clrt__scratch;       /* runtime/scratch.c: a queue's scratch */

struct clrt_context {
    unsigned tag;
    atomic_int refs;      /* the user's reference + one per live queue/buffer/program */
    atomic_int destroyed; /* the user called clrt_context_destroy */
    atomic_int failed;    /* a late device error happened: refuse further work */
    atomic_int failing;   /* claimed by the one thread that writes failure[] */
    cl_context cl;
    cl_device_id device;
    cl_platform_id platform;
    clrt_device_info info;
    clrt__device_facts facts;
    clrt_mutex lock; /* guards programs */
    struct clrt__program_entry *programs;
    struct clrt__kcache *kernels;
    /* clrt_convert's kernels (math/convert.c) by source and destination dtype,
     * made on first use; their arguments are set and the launch enqueued under
     * convert_lock, which no build is made under */
    cl_kernel convert[CLRT_BFLOAT16 + 1][CLRT_BFLOAT16 + 1]; /* [src dtype][dst dtype] */
    clrt_mutex convert_lock;
    /* set by the tuner on a candidate's context: its programs are built once
     * and thrown away, so they skip the disk cache (on POCL a stored binary
     * costs a build of its own, ~2.5 s a matmul candidate on a cold cache,
     * and the user's cache would fill with entries never read again) */
    int no_disk_cache;
    /* clrt_warm is filling the caches on this context: programs are stored
     * even where storing costs the driver a build (POCL) */
    atomic_int warming;
    char failure[512]; /* what made the context fail, for later calls */
};

struct clrt_queue {
    unsigned tag;
    /* the user's reference + one per live event: the struct outlives
     * clrt_queue_destroy while events of it live, so that they can tell
     * (by its tag) that their queue is gone */
    atomic_int refs;
    int profiling; /* created with CL_QUEUE_PROFILING_ENABLE */
    clrt_context *ctx;
    cl_command_queue cl;
    /* device memory operations keep between calls (runtime/scratch.h): every
     * slot, NULL until the first use; the lock (recursive) is held from an
     * operation's first use of a slot to its last enqueue that reads it */
    clrt_mutex scratch_lock;
    struct clrt__scratch *scratch;
};

/* A buffer or a view: element (r, c) is at offset + r * ld + c of cl. A buffer
 * has offset 0 and ld = cols; a view shares (and retains) its parent's cl,
 * with the parent's ld; a reshape (clrt_buffer_reshape) shares it with its
 * own ld = cols, so two handles of one cl may have different strides. */
struct clrt_buffer {
    unsigned tag;
    clrt_context *ctx;
    cl_mem cl;
    clrt_dtype dtype;
    size_t rows, cols;
    size_t offset, ld; /* elements */
    size_t elem;       /* bytes per element */
    int is_view;
};

struct clrt_program {
    unsigned tag;
    atomic_int refs;      /* the user's reference + one per live kernel */
    atomic_int destroyed; /* the user called clrt_program_destroy */
    clrt_context *ctx;    /* retained */
    cl_program cl;        /* owned by ctx's program cache */
};

/* A marker or an asynchronous transfer's completion (runtime/event.c). */
struct clrt_event {
    unsigned tag;
    clrt_queue *queue; /* retained (the struct; OpenCL retains the cl queue for cl) */
    cl_event cl;
};

struct clrt_kernel_arg; /* runtime/user_kernel.c */

struct clrt_kernel {
    unsigned tag;
    clrt_program *program; /* retained */
    cl_kernel cl;
    char *name;
    unsigned nargs;
    struct clrt_kernel_arg *args;
    int arg_info;          /* the driver described the arguments */
    size_t wg_size;        /* CL_KERNEL_WORK_GROUP_SIZE */
    size_t reqd_wg[3];     /* reqd_work_group_size, all 0 when none */
    size_t pref_multiple;  /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE */
    size_t max_items[3];   /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
    cl_ulong static_local; /* local memory the kernel uses besides its __local arguments */
    clrt_mutex lock;       /* guards args and the cl_kernel's argument state */
};

/* ---- validation (runtime/validate.c): every check happens before any OpenCL call.
 * The handle checks look at the handle only; clrt__check_usable, called
 * after every argument has been checked and just before the first OpenCL
 * call, refuses work on a context that failed late (CLRT_EDEVICE), so that a
 * bad argument is CLRT_EINVAL whatever state the device is in. */
int clrt__check_context(const clrt_context *ctx, const char *func);
int clrt__check_queue(const clrt_queue *q, const char *func);
int clrt__check_usable(const clrt_context *ctx, const char *func);
int clrt__check_buffer(const clrt_buffer *b, const char *func, const char *what);
int clrt__check_program(const clrt_program *p, const char *func);
/* A live event whose queue is live too (an event of a destroyed queue is
 * CLRT_EINVAL). */
int clrt__check_event(const clrt_event *ev, const char *func, const char *what);
/* dtype is 16-bit storage (CLRT_FLOAT16, CLRT_BFLOAT16): create, write, read,
 * view, copy and clrt_convert only; every other operation refuses it with
 * clrt__refuse_16bit (CLRT_EUNSUPPORTED) before anything else about it. */
int clrt__is_16bit(clrt_dtype dtype);
int clrt__refuse_16bit(const char *func);
/* rows*cols*elem into *bytes; 0 on success, -1 on a zero dimension or overflow. */
int clrt__matrix_bytes(size_t rows, size_t cols, size_t elem, size_t *bytes);
/* Its elements are one run of memory (a whole buffer, a row, or a view as
 * wide as its parent): an operation may treat it as 1 x rows*cols. */
int clrt__contiguous(const clrt_buffer *b);
/* a and b are the same window of the same memory. */
int clrt__same_window(const clrt_buffer *a, const clrt_buffer *b);
/* a and b share at least one element. */
int clrt__overlap(const clrt_buffer *a, const clrt_buffer *b);
/* In-place rule of the elementwise family: out may be an input's very window,
 * never a part of it. CLRT_OK, or CLRT_EINVAL with the message naming the
 * input (what). */
int clrt__check_in_place(const clrt_buffer *out, const clrt_buffer *in, const char *what, const char *func);

/* A late failure (finish, read, enqueue): mark the context failed; returns the
 * status for code (CLRT_ENOMEM or CLRT_EDEVICE) with the message set. */
int clrt__context_fail_late(clrt_context *ctx, const char *func, cl_int code, const char *clcall);

/* On an emulator (Oclgrind, llvmpipe), write zeros from the host over the
 * first bytes of m, a buffer just made for q's scratch; elsewhere nothing.
 * Why: Oclgrind (21.10) never frees the shadow memory of a released buffer, so
 * a new buffer that gets a released one's id keeps its size, and what kernels
 * write past that size still reads as uninitialised (a false report; see
 * docs/nn.md). A host write sizes the shadow anew. CL_SUCCESS or the OpenCL
 * error (the caller reports it). */
cl_int clrt__zero_on_emulator(clrt_queue *q, cl_mem m, size_t bytes);
/* clrt_buffer_create for a context the caller has already checked (a queue's): the
 * library's own temporaries, which work on a context the user gave up while its queues
 * live, as every operation there does; failures are reported under func. */
int clrt__buffer_new(clrt_buffer **out, clrt_context *ctx, clrt_dtype dtype, size_t rows, size_t cols,
                     const char *func);

#endif
