/* The neural-network kernels' rules (see kernels/nn.h and cl/nn_*.cl): defaults
 * per device, constraints, fitting, geometry. */
#include "kernels/nn.h"

#include "base/util.h"
#include "clrt/clrt.h"

/* cl/nn_im2col.cl, nn_layout.cl, nn_pool.cl and nn_act.cl as one text (src/CMakeLists.txt):
 * the four kernels take the same parameters, so with the same options they are one
 * program, built once (on POCL each build from source pays its compiler's front end,
 * 0.13-0.27 s, for opencl-c.h more than for the kernel; the entries are compiled on
 * their first launch either way) */
extern const char clrt__cl_nn[];

static int is_pow2(unsigned v) { return v && (v & (v - 1)) == 0; }

/* An Intel GPU with 128 KiB of local memory (the Data Center GPU Max, Xe-HPC): its
 * compiler builds these kernels at SIMD32 there, where conv_direct (fp32 30 bytes,
 * fp64 189) and maxpool_forward (fp64, 89) spill; at SIMD16 none does, and
 * conv_direct's loop is 0.57 mad instead of 0.43-0.46 (clrt-isa, docs/gpu-isa.md).
 * On Arc and Iris Xe (64 KiB) IGC's own choice spills nothing. */
static int intel_xe_hpc(const clrt__device_facts *dev)
{
    return dev->type == CLRT_DEVICE_GPU && dev->local_mem >= 128 * 1024 &&
           (clrt__icontains(dev->vendor, "intel", 5) || clrt__icontains(dev->platform, "intel", 5));
}

static void defaults(const clrt__device_facts *dev, size_t elem, clrt__pvals *out)
{
    clrt__nn_params t;
    t.idx64 = 0;
    t.sg = 0;
    t.slice = 0; /* the whole batch: GPUs, emulators */
    /* the direct convolution's tile: CTM x CNV vectors of VW, 24 accumulators where
     * there are 32 vector registers (AVX-512), 12 otherwise */
    const unsigned pv = elem == 8 ? dev->pref_vec_double : dev->pref_vec_float;
    t.vw = clrt__pick_vector_width(pv, 2);
    const unsigned regs32 = t.vw * (unsigned)elem >= 64;
    t.cnv = regs32 ? 4 : 2;
    t.ctm = 6;
    t.cwg = 16;
    /* im2col + GEMM by default; the direct kernel on CPUs (docs/nn.md has the
     * measurement) */
    t.conv = 0;
    /* CPU: a group is a loop over its work-items, each moving a run already;
     * a launch's cost grows with its groups (nn-conv-phases on POCL, conv2 at
     * batch 64: im2col + conv_rows 9.0, 6.6, 5.7, 2.8 ms with groups of 16,
     * 64, 256, 1024, one run each on a shared machine); GPUs: 256 too */
    t.wg = 256;
    if (dev->emulator) {
        t.vw = 4;
        t.cnv = 1;
        t.ctm = 3;
        t.wg = 16; /* small groups: small test shapes still span several */
    } else if (clrt__wants_register_tiles(dev)) {
        t.conv = 1;
        /* cols in slices of 4 MiB, which stay in a CPU's caches between im2col and
         * the GEMM that reads them (docs/nn.md: conv2's backward pass at batch 256
         * 1.5-2.5 ms faster with 2-8 MiB than whole, 33 MiB; 1 MiB slower, its
         * launches) */
        t.slice = 4096;
    } else {
        /* GPUs (conv=0: the direct kernel only when asked for): 4 x 2 vectors, groups
         * of 256. On sm_90 (.ci/gpu-isa.sh) 6 x 2 took 118 registers (16 warps) fp32 and
         * 168 fp64 (12), in groups of 16, half a warp each; 4 x 2 takes 79 (24 warps) and
         * 127 (16), 0.53 and 0.54 of its loop FMAs (fp64: DFMA's full rate). The loop's
         * loads of x and wt per tap, not local tiles, keep it there: on a GPU the
         * convolution's arithmetic is the GEMM's (im2col). */
        t.ctm = 4;
        t.cwg = 256;
        if (intel_xe_hpc(dev))
            t.sg = 16;
    }
    /* half the budget: the kernels' counts of passes leave out their loops' own overheads */
    t.loops = (unsigned)(clrt__device_loop_budget(dev) / 2);
    if (dev->max_work_item[0] && t.wg > dev->max_work_item[0])
        t.wg = clrt__floor_pow2(dev->max_work_item[0]);
    const size_t max = dev->max_work_group ? dev->max_work_group : 1;
    while (t.wg > max)
        t.wg /= 2;
    while (t.cwg > max)
        t.cwg /= 2;
    memcpy(out->v, &t, sizeof t);
}

static int check(const clrt__device_facts *dev, size_t elem, const clrt__pvals *pv, char *why, size_t cap)
{
    (void)elem;
    const clrt__nn_params t = clrt__nnp(pv);
    if (!is_pow2(t.vw) || t.vw > 16)
        return clrt__refuse(why, cap, "vw must be 1, 2, 4, 8 or 16 (is %u)", t.vw);
    if (t.ctm * t.cnv > 64)
        return clrt__refuse(why, cap, "ctm x cnv must be at most 64 accumulators (is %u x %u)", t.ctm, t.cnv);
    if (!is_pow2(t.cwg))
        return clrt__refuse(why, cap, "cwg must be a power of two (is %u)", t.cwg);
    if (!is_pow2(t.wg))
        return clrt__refuse(why, cap, "wg must be a power of two (is %u)", t.wg);
    if (t.sg != 0 && t.sg != 8 && t.sg != 16 && t.sg != 32)
        return clrt__refuse(why, cap, "sg (intel_reqd_sub_group_size) must be 0, 8, 16 or 32 (is %u)", t.sg);
    return clrt__check_group(dev, t.wg, 1, why, cap);
}

static int fit(const clrt__device_facts *dev, size_t elem, size_t kernel_wg, clrt__pvals *pv)
{
    (void)dev;
    (void)elem;
    clrt__nn_params t = clrt__nnp(pv);
    if (kernel_wg == 0 || t.wg == 0)
        return -1;
    int changed = 0;
    while (t.wg > kernel_wg) {
        t.wg /= 2;
        changed = 1;
    }
    memcpy(pv->v, &t, sizeof t);
    return changed;
}

static size_t group(const clrt__pvals *p) { return clrt__nnp(p).wg; }

size_t clrt__nn_slice(const clrt__nn_params *p, size_t per, size_t fixed, size_t total)
{
    if (p->loops == 0 || total == 0)
        return total;
    const size_t room = p->loops > fixed ? (p->loops - fixed) / (per ? per : 1) : 0;
    return room == 0 ? 1 : room < total ? room : total;
}

void clrt__nn_geometry(const clrt__nn_params *p, size_t kernel_wg, size_t items, size_t *global, size_t *local)
{
    size_t wg = p->wg ? p->wg : 1;
    if (kernel_wg && wg > kernel_wg)
        wg = clrt__floor_pow2(kernel_wg);
    *local = wg;
    *global = clrt__ceil_div(items, wg) * wg;
}

static const char *source(const clrt__pvals *p)
{
    (void)p;
    return clrt__cl_nn;
}

#define AUX_ENTRY(fn, name)                                                   \
    static const char *fn(const clrt__pvals *p, int variant, unsigned i)    \
    {                                                                         \
        (void)p;                                                              \
        (void)variant;                                                        \
        return i == CLRT__NN_AUX ? name : NULL;                               \
    }
static const char *aux_im2col(const clrt__pvals *p, int variant, unsigned i)
{
    (void)p;
    (void)variant;
    return i == CLRT__NN_AUX          ? "col2im"
           : i == CLRT__NN_AUX_DIRECT ? "conv_direct"
           : i == CLRT__NN_AUX_WT     ? "conv_wt"
                                      : NULL;
}
AUX_ENTRY(aux_layout, "conv_cols")
static const char *aux_pool(const clrt__pvals *p, int variant, unsigned i)
{
    (void)p;
    (void)variant;
    return i == CLRT__NN_AUX ? "maxpool_backward" : i == CLRT__NN_AUX_TILED ? "maxpool_backward_tiled" : NULL;
}
static const char *aux_act(const clrt__pvals *p, int variant, unsigned i)
{
    (void)p;
    (void)variant;
    return i == CLRT__NN_AUX          ? "xent_rows"
           : i == CLRT__NN_AUX_XSTATS ? "xent_stats"
           : i == CLRT__NN_AUX_XGRAD  ? "xent_grad"
           : i == CLRT__NN_AUX_SGD    ? "sgd_momentum"
                                      : NULL;
}

CLRT__PARAM_TABLE(params, CLRT__NN_PARAMS, clrt__nn_params);

#define NN_KERNEL(var, kname, main_entry, aux)                                                               \
    const clrt__kernel_def var = {                                                                            \
        .name = kname,                                                                                        \
        .params = params,                                                                                     \
        .nparams = sizeof params / sizeof *params,                                                            \
        .dtypes = CLRT__FLOAT_DTYPES,                                                                         \
        .variant_param = NULL,                                                                                \
        .defaults = defaults,                                                                                 \
        .check = check,                                                                                       \
        .fit = fit,                                                                                           \
        .group = group,                                                                                       \
        .source = source,                                                                                     \
        .entry = main_entry,                                                                                  \
        .aux_entry = aux,                                                                                     \
    };
NN_KERNEL(clrt__k_nn_im2col, "nn_im2col", "im2col", aux_im2col)
NN_KERNEL(clrt__k_nn_layout, "nn_layout", "conv_rows", aux_layout)
NN_KERNEL(clrt__k_nn_pool, "nn_pool", "maxpool_forward", aux_pool)
NN_KERNEL(clrt__k_nn_act, "nn_act", "relu_backward", aux_act)
