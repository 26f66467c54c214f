/* clrt-bench --op products, its 16-bit rows: each call on float16 or bfloat16
 * storage against the same call on float32, timed side by side: an add of
 * 1e7 elements (memory-bound: half the bytes to move) and a 2048 x 2048 x
 * 2048 GEMM (compute-bound: the conversions are what it costs). */
#ifndef CLRT_TOOLS_BENCH_PRODUCTS_HALF_H
#define CLRT_TOOLS_BENCH_PRODUCTS_HALF_H

#include "cli/opts.h"
#include "measure/session.h"
#include "report/report.h"

/* c = a + b over n elements (1000 rows) of dt, against float32; checked word
 * for word against the host's float32 sum rounded to dt. */
void bench_half_add_row(bench_product *r, const bench_opts *opts, bench_session *s, clrt_dtype dt, size_t n);

/* c = a b, n x n x n, every operand float16, against float32; BENCH_CHECK_ROWS
 * rows checked against the host's product in double. */
void bench_half_gemm_row(bench_product *r, const bench_opts *opts, bench_session *s, size_t n);

#endif
