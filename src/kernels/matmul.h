/* The matmul kernel's parameters and launch rules: the GEMM
 * C = alpha op(A) op(B) + beta C (clrt_gemm, clrt_matmul), row-major, with
 * offsets and row strides. Launch variants (build options, not tuning
 * values): below. Two kernel variants, one source each:
 *   use_local = 0  cl/matmul_cpu.cl: register tiles only, no local memory (CPU
 *                  devices); optionally B packed into column panels first.
 *   use_local = 1  cl/matmul_gpu.cl: A and B tiles staged in local memory (GPUs).
 * Launch geometry (clrt__matmul_geometry): dimension 0 runs over columns,
 * dimension 1 over rows; a work-item computes a TM x TN block of C, a work-group
 * of WGX x WGY work-items (WGY*TM) rows x (WGX*TN) columns. */
#ifndef CLRT_KERNELS_MATMUL_H
#define CLRT_KERNELS_MATMUL_H

#include "kernels/matmul_params.h"

extern const clrt__kernel_def clrt__k_matmul;


/* Launch variants (build options, bits of the kernel cache's variant): op(A) =
 * A^T, op(B) = B^T, and (CPU variant) C thinner than tn, built with a tile of
 * its own (one vector of columns, twice the rows); CLRT__MATMUL_ACT: built with the
 * epilogue's activations (clrt_gemm_ex with one: cl/common.cl), which a product
 * without one does not compile. Above them, from bit
 * CLRT__MATMUL_ROWS_SHIFT, the rows of the tile fitted to a C with few rows
 * (clrt__matmul_fit_rows, kernels/matmul_plan.h; 0: the tile's own). */
enum { CLRT__MATMUL_TA = 1, CLRT__MATMUL_TB = 2, CLRT__MATMUL_NARROW = 4, CLRT__MATMUL_ACT = 16,
       CLRT__MATMUL_ROWS_SHIFT = 8 };
/* The parameters a kernel built with pv for variant launches with (narrow: its
 * tile; fitted rows: its tm). */
clrt__matmul_params clrt__matmul_launch_params(const clrt__pvals *pv, int variant);
/* Whether an M x N product takes the narrow variant with p. */
int clrt__matmul_narrow(const clrt__matmul_params *p, size_t N);

/* The longest k one launch may run on dev with p (the launch parameters), 0 for
 * no limit: Mesa's llvmpipe ends a work-item's loops after 65535 iterations in
 * all, silently (kernels/matmul.c); longer products run as a sum of k slices. */
size_t clrt__matmul_k_slice(const clrt__device_facts *dev, const clrt__matmul_params *p);

/* NDRange for an M x N product. */
void clrt__matmul_geometry(const clrt__matmul_params *p, size_t M, size_t N, size_t global[2], size_t local[2]);

/* The auxiliary kernels (clrt__built's aux[] indices): of the CPU variant
 * pack_b, pack_a, and (A B^T) matmul_dot; of the GPU variant matmul_fast, the
 * main loop for operands clrt__matmul_fast_k accepts, and matmul_sum, which adds
 * up the partial products of k splits (clrt__matmul_splits). */
enum {
    CLRT__MATMUL_AUX_PACK_B = 0,
    CLRT__MATMUL_AUX_PACK_A = 1,
    CLRT__MATMUL_AUX_DOT = 2,
    CLRT__MATMUL_AUX_FAST = 3,
    CLRT__MATMUL_AUX_SUM = 4
};
/* Into how many splits of k the GPU variant (launch parameters p) computes an
 * M x N x K product on dev, side by side (1: none): the parameter ksplit's rule. */
size_t clrt__matmul_splits(const clrt__matmul_params *p, const clrt__device_facts *dev, size_t M, size_t N,
                           size_t K);
/* How much of k (from its start) the GPU variant's matmul_fast kernel (built with
 * p, transposes ta, tb) may take of an M x N x K product whose A and B start at
 * element offsets a_off, b_off with row strides lda, ldb: the largest multiple of
 * 2 tk within K, or 0 where the kernel's conditions do not hold (cl/matmul_gpu.cl:
 * rows on a vw boundary, along m (A^T) or n (B) a multiple of vw, every offset
 * read below 2^32). The rest runs in the general kernel, matmul. */
size_t clrt__matmul_fast_k(const clrt__matmul_params *p, int ta, int tb, size_t M, size_t N, size_t K, size_t a_off,
                           size_t lda, size_t b_off, size_t ldb);
/* Bytes of local memory the kernel declares with p (the GPU variant: both its
 * kernels', a tile's buffer in matmul and two in matmul_fast). */
size_t clrt__matmul_local_bytes(const clrt__matmul_params *p, size_t elem);

#endif
