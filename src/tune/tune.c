/* The public tuning API (include/clrt/clrt_tune.h), apart from the tuner
 * itself (tune/run.c): kernels and parameters as text, per-context
 * overrides, and the tuned file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/disk.h"
#include "base/error.h"
#include "kernels/tuned.h"
#include "runtime/kcache.h"
#include "tune/tune.h"

const char *clrt_tune_kernel_name(size_t i)
{
    const clrt__kernel_def *def = i < CLRT__K_COUNT ? clrt__kernel_at((int)i) : NULL;
    return def ? def->name : NULL;
}

int clrt_tune_param(const char *kernel, size_t i, clrt_tune_param_info *out)
{
    static const char func[] = "clrt_tune_param";
    const clrt__kernel_def *def = clrt__kernel_at(clrt__kernel_find(kernel));
    if (!def)
        return clrt__fail(CLRT_EINVAL, func, "no built-in kernel '%.60s'", kernel ? kernel : "(null)");
    if (!out || i >= def->nparams)
        return clrt__fail(CLRT_EINVAL, func, out ? "kernel '%s' has %zu parameters" : "out is NULL", def->name,
                          def->nparams);
    out->name = def->params[i].name;
    out->min = def->params[i].min;
    out->max = def->params[i].max;
    out->meaning = def->params[i].meaning;
    return CLRT_OK;
}

int clrt__tune_target(const clrt_context *ctx, const char *kernel, clrt_dtype dtype, const char *func, int *id)
{
    int status = clrt__check_context(ctx, func);
    if (status != CLRT_OK)
        return status;
    *id = clrt__kernel_find(kernel);
    if (*id < 0) {
        clrt__fail(CLRT_EINVAL, func, "no built-in kernel '%.60s'; they are:", kernel ? kernel : "(null)");
        for (int i = 0; i < CLRT__K_COUNT; i++) {
            clrt__error_append(" ");
            clrt__error_append(clrt__kernel_at(i)->name);
        }
        return CLRT_EINVAL;
    }
    if (!clrt__kernel_takes(clrt__kernel_at(*id), (int)dtype))
        return clrt__fail(CLRT_EINVAL, func, "kernel '%s' is not built for dtype %d", kernel, (int)dtype);
    if (dtype == CLRT_FLOAT64 && !ctx->info.has_fp64)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "device '%s' has no fp64 (cl_khr_fp64)", ctx->info.name);
    return CLRT_OK;
}

int clrt__tune_parse(const clrt_context *ctx, int id, clrt_dtype dtype, const char *text, clrt__pvals *p,
                     const char *func, char *why, size_t cap)
{
    const clrt__kernel_def *def = clrt__kernel_at(id);
    const size_t elem = clrt__dtype_size((int)dtype);
    char reason[256];
    def->defaults(&ctx->facts, elem, p);
    if (clrt__params_parse(def, text, p, reason, sizeof reason) != 0 ||
        clrt__params_check(def, &ctx->facts, elem, p, reason, sizeof reason) != 0) {
        if (why && cap)
            snprintf(why, cap, "%s", reason);
        return clrt__fail(CLRT_EINVAL, func, "%s %s parameters \"%.200s\" on device '%s': %s", def->name,
                          clrt__dtype_word((int)dtype), text, ctx->info.name, reason);
    }
    if (why && cap)
        why[0] = '\0';
    return CLRT_OK;
}

static int text_out(const clrt__kernel_def *def, const clrt__pvals *p, char *buf, size_t cap, const char *func)
{
    if (!buf)
        return clrt__fail(CLRT_EINVAL, func, "buf is NULL");
    if (clrt__params_text(def, p, buf, cap) != 0)
        return clrt__fail(CLRT_EINVAL, func, "%zu bytes are too few for the parameters", cap);
    return CLRT_OK;
}

int clrt_tune_defaults(clrt_context *ctx, const char *kernel, clrt_dtype dtype, char *buf, size_t cap)
{
    static const char func[] = "clrt_tune_defaults";
    int id, status = clrt__tune_target(ctx, kernel, dtype, func, &id);
    if (status != CLRT_OK)
        return status;
    clrt__pvals p;
    clrt__kernel_at(id)->defaults(&ctx->facts, clrt__dtype_size((int)dtype), &p);
    return text_out(clrt__kernel_at(id), &p, buf, cap, func);
}

int clrt_tune_current(clrt_context *ctx, const char *kernel, clrt_dtype dtype, char *buf, size_t cap,
                      clrt_params_origin *origin)
{
    static const char func[] = "clrt_tune_current";
    int id, status = clrt__tune_target(ctx, kernel, dtype, func, &id);
    if (status == CLRT_OK && !buf)
        status = clrt__fail(CLRT_EINVAL, func, "buf is NULL");
    if (status == CLRT_OK)
        status = clrt__check_usable(ctx, func);
    clrt__built *b;
    if (status == CLRT_OK)
        status = clrt__kcache_get(ctx, id, (int)dtype, 0, func, &b);
    if (status != CLRT_OK)
        return status;
    if (origin)
        *origin = b->origin;
    return text_out(clrt__kernel_at(id), &b->p, buf, cap, func);
}

int clrt_tune_check(clrt_context *ctx, const char *kernel, clrt_dtype dtype, const char *params, char *why,
                    size_t cap)
{
    static const char func[] = "clrt_tune_check";
    int id, status = clrt__tune_target(ctx, kernel, dtype, func, &id);
    if (status != CLRT_OK)
        return status;
    if (!params)
        return clrt__fail(CLRT_EINVAL, func, "params is NULL");
    clrt__pvals p;
    return clrt__tune_parse(ctx, id, dtype, params, &p, func, why, cap);
}

int clrt_tune_override(clrt_context *ctx, const char *kernel, clrt_dtype dtype, const char *params)
{
    static const char func[] = "clrt_tune_override";
    int id, status = clrt__tune_target(ctx, kernel, dtype, func, &id);
    clrt__pvals p;
    if (status == CLRT_OK && params)
        status = clrt__tune_parse(ctx, id, dtype, params, &p, func, NULL, 0);
    if (status == CLRT_OK)
        status = clrt__check_usable(ctx, func);
    if (status != CLRT_OK)
        return status;
    clrt__kcache_override(ctx, id, (int)dtype, params ? &p : NULL);
    return CLRT_OK;
}

int clrt_tune_file_path(const clrt_context *ctx, char *buf, size_t cap)
{
    static const char func[] = "clrt_tune_file_path";
    int status = clrt__check_context(ctx, func);
    if (status != CLRT_OK)
        return status;
    if (!buf)
        return clrt__fail(CLRT_EINVAL, func, "buf is NULL");
    if (clrt__tuned_path(&ctx->info, 0, buf, cap) != 0)
        return clrt__fail(CLRT_EINVAL, func,
                          "no path for the tuned file (set CLRT_TUNED_FILE, CLRT_CACHE_DIR or HOME), or %zu bytes "
                          "are too few",
                          cap);
    return CLRT_OK;
}

int clrt_tune_file_store(clrt_context *ctx, const char *path, const char *kernel, clrt_dtype dtype,
                         const char *params, const char *comment)
{
    static const char func[] = "clrt_tune_file_store";
    int id, status = clrt__tune_target(ctx, kernel, dtype, func, &id);
    clrt__pvals p;
    if (status == CLRT_OK && params)
        status = clrt__tune_parse(ctx, id, dtype, params, &p, func, NULL, 0);
    if (status != CLRT_OK)
        return status;
    char own[4300];
    if (!path) {
        if (clrt__tuned_path(&ctx->info, 1, own, sizeof own) != 0)
            return clrt__fail(CLRT_EINVAL, func,
                              "no folder for the tuned file (set CLRT_TUNED_FILE, CLRT_CACHE_DIR or HOME)");
        path = own;
    }
    /* a FIFO, a device or a folder there is the user's, not a tuned file to replace */
    if (clrt__file_is_other(path))
        return clrt__fail(CLRT_EINVAL, func, "cannot write the tuned file %s: it is not a regular file", path);
    clrt__tuned_set *set = malloc(sizeof *set);
    if (!set)
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    /* keep what the file has for other kernels when it is a valid file for this device */
    if (clrt__tuned_load(path, &ctx->info, &ctx->facts, set) != 1)
        memset(set, 0, sizeof *set);
    clrt__tuned_entry *e = &set->e[id][dtype - 1];
    e->have = params != NULL;
    if (params)
        e->p = p;
    snprintf(e->comment, sizeof e->comment, "%s", comment && params ? comment : "");
    status = CLRT_OK;
    char why[600];
    if (clrt__tuned_write(path, &ctx->info, set, why, sizeof why) != 0)
        status = clrt__fail(CLRT_EINVAL, func, "cannot write the tuned file: %s", why);
    free(set);
    return status;
}
