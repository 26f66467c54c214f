/* The matmul kernel's rules (see k_matmul.h): its defaults per device, the
 * constraints of cl/matmul_cpu.cl and cl/matmul_gpu.cl, fitting to a built
 * kernel, and the launch geometry. All matmul vendor quirks live here.
 *
 * Variant 0 (CPU devices). Each work-item keeps a TM x TN tile of C in registers
 * as TN/VW vectors of VW (float16 on AVX-512), loads B rows as vectors and
 * broadcasts A. Measured best on POCL (Zen 5, AVX-512): TM=8, TN=48, TK=256, VW=16
 * (24 zmm accumulators), and since B is packed for large products, work-groups of
 * one work-item. Variant 1 (GPUs): A (BM x TK) and B (TK x BN) tiles staged in
 * local memory, each work-item TM x TN in registers, VW-wide vector loads.
 * Constraints the kernels rely on: TN % VW == 0; in variant 1, TK % VW == 0. */
#include "k_matmul.h"

#include <stdio.h>

#include "clrt/clrt.h"
#include "util.h"

/* embedded kernel sources (generated from cl/ at build time) */
extern const char clrt__cl_matmul_cpu[];
extern const char clrt__cl_matmul_gpu[];

enum { V_GENERIC, V_NVIDIA, V_AMD, V_INTEL };

static int has_text(const char *hay, const char *needle) { return clrt__icontains(hay, needle, strlen(needle)); }

static int gpu_vendor(const clrt__device_facts *d)
{
    const char *s[3] = {d->vendor, d->platform, d->name};
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

static void set_mm(clrt__matmul_params *p, unsigned use_local, unsigned tm, unsigned tn, unsigned tk, unsigned wgx,
                   unsigned wgy, unsigned vw)
{
    memset(p, 0, sizeof *p);
    p->use_local = use_local;
    p->tm = tm;
    p->tn = tn;
    p->tk = tk;
    p->wgx = wgx;
    p->wgy = wgy;
    p->vw = vw;
}

size_t clrt__matmul_local_bytes(const clrt__matmul_params *p, size_t elem)
{
    if (!p->use_local)
        return 0;
    /* As: (WGY*TM) x TK, Bs: TK x (WGX*TN) */
    size_t bm = (size_t)p->wgy * p->tm, bn = (size_t)p->wgx * p->tn;
    return (bm + bn) * p->tk * elem;
}

/* Make the vector width divide TN (and TK with local tiles). */
static void fix_vw(clrt__matmul_params *p)
{
    while (p->vw > 1 && (p->tn % p->vw || (p->use_local && p->tk % p->vw)))
        p->vw /= 2;
}

/* Shrink p to kernel_wg work-items per group and local_budget bytes of local
 * memory: 1 changed, 0 already fits, -1 nothing smaller exists. */
static int shrink(clrt__matmul_params *p, size_t kernel_wg, size_t local_budget, size_t elem)
{
    int changed = 0;
    if (kernel_wg == 0 || p->tm == 0 || p->tn == 0 || p->tk == 0 || p->wgx == 0 || p->wgy == 0 || p->vw == 0)
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
    while (p->use_local && clrt__matmul_local_bytes(p, elem) > local_budget) {
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
            unsigned wgx = p->wgx, wgy = p->wgy;
            set_mm(p, 0, 4, 4, 64, wgx, wgy, 4);
        }
        fix_vw(p);
        changed = 1;
    }
    const unsigned vw = p->vw;
    fix_vw(p);
    return changed || vw != p->vw;
}

static void defaults(const clrt__device_facts *dev, size_t elem, clrt__pvals *out)
{
    clrt__matmul_params m;
    const int dbl = elem == 8;
    if (dev->emulator) {
        /* 32 work-items: llvmpipe reports CL_KERNEL_WORK_GROUP_SIZE 32; small tiles
         * also exercise the edge code */
        set_mm(&m, 1, 2, 2, 8, 8, 4, 2);
    } else if (clrt__wants_register_tiles(dev)) {
        /* Vector width = the device's preferred width (16 floats / 8 doubles on AVX-512).
         * Three accumulator vectors per row: with 32 vector registers (AVX-512) 8 rows
         * = 24 accumulators; with 16 registers (AVX2, SSE) 4 rows = 12. */
        unsigned pv = dbl ? dev->pref_vec_double : dev->pref_vec_float;
        unsigned vw = clrt__pick_vector_width(pv, 2);
        unsigned regs32 = (dbl ? vw * 8 : vw * 4) >= 64; /* 512-bit vectors: AVX-512 */
        /* One work-item per group: with B packed (below) the group's shared walk of a B
         * panel no longer pays for its barrier. Measured side by side on POCL (clrt-bench,
         * 1x1 over 1x16): fp32 0.99-1.14, fp64 1.03-1.10 at n = 256-4096, and 1.8-2.0x on a
         * K = 1 product; the tuner had picked 1x1 in four of its five runs. */
        set_mm(&m, 0, regs32 ? 8 : 4, 3 * vw, 256, 1, 1, vw);
        /* B packed into panels for large products, walked in deeper k blocks
         * (clrt-bench at 2048 and 4096: fp32 +15-20%, fp64 +10-15% over B in place) */
        m.pack = 1;
        m.tkp = 1024;
        m.pack_a = 1;
        m.dot = 1;
        m.rows_first = 1;
    } else {
        switch (gpu_vendor(dev)) {
        case V_NVIDIA:
        case V_AMD:
            /* 128 x 128 tile per 256 work-items, 8 x 8 each (fp32); 64 x 64 for fp64 */
            if (dbl)
                set_mm(&m, 1, 4, 4, 16, 16, 16, 2);
            else
                set_mm(&m, 1, 8, 8, 16, 16, 16, 4);
            break;
        case V_INTEL:
        default:
            /* smaller register budget per work-item: 4 x 4, 64 x 64 tile */
            set_mm(&m, 1, 4, 4, 16, 16, 16, dbl ? 2 : 4);
            break;
        }
    }
    /* respect per-dimension work-item limits, then the totals */
    if (dev->max_work_item[0] && m.wgx > dev->max_work_item[0])
        m.wgx = clrt__floor_pow2(dev->max_work_item[0]);
    if (dev->max_work_item[1] && m.wgy > dev->max_work_item[1])
        m.wgy = clrt__floor_pow2(dev->max_work_item[1]);
    (void)shrink(&m, dev->max_work_group ? dev->max_work_group : 1, m.use_local ? (size_t)dev->local_mem : 0,
                 elem);
    clrt__mm_put(out, &m);
}

static int is_vector_width(unsigned v) { return v == 1 || v == 2 || v == 4 || v == 8 || v == 16; }

/* Private memory a work-group of the register-tile variant holds at once: a
 * CPU driver runs the group's work-items as a loop over one stack frame, with
 * each work-item's accumulators live across the barrier. POCL 3.1 overflows
 * its stack (and the process dies) with 8 x 48 tiles in groups of 2048; every
 * tile x group the tuner searches stays within this bound (largest: 16 x 64
 * doubles x 64 work-items = 512 KiB). */
enum { REGISTER_TILE_GROUP_BYTES = 512 * 1024 };

static int check(const clrt__device_facts *dev, size_t elem, const clrt__pvals *pv, char *why, size_t cap)
{
    const clrt__matmul_params m = clrt__mm(pv);
    const clrt__matmul_params *p = &m;
    if (!is_vector_width(p->vw))
        return clrt__refuse(why, cap, "vw must be 1, 2, 4, 8 or 16 (is %u)", p->vw);
    if (p->tn % p->vw)
        return clrt__refuse(why, cap, "tn (%u) must be a multiple of vw (%u)", p->tn, p->vw);
    if ((size_t)p->tm * p->tn > 1024)
        return clrt__refuse(why, cap, "a %ux%u tile per work-item is more than 1024 accumulators", p->tm, p->tn);
    if (p->use_local && p->tk % p->vw)
        return clrt__refuse(why, cap, "with local tiles tk (%u) must be a multiple of vw (%u)", p->tk, p->vw);
    if (clrt__check_group(dev, p->wgx, p->wgy, why, cap) != 0)
        return -1;
    if (!p->use_local) {
        size_t bytes = (size_t)p->wgx * p->wgy * p->tm * p->tn * elem;
        if (bytes > REGISTER_TILE_GROUP_BYTES)
            return clrt__refuse(why, cap,
                                "a %ux%u work-group of %ux%u tiles holds %zu KiB of accumulators, above the "
                                "%d KiB a CPU driver is known to run",
                                p->wgx, p->wgy, p->tm, p->tn, bytes / 1024, REGISTER_TILE_GROUP_BYTES / 1024);
        return 0;
    }
    size_t bytes = clrt__matmul_local_bytes(p, elem);
    if (dev->local_mem == 0 || bytes > dev->local_mem)
        return clrt__refuse(why, cap, "needs %zu bytes of local memory, the device has %llu", bytes,
                            (unsigned long long)dev->local_mem);
    /* the tiles are loaded in whole slots of the work-group: bounded unrolling */
    size_t wgs = (size_t)p->wgx * p->wgy;
    size_t a_slots = ((size_t)p->wgy * p->tm * (p->tk / p->vw) + wgs - 1) / wgs;
    size_t b_slots = ((size_t)p->tk * ((size_t)p->wgx * p->tn / p->vw) + wgs - 1) / wgs;
    if (a_slots > 256 || b_slots > 256)
        return clrt__refuse(why, cap, "tile loads of %zu and %zu vectors per work-item are too many", a_slots,
                            b_slots);
    return 0;
}

static int fit(const clrt__device_facts *dev, size_t elem, size_t kernel_wg, clrt__pvals *pv)
{
    clrt__matmul_params m = clrt__mm(pv);
    int rc = shrink(&m, kernel_wg, (size_t)dev->local_mem, elem);
    clrt__mm_put(pv, &m);
    return rc;
}

static size_t group(const clrt__pvals *pv)
{
    const clrt__matmul_params m = clrt__mm(pv);
    return (size_t)m.wgx * m.wgy;
}

static const char *source(const clrt__pvals *p)
{
    return clrt__mm(p).use_local ? clrt__cl_matmul_gpu : clrt__cl_matmul_cpu;
}

/* The tile of the narrow variant: one vector of columns, twice the rows (at most
 * 16). Measured on POCL, AVX2, side by side, over the 4 x 24 tile taking its guarded
 * path: 4 x 8 / 8 x 8 (6 x 16): 64x10x500 1.37 / 1.59 (1.47), 500x10x800 1.82 / 2.85
 * (2.08), 64x5x500 1.75 / 2.03, 64x12x500 1.47 / 1.88, 1000x20x1000 0.84 / 1.43
 * (1.44), 64x16x500 1.12 / 1.41 (1.57), 200x17x300 0.91 / 1.17 (1.19). */
static void narrow_tile(const clrt__matmul_params *p, unsigned *tm, unsigned *tn)
{
    *tn = p->vw;
    *tm = 2 * p->tm < 16 ? 2 * p->tm : (p->tm > 16 ? p->tm : 16);
}

/* The launch variant (CLRT__MATMUL_TA, _TB, _NARROW). */
static int variant_options(const clrt__pvals *pv, int variant, char *buf, size_t cap)
{
    const clrt__matmul_params p = clrt__mm(pv);
    unsigned tm = 0, tn = 0;
    const int narrow = (variant & CLRT__MATMUL_NARROW) && !p.use_local;
    if (narrow)
        narrow_tile(&p, &tm, &tn);
    int n = snprintf(buf, cap, "-DTA=%d -DTB=%d -DNARROW=%d -DNARROW_TM=%u -DNARROW_TN=%u",
                     !!(variant & CLRT__MATMUL_TA), !!(variant & CLRT__MATMUL_TB), narrow, tm, tn);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

clrt__matmul_params clrt__matmul_launch_params(const clrt__pvals *pv, int variant)
{
    clrt__matmul_params p = clrt__mm(pv);
    if ((variant & CLRT__MATMUL_NARROW) && !p.use_local)
        narrow_tile(&p, &p.tm, &p.tn);
    return p;
}

int clrt__matmul_narrow(const clrt__matmul_params *p, size_t N)
{
    return !p->use_local && p->tn > p->vw && N < p->tn;
}

static const char *aux_entry(const clrt__pvals *p, int variant, unsigned i)
{
    const clrt__matmul_params m = clrt__mm(p);
    if (m.use_local)
        return NULL;
    if (i == CLRT__MATMUL_AUX_PACK_B)
        return m.pack ? "pack_b" : NULL;
    if (i == CLRT__MATMUL_AUX_PACK_A)
        return m.pack_a ? "pack_a" : NULL;
    if (i == CLRT__MATMUL_AUX_DOT) /* A B^T only */
        return m.dot && variant == CLRT__MATMUL_TB ? "matmul_dot" : NULL;
    return NULL;
}

void clrt__matmul_geometry(const clrt__matmul_params *p, size_t M, size_t N, size_t global[2], size_t local[2])
{
    local[0] = p->wgx;
    local[1] = p->wgy;
    global[0] = clrt__ceil_div(clrt__ceil_div(N, p->tn), p->wgx) * p->wgx;
    global[1] = clrt__ceil_div(clrt__ceil_div(M, p->tm), p->wgy) * p->wgy;
}

/* Packing pays when enough row blocks of C re-read B to repay one copy of it, and either
 * the product is large enough to hide a second launch, or B is larger than a core's
 * L2 (read in place, a panel's rows are each in another page and cache set).
 * Measured on POCL (Zen 5, 2 cores), packed (tkp 1024) over in place (tk 256), fp32:
 * M x 2048 x 2048 0.82 at M = 128, 0.91 at 256, 1.02 at 512; n^3 0.99 at 512, 1.04-1.05
 * at 768-1031, 1.10 at 2048. On POCL, AVX2 (2 cores, 512 KiB L2 each), side by side:
 * 50x4096x500 1.30, 50x500x4096 1.74, 64x500x800 1.25, 128x1024x256 1.53,
 * 32x1024x1024 1.19, 512^3 1.43 (B 0.5-8 MiB, 8-32 row blocks); 384^3 0.96-1.11,
 * 256^3 0.81, 20x36864x25 0.93 (5 row blocks), 10x500x64 0.78. */
static int pack_pays(const clrt__matmul_params *p, size_t M, size_t N, size_t K, size_t elem)
{
    const size_t rows = (size_t)p->wgy * p->tm; /* of a row block */
    if (M < 4 * rows)
        return 0;
    if ((double)M * (double)N * (double)K >= 640.0 * 640.0 * 640.0)
        return 1;
    return M >= 8 * rows && (double)K * (double)N * (double)elem >= 512.0 * 1024.0;
}

size_t clrt__matmul_pack_scratch_max(const clrt__device_facts *dev, const clrt__matmul_params *p)
{
    /* A quarter of the last-level cache (CPU drivers report it: POCL 32 MiB on this Zen 5),
     * at least 8 MiB. Measured on POCL against one slice of all of B: 8 MiB slices ~4%
     * faster at 2048 (fp32, fp64), ~2.5% at 4096 fp32, ~3% slower at 4096 fp64. */
    unsigned long long bytes = p->pack_kib ? (unsigned long long)p->pack_kib * 1024 : dev->global_cache / 4;
    if (!p->pack_kib && bytes < (8ull << 20))
        bytes = 8ull << 20;
    if (dev->max_alloc && bytes > dev->max_alloc)
        bytes = dev->max_alloc;
    return bytes > (size_t)-1 ? (size_t)-1 : (size_t)bytes;
}

size_t clrt__matmul_pack_panels(const clrt__matmul_params *p, size_t M, size_t N, size_t K, size_t elem,
                                size_t max_scratch, int always)
{
    /* the packed path is the full-tile path of the CPU variant only */
    if (p->use_local || p->pack == 0 || p->tn == 0 || p->wgx == 0 || M < p->tm || N < p->tn || K == 0)
        return 0;
    if (p->pack == 1 && !always && !pack_pays(p, M, N, K, elem))
        return 0;
    const size_t panels = clrt__ceil_div(N, p->tn);
    if (K > max_scratch / elem / p->tn)
        return 0; /* one panel does not fit */
    const size_t fit = max_scratch / (K * p->tn * elem); /* panels, >= 1 */
    if (panels <= fit)
        return clrt__ceil_div(panels, p->wgx) * p->wgx;
    /* several launches of equal size, each a multiple of wgx panels */
    const size_t unit = fit / p->wgx * p->wgx;
    if (unit == 0)
        return 0;
    const size_t launches = clrt__ceil_div(panels, unit);
    return clrt__ceil_div(clrt__ceil_div(panels, launches), p->wgx) * p->wgx;
}

/* Packing op(A) pays for A^T (read in place, TM elements of a row per k, a row apart)
 * once the product is large. Measured on POCL, AVX2, side by side, packed over in
 * place (TN and TT): 2048^3 3.5-5x, 1024^3 1.6x, 512^3 1.03-1.28, 1024x256x256 1.37-1.43,
 * 256x256x1024 1.04-1.11, 500x4096x50 1.10, 256x1024x256 0.96-1.02, 384^3 0.92-1.02,
 * 500x800x64 0.95, 256^3 0.6-0.8. A B with A packed too: 0.98 at 2048 (not packed). */
static int pack_a_pays(size_t M, size_t N, size_t K, int ta)
{
    return ta && (double)M * (double)N * (double)K >= 64.0 * 1024 * 1024;
}

size_t clrt__matmul_pack_a_panels(const clrt__matmul_params *p, size_t M, size_t N, size_t K, size_t elem,
                                  size_t max_scratch, int ta, int tb, int b_packed)
{
    /* the kernel reads packed A only on its full-tile path, which B^T takes only packed */
    if (p->use_local || p->pack_a == 0 || p->tm == 0 || p->wgy == 0 || M < p->tm || N < p->tn || K == 0 ||
        (tb && !b_packed))
        return 0;
    if (p->pack_a == 1 && !pack_a_pays(M, N, K, ta))
        return 0;
    /* A's slice need not stay in cache (a row tile walks its panel once per B panel,
     * which is what must), and every slice of B packs A again when it takes several
     * slices: A may have 4 times B's scratch (2048^3 A^T B: 0.89 -> 0.91 of A B) */
    max_scratch = max_scratch > (size_t)-1 / 4 ? (size_t)-1 : 4 * max_scratch;
    const size_t panels = clrt__ceil_div(M, p->tm);
    if (K > max_scratch / elem / p->tm)
        return 0;
    const size_t fit = max_scratch / (K * p->tm * elem);
    if (panels <= fit)
        return clrt__ceil_div(panels, p->wgy) * p->wgy;
    const size_t unit = fit / p->wgy * p->wgy;
    if (unit == 0)
        return 0;
    const size_t slices = clrt__ceil_div(panels, unit);
    return clrt__ceil_div(clrt__ceil_div(panels, slices), p->wgy) * p->wgy;
}

/* Work-items walk C's row tiles first when A is small and K long: each column panel
 * of B (packed or not) is then read by every row tile while in L1/L2, rather than
 * fetched again from the last-level cache by each (A, small, stays in L2 either way;
 * with a short K, C's rows written a tile at a time cost more). Measured on POCL,
 * AVX2, side by side, rows first over columns first (B packed as the rule says):
 * 50x4096x500 1.10-1.25, 32x1024x1024 1.0-1.16, 64x500x800 1.08, 48x512x4096 1.01-1.03,
 * 16x2000x500 1.0-1.05, 100x3000x400 1.04; not taken: 64x4096x256 0.94, 20x36864x25
 * 0.79, 500x4096x50 (A^T B) 0.84, 512^3 1.0-1.05, 2048^3 0.84. */
static int rows_first_pays(size_t M, size_t K, size_t elem)
{
    return (double)M * (double)K * (double)elem <= 256.0 * 1024 && K > 4 * M;
}

int clrt__matmul_rows_first(const clrt__matmul_params *p, size_t M, size_t K, size_t elem)
{
    if (p->use_local || p->rows_first == 0 || p->wgx != p->wgy)
        return 0;
    return p->rows_first == 2 || rows_first_pays(M, K, elem);
}

/* The dot form pays for A B^T where packing B^T costs more than it saves: a thin C
 * (the outer product would take its guarded path), or few rows of C to share the
 * packed copy with a K long enough to hide the dot products' sums. Measured on POCL,
 * AVX2, side by side, dot form over packed B^T (4 x 3 dot products per work-item
 * against 4 x 24 outer products): 64x10x500 3.0, 20x25x36864 2.4-2.8,
 * 64x500x800 1.8, 128x128x1024 1.6, 32x2048x2048 1.6, 32x500x128 1.5,
 * 50x500x4096 1.4, 128x500x800 1.3, 64x2048x512 1.15, 128x500x2048 1.1,
 * 64x64x4096 1.07; 96x500x800 0.89 (the one loss the rule takes); not taken:
 * 256x256x1024 1.13, 2048x32x2048 1.1, 500x64x800 0.91, 256x500x800 0.83,
 * 64x500x256 0.77, 64x2048x256 0.75, 16x500x64 0.80, 500^3 0.76, 128^3 0.65,
 * 64x500x64 0.44, 1024x1024x64 0.35, 2048^3 0.52. */
static int dot_pays(const clrt__matmul_params *p, size_t M, size_t N, size_t K)
{
    if (M < p->tm || N < p->tn)
        return 1;
    return (M <= 128 && K >= 512) || (M <= 32 && K >= 128);
}

int clrt__matmul_dot(const clrt__matmul_params *p, size_t M, size_t N, size_t K, int ta, int tb)
{
    if (p->use_local || ta || !tb || p->dot == 0 || p->vw == 0 || p->tn < p->vw || K == 0)
        return 0;
    return p->dot == 2 || dot_pays(p, M, N, K);
}

size_t clrt__matmul_dot_columns(const clrt__matmul_params *p, size_t N, size_t K, size_t elem, size_t max_scratch)
{
    /* columns of C per launch: their rows of B (K x elem each) within max_scratch, so
     * that the row tiles after the first find them in the last-level cache */
    const size_t unit = (size_t)(p->tn / p->vw) * p->wgx; /* a work-group's columns */
    size_t cols = max_scratch / elem / K / unit * unit;
    if (cols < unit)
        cols = unit;
    return cols < N ? cols : N;
}

void clrt__matmul_dot_geometry(const clrt__matmul_params *p, size_t M, size_t N, size_t global[2], size_t local[2])
{
    clrt__matmul_params d = *p;
    d.tn = p->tn / p->vw; /* columns of C per work-item */
    clrt__matmul_geometry(&d, M, N, global, local);
}

void clrt__matmul_pack_geometry(int tb, unsigned vw, size_t K, size_t p0, size_t panels, size_t kernel_wg,
                                size_t max_item0, size_t offset[2], size_t global[2], size_t local[2])
{
    size_t l = 64; /* work-items of a group along dimension 0 */
    if (kernel_wg && l > kernel_wg)
        l = clrt__floor_pow2(kernel_wg);
    if (max_item0 && l > max_item0)
        l = clrt__floor_pow2(max_item0);
    /* B^T: vw rows of a panel per work-item, along k; B: one, along the panels */
    const size_t along = tb ? clrt__ceil_div(K, vw ? vw : 1) : panels, across = tb ? panels : K;
    local[0] = l;
    local[1] = 1;
    global[0] = clrt__ceil_div(along, l) * l;
    global[1] = across;
    offset[0] = tb ? 0 : p0;
    offset[1] = tb ? p0 : 0;
}

void clrt__matmul_pack_a_geometry(int ta, size_t K, size_t p0, size_t panels, size_t kernel_wg, size_t max_item0,
                                  size_t offset[2], size_t global[2], size_t local[2])
{
    size_t l = 64; /* work-items of a group along dimension 0 */
    if (kernel_wg && l > kernel_wg)
        l = clrt__floor_pow2(kernel_wg);
    if (max_item0 && l > max_item0)
        l = clrt__floor_pow2(max_item0);
    const size_t along = ta ? panels : K, across = ta ? K : panels;
    local[0] = l;
    local[1] = 1;
    global[0] = clrt__ceil_div(along, l) * l;
    global[1] = across;
    offset[0] = ta ? p0 : 0;
    offset[1] = ta ? 0 : p0;
}

/* The tuner searches the k block the timing sizes really run: tkp (and pack)
 * where the start packs B at all of them, else tk; the other is never timed,
 * and a value picked by noise would go to disk. */
static int searched(const clrt__device_facts *dev, size_t elem, const clrt__pvals *start, size_t i,
                    const size_t *sizes, size_t nsizes)
{
    const clrt__matmul_params m = clrt__mm(start);
    const char *name = clrt__k_matmul.params[i].name;
    int is_tk = strcmp(name, "tk") == 0, is_packed = strcmp(name, "tkp") == 0 || strcmp(name, "pack") == 0;
    if (m.use_local || (!is_tk && !is_packed))
        return 1;
    int packs = nsizes > 0;
    for (size_t s = 0; s < nsizes && packs; s++)
        packs = clrt__matmul_pack_panels(&m, sizes[s], sizes[s], sizes[s], elem,
                                         clrt__matmul_pack_scratch_max(dev, &m), 0) > 0;
    return is_tk ? !packs : packs;
}

static const clrt__param_def params[] = {CLRT__MATMUL_PARAMS(CLRT__PARAM_DEF)};

_Static_assert(sizeof(clrt__matmul_params) == sizeof params / sizeof *params * sizeof(unsigned),
               "matmul parameters are unsigned values without padding");
_Static_assert(sizeof params / sizeof *params <= CLRT__MAX_PARAMS, "too many matmul parameters");

const clrt__kernel_def clrt__k_matmul = {
    .name = "matmul",
    .params = params,
    .nparams = sizeof params / sizeof *params,
    .dtypes = (1u << CLRT_FLOAT32) | (1u << CLRT_FLOAT64),
    .variant_param = "use_local",
    .defaults = defaults,
    .check = check,
    .fit = fit,
    .group = group,
    .source = source,
    .entry = "matmul",
    .aux_entry = aux_entry,
    .variant_options = variant_options,
    .searched = searched,
};
