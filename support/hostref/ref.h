/* Host references: reproducible inputs, and products computed again on the
 * host in double with the error bound that says whether a device's result is
 * right. Plain C over the public dtype alone: the library's tuner, the test
 * suites and clrt-bench's checks all use this one module, and since it knows
 * nothing of clrt's inside, a result is never checked against the code that
 * made it. */
#ifndef CLRT_HOSTREF_REF_H
#define CLRT_HOSTREF_REF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "clrt/clrt.h"

/* count reproducible values in [-1, 1) of dtype (float32 or float64) from
 * seed: the same values on every machine for the same seed. */
void clrt__ref_fill(void *data, clrt_dtype dtype, size_t count, unsigned seed);

/* Element i of float32 or float64 data, as a double. */
double clrt__ref_get(const void *data, clrt_dtype dtype, size_t i);

/* The wrong elements of c = op(a) op(b) (row-major, c M x N; op(a) M x K,
 * stored K x M when ta; op(b) K x N, stored N x K when tb), compared in up to
 * max_rows rows spread evenly from the first to the last (max_rows >= M:
 * every row) against the product in double, within the dot product's error
 * bound |c - ref| <= 2 K eps sum |a b| (+ 1e-30). *checked, when given, gets
 * the number of elements compared; log, when given, gets a line for each of
 * the first five wrong ones. SIZE_MAX when the host has no memory for a row
 * of the reference. */
size_t clrt__ref_gemm_wrong(clrt_dtype dtype, int ta, int tb, const void *a, const void *b, const void *c, size_t M,
                            size_t N, size_t K, size_t max_rows, size_t *checked, FILE *log);

/* One product with an epilogue, as clrt_gemm_ex computes it (and each matrix of
 * a batch): c = act(alpha op(a) op(b) + beta c0 + bias), host arrays of dtype with
 * row strides lda, ldb, ldc (elements; a stored K x M when ta, b N x K when tb).
 * c0 NULL: beta 0 (c's old contents never read). bias_mode 0 none, 1 one value
 * per column (bias[j]), 2 one per row (bias[i * bias_ld]). act: a clrt_activation
 * (0 none, 1 relu, 2 gelu's tanh form, 3 sigmoid, 4 tanh). */
typedef struct clrt__ref_gemm {
    clrt_dtype dtype;
    int ta, tb;
    size_t M, N, K;
    double alpha, beta;
    const void *a, *b, *c0, *c;
    size_t lda, ldb, ldc;
    const void *bias;
    int bias_mode;
    size_t bias_ld;
    int act;
} clrt__ref_gemm;

/* The activation act of x in double (the reference's). */
double clrt__ref_act(int act, double x);

/* The wrong elements of g's c against the reference in double: the dot
 * product's bound 2 (K + 3) eps (|alpha| sum |a b| + |beta c0| + |bias|), carried
 * through the activation (slope at most 1.2), plus 16 eps of the result (the
 * device's exp and tanh: within 5 ulp) and for gelu of its argument (where
 * tanh's 1 cancels). NaN wants NaN. log: a line for each of the first five. */
size_t clrt__ref_gemm_ex_wrong(const clrt__ref_gemm *g, FILE *log);

/* The 16-bit dtypes in double: x rounded to nearest even to IEEE binary16 (f16)
 * or bfloat16 (bf16) bits (NaN a quiet NaN of x's sign, a finite x beyond the
 * format's range an infinity, subnormals kept), and the value of such bits
 * (exact). x's own double is the reference: a conversion from float64 must not
 * round twice. */
uint16_t clrt__ref_f16_of(double x);
uint16_t clrt__ref_bf16_of(double x);
double clrt__ref_f16_value(uint16_t h);
double clrt__ref_bf16_value(uint16_t b);

#endif
