/* Host references: reproducible inputs, and products computed again on the
 * host in double with the error bound that says whether a device's result is
 * right. Plain C over the public dtype alone: the library's tuner, the test
 * suites and clrt-bench's checks all use this one module, and since it knows
 * nothing of clrt's inside, a result is never checked against the code that
 * made it. */
#ifndef CLRT_HOSTREF_REF_H
#define CLRT_HOSTREF_REF_H

#include <stddef.h>
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

#endif
