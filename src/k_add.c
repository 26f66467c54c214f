/* The add kernel's rules (see k_add.h and cl/add.cl). */
#include "k_add.h"

#include "clrt/clrt.h"
#include "util.h"

extern const char clrt__cl_add[];

static void put(clrt__pvals *out, const clrt__add_params *a) { memcpy(out->v, a, sizeof *a); }

static void defaults(const clrt__device_facts *dev, size_t elem, clrt__pvals *out)
{
    clrt__add_params a;
    const int dbl = elem == 8;
    if (dev->emulator) {
        a.vw = 4;
        a.items = 1;
        a.wg = 32;
    } else if (clrt__wants_register_tiles(dev)) {
        /* CPU: one full-width vector per work-item, large groups so the runtime's
         * per-group cost is spread over 64 KiB of each operand */
        unsigned pv = dbl ? dev->pref_vec_double : dev->pref_vec_float;
        a.vw = clrt__pick_vector_width(pv, 4);
        a.items = 1;
        a.wg = 1024;
    } else {
        /* GPU: 16-byte vectors, one per work-item; consecutive work-items touch
         * consecutive vectors (coalesced) */
        a.vw = dbl ? 2 : 4;
        a.items = 1;
        a.wg = 256;
    }
    if (dev->max_work_item[0] && a.wg > dev->max_work_item[0])
        a.wg = clrt__floor_pow2(dev->max_work_item[0]);
    size_t max = dev->max_work_group ? dev->max_work_group : 1;
    while (a.wg > max)
        a.wg /= 2;
    put(out, &a);
}

static int check(const clrt__device_facts *dev, size_t elem, const clrt__pvals *pv, char *why, size_t cap)
{
    (void)elem;
    const clrt__add_params a = clrt__add(pv);
    if (a.vw != 1 && a.vw != 2 && a.vw != 4 && a.vw != 8 && a.vw != 16)
        return clrt__refuse(why, cap, "vw must be 1, 2, 4, 8 or 16 (is %u)", a.vw);
    return clrt__check_group(dev, a.wg, 1, why, cap);
}

static int fit(const clrt__device_facts *dev, size_t elem, size_t kernel_wg, clrt__pvals *pv)
{
    (void)dev;
    (void)elem;
    clrt__add_params a = clrt__add(pv);
    if (kernel_wg == 0 || a.wg == 0)
        return -1;
    int changed = 0;
    while (a.wg > kernel_wg) {
        a.wg /= 2;
        changed = 1;
    }
    put(pv, &a);
    return changed;
}

static size_t group(const clrt__pvals *p) { return clrt__add(p).wg; }

static const char *source(const clrt__pvals *p)
{
    (void)p;
    return clrt__cl_add;
}

void clrt__add_geometry(const clrt__add_params *p, size_t n, size_t global[1], size_t local[1])
{
    local[0] = p->wg;
    global[0] = clrt__ceil_div(clrt__ceil_div(n, (size_t)p->vw * p->items), p->wg) * p->wg;
}

static const clrt__param_def params[] = {CLRT__ADD_PARAMS(CLRT__PARAM_DEF)};

_Static_assert(sizeof(clrt__add_params) == sizeof params / sizeof *params * sizeof(unsigned),
               "add parameters are unsigned values without padding");

const clrt__kernel_def clrt__k_add = {
    .name = "add",
    .params = params,
    .nparams = sizeof params / sizeof *params,
    .dtypes = (1u << CLRT_FLOAT32) | (1u << CLRT_FLOAT64),
    .defaults = defaults,
    .check = check,
    .fit = fit,
    .group = group,
    .source = source,
    .entry = "add",
};
