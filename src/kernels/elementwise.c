/* The elementwise kernel's rules (see kernels/elementwise.h and cl/elementwise.cl). */
#include "kernels/elementwise.h"

#include <stdio.h>

#include "base/util.h"
#include "clrt/clrt.h"

extern const char clrt__cl_elementwise[];

static void put(clrt__pvals *out, const clrt__ew_params *e) { memcpy(out->v, e, sizeof *e); }

static void defaults(const clrt__device_facts *dev, size_t elem, clrt__pvals *out)
{
    clrt__ew_params e;
    const int dbl = elem == 8;
    e.ops = 0; /* a program per op: a GPU driver compiles every kernel of a program */
    if (dev->emulator) {
        e.vw = 4;
        e.items = 1;
        e.wg = 32;
    } else if (clrt__wants_register_tiles(dev)) {
        /* CPU: one full-width vector per work-item, large groups so the runtime's
         * per-group cost is spread over 64 KiB of each operand */
        unsigned pv = dbl ? dev->pref_vec_double : dev->pref_vec_float;
        e.vw = clrt__pick_vector_width(pv, 4);
        e.items = 1;
        e.wg = 1024;
        /* one program of every op: a CPU driver (POCL) compiles a program's kernels
         * one by one at their first launch, so its build is the front end alone
         * (clang over opencl-c.h: about 0.1 s cold, 25 ms from POCL's cache, for one
         * op or all of them; measured 2026-12-06), and clrt-train's four ops were
         * four such builds */
        e.ops = 1;
    } else {
        /* GPU: 16-byte vectors, one per work-item; consecutive work-items touch
         * consecutive vectors (coalesced) */
        e.vw = dbl ? 2 : 4;
        e.items = 1;
        e.wg = 256;
    }
    if (dev->max_work_item[0] && e.wg > dev->max_work_item[0])
        e.wg = clrt__floor_pow2(dev->max_work_item[0]);
    size_t max = dev->max_work_group ? dev->max_work_group : 1;
    while (e.wg > max)
        e.wg /= 2;
    put(out, &e);
}

static int check(const clrt__device_facts *dev, size_t elem, const clrt__pvals *pv, char *why, size_t cap)
{
    (void)elem;
    const clrt__ew_params e = clrt__ew(pv);
    if (e.vw != 1 && e.vw != 2 && e.vw != 4 && e.vw != 8 && e.vw != 16)
        return clrt__refuse(why, cap, "vw must be 1, 2, 4, 8 or 16 (is %u)", e.vw);
    return clrt__check_group(dev, e.wg, 1, why, cap);
}

static int fit(const clrt__device_facts *dev, size_t elem, size_t kernel_wg, clrt__pvals *pv)
{
    (void)dev;
    (void)elem;
    clrt__ew_params e = clrt__ew(pv);
    if (kernel_wg == 0 || e.wg == 0)
        return -1;
    int changed = 0;
    while (e.wg > kernel_wg) {
        e.wg /= 2;
        changed = 1;
    }
    put(pv, &e);
    return changed;
}

static size_t group(const clrt__pvals *p) { return clrt__ew(p).wg; }

static const char *source(const clrt__pvals *p)
{
    (void)p;
    return clrt__cl_elementwise;
}

void clrt__ew_geometry(const clrt__ew_params *p, const clrt__device_facts *dev, size_t rows, size_t cols,
                       size_t global[2], size_t local[2])
{
    const size_t per_row = clrt__ceil_div(cols, (size_t)p->vw * p->items); /* work-items a row needs */
    const size_t max_item1 = dev->max_work_item[1];
    /* a CPU driver compiles a kernel anew for each group shape (POCL: one work-group
     * function per local size), so there the rows a group takes do not follow the
     * matrix's rows (a batch size each); the work-items past the last row return */
    const int shrink_rows = !clrt__wants_register_tiles(dev);
    size_t lx = p->wg, ly = 1;
    if (rows > 1) {
        /* narrow rows: the rest of the group takes more rows; halving keeps lx a
         * divisor of wg, so that the group stays within what was checked and fitted */
        while (lx % 2 == 0 && lx / 2 >= per_row)
            lx /= 2;
        ly = p->wg / lx;
        while (ly > 1 && ((max_item1 && ly > max_item1) || (shrink_rows && ly / 2 >= rows)))
            ly /= 2;
    }
    local[0] = lx;
    local[1] = ly;
    global[0] = clrt__ceil_div(per_row, lx) * lx;
    global[1] = clrt__ceil_div(rows, ly) * ly;
}

/* The launch variant's build options: the op and how b is read; none with ops = 1
 * (every variant one program, the same options: the context builds it once). */
static int variant_options(const clrt__pvals *p, int variant, char *buf, size_t cap)
{
    if (clrt__ew(p).ops) {
        if (cap == 0)
            return -1;
        buf[0] = '\0';
        return 0;
    }
    int n = snprintf(buf, cap, "-DEW_OP=%d -DEW_B=%d", variant / 3, variant % 3);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

/* With ops = 1 the variant's kernel, ew_<op>_<b> (cl/elementwise.cl builds those
 * the library launches); NULL: `elementwise`. */
static const char *variant_entry(const clrt__pvals *p, int variant)
{
#define EW_NAMES(op) "ew_" #op "_0", "ew_" #op "_1", "ew_" #op "_2"
    static const char *const names[CLRT__EW_NOPS * 3] = {
        EW_NAMES(0),  EW_NAMES(1),  EW_NAMES(2),  EW_NAMES(3),  EW_NAMES(4),  EW_NAMES(5),
        EW_NAMES(6),  EW_NAMES(7),  EW_NAMES(8),  EW_NAMES(9),  EW_NAMES(10), EW_NAMES(11),
        EW_NAMES(12), EW_NAMES(13), EW_NAMES(14), EW_NAMES(15), EW_NAMES(16), EW_NAMES(17)};
#undef EW_NAMES
    if (!clrt__ew(p).ops || variant < 0 || variant >= CLRT__EW_NOPS * 3)
        return NULL;
    return names[variant];
}

CLRT__PARAM_TABLE(params, CLRT__EW_PARAMS, clrt__ew_params);

const clrt__kernel_def clrt__k_elementwise = {
    .name = "elementwise",
    .params = params,
    .nparams = sizeof params / sizeof *params,
    /* int32 (copy and fill) is built with the float32 parameters: runtime/kcache.c */
    .dtypes = CLRT__FLOAT_DTYPES,
    .storage16 = 1, /* cl/elementwise.cl's CLRT_STORE */
    .defaults = defaults,
    .check = check,
    .fit = fit,
    .group = group,
    .source = source,
    .entry = "elementwise",
    .variant_options = variant_options,
    .variant_entry = variant_entry,
};
