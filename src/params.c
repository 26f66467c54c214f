/* Per-device kernel parameters (see params.h). Every vendor quirk lives here.
 *
 * Two matmul variants (cl/matmul.cl):
 *   use_local = 0  CPU devices. Each work-item keeps a TM x TN tile of C in registers
 *                  as TN/VW vectors of VW (float16 on AVX-512), loads B rows as vectors
 *                  and broadcasts A. No local memory; a work-group of WGY work-items
 *                  shares one B panel, walked in k blocks of TK with a barrier so the
 *                  panel block stays in cache. Measured best on POCL (Zen 5, AVX-512):
 *                  TM=8, TN=48, TK=256, VW=16 (24 zmm accumulators), and since B is
 *                  packed for large products, work-groups of one work-item (WG 1x1).
 *   use_local = 1  GPUs. A (BM x TK) and B (TK x BN) tiles staged in local memory,
 *                  each work-item TM x TN in registers, VW-wide vector loads.
 * Constraints the kernel relies on: TN % VW == 0; with use_local, TK % VW == 0.
 *
 * pack (CPU variant): copy B into contiguous K x TN column panels first (pack_b in
 * cl/matmul.cl), see clrt_matmul_pack_panels for when.
 */
#include "params.h"
#include "selector.h"

#include <clrt/clrt.h>

#include <stdio.h>
#include <string.h>

/* case-insensitive substring test */
static int has_text(const char *hay, const char *needle)
{
    return clrt__icontains(hay, needle, strlen(needle));
}

/* The widest of 16, 8, 4, 2 that the preferred width pv reaches, not below
 * floor; 4 when the driver reports no preference (0 or 1). */
static unsigned pick_vw(unsigned pv, unsigned floor)
{
    if (pv < 2)
        return 4;
    unsigned vw = pv >= 16 ? 16 : pv >= 8 ? 8 : pv >= 4 ? 4 : 2;
    return vw < floor ? floor : vw;
}

enum { V_GENERIC, V_NVIDIA, V_AMD, V_INTEL };

static int gpu_vendor(const clrt_device_facts *d)
{
    const char *s[3] = { d->vendor, d->platform, d->name };
    for (int i = 0; i < 3; ++i) {
        if (has_text(s[i], "nvidia"))
            return V_NVIDIA;
        if (has_text(s[i], "advanced micro devices") || has_text(s[i], "amd"))
            return V_AMD;
        if (has_text(s[i], "intel"))
            return V_INTEL;
    }
    return V_GENERIC;
}

/* Oclgrind and llvmpipe: correct but slow; small tiles also exercise the edge code. */
/* A device that gets the register-tile (CPU) variant. */
static int wants_register_tiles(const clrt_device_facts *d)
{
    if (d->emulator)
        return 0;
    if (d->type == CLRT_DEVICE_CPU)
        return 1;
    if (d->type == CLRT_DEVICE_GPU)
        return 0;
    /* accelerator / other: local-memory tiles only where local memory is real */
    return d->local_mem == 0 || d->local_mem_is_global;
}

static void set_mm(clrt_matmul_params *p, int use_local, unsigned tm, unsigned tn, unsigned tk,
                   unsigned wgx, unsigned wgy, unsigned vw)
{
    p->use_local = use_local;
    p->tm = tm;
    p->tn = tn;
    p->tk = tk;
    p->wgx = wgx;
    p->wgy = wgy;
    p->vw = vw;
    p->pack = 0;
    p->tkp = 0;
}

static unsigned floor_pow2(size_t v)
{
    unsigned p = 1;
    while ((size_t)p * 2 <= v && p < (1u << 30))
        p *= 2;
    return p;
}

void clrt_matmul_params_default(const clrt_device_facts *dev, size_t elem_size,
                                clrt_matmul_params *out)
{
    const int dbl = elem_size == 8;
    if (dev->emulator) {
        /* 32 work-items: llvmpipe reports CL_KERNEL_WORK_GROUP_SIZE 32 */
        set_mm(out, 1, 2, 2, 8, 8, 4, 2);
    } else if (wants_register_tiles(dev)) {
        /* Vector width = the device's preferred width (16 floats / 8 doubles on AVX-512).
         * Three accumulator vectors per row: with 32 vector registers (AVX-512) 8 rows
         * = 24 accumulators; with 16 registers (AVX2, SSE) 4 rows = 12. */
        unsigned pv = dbl ? dev->pref_vec_double : dev->pref_vec_float;
        unsigned vw = pick_vw(pv, 2);
        unsigned regs32 = (dbl ? vw * 8 : vw * 4) >= 64; /* 512-bit vectors: AVX-512 */
        /* One work-item per group: with B packed (below) the group's shared walk of a B
         * panel no longer pays for its barrier. Measured side by side on POCL (clrt-bench,
         * 1x1 over 1x16): fp32 0.99-1.14, fp64 1.03-1.10 at n = 256-4096, and 1.8-2.0x on a
         * K = 1 product; the tuner had picked 1x1 in four of its five runs. */
        set_mm(out, 0, regs32 ? 8 : 4, 3 * vw, 256, 1, 1, vw);
        /* B packed into panels for large products, walked in deeper k blocks (cl/matmul.cl;
         * clrt-bench at 2048 and 4096: fp32 +15-20%, fp64 +10-15% over B in place) */
        out->pack = 1;
        out->tkp = 1024;
    } else {
        switch (gpu_vendor(dev)) {
        case V_NVIDIA:
        case V_AMD:
            /* 128 x 128 tile per 256 work-items, 8 x 8 each (fp32); 64 x 64 for fp64 */
            if (dbl)
                set_mm(out, 1, 4, 4, 16, 16, 16, 2);
            else
                set_mm(out, 1, 8, 8, 16, 16, 16, 4);
            break;
        case V_INTEL:
        default:
            /* smaller register budget per work-item: 4 x 4, 64 x 64 tile */
            set_mm(out, 1, 4, 4, 16, 16, 16, dbl ? 2 : 4);
            break;
        }
    }
    /* respect per-dimension work-item limits, then the totals */
    if (dev->max_work_item[0] && out->wgx > dev->max_work_item[0])
        out->wgx = floor_pow2(dev->max_work_item[0]);
    if (dev->max_work_item[1] && out->wgy > dev->max_work_item[1])
        out->wgy = floor_pow2(dev->max_work_item[1]);
    size_t budget = out->use_local ? (size_t)dev->local_mem : 0;
    (void)clrt_matmul_params_shrink(out, dev->max_work_group ? dev->max_work_group : 1, budget,
                                    elem_size);
}

void clrt_add_params_default(const clrt_device_facts *dev, size_t elem_size, clrt_add_params *out)
{
    const int dbl = elem_size == 8;
    if (dev->emulator) {
        out->vw = 4;
        out->items = 1;
        out->wg = 32;
    } else if (wants_register_tiles(dev)) {
        /* CPU: one full-width vector per work-item, large groups so the runtime's
         * per-group cost is spread over 64 KiB of each operand */
        unsigned pv = dbl ? dev->pref_vec_double : dev->pref_vec_float;
        out->vw = pick_vw(pv, 4);
        out->items = 1;
        out->wg = 1024;
    } else {
        /* GPU: 16-byte vectors, one per work-item; consecutive work-items touch
         * consecutive vectors (coalesced) */
        out->vw = dbl ? 2 : 4;
        out->items = 1;
        out->wg = 256;
    }
    if (dev->max_work_item[0] && out->wg > dev->max_work_item[0])
        out->wg = floor_pow2(dev->max_work_item[0]);
    (void)clrt_add_params_shrink(out, dev->max_work_group ? dev->max_work_group : 1);
}

static const char *real_name(size_t elem_size)
{
    return elem_size == 8 ? "double" : "float";
}

int clrt_matmul_options(const clrt_matmul_params *p, size_t elem_size, char *buf, size_t cap)
{
    int n = snprintf(buf, cap,
                     "-DREAL=%s%s -DUSE_LOCAL=%d -DTM=%u -DTN=%u -DTK=%u -DWGX=%u -DWGY=%u -DVW=%u",
                     real_name(elem_size), elem_size == 8 ? " -DCLRT_FP64=1" : "",
                     p->use_local ? 1 : 0, p->tm, p->tn, p->tk, p->wgx, p->wgy, p->vw);
    /* only the packed path of the CPU variant uses it */
    if (n >= 0 && (size_t)n < cap && !p->use_local && p->pack)
        n += snprintf(buf + n, cap - (size_t)n, " -DTKP=%u", p->tkp ? p->tkp : p->tk);
    return (n < 0 || (size_t)n >= cap) ? -1 : 0;
}

int clrt_add_options(const clrt_add_params *p, size_t elem_size, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "-DREAL=%s%s -DVW=%u -DITEMS=%u -DWG=%u", real_name(elem_size),
                     elem_size == 8 ? " -DCLRT_FP64=1" : "", p->vw, p->items, p->wg);
    return (n < 0 || (size_t)n >= cap) ? -1 : 0;
}

size_t clrt_matmul_local_bytes(const clrt_matmul_params *p, size_t elem_size)
{
    if (!p->use_local)
        return 0;
    /* As: (WGY*TM) x TK, Bs: TK x (WGX*TN) */
    size_t bm = (size_t)p->wgy * p->tm, bn = (size_t)p->wgx * p->tn;
    return (bm + bn) * p->tk * elem_size;
}

static size_t ceil_div(size_t a, size_t b)
{
    return a / b + (a % b != 0);
}

void clrt_matmul_geometry(const clrt_matmul_params *p, size_t M, size_t N, size_t global[2],
                          size_t local[2])
{
    local[0] = p->wgx;
    local[1] = p->wgy;
    global[0] = ceil_div(ceil_div(N, p->tn), p->wgx) * p->wgx;
    global[1] = ceil_div(ceil_div(M, p->tm), p->wgy) * p->wgy;
}

void clrt_add_geometry(const clrt_add_params *p, size_t n, size_t global[1], size_t local[1])
{
    local[0] = p->wg;
    global[0] = ceil_div(ceil_div(n, (size_t)p->vw * p->items), p->wg) * p->wg;
}

/* Packing pays when enough row blocks of C re-read B to repay one copy of it, and the
 * product is large enough to hide a second launch. Measured on POCL (Zen 5, 2 cores),
 * packed (tkp 1024) over in place (tk 256), fp32: M x 2048 x 2048 0.82 at M = 128,
 * 0.91 at 256, 1.02 at 512; n^3 0.99 at 512, 1.04-1.05 at 768-1031, 1.10 at 2048. */
static int pack_pays(const clrt_matmul_params *p, size_t M, size_t N, size_t K)
{
    return M >= 4 * (size_t)p->wgy * p->tm && (double)M * (double)N * (double)K >= 640.0 * 640.0 * 640.0;
}

size_t clrt_matmul_pack_scratch_max(const clrt_device_facts *dev)
{
    /* A quarter of the last-level cache (CPU drivers report it: POCL 32 MiB on this Zen 5),
     * at least 8 MiB. Measured on POCL against one slice of all of B: 8 MiB slices ~4%
     * faster at 2048 (fp32, fp64), ~2.5% at 4096 fp32, ~3% slower at 4096 fp64. */
    unsigned long long bytes = dev->global_cache / 4;
    if (bytes < (8ull << 20))
        bytes = 8ull << 20;
    if (dev->max_alloc && bytes > dev->max_alloc)
        bytes = dev->max_alloc;
    return bytes > (size_t)-1 ? (size_t)-1 : (size_t)bytes;
}

size_t clrt_matmul_pack_panels(const clrt_matmul_params *p, size_t M, size_t N, size_t K,
                               size_t elem_size, size_t max_scratch)
{
    /* the packed path is the full-tile path of the CPU variant only */
    if (p->use_local || p->pack == 0 || p->tn == 0 || p->wgx == 0 || M < p->tm || N < p->tn ||
        K == 0)
        return 0;
    if (p->pack == 1 && !pack_pays(p, M, N, K))
        return 0;
    const size_t panels = ceil_div(N, p->tn);
    if (K > max_scratch / elem_size / p->tn)
        return 0; /* one panel does not fit */
    const size_t fit = max_scratch / (K * p->tn * elem_size); /* panels, >= 1 */
    if (panels <= fit)
        return ceil_div(panels, p->wgx) * p->wgx;
    /* several launches of equal size, each a multiple of wgx panels */
    const size_t unit = fit / p->wgx * p->wgx;
    if (unit == 0)
        return 0;
    const size_t launches = ceil_div(panels, unit);
    return ceil_div(ceil_div(panels, launches), p->wgx) * p->wgx;
}

void clrt_matmul_pack_geometry(size_t K, size_t panels, size_t kernel_wg, size_t max_item0,
                               size_t global[2], size_t local[2])
{
    size_t l = 64; /* rows of a panel per work-group */
    if (kernel_wg && l > kernel_wg)
        l = floor_pow2(kernel_wg);
    if (max_item0 && l > max_item0)
        l = floor_pow2(max_item0);
    local[0] = l;
    local[1] = 1;
    global[0] = ceil_div(K, l) * l;
    global[1] = panels;
}

/* Make the vector width divide TN (and TK with local tiles). */
static void fix_vw(clrt_matmul_params *p)
{
    while (p->vw > 1 && (p->tn % p->vw || (p->use_local && p->tk % p->vw)))
        p->vw /= 2;
}

int clrt_matmul_params_shrink(clrt_matmul_params *p, size_t kernel_wg, size_t local_budget,
                              size_t elem_size)
{
    int changed = 0;
    if (kernel_wg == 0 || p->tm == 0 || p->tn == 0 || p->tk == 0 || p->wgx == 0 || p->wgy == 0 ||
        p->vw == 0)
        return -1;
    /* work-group: halve the larger side, y first (x is the coalesced direction) */
    while ((size_t)p->wgx * p->wgy > kernel_wg) {
        if (p->wgy >= p->wgx)
            p->wgy /= 2;
        else
            p->wgx /= 2;
        changed = 1;
    }
    /* local memory: shallower k tile first, then smaller register tiles */
    while (p->use_local && clrt_matmul_local_bytes(p, elem_size) > local_budget) {
        if (p->tk > 4 && p->tk > p->vw) {
            p->tk /= 2;
        } else if (p->tm > 1 && p->tm >= p->tn) {
            p->tm /= 2;
        } else if (p->tn > 1) {
            p->tn /= 2;
        } else if (p->tk > 1) {
            p->tk /= 2;
        } else if (p->wgx * p->wgy > 1) {
            if (p->wgy >= p->wgx)
                p->wgy /= 2;
            else
                p->wgx /= 2;
        } else {
            /* no local memory to speak of: fall back to the variant that needs none */
            set_mm(p, 0, 4, 4, 64, p->wgx, p->wgy, 4);
        }
        fix_vw(p);
        changed = 1;
    }
    const unsigned vw = p->vw;
    fix_vw(p);
    return changed || vw != p->vw;
}

int clrt_add_params_shrink(clrt_add_params *p, size_t kernel_wg)
{
    int changed = 0;
    if (kernel_wg == 0 || p->wg == 0)
        return -1;
    while (p->wg > kernel_wg) {
        p->wg /= 2;
        changed = 1;
    }
    return changed;
}

/* POCL keeps a kernel cache (~/.cache/pocl), but a clBuildProgram that hits
 * it still runs its front end: 25-30 ms for matmul.cl against 5 ms to load
 * clrt's own binary (measured on POCL 3.1 in a new process), so clrt's cache
 * is worth using there (its first store costs POCL a one-time build of the
 * binary, ~4 s here). NVIDIA's compute cache (~/.nv/ComputeCache) makes a
 * repeated build cheap, as PyOpenCL also assumes: skip clrt's there. */
int clrt_driver_caches_builds(const clrt_device_facts *dev)
{
    return has_text(dev->platform, "nvidia");
}
