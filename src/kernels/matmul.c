/* The matmul kernel's rules (see kernels/matmul.h): its defaults per device, the
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
#include "kernels/matmul.h"
#include "kernels/matmul_plan.h"

#include <stdio.h>

#include "base/util.h"
#include "clrt/clrt.h"

/* embedded kernel sources (generated from cl/ at build time) */
extern const char clrt__cl_matmul_cpu[];
extern const char clrt__cl_matmul_cpu_all[]; /* matmul_cpu.cl once per transpose pair */
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

/* The tiling parameters; every other one 0 (off, or its automatic value). */
static void set_mm(clrt__matmul_params *p, unsigned use_local, unsigned tm, unsigned tn, unsigned tk, unsigned wgx,
                   unsigned wgy, unsigned vw)
{
    *p = (clrt__matmul_params){.use_local = use_local, .tm = tm, .tn = tn, .tk = tk, .wgx = wgx, .wgy = wgy, .vw = vw};
}

size_t clrt__matmul_local_bytes(const clrt__matmul_params *p, size_t elem)
{
    if (!p->use_local)
        return 0;
    /* As: TK x (WGY*TM), Bs: TK x (WGX*TN): one of each in matmul, two in matmul_fast;
     * counted for both, as Oclgrind counts every __local array of a program against
     * each launch (NVIDIA's and AMD's compilers give each kernel its own) */
    size_t bm = (size_t)p->wgy * p->tm, bn = (size_t)p->wgx * p->tn;
    return 3 * (bm + bn) * p->tk * elem;
}

/* Make the vector width divide TN (and with local tiles TK and the tile's rows,
 * WGY*TM: A^T is read in vectors along them). */
static void fix_vw(clrt__matmul_params *p)
{
    while (p->vw > 1 && (p->tn % p->vw || (p->use_local && (p->tk % p->vw || (p->wgy * p->tm) % p->vw))))
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

/* The GPU variant's tiles per vendor. Checked offline against each vendor's
 * instruction set with clrt-isa (.ci/gpu-isa.sh; docs/gpu-isa.md has the table, CI
 * the goals): the compilers' registers, spills and occupancy, and the main loop's
 * share of FMAs.
 * The one real GPU run so far (H200, 2026-12-04) predates these tiles. */
static void gpu_defaults(const clrt__device_facts *dev, int dbl, clrt__matmul_params *m)
{
    switch (gpu_vendor(dev)) {
    case V_NVIDIA:
        /* fp32: 128 x 128 per 256 work-items, 8 x 8 each, k tiles of 8 (double-buffered in
         * matmul_fast: 16 KiB of local memory, 8 KiB in matmul): the main loop is 1024 FFMA in 1113-1124 instructions
         * on sm_90 and sm_80 (0.91-0.92), in 120-128 registers: two groups, 16 warps, per
         * SM. The cap of 128 registers is what keeps it there: ptxas alone takes 129-130
         * for two of the four transposes (8 warps). The 8 x 8 tile of the old kernel took
         * 168 (169 on the H200), one group per SM, and 4 x 4 peaks at 0.76.
         * fp64: 64 x 64, 4 x 4 each: DFMA issues every other cycle, so 0.73 of the
         * loop's instructions is the full rate; 66-80 registers, 24 warps, uncapped (with
         * the cap ptxas takes all 128: 16 warps). */
        if (dbl) {
            set_mm(m, 1, 4, 4, 8, 16, 16, 2);
        } else {
            set_mm(m, 1, 8, 8, 8, 16, 16, 4);
            m->maxreg = dev->nv_compiler_options ? 128 : 0;
        }
        break;
    case V_AMD:
        /* the same tiles, checked on their own: fp32 on gfx90a 140-150 VGPRs (3 waves per
         * SIMD), every FMA a packed v_pk_fma_f32, 0.91 of the packed peak; on gfx1100 (wave32)
         * 94-97 VGPRs, 0.67-0.93 of FMAs dual-issued (VOPD). fp64 on gfx90a: 118-122 VGPRs,
         * 0.93 of the loop's VALU instructions DFMA. */
        if (dbl)
            set_mm(m, 1, 4, 4, 8, 16, 16, 2);
        else
            set_mm(m, 1, 8, 8, 8, 16, 16, 4);
        break;
    case V_INTEL:
        /* Intel's compiler (IGC) picks each kernel's SIMD width, and with it the registers
         * a work-item has: 128 GRFs per hardware thread shared by its SIMD lanes, GRFs of 64
         * bytes on the Data Center GPU Max (Xe-HPC: 128 KiB of local memory, 16-lane FPUs),
         * 32 on Arc and Iris Xe (64 KiB). Offline (clrt-isa, docs/gpu-isa.md), every
         * transpose: on Xe-HPC IGC's own SIMD32 spills 8 x 8 tiles (1452 bytes) and leaves
         * 4 x 4 at 0.83 of the main loop's ALU instructions mad (fp64 4 x 4 spills there);
         * pinned to SIMD16 (sg, intel_reqd_sub_group_size), fp32 4 x 8 with k tiles of 16
         * spills nothing, 0.88-0.89 (8 x 8 k 8 is 0.91 but spills 4-6 bytes in two
         * transposes), fp64 4 x 4 with k tiles of 32 in vectors of 4 nothing, 0.85 (k 16
         * spills 5 bytes in one transpose, vectors of 2 reach 0.75). On Arc and Iris Xe IGC
         * builds fp32 8 x 8, k tiles of 8, at SIMD8 without spills, 0.92 (pinned to SIMD16
         * it spills); their fp64 does not exist (no cl_khr_fp64), older GPUs of that class
         * with fp64 keep the tiles of the default class. */
        if (dev->local_mem >= 128 * 1024) {
            if (dbl)
                set_mm(m, 1, 4, 4, 32, 16, 16, 4);
            else
                set_mm(m, 1, 4, 8, 16, 16, 16, 4);
            m->sg = 16;
        } else if (dbl) {
            set_mm(m, 1, 4, 4, 8, 16, 16, 2);
        } else {
            set_mm(m, 1, 8, 8, 8, 16, 16, 4);
        }
        break;
    default:
        /* smaller register budget per work-item: 4 x 4, 64 x 64 tile; fp64 k tiles of 8
         * (24 KiB of local memory for both kernels, as for fp32) */
        set_mm(m, 1, 4, 4, dbl ? 8 : 16, 16, 16, dbl ? 2 : 4);
        break;
    }
    /* products too small to fill the GPU in k splits (clrt__matmul_splits) */
    m->ksplit = 1;
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
        if (regs32) {
            /* The dot form in 5 x 5 tiles, 25 accumulators: 10 loads per 25 FMAs (8 x 3:
             * 11 per 24), and the CNN's weight gradients (50 and 20 rows, 500 and 25
             * columns) divide into them evenly. Measured on POCL (AVX-512, 2 cores, fp32),
             * median of 5 processes each, 5 x 5 over 8 x 3: 50x500x16384 1.27, 50x500x4096 1.34,
             * 20x25x147456 1.34, 20x25x36864 1.26, 32x2048x2048 1.37, 128x500x2048 1.32,
             * 64x64x4096 1.36, 64x2048x512 1.14, 64x10x500 1.17, 64x500x800 1.02, 96x500x800
             * 0.99, 128x128x1024 1.03; with few rows the tile is fitted as tm is (4x500x800
             * 0.81 and 16x500x800 0.80 before, 0.93-0.97 after, on a noisier machine).
             * fp64 (median of 3): 50x500x16384 1.38, 20x25x147456 1.27, 64x500x800 0.99;
             * 32x2048x2048 anywhere from 0.74 to 1.6 from process to process. */
            m.dot_tm = 5;
            m.dot_nv = 5;
        }
        /* row tiles first where that pays: a small A with a long K, and on Intel CPUs any
         * B over a core's L2 with a long K (the rule, per CPU: kernels/matmul_plan.c) */
        m.rows_first = 1;
        m.fit_rows = 1;
        /* the transposes' kernels in one program: POCL compiles a program's kernels at
         * their first launch, so a build is its front end over opencl-c.h, 25-40 ms
         * from its cache each time a process builds it; clrt-train built four of them
         * (one per transpose pair it multiplies with) before its first step ended */
        m.merged = 1;
    } else {
        gpu_defaults(dev, dbl, &m);
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
    size_t dot_rows, dot_cols;
    clrt__matmul_dot_tile(p, &dot_rows, &dot_cols);
    if (dot_rows * dot_cols * p->vw > 1024)
        return clrt__refuse(why, cap, "the dot form's tile, %zu x %zu vectors of %u, is more than 1024 accumulators",
                            dot_rows, dot_cols, p->vw);
    if (p->use_local && p->tk % p->vw)
        return clrt__refuse(why, cap, "with local tiles tk (%u) must be a multiple of vw (%u)", p->tk, p->vw);
    if (p->use_local && (p->wgy * p->tm) % p->vw)
        return clrt__refuse(why, cap, "with local tiles wgy x tm (%u x %u) must be a multiple of vw (%u)", p->wgy,
                            p->tm, p->vw);
    if (p->ksplit && !p->use_local)
        return clrt__refuse(why, cap, "ksplit needs local tiles (use_local=1)");
    /* a build option only NVIDIA's driver takes; any other fails the build */
    if (p->maxreg && !(p->use_local && dev->nv_compiler_options))
        return clrt__refuse(why, cap, "maxreg (-cl-nv-maxrregcount) needs local tiles and a device with "
                                      "cl_nv_compiler_options");
    if (p->sg && ((p->sg != 8 && p->sg != 16 && p->sg != 32) || !p->use_local))
        return clrt__refuse(why, cap, "sg (intel_reqd_sub_group_size) must be 0, or 8, 16 or 32 with local tiles "
                                      "(is %u)", p->sg);
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

/* Mesa's llvmpipe (under rusticl) caps the loop iterations of one work-item
 * (clrt__device_loop_budget): gallivm counts every iteration of every loop the
 * JIT did not unroll in one counter per invocation (LP_MAX_TGSI_LOOP_ITERATIONS,
 * 65535, "shared between every loop") and, once it runs out, ends each loop
 * after its current pass: no error, C holds the sum over the first k steps only. Measured on Mesa
 * 22.3.6 (ones times ones, so C counts the k steps done): tm=8 tn=16 vw=4
 * stopped after 1282 steps of any K, the emulator's default tiles (use_local=1)
 * after 27594; POCL and Oclgrind ran every step. So on llvmpipe a product runs
 * in slices of k short enough for the counter. The iterations per k step,
 * measured over tiles of 4 .. 1024 accumulators (both variants, narrow, dot,
 * k blocks of 1 .. 64), stayed under
 *   (TM+1)(NV+1) + TM + NV + 2 + (A_SLOTS + B_SLOTS + 8) / TK   (NV = TN/VW);
 * the slice is sized for twice that, in half the budget. */
size_t clrt__matmul_k_slice(const clrt__device_facts *dev, const clrt__matmul_params *p)
{
    const size_t budget = clrt__device_loop_budget(dev) / 2;
    if (budget == 0 || p->tm == 0 || p->vw == 0 || p->tk == 0)
        return 0;
    /* the larger of matmul's tile and the dot form's */
    const size_t tm = p->dot_tm > p->tm ? p->dot_tm : p->tm, wgs = (size_t)p->wgx * p->wgy;
    const size_t nv = p->dot_nv > p->tn / p->vw ? p->dot_nv : p->tn / p->vw;
    size_t block = 8; /* per k block: its loop, the barrier */
    if (p->use_local && wgs) {
        block += (wgs - 1 + (size_t)p->wgy * p->tm * (p->tk / p->vw)) / wgs;
        block += (wgs - 1 + (size_t)p->tk * ((size_t)p->wgx * p->tn / p->vw)) / wgs;
    }
    const size_t per_k = 2 * ((tm + 1) * (nv + 1) + tm + nv + 2 + (block + p->tk - 1) / p->tk);
    const size_t slice = budget / per_k;
    return slice ? slice : 1;
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

/* Whether the register-tile kernels of every transpose pair share one program
 * (their names then carry the pair: matmul_nt, pack_b_nt, ...). */
static int merged(const clrt__matmul_params *m) { return !m->use_local && m->merged; }

static const char *source(const clrt__pvals *p)
{
    const clrt__matmul_params m = clrt__mm(p);
    return m.use_local ? clrt__cl_matmul_gpu : merged(&m) ? clrt__cl_matmul_cpu_all : clrt__cl_matmul_cpu;
}

/* The register-tile variant's kernels (cl/matmul_cpu.cl). */
enum { K_MATMUL, K_PACK_B, K_PACK_A, K_DOT };

/* Kernel k's name, with the variant's transpose pair ("_nn" .. "_tt") when merged. */
static const char *entry_name(const clrt__matmul_params *m, int variant, int k)
{
    static const char *const names[][5] = {
        {"matmul", "matmul_nn", "matmul_nt", "matmul_tn", "matmul_tt"},
        {"pack_b", "pack_b_nn", "pack_b_nt", "pack_b_tn", "pack_b_tt"},
        {"pack_a", "pack_a_nn", "pack_a_nt", "pack_a_tn", "pack_a_tt"},
        {"matmul_dot", "matmul_dot_nn", "matmul_dot_nt", "matmul_dot_tn", "matmul_dot_tt"},
    };
    const int pair = 2 * !!(variant & CLRT__MATMUL_TA) + !!(variant & CLRT__MATMUL_TB);
    return names[k][merged(m) ? 1 + pair : 0];
}

static const char *variant_entry(const clrt__pvals *p, int variant)
{
    const clrt__matmul_params m = clrt__mm(p);
    return merged(&m) ? entry_name(&m, variant, K_MATMUL) : NULL;
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

/* The fitted rows a variant asks for (0: none; the CPU variant only). */
static unsigned fitted_rows(const clrt__matmul_params *p, int variant)
{
    return p->use_local ? 0 : (unsigned)variant >> CLRT__MATMUL_ROWS_SHIFT;
}

/* The launch variant (CLRT__MATMUL_TA, _TB, _NARROW, fitted rows). */
static int variant_options(const clrt__pvals *pv, int variant, char *buf, size_t cap)
{
    const clrt__matmul_params p = clrt__mm(pv);
    unsigned tm = 0, tn = 0;
    const int narrow = (variant & CLRT__MATMUL_NARROW) && !p.use_local;
    if (narrow)
        narrow_tile(&p, &tm, &tn);
    int n = 0;
    if (!merged(&p)) /* merged: every pair is in the text (cmake/EmbedCL.cmake defines them) */
        n = snprintf(buf, cap, "-DTA=%d -DTB=%d ", !!(variant & CLRT__MATMUL_TA), !!(variant & CLRT__MATMUL_TB));
    if (n >= 0 && (size_t)n < cap)
        n += snprintf(buf + n, cap - (size_t)n, "-DNARROW=%d -DNARROW_TM=%u -DNARROW_TN=%u -DFIT_TM=%u%s", narrow,
                      tm, tn, fitted_rows(&p, variant), variant & CLRT__MATMUL_ACT ? " -DMM_ACT=1" : "");
    if (n > 0 && (size_t)n < cap && p.use_local && p.maxreg)
        n += snprintf(buf + n, cap - (size_t)n, " -cl-nv-maxrregcount=%u", p.maxreg);
    if (n > 0 && (size_t)n < cap && p.use_local && p.sg)
        n += snprintf(buf + n, cap - (size_t)n, " -DSG=%u", p.sg);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

clrt__matmul_params clrt__matmul_launch_params(const clrt__pvals *pv, int variant)
{
    clrt__matmul_params p = clrt__mm(pv);
    if ((variant & CLRT__MATMUL_NARROW) && !p.use_local)
        narrow_tile(&p, &p.tm, &p.tn);
    if (fitted_rows(&p, variant)) {
        p.tm = fitted_rows(&p, variant);
        if (p.dot_tm) /* the dot form's tile, when it has its own, is the one fitted */
            p.dot_tm = p.tm;
    }
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
        return i == CLRT__MATMUL_AUX_FAST ? "matmul_fast" : i == CLRT__MATMUL_AUX_SUM ? "matmul_sum" : NULL;
    if (i == CLRT__MATMUL_AUX_PACK_B)
        return m.pack ? entry_name(&m, variant, K_PACK_B) : NULL;
    if (i == CLRT__MATMUL_AUX_PACK_A)
        return m.pack_a ? entry_name(&m, variant, K_PACK_A) : NULL;
    if (i == CLRT__MATMUL_AUX_DOT) /* A B^T only */
        return m.dot && (variant & (CLRT__MATMUL_TA | CLRT__MATMUL_TB | CLRT__MATMUL_NARROW)) == CLRT__MATMUL_TB
                   ? entry_name(&m, variant, K_DOT)
                   : NULL;
    return NULL;
}

void clrt__matmul_geometry(const clrt__matmul_params *p, size_t M, size_t N, size_t global[2], size_t local[2])
{
    local[0] = p->wgx;
    local[1] = p->wgy;
    global[0] = clrt__ceil_div(clrt__ceil_div(N, p->tn), p->wgx) * p->wgx;
    global[1] = clrt__ceil_div(clrt__ceil_div(M, p->tm), p->wgy) * p->wgy;
}

/* One operand of matmul_fast (cl/matmul_gpu.cl): stored along k (A, B^T) or
 * along x (A^T: x = m, B: x = n, X of them). */
static int fast_operand(const clrt__matmul_params *p, int along_k, size_t X, size_t K, size_t off, size_t ld)
{
    const size_t last = along_k ? off + (X - 1) * ld + K : off + (K - 1) * ld + X;
    return ld % p->vw == 0 && off % p->vw == 0 && (along_k || X % p->vw == 0) && X && K &&
           ld < 0xffffffffu && last + p->vw < 0xffffffffu;
}

/* A product's k splits: with ksplit = 1, where its groups are fewer than the device's
 * compute units, as many as make two groups per unit (two fit one, 16 warps on NVIDIA),
 * each at least 8 tiles of k (64 with the shipped tk) so that the partials' traffic
 * stays small beside the arithmetic, at most 64. The CNN's weight gradients need it:
 * 20 x 25 x 36864 (conv1 at batch 64) is one 128 x 128 tile, one group on one compute
 * unit, with k for 132 of them; 50 x 500 x 4096 four. */
size_t clrt__matmul_splits(const clrt__matmul_params *p, const clrt__device_facts *dev, size_t M, size_t N, size_t K)
{
    if (!p->use_local || !p->ksplit || !p->tk || !p->tm || !p->tn || !p->wgx || !p->wgy)
        return 1;
    const size_t most = K / (8 * (size_t)p->tk);
    size_t want = p->ksplit;
    if (want == 1) {
        const size_t groups = clrt__ceil_div(M, (size_t)p->tm * p->wgy) * clrt__ceil_div(N, (size_t)p->tn * p->wgx);
        want = groups < dev->compute_units ? clrt__ceil_div(2 * (size_t)dev->compute_units, groups) : 1;
    }
    want = want < 64 ? want : 64;
    return want < 2 || most < 2 ? 1 : want < most ? want : most;
}

size_t clrt__matmul_fast_k(const clrt__matmul_params *p, int ta, int tb, size_t M, size_t N, size_t K, size_t a_off,
                           size_t lda, size_t b_off, size_t ldb)
{
    if (!p->use_local || !p->tk || !p->vw || K < 2 * (size_t)p->tk)
        return 0;
    if (!fast_operand(p, !ta, M, K, a_off, lda) || !fast_operand(p, tb, N, K, b_off, ldb))
        return 0;
    return K / (2 * (size_t)p->tk) * 2 * p->tk;
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

CLRT__PARAM_TABLE(params, CLRT__MATMUL_PARAMS, clrt__matmul_params);

const clrt__kernel_def clrt__k_matmul = {
    .name = "matmul",
    .params = params,
    .nparams = sizeof params / sizeof *params,
    .dtypes = CLRT__FLOAT_DTYPES,
    .variant_param = "use_local",
    .defaults = defaults,
    .check = check,
    .fit = fit,
    .group = group,
    .source = source,
    .entry = "matmul",
    .variant_entry = variant_entry,
    .aux_entry = aux_entry,
    .variant_options = variant_options,
    .searched = searched,
};
