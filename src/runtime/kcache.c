/* The built-in kernels of a context (see runtime/kcache.h). */
#include "runtime/kcache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/debug.h"
#include "base/error.h"
#include "base/util.h"
#include "kernels/tuned.h"
#include "runtime/program.h"

struct clrt__kcache {
    clrt_mutex lock;                /* serialises builds and override changes */
    _Atomic(clrt__built *) head;    /* every kernel built, newest first; walked without the lock */
    struct slot {
        atomic_uint gen;            /* bumped by an override: older kernels are retired */
        int has_override;           /* under lock */
        clrt__pvals override;
        /* under lock: the parameters builds of generation start_gen start from */
        int has_start;
        unsigned start_gen;
        clrt__pvals start;
        clrt_params_origin start_origin;
    } slot[CLRT__K_COUNT][2];       /* [kernel][param_dtype - 1] */
};

/* The dtype whose parameters (override, tuned entry) a kernel of dtype is
 * built with: int32 kernels (the elementwise copy and fill) only move 4-byte
 * elements, as float32 ones do, and are neither tuned nor overridden apart. */
static int param_dtype(int dtype) { return dtype == CLRT_FLOAT64 ? CLRT_FLOAT64 : CLRT_FLOAT32; }

int clrt__kcache_create(clrt_context *ctx)
{
    struct clrt__kcache *kc = calloc(1, sizeof *kc);
    if (!kc)
        return clrt__fail(CLRT_ENOMEM, "clrt_context_create", "out of host memory");
    clrt_mutex_init(&kc->lock);
    atomic_init(&kc->head, NULL);
    for (int k = 0; k < CLRT__K_COUNT; k++)
        for (int t = 0; t < 2; t++)
            atomic_init(&kc->slot[k][t].gen, 0);
    ctx->kernels = kc;
    return CLRT_OK;
}

static void built_free(clrt__built *b)
{
    if (b->main) {
        clReleaseKernel(b->main);
        clrt__live(CLRT__LIVE_KERNEL, -1);
    }
    for (int i = 0; i < CLRT__MAX_AUX; i++)
        if (b->aux[i]) {
            clReleaseKernel(b->aux[i]);
            clrt__live(CLRT__LIVE_KERNEL, -1);
        }
    clrt_mutex_destroy(&b->launch_lock);
    free(b);
}

void clrt__kcache_release(clrt_context *ctx)
{
    struct clrt__kcache *kc = ctx->kernels;
    if (!kc)
        return;
    clrt__built *b = atomic_load(&kc->head);
    while (b) {
        clrt__built *next = b->next;
        built_free(b);
        b = next;
    }
    clrt_mutex_destroy(&kc->lock);
    free(kc);
    ctx->kernels = NULL;
}

static clrt__built *find(struct clrt__kcache *kc, int kernel, int dtype, int variant, unsigned gen)
{
    for (clrt__built *b = atomic_load_explicit(&kc->head, memory_order_acquire); b; b = b->next)
        if (b->kernel == kernel && b->dtype == dtype && b->variant == variant && b->gen == gen)
            return b;
    return NULL;
}

static int create_kernel(clrt_context *ctx, cl_program program, const char *name, const char *func, cl_kernel *out,
                         size_t *wg)
{
    cl_int err = clrt__fault(CLRT__FAULT_CREATE_KERNEL);
    cl_kernel k = NULL;
    if (err == CL_SUCCESS)
        k = clCreateKernel(program, name, &err);
    if (err != CL_SUCCESS || !k)
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clCreateKernel", &ctx->info,
                             "cannot create kernel '%s'", name);
    clrt__live(CLRT__LIVE_KERNEL, +1);
    if (clGetKernelWorkGroupInfo(k, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof *wg, wg, NULL) != CL_SUCCESS)
        *wg = ctx->facts.max_work_group;
    *out = k;
    return CLRT_OK;
}

static void release_kernel(cl_kernel *k)
{
    if (*k) {
        clReleaseKernel(*k);
        clrt__live(CLRT__LIVE_KERNEL, -1);
        *k = NULL;
    }
}

/* A built-in kernel's source is ours, so a build that fails is a compiler
 * that could not fit the work-group (registers, local memory: a GPU compiler
 * may refuse rather than spill): 1 when b->p now asks for half the group
 * (try again), 0 when nothing smaller exists. Tuned parameters are not shrunk:
 * they fall back to the defaults whole. */
/* 1 when the failed build's log (in this thread's message) blames what a
 * smaller work-group needs less of. A build that failed for another reason
 * (a driver that could not write its cache fails with an empty log) is
 * reported as it is, not retried at every smaller size. */
static int log_blames_resources(void)
{
    static const char *const words[] = {"resource", "register", "shared", "local memory", "work group",
                                        "work-group", "workgroup", "too large", "exceed", "spill", NULL};
    const char *log = strstr(clrt_error_message(), "Build log:");
    for (const char *const *w = words; log && *w; w++)
        if (clrt__icontains(log, *w, strlen(*w)))
            return 1;
    return 0;
}

static int retry_smaller(clrt_context *ctx, const clrt__kernel_def *def, clrt__built *b, const char *failed)
{
    if (!def->group || b->origin == CLRT_PARAMS_TUNED || !log_blames_resources())
        return 0;
    const size_t was = def->group(&b->p);
    if (was < 2 || def->fit(&ctx->facts, clrt__dtype_size(b->dtype), was / 2, &b->p) != 1)
        return 0;
    /* a group size that is not a build option (the neural-network kernels' wg)
     * builds the same program again: no retry, the same failure */
    char options[768];
    if (clrt__params_options(def, &b->p, clrt__elem_of(b->dtype), b->variant, options, sizeof options) != 0 ||
        strcmp(options, failed) == 0)
        return 0;
    char text[256] = "";
    (void)clrt__params_text(def, &b->p, text, sizeof text);
    fprintf(stderr, "clrt: kernel '%s' did not build for device '%s' with %zu work-items per group; trying %zu (%s)\n",
            def->name, ctx->info.name, was, def->group(&b->p), text);
    return 1;
}

/* Build b's kernels with b->p, shrinking the parameters (and rebuilding)
 * until the built kernel accepts them; a failed build is tried again with a
 * smaller group (retry_smaller). */
static int build_fitted(clrt_context *ctx, const clrt__kernel_def *def, clrt__built *b, const char *func)
{
    const size_t elem = clrt__dtype_size(b->dtype);
    for (int attempt = 0; attempt < 16; attempt++) {
        char options[768];
        if (clrt__params_options(def, &b->p, clrt__elem_of(b->dtype), b->variant, options, sizeof options) != 0)
            return clrt__fail(CLRT_EOPENCL, func, "kernel options too long");
        char variant[256] = "";
        if (def->variant_options && def->variant_options(&b->p, b->variant, variant, sizeof variant) != 0)
            variant[0] = '\0';
        const clrt__build_what what = {def->name, clrt__dtype_word(b->dtype), variant};
        cl_program program;
        int status = clrt__program_get(ctx, def->source(&b->p), 1, options, &what, func, &program);
        if (status == CLRT_EBUILD && retry_smaller(ctx, def, b, options))
            continue;
        if (status != CLRT_OK)
            return status;
        size_t kernel_wg = 0;
        const char *entry = clrt__entry_of(def, &b->p, b->variant);
        status = create_kernel(ctx, program, entry, func, &b->main, &kernel_wg);
        if (status != CLRT_OK)
            return status;
        int changed = def->fit(&ctx->facts, elem, kernel_wg, &b->p);
        for (unsigned i = 0; changed == 0 && status == CLRT_OK && i < CLRT__MAX_AUX; i++) {
            const char *aux = def->aux_entry ? def->aux_entry(&b->p, b->variant, i) : NULL;
            if (aux)
                status = create_kernel(ctx, program, aux, func, &b->aux[i], &b->aux_wg[i]);
        }
        if (changed == 0 && status == CLRT_OK)
            return CLRT_OK;
        for (int i = 0; i < CLRT__MAX_AUX; i++)
            release_kernel(&b->aux[i]);
        release_kernel(&b->main);
        if (status != CLRT_OK)
            return status;
        if (changed < 0)
            return clrt__fail(CLRT_EUNSUPPORTED, func, "kernel '%s' cannot fit device '%s' (%zu work-items per group)",
                              entry, ctx->info.name, kernel_wg);
    }
    return clrt__fail(CLRT_EUNSUPPORTED, func, "no kernel parameters fit device '%s'", ctx->info.name);
}

/* The parameters builds of the slot's current generation start from: the
 * override, else the tuned file's (read once per generation), else the
 * defaults; the caller holds kc->lock. */
static void start_locked(clrt_context *ctx, int kernel, int dtype, clrt__pvals *p, clrt_params_origin *origin)
{
    struct slot *s = &ctx->kernels->slot[kernel][param_dtype(dtype) - 1];
    const unsigned gen = atomic_load(&s->gen);
    if (!s->has_start || s->start_gen != gen) {
        s->start_origin = CLRT_PARAMS_DEFAULT;
        if (s->has_override) {
            s->start = s->override;
            s->start_origin = CLRT_PARAMS_OVERRIDE;
        } else {
            clrt__kernel_at(kernel)->defaults(&ctx->facts, clrt__dtype_size(dtype), &s->start);
            if (clrt__tuned_lookup(&ctx->info, &ctx->facts, kernel, param_dtype(dtype), &s->start))
                s->start_origin = CLRT_PARAMS_TUNED;
        }
        s->has_start = 1;
        s->start_gen = gen;
    }
    *p = s->start;
    *origin = s->start_origin;
}

void clrt__kcache_params(clrt_context *ctx, int kernel, int dtype, clrt__pvals *out)
{
    clrt_params_origin origin;
    clrt_mutex_lock(&ctx->kernels->lock);
    start_locked(ctx, kernel, dtype, out, &origin);
    clrt_mutex_unlock(&ctx->kernels->lock);
}

/* Build (kernel, dtype, variant) for the slot's current generation and
 * publish it; the caller holds kc->lock. */
static int build_locked(clrt_context *ctx, int kernel, int dtype, int variant, const char *func, clrt__built **out)
{
    struct clrt__kcache *kc = ctx->kernels;
    struct slot *s = &kc->slot[kernel][param_dtype(dtype) - 1];
    const clrt__kernel_def *def = clrt__kernel_at(kernel);
    const size_t elem = clrt__dtype_size(dtype);
    clrt__built *b = calloc(1, sizeof *b);
    if (!b)
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    b->kernel = kernel;
    b->dtype = dtype;
    b->variant = variant;
    b->gen = atomic_load(&s->gen);
    clrt_mutex_init(&b->launch_lock);
    start_locked(ctx, kernel, dtype, &b->p, &b->origin);
    int status = build_fitted(ctx, def, b, func);
    if (status != CLRT_OK && b->origin == CLRT_PARAMS_TUNED) {
        /* tuned parameters that do not build or fit: the defaults instead, for every
         * launch variant of the slot. A new generation starts from them and retires
         * the variants already built from the tuned ones (kept until the context
         * goes, as after an override), so that one kernel and dtype never runs two
         * parameter sets, and clrt_tune_current reports what runs. */
        clrt__tuned_rejected(&ctx->info, kernel, dtype, clrt_error_message());
        b->origin = CLRT_PARAMS_DEFAULT;
        def->defaults(&ctx->facts, elem, &b->p);
        s->start = b->p;
        s->start_origin = CLRT_PARAMS_DEFAULT;
        s->start_gen = atomic_fetch_add(&s->gen, 1) + 1;
        s->has_start = 1;
        b->gen = s->start_gen;
        status = build_fitted(ctx, def, b, func);
    }
    if (status != CLRT_OK) {
        built_free(b);
        return status;
    }
    b->next = atomic_load_explicit(&kc->head, memory_order_relaxed);
    atomic_store_explicit(&kc->head, b, memory_order_release);
    *out = b;
    return CLRT_OK;
}

int clrt__kcache_get(clrt_context *ctx, int kernel, int dtype, int variant, const char *func, clrt__built **out)
{
    /* the operations refuse what they do not run before this; a dtype that got here
     * anyway (16-bit storage where the kernel has none) is refused, never built as another */
    const clrt__kernel_def *def = clrt__kernel_at(kernel);
    const int storage16 = (dtype == CLRT_FLOAT16 || dtype == CLRT_BFLOAT16) && def->storage16;
    if (dtype != CLRT_INT32 && !storage16 && !clrt__kernel_takes(def, dtype))
        return clrt__fail(CLRT_EUNSUPPORTED, func, "%s buffers are not supported by this operation",
                          clrt__dtype_word(dtype));
    struct clrt__kcache *kc = ctx->kernels;
    struct slot *s = &kc->slot[kernel][param_dtype(dtype) - 1];
    clrt__built *b = find(kc, kernel, dtype, variant, atomic_load_explicit(&s->gen, memory_order_acquire));
    if (b) {
        *out = b;
        return CLRT_OK;
    }
    clrt__log_hold(); /* the build's report waits for the lock to go (runtime/build_log.h) */
    clrt_mutex_lock(&kc->lock);
    int status = CLRT_OK;
    b = find(kc, kernel, dtype, variant, atomic_load(&s->gen));
    if (!b)
        status = build_locked(ctx, kernel, dtype, variant, func, &b);
    clrt_mutex_unlock(&kc->lock);
    clrt__log_release();
    if (status == CLRT_OK)
        *out = b;
    return status;
}

void clrt__kcache_override(clrt_context *ctx, int kernel, int dtype, const clrt__pvals *p)
{
    struct clrt__kcache *kc = ctx->kernels;
    struct slot *s = &kc->slot[kernel][dtype - 1];
    clrt_mutex_lock(&kc->lock);
    s->has_override = p != NULL;
    if (p)
        s->override = *p;
    /* kernels built before are retired: the next use builds with the override */
    atomic_fetch_add(&s->gen, 1);
    clrt_mutex_unlock(&kc->lock);
}

int clrt__enqueue_locked(clrt_queue *q, cl_kernel k, const char *func, const clrt__args *a, cl_uint dims,
                         const size_t *offset, const size_t *global, const size_t *local)
{
    cl_int err = clrt__fault(CLRT__FAULT_SET_ARG);
    for (cl_uint i = 0; i < a->n && err == CL_SUCCESS; i++)
        err = clSetKernelArg(k, i, a->sizes[i], &a->v[i]);
    if (err != CL_SUCCESS) {
        /* CL_OUT_OF_RESOURCES / CL_OUT_OF_HOST_MEMORY are memory, like everywhere else */
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clSetKernelArg", &q->ctx->info,
                             "cannot set arguments");
    }
    err = clrt__fault(CLRT__FAULT_ENQUEUE_KERNEL);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(q->cl, k, dims, offset, global, local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        return CLRT_OK;
    int status = clrt__launch_status(err);
    if (status == CLRT_EDEVICE)
        return clrt__context_fail_late(q->ctx, func, err, "clEnqueueNDRangeKernel");
    return clrt__fail_cl(status, func, err, "clEnqueueNDRangeKernel", &q->ctx->info, "%s", clrt__launch_why(err));
}

int clrt__launch(clrt_queue *q, clrt__built *b, const char *func, const clrt__args *a, cl_uint dims,
                 const size_t *global, const size_t *local)
{
    clrt_mutex_lock(&b->launch_lock);
    int status = clrt__enqueue_locked(q, b->main, func, a, dims, NULL, global, local);
    clrt_mutex_unlock(&b->launch_lock);
    return status;
}
