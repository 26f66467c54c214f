/* The matmul kernel's parameters and launch rules: the GEMM
 * C = alpha op(A) op(B) + beta C (clrt_gemm, clrt_matmul), row-major, with
 * offsets and row strides. Launch variants (build options, not tuning
 * values): below. Two kernel variants, one source each:
 *   use_local = 0  cl/matmul_cpu.cl: register tiles only, no local memory (CPU
 *                  devices); optionally B packed into column panels first.
 *   use_local = 1  cl/matmul_gpu.cl: A and B tiles staged in local memory (GPUs).
 * Launch geometry (clrt__matmul_geometry): dimension 0 runs over columns,
 * dimension 1 over rows; a work-item computes a TM x TN block of C, a work-group
 * of WGX x WGY work-items (WGY*TM) rows x (WGX*TN) columns. Layer 4. */
#ifndef CLRT_K_MATMUL_H
#define CLRT_K_MATMUL_H

#include <string.h>

#include "params.h"

/* X(name, -D define, min, max, tuner values for variant 0 | variant 1, meaning).
 * Adding a parameter is one line here and its use in the .cl file. */
#define CLRT__MATMUL_PARAMS(X)                                                                                \
    X(use_local, NULL, 0, 1, "", "",                                                                          \
      "kernel variant: 0 register tiles (matmul_cpu.cl, CPUs), 1 local-memory tiles (matmul_gpu.cl, GPUs)") \
    X(tm, "TM", 1, 64, "2 4 6 8 10 12 16", "1 2 4 8", "rows of C per work-item")                              \
    X(tn, "TN", 1, 256, "16 32 48 64 8 24", "1 2 4 8", "columns of C per work-item, a multiple of vw")        \
    X(tk, "TK", 1, 4096, "64 128 256 512 1024", "8 16 32 64",                                                 \
      "k block: cache block (variant 0) or local tile depth (variant 1, a multiple of vw)")                   \
    X(tkp, "TKP", 0, 4096, "256 512 1024 2048", "", "variant 0 with B packed: k block; 0 = tk")               \
    X(wgx, "WGX", 1, 4096, "1 2 4", "4 8 16 32", "work-group width (over columns)")                          \
    X(wgy, "WGY", 1, 4096, "1 4 8 16 32 64", "4 8 16 32", "work-group height (over rows)")                    \
    X(pack, NULL, 0, 2, "0 1", "",                                                                            \
      "variant 0: copy B into column panels first: 0 never, 1 when the shape pays for it, 2 whenever it can") \
    X(pack_kib, NULL, 0, 65536, "", "",                                                                       \
      "variant 0: most KiB of packed B per launch; 0 = a quarter of the device's cache, at least 8 MiB")     \
    X(pack_a, NULL, 0, 2, "", "",                                                                             \
      "variant 0: copy op(A) into row panels first: 0 never, 1 when the shape pays for it, 2 whenever it can") \
    X(rows_first, NULL, 0, 2, "", "",                                                                         \
      "variant 0, wgx = wgy: work-groups walk row tiles first: 0 never, 1 when the shape pays, 2 always")    \
    X(dot, NULL, 0, 2, "", "",                                                                                \
      "variant 0, A B^T: tm x (tn/vw) dot products along k, nothing packed: 0 never, 1 when it pays, 2 always") \
    X(vw, "VW", 1, 16, "4 8 16", "1 2 4 8", "vector width: 1, 2, 4, 8 or 16")

typedef struct clrt__matmul_params {
    CLRT__MATMUL_PARAMS(CLRT__PARAM_FIELD)
} clrt__matmul_params;

extern const clrt__kernel_def clrt__k_matmul;

static inline clrt__matmul_params clrt__mm(const clrt__pvals *p)
{
    clrt__matmul_params m;
    memcpy(&m, p->v, sizeof m);
    return m;
}
static inline void clrt__mm_put(clrt__pvals *p, const clrt__matmul_params *m) { memcpy(p->v, m, sizeof *m); }

/* Launch variants (build options, bits of the kernel cache's variant): op(A) =
 * A^T, op(B) = B^T, and (CPU variant) C thinner than tn, built with a tile of
 * its own (one vector of columns, twice the rows). */
enum { CLRT__MATMUL_TA = 1, CLRT__MATMUL_TB = 2, CLRT__MATMUL_NARROW = 4 };
/* The parameters a kernel built with pv for variant launches with (narrow: its tile). */
clrt__matmul_params clrt__matmul_launch_params(const clrt__pvals *pv, int variant);
/* Whether an M x N product takes the narrow variant with p. */
int clrt__matmul_narrow(const clrt__matmul_params *p, size_t N);

/* NDRange for an M x N product. */
void clrt__matmul_geometry(const clrt__matmul_params *p, size_t M, size_t N, size_t global[2], size_t local[2]);

/* The most bytes of packed B per launch on dev with p (pack_kib, else a
 * quarter of the last-level cache, at least 8 MiB). */
size_t clrt__matmul_pack_scratch_max(const clrt__device_facts *dev, const clrt__matmul_params *p);
/* B packing for M x K times K x N: the column panels each pack_b + matmul
 * launch pair covers (a multiple of wgx), so that panels x K x tn elements
 * stay within max_scratch bytes; 0 = do not pack (the parameters or the shape
 * do not ask for it, or one panel is over max_scratch). always: pack whenever
 * the parameters allow it (op(B) = B^T, which the kernel would gather). */
size_t clrt__matmul_pack_panels(const clrt__matmul_params *p, size_t M, size_t N, size_t K, size_t elem,
                                size_t max_scratch, int always);
/* A packing for the same product: the row panels each pack_a covers (a
 * multiple of wgy), within 4 x max_scratch bytes; 0 = do not pack. ta: op(A) =
 * A^T (read in place a row apart per k); b_packed: B is packed (with B^T in
 * place the kernel never reads packed A). */
size_t clrt__matmul_pack_a_panels(const clrt__matmul_params *p, size_t M, size_t N, size_t K, size_t elem,
                                  size_t max_scratch, int ta, int tb, int b_packed);
/* Whether matmul's work-items walk C's row tiles first (dimension 0 over rows:
 * cl/matmul_cpu.cl packed bit 2) for an M x N x K product with p. */
int clrt__matmul_rows_first(const clrt__matmul_params *p, size_t M, size_t K, size_t elem);
/* Whether A B^T runs in the dot form (cl/matmul_cpu.cl matmul_dot) with p. */
int clrt__matmul_dot(const clrt__matmul_params *p, size_t M, size_t N, size_t K, int ta, int tb);
/* Columns of C per dot-form launch (a multiple of a work-group's, or all N):
 * their rows of B within max_scratch bytes. */
size_t clrt__matmul_dot_columns(const clrt__matmul_params *p, size_t N, size_t K, size_t elem, size_t max_scratch);
/* Its NDRange for M x N: a tm x (tn/vw) tile of C per work-item. */
void clrt__matmul_dot_geometry(const clrt__matmul_params *p, size_t M, size_t N, size_t global[2], size_t local[2]);
/* The auxiliary kernels of the CPU variant (clrt__built's aux[] indices):
 * pack_b, pack_a, and (A B^T) matmul_dot. */
enum { CLRT__MATMUL_AUX_PACK_B = 0, CLRT__MATMUL_AUX_PACK_A = 1, CLRT__MATMUL_AUX_DOT = 2 };
/* pack_b's NDRange and offset for panels p0 .. p0+panels-1 of depth K (tb:
 * op(B) = B^T, moved vw rows of a panel per work-item); kernel_wg is its
 * CL_KERNEL_WORK_GROUP_SIZE, max_item0 the device's first work-item limit (0 = none). */
void clrt__matmul_pack_geometry(int tb, unsigned vw, size_t K, size_t p0, size_t panels, size_t kernel_wg,
                                size_t max_item0, size_t offset[2], size_t global[2], size_t local[2]);
/* pack_a's NDRange and offset for panels p0 .. p0+panels-1 of depth K (ta:
 * op(A) = A^T, which pack_a walks along its rows). */
void clrt__matmul_pack_a_geometry(int ta, size_t K, size_t p0, size_t panels, size_t kernel_wg, size_t max_item0,
                                  size_t offset[2], size_t global[2], size_t local[2]);
/* Bytes of local memory the kernel declares with p. */
size_t clrt__matmul_local_bytes(const clrt__matmul_params *p, size_t elem);

#endif
