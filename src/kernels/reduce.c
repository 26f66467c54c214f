/* The reduce kernel's rules (see kernels/reduce.h and cl/reduce.cl): defaults per
 * device, constraints, fitting, the launch modes and their geometry. */
#include "kernels/reduce.h"

#include <stdio.h>

#include "base/util.h"
#include "clrt/clrt.h"

extern const char clrt__cl_reduce[];
extern const char clrt__cl_reduce_all[]; /* reduce.cl once per op and mode */

static void put(clrt__pvals *out, const clrt__reduce_params *r) { memcpy(out->v, r, sizeof *r); }

static int is_pow2(unsigned v) { return v && (v & (v - 1)) == 0; }

static void defaults(const clrt__device_facts *dev, size_t elem, clrt__pvals *out)
{
    clrt__reduce_params r;
    const int dbl = elem == 8;
    r.merged = 0; /* a program per op and mode: a GPU driver compiles every kernel of a program */
    if (dev->emulator) {
        /* small groups and shares, so that small test shapes take every path */
        r.group_rows = 1;
        r.wg = 16;
        r.items = 2;
        r.arg_items = 2;
        r.vw = 2;
        r.crows = 4;
    } else if (clrt__wants_register_tiles(dev)) {
        /* CPU: each work-item streams a run of one row in vectors of twice the preferred
         * width (two independent registers per step), no barriers; its result is a
         * partial of the next level. Measured on POCL (2 cores, AVX2), side by side,
         * float32: vw 16 over 8 +3-24% at 10^7 elements; items 16 over 8 +17%, over 32
         * and 64 +8% and +17%; a group's tree (group_rows 1) no faster over all
         * elements and 2x slower on rows of 33333; crows 16 over 4, 32 and 64 1.3-1.8x
         * on a 3162 x 3162 column sum. */
        unsigned pv = dbl ? dev->pref_vec_double : dev->pref_vec_float;
        r.group_rows = 0;
        r.wg = 64;
        r.items = 16;
        /* argmax ends each share with a fold of values and columns across the lanes
         * that costs as much as 16 vectors: measured on POCL (2 cores, AVX-512), CPU
         * time per 3162 x 3163 argmax, 64 over 16 -30%, 128 over 64 within noise */
        r.arg_items = 64;
        r.vw = clrt__pick_vector_width(2 * pv, 4);
        r.crows = 16;
        /* every op and mode in one program: POCL compiles a program's kernels at
         * their first launch, so each build saved is its front end over opencl-c.h
         * (25-40 ms even from its cache); clrt-train used three (its losses' and
         * the convolutions' bias gradients' row sums, the linear layers' column
         * sums, the test's argmax) */
        r.merged = 1;
    } else {
        /* GPU: 16-byte vectors, consecutive work-items on consecutive vectors, a group's
         * shares folded in local memory */
        r.group_rows = 1;
        r.wg = 256;
        r.items = 4;
        r.arg_items = 4;
        r.vw = dbl ? 2 : 4;
        r.crows = 16;
    }
    if (dev->max_work_item[0] && r.wg > dev->max_work_item[0])
        r.wg = clrt__floor_pow2(dev->max_work_item[0]);
    size_t max = dev->max_work_group ? dev->max_work_group : 1;
    while (r.wg > max)
        r.wg /= 2;
    put(out, &r);
}

/* Local memory of ROW_GROUP: the group's values and (argmax) columns. */
static size_t local_bytes(const clrt__reduce_params *r, size_t elem) { return (size_t)r->wg * (elem + 4); }

static int check(const clrt__device_facts *dev, size_t elem, const clrt__pvals *pv, char *why, size_t cap)
{
    const clrt__reduce_params r = clrt__rd(pv);
    if (r.vw != 1 && r.vw != 2 && r.vw != 4 && r.vw != 8 && r.vw != 16)
        return clrt__refuse(why, cap, "vw must be 1, 2, 4, 8 or 16 (is %u)", r.vw);
    if (!is_pow2(r.wg))
        return clrt__refuse(why, cap, "wg must be a power of two (is %u)", r.wg);
    /* every level must shrink its input, else a reduction would never end */
    if ((size_t)r.items * r.vw < 2)
        return clrt__refuse(why, cap, "items x vw must be at least 2 (is %u x %u)", r.items, r.vw);
    if ((size_t)r.arg_items * r.vw < 2)
        return clrt__refuse(why, cap, "arg_items x vw must be at least 2 (is %u x %u)", r.arg_items, r.vw);
    if (r.group_rows && dev->local_mem && local_bytes(&r, elem) > dev->local_mem)
        return clrt__refuse(why, cap, "a group of %u needs %zu bytes of local memory, the device has %llu", r.wg,
                            local_bytes(&r, elem), (unsigned long long)dev->local_mem);
    return clrt__check_group(dev, r.wg, 1, why, cap);
}

static int fit(const clrt__device_facts *dev, size_t elem, size_t kernel_wg, clrt__pvals *pv)
{
    (void)dev;
    (void)elem;
    clrt__reduce_params r = clrt__rd(pv);
    if (kernel_wg == 0 || r.wg == 0)
        return -1;
    int changed = 0;
    while (r.wg > kernel_wg) {
        r.wg /= 2;
        changed = 1;
    }
    put(pv, &r);
    return changed;
}

static const char *source(const clrt__pvals *p) { return clrt__rd(p).merged ? clrt__cl_reduce_all : clrt__cl_reduce; }

/* The launch variant: the op (1-4) and the mode (0-2); none when merged (every
 * variant is in the text, cmake/EmbedCL.cmake defines them). */
static int variant_options(const clrt__pvals *p, int variant, char *buf, size_t cap)
{
    if (clrt__rd(p).merged && cap > 0) {
        buf[0] = '\0';
        return 0;
    }
    int n = snprintf(buf, cap, "-DOP=%d -DMODE=%d", variant % 4 + 1, variant / 4);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

/* Merged, the variant's kernel: reduce_<op>_<mode>; else NULL (`reduce`). */
static const char *variant_entry(const clrt__pvals *p, int variant)
{
    static const char *const names[12] = {"reduce_1_0", "reduce_2_0", "reduce_3_0", "reduce_4_0",
                                          "reduce_1_1", "reduce_2_1", "reduce_3_1", "reduce_4_1",
                                          "reduce_1_2", "reduce_2_2", "reduce_3_2", "reduce_4_2"};
    return clrt__rd(p).merged && variant >= 0 && variant < 12 ? names[variant] : NULL;
}

size_t clrt__reduce_chunk(const clrt__reduce_params *p, int op, int mode)
{
    size_t share = (size_t)(op == CLRT__RED_ARGMAX ? p->arg_items : p->items) * p->vw;
    return mode == CLRT__RED_ROW_GROUP ? share * p->wg : share;
}

int clrt__reduce_row_mode(const clrt__reduce_params *p, int op, size_t cols)
{
    /* a group only where it would be at least a quarter busy: shorter rows take one
     * work-item per share and another level (a group per short row idles most of it) */
    return p->group_rows && cols > clrt__reduce_chunk(p, op, CLRT__RED_ROW_GROUP) / 4 ? CLRT__RED_ROW_GROUP
                                                                                 : CLRT__RED_ROW_ITEMS;
}

void clrt__reduce_geometry(const clrt__reduce_params *p, int op, int mode, size_t rows, size_t cols, size_t global[1],
                           size_t local[1])
{
    local[0] = p->wg;
    if (mode == CLRT__RED_COLS) {
        size_t n = clrt__ceil_div(cols, p->vw) * clrt__ceil_div(rows, p->crows);
        global[0] = clrt__ceil_div(n, p->wg) * p->wg;
    } else if (mode == CLRT__RED_ROW_GROUP) {
        global[0] = rows * clrt__ceil_div(cols, clrt__reduce_chunk(p, op, mode)) * p->wg;
    } else {
        size_t n = rows * clrt__ceil_div(cols, clrt__reduce_chunk(p, op, mode));
        global[0] = clrt__ceil_div(n, p->wg) * p->wg;
    }
}

CLRT__PARAM_TABLE(params, CLRT__REDUCE_PARAMS, clrt__reduce_params);

const clrt__kernel_def clrt__k_reduce = {
    .name = "reduce",
    .params = params,
    .nparams = sizeof params / sizeof *params,
    .dtypes = CLRT__FLOAT_DTYPES,
    .variant_param = "group_rows",
    .defaults = defaults,
    .check = check,
    .fit = fit,
    .source = source,
    .entry = "reduce",
    .variant_entry = variant_entry,
    .variant_options = variant_options,
};
