/* The transpose kernel's rules (see kernels/transpose.h, cl/transpose.cl and
 * cl/transpose_plain.cl): defaults per device, constraints, fitting, geometry. */
#include "kernels/transpose.h"

#include "base/util.h"
#include "clrt/clrt.h"

extern const char clrt__cl_transpose[];
extern const char clrt__cl_transpose_plain[];

static void put(clrt__pvals *out, const clrt__transpose_params *t) { memcpy(out->v, t, sizeof *t); }

static void set(clrt__transpose_params *t, unsigned use_local, unsigned tile, unsigned wgx, unsigned wgy)
{
    t->use_local = use_local;
    t->tile = tile;
    t->wgx = wgx;
    t->wgy = wgy;
}

static size_t local_bytes(const clrt__transpose_params *t, size_t elem)
{
    return t->use_local ? (size_t)t->tile * (t->tile + 1) * elem : 0;
}

/* Shrink the work-group to kernel_wg work-items and the tile to local_budget
 * bytes: 1 changed, 0 fits, -1 nothing smaller exists. */
static int shrink(clrt__transpose_params *t, size_t kernel_wg, size_t local_budget, size_t elem)
{
    if (kernel_wg == 0 || t->tile == 0 || t->wgx == 0 || t->wgy == 0)
        return -1;
    int changed = 0;
    /* y first (x is the coalesced direction); the plain variant's group is wgx alone */
    while ((size_t)t->wgx * (t->use_local ? t->wgy : 1) > kernel_wg) {
        if (t->use_local && t->wgy > 1 && 2 * t->wgy >= t->wgx)
            t->wgy /= 2;
        else
            t->wgx /= 2;
        changed = 1;
    }
    while (t->use_local && local_bytes(t, elem) > local_budget && t->tile > 1) {
        t->tile /= 2;
        if (t->wgx > t->tile)
            t->wgx = t->tile;
        if (t->wgy > t->tile)
            t->wgy = t->tile;
        changed = 1;
    }
    if (t->use_local && local_bytes(t, elem) > local_budget)
        return -1;
    return changed;
}

static void defaults(const clrt__device_facts *dev, size_t elem, clrt__pvals *out)
{
    clrt__transpose_params t;
    if (dev->emulator)
        set(&t, 1, 8, 8, 2); /* small tiles: small test shapes take the edge paths */
    else if (clrt__wants_register_tiles(dev))
        /* Measured on POCL (2 cores), float32, side by side: the plain variant 1.05-2.8x
         * the local-memory one (local memory is ordinary memory there, and the barrier
         * splits the work-item loop); tile 32 over 16 1.1-1.4x on square, long and thin
         * shapes, over 64 and 128 1.3-1.5x; groups of 128 over 64 +10%, and the tuner
         * (clrt_tune_run) found 256 over 128 +11-22% (float32; float64 within 3%) */
        set(&t, 0, 32, 256, 1);
    else
        set(&t, 1, 32, 32, 8); /* 32 x 32 tile, 256 work-items, 4 elements each */
    if (dev->max_work_item[0] && t.wgx > dev->max_work_item[0])
        t.wgx = clrt__floor_pow2(dev->max_work_item[0]);
    if (dev->max_work_item[1] && t.wgy > dev->max_work_item[1])
        t.wgy = clrt__floor_pow2(dev->max_work_item[1]);
    (void)shrink(&t, dev->max_work_group ? dev->max_work_group : 1, t.use_local ? (size_t)dev->local_mem : 0, elem);
    put(out, &t);
}

static int check(const clrt__device_facts *dev, size_t elem, const clrt__pvals *pv, char *why, size_t cap)
{
    const clrt__transpose_params t = clrt__tp(pv);
    if (!t.use_local)
        return clrt__check_group(dev, t.wgx, 1, why, cap);
    if (t.wgx > t.tile || t.wgy > t.tile)
        return clrt__refuse(why, cap, "a %ux%u work-group is wider or taller than its %u x %u tile", t.wgx, t.wgy,
                            t.tile, t.tile);
    if (dev->local_mem == 0 || local_bytes(&t, elem) > dev->local_mem)
        return clrt__refuse(why, cap, "a %u x %u tile needs %zu bytes of local memory, the device has %llu", t.tile,
                            t.tile, local_bytes(&t, elem), (unsigned long long)dev->local_mem);
    return clrt__check_group(dev, t.wgx, t.wgy, why, cap);
}

static int fit(const clrt__device_facts *dev, size_t elem, size_t kernel_wg, clrt__pvals *pv)
{
    clrt__transpose_params t = clrt__tp(pv);
    int rc = shrink(&t, kernel_wg, (size_t)dev->local_mem, elem);
    put(pv, &t);
    return rc;
}

static const char *source(const clrt__pvals *p)
{
    return clrt__tp(p).use_local ? clrt__cl_transpose : clrt__cl_transpose_plain;
}

unsigned clrt__transpose_geometry(const clrt__transpose_params *p, size_t rows, size_t cols, size_t global[2],
                                  size_t local[2])
{
    if (p->use_local) {
        local[0] = p->wgx;
        local[1] = p->wgy;
        global[0] = clrt__ceil_div(rows, p->tile) * clrt__ceil_div(cols, p->tile) * p->wgx;
        global[1] = p->wgy;
        return 2;
    }
    local[0] = p->wgx;
    global[0] = clrt__ceil_div(rows, p->tile) * clrt__ceil_div(cols, p->wgx) * p->wgx;
    return 1;
}

CLRT__PARAM_TABLE(params, CLRT__TRANSPOSE_PARAMS, clrt__transpose_params);

const clrt__kernel_def clrt__k_transpose = {
    .name = "transpose",
    .params = params,
    .nparams = sizeof params / sizeof *params,
    .dtypes = CLRT__FLOAT_DTYPES,
    .variant_param = "use_local",
    .defaults = defaults,
    .check = check,
    .fit = fit,
    .source = source,
    .entry = "transpose",
};
