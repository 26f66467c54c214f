/* clrt-bench's host references for the math family: each operation as a
 * loop on the host pool's threads (bench/reference/host_ref.h), written the way a careful C
 * programmer would (contiguous shares per thread, loops the compiler
 * vectorizes, several accumulators), so that "x host" compares clrt with a
 * fair host program rather than a naive one. */
#ifndef CLRT_TOOLS_BENCH_HOST_MATH_H
#define CLRT_TOOLS_BENCH_HOST_MATH_H

#include <stddef.h>

/* One operation of the math family (op: enum bench_op, not add or matmul) on
 * rows x cols row-major data of float (dbl = 0) or double:
 *   mul        c = a * b, all rows x cols
 *   bias       c = a + b, b one row of cols added to every row
 *   relu       c = max(a, 0) (NaN stays NaN)
 *   sigmoid    c = 1 / (1 + exp(-a)), exp by range reduction and a polynomial
 *              (relative error under 2 eps: 1.3 measured over [-20, 20])
 *   axpby      c = 2 a + 0.5 c (c is y, in place; b unused)
 *   sum        c[0] = the sum of a
 *   rowsum     c[i] = the sum of row i
 *   colsum     c[j] = the sum of column j
 *   argmax     c (int32) [i] = the column of row i's largest value, the first
 *              on ties, a row's first NaN if it has one
 *   transpose  c (cols x rows) = a transposed, in tiles
 * Sums are accumulated in the dtype, in the order bench_host_sum_depth
 * describes. 0, or -1 when out of memory (colsum's partial sums). */
int bench_host_math(int op, int dbl, size_t rows, size_t cols, const void *a, const void *b, void *c);

/* The depth D of the host's sums of op (sum, rowsum, colsum) over rows x
 * cols on `threads` threads: no element passes through more than D roundings,
 * so |sum - exact| <= D * eps * sum |x| (to first order). Sums are pairwise
 * down to blocks that 16 accumulators share, colsum adds blocks of rows. */
double bench_host_sum_depth(int op, size_t rows, size_t cols, int threads);

#endif
