/* The matmul plan on CPU devices (see kernels/matmul_plan.h): when packing, walking
 * rows first and the dot form pay, and the auxiliary launches' geometry. */
#include "kernels/matmul_plan.h"

#include "base/util.h"

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

/* Intel's CPUs: their last-level cache feeds a core too slowly to stream B's panels
 * from it once per row tile. Walking columns first, each work-item reads a panel of
 * K x tn (8 x 48 fp32: 4 flops per byte of B) from wherever all of B's slice lies,
 * and a B over a core's L2 comes from the L3 or memory each time; rows first keeps
 * the panel in L2 for every row tile and streams A instead (48 columns: 24 flops per
 * byte). Measured on POCL (Xeon, Sapphire Rapids class under KVM: 2 MiB L2 per core,
 * 2 cores, a machine shared with other work), clrt-bench side by side, rows first
 * over columns first, fp32: 1024^3 1.7-2.3, 2048^3 1.9-2.2, 4096^3 3.4-4.2,
 * 2048x2048x512 1.6-1.8, 4096x4096x256 1.4-1.6; fp64: 1024^3 1.7, 2048^3 2.3, 4096^3
 * 3.0; not taken, B within 2 MiB (in L2 either way): 2048x2048x256 1.0-1.13,
 * 1024x1024x256 0.93-0.98, 4096x512x512 0.92-0.96, or a short K (C's rows written a
 * tile at a time): 2048x2048x128 0.65-0.73, 2048x2048x64 0.56-0.62. AMD's CPUs
 * (Zen 4, Zen 5) run the columns-first walk at 86-95% of peak: unchanged there. */
static int llc_feeds_core_slowly(const clrt__device_facts *dev)
{
    return dev && dev->type == CLRT_DEVICE_CPU && clrt__icontains(dev->vendor, "intel", 5);
}

static int rows_first_keeps_b(size_t N, size_t K, size_t elem)
{
    return K >= 256 && (double)K * (double)N * (double)elem >= 2.0 * 1024 * 1024;
}

int clrt__matmul_rows_first(const clrt__device_facts *dev, const clrt__matmul_params *p, size_t M, size_t N,
                            size_t K, size_t elem)
{
    if (p->use_local || p->rows_first == 0 || p->wgx != p->wgy)
        return 0;
    return p->rows_first == 2 || rows_first_pays(M, K, elem) ||
           (llc_feeds_core_slowly(dev) && rows_first_keeps_b(N, K, elem));
}

/* On Intel CPUs (llc_feeds_core_slowly), a large product with K over 2048 runs in k
 * blocks of 1024: a work-item's A panel (8 x 1024) then stays in L1 and its B panel
 * (1024 x 48) in L2, and the part of A the row tiles stream per B panel is M x 1024,
 * not all of A (64 MiB at 4096^3 fp32, 128 MiB fp64); C is read and written once more
 * per block. Measured on POCL (the Xeon above, shared machine), clrt-bench alternated
 * with OpenBLAS, 4096^3, blocks of 1024 over one pass: fp32 0.97 / 1.01x OpenBLAS
 * against 0.92 / 0.95, fp64 0.92 / 0.95 against 0.82 / 0.79 (83-89 GFLOP/s against
 * 67-68); blocks of 512: fp32 0.84. */
size_t clrt__matmul_k_block(const clrt__device_facts *dev, const clrt__matmul_params *p, size_t M, size_t N,
                            size_t K)
{
    if (p->use_local || !llc_feeds_core_slowly(dev) || K <= 2048 || (double)M * (double)N < 1024.0 * 1024)
        return 0;
    return 1024;
}

/* A row tile of tm rows over M rows: ceil(M / tm) tiles, the last one moved back
 * inside the matrix (cl/matmul_cpu.cl), so ceil(M / tm) * tm rows computed. With
 * few rows that is up to twice M (M = 9, tm = 8: 16); the same number of tiles of
 * ceil(M / tiles) rows computes at most one extra row per tile, and the register
 * tile's shape is otherwise the same (fewer accumulator rows, the same B vectors).
 * Only M <= tm (tm - 1) can change, so each launch variant gains at most tm - 1
 * fitted ones (kernel cache variants: kernels/matmul.h). Measured
 * on POCL (AVX-512, 2 cores), side by side, fitted rows over tm = 8, fp32:
 * 9x36864x25 1.35, 10x36864x25 1.35, 12x36864x25 1.15, 17x36864x25 1.18,
 * 20x4096x500 1.12, 33x4096x500 1.13, 20x25x36864 (A B^T, dot form) 1.17,
 * 17x500x800 (A B^T) 1.19; 20x10x500 (0.3 M multiply-adds, the narrow tile) 1.05.
 * Each fitted size is a program of its own, built in each process (on POCL 25-30 ms
 * from its cache, a front end and a code generation of the matmul kernel cold), and
 * a product of 2^24 multiply-adds takes about 0.1-0.2 ms here: below that, a run
 * must call it thousands of times before the 15-35% pays for the build. So
 * fit_rows = 1 fits from 2^24 multiply-adds (the CNN's conv1 at batch 64 and up,
 * not its batch-4 products nor fc2's weight gradient, which took three and one
 * builds of their own when the line was 2^20); 2 always. */
unsigned clrt__matmul_fit_rows(const clrt__matmul_params *p, size_t M, size_t N, size_t K)
{
    if (p->use_local || p->fit_rows == 0 || p->tm <= 1 || M == 0)
        return 0;
    if (p->fit_rows == 1 && (double)M * (double)N * (double)K < (double)CLRT__MATMUL_FIT_MIN_MACS)
        return 0;
    const size_t tiles = clrt__ceil_div(M, p->tm);
    const size_t rows = clrt__ceil_div(M, tiles);
    return rows < p->tm ? (unsigned)rows : 0;
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

void clrt__matmul_dot_tile(const clrt__matmul_params *p, size_t *rows, size_t *cols)
{
    *rows = p->dot_tm ? p->dot_tm : p->tm;
    *cols = p->dot_nv ? p->dot_nv : p->tn / p->vw;
}

size_t clrt__matmul_dot_columns(const clrt__matmul_params *p, size_t N, size_t K, size_t elem, size_t max_scratch)
{
    /* columns of C per launch: their rows of B (K x elem each) within max_scratch, so
     * that the row tiles after the first find them in the last-level cache */
    size_t tm, nv;
    clrt__matmul_dot_tile(p, &tm, &nv);
    const size_t unit = nv * p->wgx; /* a work-group's columns */
    size_t cols = max_scratch / elem / K / unit * unit;
    if (cols < unit)
        cols = unit;
    return cols < N ? cols : N;
}

void clrt__matmul_dot_geometry(const clrt__matmul_params *p, size_t M, size_t N, size_t global[2], size_t local[2])
{
    size_t tm, nv; /* C's rows and columns per work-item */
    clrt__matmul_dot_tile(p, &tm, &nv);
    local[0] = p->wgx;
    local[1] = p->wgy;
    global[0] = clrt__ceil_div(clrt__ceil_div(N, nv), p->wgx) * p->wgx;
    global[1] = clrt__ceil_div(clrt__ceil_div(M, tm), p->wgy) * p->wgy;
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
