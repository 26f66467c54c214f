/* clrt-bench's checks of the math family's results (clrt's and the host
 * loop's) against the inputs, computed again on the host in double. */
#ifndef CLRT_TOOLS_BENCH_CHECK_MATH_H
#define CLRT_TOOLS_BENCH_CHECK_MATH_H

#include <stddef.h>

/* out, the result of op (enum bench_op) on a (rows x cols, float or double)
 * and b (mul: rows x cols; bias: 1 x cols; axpby: y before the run), every
 * element of it:
 *   mul, bias, relu, axpby, transpose: exact (one rounding, or none);
 *   argmax: exact, the first column on ties, a row's first NaN;
 *   sigmoid: within 8 ulp of 1 / (1 + e^-a) (OpenCL's exp within 3 ulp, the
 *            division within 2.5, one rounding each of the rest);
 *   sum, rowsum, colsum: |out - exact| <= depth * eps * sum |x| (the exact
 *            sum by compensated summation in double), depth being what the
 *            implementation's order of additions allows (bench_clrt_sum_depth,
 *            bench_host_sum_depth).
 * Returns the number of wrong elements; *checked gets the number compared. */
size_t bench_check_math(int op, int dbl, size_t rows, size_t cols, const void *a, const void *b, const void *out,
                        double depth, size_t *checked);

/* dst == src bit for bit (count elements of float or double): the number of
 * elements that differ. */
size_t bench_check_copy(int dbl, size_t count, const void *src, const void *dst);

/* The depth D of clrt's sums of n values with the reduce kernel's parameters
 * (clrt_tune_current's text: items, vw, wg, crows): each lane adds at most
 * items values in sequence, vw lanes and wg work-items are folded by halving
 * trees (or crows rows added in sequence), and each level divides the count
 * by at least min(items vw, crows), so
 *   D = (items + 1 + crows + log2 vw + log2 wg) (2 + log(n) / log(min(items vw, crows))).
 * When the text lacks one of them (a changed kernel): 64 (2 + log2 n). */
double bench_clrt_sum_depth(const char *params, size_t n);

#endif
