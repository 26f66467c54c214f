/* clrt_convert (and clrt_copy of 16-bit buffers): the checks, then one launch of
 * cl/convert.cl built for the (source, destination) dtype pair; its program and
 * kernel are the context's, made on the pair's first use and kept for its life,
 * so that a conversion (each 16-bit operand of a widened operation, math/widen.h)
 * costs its launch and no kernel creation or program lookup. */
#include <stdio.h>

#include "base/error.h"
#include "kernels/kernel_convert.h"
#include "kernels/table.h"
#include "math/convert.h"
#include "runtime/args.h"
#include "runtime/context.h"
#include "runtime/kcache.h"
#include "runtime/program.h"

static int check(const clrt_queue *q, const clrt_buffer *dst, const clrt_buffer *src, int is_copy, const char *func)
{
    int st = clrt__check_queue(q, func);
    if (st == CLRT_OK)
        st = clrt__check_buffer(dst, func, "dst");
    if (st == CLRT_OK)
        st = clrt__check_buffer(src, func, "src");
    if (st != CLRT_OK)
        return st;
    if (dst->ctx != q->ctx || src->ctx != q->ctx)
        return clrt__fail(CLRT_EINVAL, func, "operands and queue belong to different contexts");
    if (dst->dtype == CLRT_INT32 || src->dtype == CLRT_INT32)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "int32 is not converted (%s to %s)",
                          clrt__dtype_word((int)src->dtype), clrt__dtype_word((int)dst->dtype));
    if (is_copy && dst->dtype != src->dtype)
        return clrt__fail(CLRT_ESHAPE, func, "dtypes differ (dst %s, src %s)", clrt__dtype_word((int)dst->dtype),
                          clrt__dtype_word((int)src->dtype));
    if (dst->rows != src->rows || dst->cols != src->cols)
        return clrt__fail(CLRT_ESHAPE, func, "dst is %zux%zu, src %zux%zu: one shape", dst->rows, dst->cols,
                          src->rows, src->cols);
    if (is_copy && clrt__same_window(dst, src))
        return CLRT_OK;
    if (clrt__overlap(dst, src))
        return clrt__fail(CLRT_EINVAL, func, "dst shares memory with src%s",
                          is_copy ? " in part (in place needs the very same window)" : "");
    return CLRT_OK;
}

/* The context's kernel for the (src, dst) dtype pair into *out: made on the
 * first conversion of the pair (its program built then, runtime/program.h) and
 * kept for the context's life; a thread that loses the race to store it releases
 * its own. */
static int convert_kernel(clrt_context *ctx, int src, int dst, const char *func, cl_kernel *out)
{
    clrt_mutex_lock(&ctx->convert_lock);
    *out = ctx->convert[src][dst];
    clrt_mutex_unlock(&ctx->convert_lock);
    if (*out)
        return CLRT_OK;
    char options[96];
    cl_program prog;
    (void)clrt__convert_options(src, dst, options, sizeof options);
    const clrt__build_what what = {"convert", clrt__dtype_word(src), options};
    int st = clrt__program_get(ctx, clrt__convert_source(), 1, options, &what, func, &prog);
    if (st != CLRT_OK)
        return st;
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "convert", &err);
    if (!k)
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clCreateKernel", &ctx->info,
                             "the convert kernel");
    clrt_mutex_lock(&ctx->convert_lock);
    if (!ctx->convert[src][dst])
        ctx->convert[src][dst] = k;
    else
        clReleaseKernel(k);
    *out = ctx->convert[src][dst];
    clrt_mutex_unlock(&ctx->convert_lock);
    return CLRT_OK;
}

int clrt__convert(clrt_queue *q, clrt_buffer *dst, const clrt_buffer *src, int is_copy, const char *func)
{
    int st = check(q, dst, src, is_copy, func);
    if (st == CLRT_OK)
        st = clrt__check_usable(q->ctx, func);
    if (st != CLRT_OK || (is_copy && clrt__same_window(dst, src)))
        return st;
    cl_kernel k;
    if ((st = convert_kernel(q->ctx, (int)src->dtype, (int)dst->dtype, func, &k)) != CLRT_OK)
        return st;
    clrt__args a = {0};
    clrt__arg_ulong(&a, src->rows);
    clrt__arg_ulong(&a, src->cols);
    clrt__arg_matrix(&a, src);
    clrt__arg_matrix(&a, dst);
    size_t global[2], local[2];
    clrt__convert_geometry(&q->ctx->facts, src->rows, src->cols, global, local);
    /* one kernel object for every queue of the context: its arguments and launch together */
    clrt_mutex_lock(&q->ctx->convert_lock);
    st = clrt__enqueue_locked(q, k, func, &a, 2, NULL, global, local);
    clrt_mutex_unlock(&q->ctx->convert_lock);
    return st;
}

int clrt_convert(clrt_queue *q, clrt_buffer *dst, const clrt_buffer *src)
{
    return clrt__convert(q, dst, src, 0, "clrt_convert");
}
