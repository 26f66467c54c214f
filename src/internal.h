/* What the src/ files share: the handle structures and the helpers every
 * entry point uses. Not installed. */
#ifndef CLRT_INTERNAL_H
#define CLRT_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>

#include "clrt/clrt.h"
#include "opencl.h"
#include "params.h"
#include "thread.h"

/* ---- handle tags: catch stale or foreign pointers while the memory is ours */
enum {
    CLRT_TAG_CONTEXT = 0x636c4358, /* "clCX" */
    CLRT_TAG_QUEUE = 0x636c5155,   /* "clQU" */
    CLRT_TAG_BUFFER = 0x636c4246,  /* "clBF" */
    CLRT_TAG_PROGRAM = 0x636c5047, /* "clPG" */
    CLRT_TAG_KERNEL = 0x636c4b4e,  /* "clKN" */
    CLRT_TAG_DEAD = 0x64656164     /* written on destroy, before the memory is freed */
};

/* ---- devices (device.c) */
typedef struct clrt_device_entry {
    clrt_device_info info;
    char platform_vendor[256]; /* CL_PLATFORM_VENDOR ("The pocl project"): selectors match it too */
    clrt_device_facts facts;
    unsigned clock_mhz;
    cl_platform_id platform;
    cl_device_id device;
} clrt_device_entry;

/* Enumerate every device; *out is malloc'd (free() it), *count may be 0.
 * Returns CLRT_OK or a status with the error message set. */
int clrt__device_enumerate(clrt_device_entry **out, size_t *count);

/* ---- built-in kernels (ops.c keeps one per op and dtype in the context) */
enum clrt_op { CLRT_OP_ADD, CLRT_OP_MATMUL, CLRT_OP_COUNT };

typedef struct clrt_op_kernel {
    atomic_int ready;          /* set once kernel and params are final */
    cl_kernel kernel;
    cl_kernel pack;            /* matmul with params.pack: pack_b of the same program, else NULL */
    size_t pack_wg;            /* its CL_KERNEL_WORK_GROUP_SIZE */
    clrt_mutex launch_lock;    /* held from first clSetKernelArg to the enqueue (both kernels) */
    union {
        clrt_matmul_params matmul;
        clrt_add_params add;
    } params;
    int tuned;                 /* params came from the device's tuned file (tuned.h) */
} clrt_op_kernel;

struct clrt_program_entry; /* program.c */

/* ---- context */
struct clrt_context {
    unsigned tag;
    atomic_int refs;           /* the user's reference + one per live queue/buffer/program */
    atomic_int destroyed;      /* the user called clrt_context_destroy */
    atomic_int failed;         /* a late device error happened: refuse further work */
    atomic_int failing;        /* claimed by the one thread that writes failure[] */
    cl_context cl;
    cl_device_id device;
    clrt_device_info info;
    clrt_device_facts facts;
    clrt_mutex lock;           /* guards programs and the resolution of ops[][] */
    struct clrt_program_entry *programs;
    clrt_op_kernel ops[CLRT_OP_COUNT][2]; /* [op][dtype - 1] */
    char failure[512];         /* what made the context fail, for later calls */
};

struct clrt_queue {
    unsigned tag;
    clrt_context *ctx;
    cl_command_queue cl;
    /* matmul's packed copy of B (ops.c), a slice of column panels at a time: kept
     * between calls, since a fresh buffer costs its first-touch page faults on every
     * call (measured on POCL: ~30 ms for 64 MiB); grows to the largest slice needed,
     * at most clrt_matmul_pack_scratch_max. The lock is held from the first pack
     * enqueue to the last matmul enqueue that reads it, so that another thread's
     * pack on this (in-order) queue cannot come in between. */
    clrt_mutex scratch_lock;
    cl_mem scratch;
    size_t scratch_bytes;
};

struct clrt_buffer {
    unsigned tag;
    clrt_context *ctx;
    cl_mem cl;
    clrt_dtype dtype;
    size_t rows, cols;
    size_t bytes;
};

/* ---- user programs and kernels (user_kernel.c) */
struct clrt_program {
    unsigned tag;
    atomic_int refs;           /* the user's reference + one per live kernel */
    atomic_int destroyed;      /* the user called clrt_program_destroy */
    clrt_context *ctx;         /* retained */
    cl_program cl;             /* owned by ctx's program cache */
};

struct clrt_kernel_arg;        /* user_kernel.c */

struct clrt_kernel {
    unsigned tag;
    clrt_program *program;     /* retained */
    cl_kernel cl;
    char *name;
    unsigned nargs;
    struct clrt_kernel_arg *args;
    int arg_info;              /* the driver described the arguments */
    size_t wg_size;            /* CL_KERNEL_WORK_GROUP_SIZE */
    size_t reqd_wg[3];         /* reqd_work_group_size, all 0 when none */
    size_t pref_multiple;      /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE */
    size_t max_items[3];       /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
    cl_ulong static_local;     /* local memory the kernel uses besides its __local arguments */
    clrt_mutex lock;           /* guards args and the cl_kernel's argument state */
};

/* ---- errors (error.c) */
/* Record this thread's failure message ("<func>: <text>") and return status. */
int clrt__fail(int status, const char *func, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Same, appending "(<clcall> returned <CL_NAME> (<code>) on device '<dev>')". */
int clrt__fail_cl(int status, const char *func, cl_int code, const char *clcall,
                  const clrt_context *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/* Append text to this thread's message (used for build logs and device lists). */
void clrt__error_append(const char *text);
/* A caller bug that a void function (destroy) cannot return: set the
 * message as clrt__fail(CLRT_EINVAL, ...) would, and print it to stderr. */
void clrt__report(const char *func, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* strdup (not in C11); NULL when out of memory. */
char *clrt__strdup(const char *s);
/* Empty this thread's message (tests: to see that a failure sets it). */
void clrt__error_clear(void);
/* The name of an OpenCL error code, e.g. "CL_OUT_OF_RESOURCES" (cl_names.c). */
const char *clrt__cl_error_name(cl_int code);

/* A status for an OpenCL error returned at creation or enqueue time. */
int clrt__status_from_cl(cl_int code);

/* ---- validation (validate.c): every check happens before any OpenCL call.
 * The handle checks look at the handle only; clrt__check_usable, called
 * after every argument has been checked and just before the first OpenCL
 * call, refuses work on a context that failed late (CLRT_EDEVICE), so that a
 * bad argument is CLRT_EINVAL whatever state the device is in. */
int clrt__check_context(const clrt_context *ctx, const char *func);
int clrt__check_queue(const clrt_queue *q, const char *func);
int clrt__check_usable(const clrt_context *ctx, const char *func);
int clrt__check_buffer(const clrt_buffer *b, const char *func, const char *what);
int clrt__check_program(const clrt_program *p, const char *func);
/* Element size of a dtype, 0 when unknown. */
size_t clrt__dtype_size(int dtype);
/* rows*cols*elem into *bytes; 0 on success, -1 on a zero dimension or overflow. */
int clrt__matrix_bytes(size_t rows, size_t cols, size_t elem, size_t *bytes);

/* ---- context life (context.c) */
void clrt__context_retain(clrt_context *ctx);
void clrt__context_release(clrt_context *ctx);
/* A late failure (finish, read): mark the context failed; returns the status
 * for code (CLRT_ENOMEM or CLRT_EDEVICE) with the message set. */
int clrt__context_fail_late(clrt_context *ctx, const char *func, cl_int code, const char *clcall);

/* ---- programs (program.c): built once per (source, options) per context */
/* Build or fetch the program. source must stay valid for the context's life
 * when static_source is nonzero, else it is copied. */
int clrt__program_get(clrt_context *ctx, const char *source, int static_source,
                      const char *options, const char *func, cl_program *out);
void clrt__programs_release(clrt_context *ctx);

/* ---- built-in ops (ops.c) */
void clrt__ops_release(clrt_context *ctx);

/* ---- embedded kernel sources (generated from the cl/ sources at build time) */
extern const char clrt_cl_add[];
extern const char clrt_cl_matmul[];

#endif
