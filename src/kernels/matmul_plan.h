/* The matmul plan on CPU devices: which extra steps a product of a given shape
 * takes with given parameters (B packed into column panels, op(A) packed into
 * row panels, row tiles walked first, A B^T in the dot form), how many panels
 * one launch covers, and the geometry of those auxiliary launches. math/gemm.c asks
 * these questions before it enqueues; kernels/matmul.c owns the parameters. Each rule
 * carries the measurements it was decided on. */
#ifndef CLRT_KERNELS_MATMUL_PLAN_H
#define CLRT_KERNELS_MATMUL_PLAN_H

#include "device/device.h"
#include "kernels/matmul_params.h"

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
 * cl/matmul_cpu.cl packed bit 2) for an M x N x K product with p on dev (with
 * rows_first = 1, what pays depends on the CPU's caches). */
int clrt__matmul_rows_first(const clrt__device_facts *dev, const clrt__matmul_params *p, size_t M, size_t N,
                            size_t K, size_t elem);
/* The k block an M x N x K product with p runs in on dev, as a sum of products of
 * that depth (C accumulated), not counting the dot form; 0: one pass over K. */
size_t clrt__matmul_k_block(const clrt__device_facts *dev, const clrt__matmul_params *p, size_t M, size_t N,
                            size_t K);
/* The rows of C per work-item fitted to M (0: keep p->tm): the fewest rows that
 * still cover M in as many row tiles as tm rows would, when that is fewer than
 * tm and (fit_rows = 1) the product is large enough to repay building that
 * variant, or (2) always. */
unsigned clrt__matmul_fit_rows(const clrt__matmul_params *p, size_t M, size_t N, size_t K);
/* The multiply-adds from which fit_rows = 1 fits (matmul_plan.c says why). */
#define CLRT__MATMUL_FIT_MIN_MACS ((size_t)1 << 24)
/* Whether A B^T runs in the dot form (cl/matmul_cpu.cl matmul_dot) with p. */
int clrt__matmul_dot(const clrt__matmul_params *p, size_t M, size_t N, size_t K, int ta, int tb);
/* The dot form's tile: rows and columns of C per work-item (dot_tm x dot_nv,
 * each 0 meaning matmul's tm and tn / vw). */
void clrt__matmul_dot_tile(const clrt__matmul_params *p, size_t *rows, size_t *cols);
/* Columns of C per dot-form launch (a multiple of a work-group's, or all N):
 * their rows of B within max_scratch bytes. */
size_t clrt__matmul_dot_columns(const clrt__matmul_params *p, size_t N, size_t K, size_t elem, size_t max_scratch);
/* Its NDRange for M x N: the dot tile of C per work-item. */
void clrt__matmul_dot_geometry(const clrt__matmul_params *p, size_t M, size_t N, size_t global[2], size_t local[2]);
/* pack_b's NDRange and offset for panels p0 .. p0+panels-1 of depth K (tb:
 * op(B) = B^T, moved vw rows of a panel per work-item); kernel_wg is its
 * CL_KERNEL_WORK_GROUP_SIZE, max_item0 the device's first work-item limit (0 = none). */
void clrt__matmul_pack_geometry(int tb, unsigned vw, size_t K, size_t p0, size_t panels, size_t kernel_wg,
                                size_t max_item0, size_t offset[2], size_t global[2], size_t local[2]);
/* pack_a's NDRange and offset for panels p0 .. p0+panels-1 of depth K (ta:
 * op(A) = A^T, which pack_a walks along its rows). */
void clrt__matmul_pack_a_geometry(int ta, size_t K, size_t p0, size_t panels, size_t kernel_wg, size_t max_item0,
                                  size_t offset[2], size_t global[2], size_t local[2]);

#endif
