/* The built-in kernels of a context: for each (kernel, dtype, launch variant)
 * a kernel built on first use with parameters chosen in one place (below),
 * fitted to what the built kernel accepts, and kept until the context goes.
 *
 * Parameters, in order: the context's override (clrt_tune_override), else
 * the device's tuned file (kernels/tuned.h) when it has a valid entry, else the
 * device's defaults (k_<kernel>.c). Tuned parameters that fail to build or fit
 * fall back to the defaults with one warning; overridden parameters that
 * fail are the failure of the kernel's use (the caller forced them).
 *
 * A built kernel never changes after it is published: an override retires
 * the kernels built before it (they stay alive, unused, until the context is
 * released), so a thread that already holds one can still launch it. */
#ifndef CLRT_RUNTIME_KCACHE_H
#define CLRT_RUNTIME_KCACHE_H

#include "base/thread.h"
#include "clrt/clrt_tune.h"
#include "kernels/table.h"
#include "runtime/args.h"
#include "runtime/handles.h"

typedef struct clrt__built {
    int kernel, dtype, variant;
    unsigned gen;             /* the slot generation it was built for */
    clrt__pvals p;            /* the parameters, fitted */
    clrt_params_origin origin;
    cl_kernel main;
    cl_kernel aux[CLRT__MAX_AUX];  /* def->aux_entry(p, variant, i) of the same program, or NULL */
    size_t aux_wg[CLRT__MAX_AUX];  /* their CL_KERNEL_WORK_GROUP_SIZE */
    clrt_mutex launch_lock;   /* held from the first clSetKernelArg to the enqueue (every kernel) */
    struct clrt__built *next; /* the context's list, newest first */
} clrt__built;

/* At context creation and release. */
int clrt__kcache_create(clrt_context *ctx);
void clrt__kcache_release(clrt_context *ctx);

/* The built kernel for (kernel, dtype, variant), built now if needed. An
 * int32 kernel (REAL = int) takes the float32 parameters and override. */
int clrt__kcache_get(clrt_context *ctx, int kernel, int dtype, int variant, const char *func,
                     clrt__built **out);

/* The parameters the context's kernels of (kernel, dtype) are built from
 * (before fitting to a built kernel), without building one: launch choices
 * that pick a variant are made from them. */
void clrt__kcache_params(clrt_context *ctx, int kernel, int dtype, clrt__pvals *out);

/* Set (p) or clear (NULL) the context's override of (kernel, dtype); p has
 * been checked. Kernels built before are retired: the next use builds anew. */
void clrt__kcache_override(clrt_context *ctx, int kernel, int dtype, const clrt__pvals *p);

/* Set the arguments of k (a's, in order) and enqueue it on q; the caller
 * holds the launch lock of the clrt__built k belongs to. Failures are
 * reported for func. */
int clrt__enqueue_locked(clrt_queue *q, cl_kernel k, const char *func, const clrt__args *a, cl_uint dims,
                         const size_t *offset, const size_t *global, const size_t *local);
/* The same, taking b's launch lock, for b->main. */
int clrt__launch(clrt_queue *q, clrt__built *b, const char *func, const clrt__args *a, cl_uint dims,
                 const size_t *global, const size_t *local);

#endif
