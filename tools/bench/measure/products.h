/* clrt-bench --op products: clrt's products beyond one GEMM, each one call
 * against what it replaces, timed side by side: strided batched GEMM against
 * a clrt_gemm per matrix and against OpenBLAS doing the same batch (a
 * cblas_sgemm per matrix), and a linear layer's forward pass with bias and relu
 * in clrt_gemm_ex's epilogue against clrt_gemm, the bias add and relu; and
 * the 16-bit rows (bench/measure/products_half.h). */
#ifndef CLRT_TOOLS_BENCH_PRODUCTS_H
#define CLRT_TOOLS_BENCH_PRODUCTS_H

#include "cli/opts.h"
#include "measure/session.h"
#include "report/report.h"

/* Fills *p; a failure is noted in p->note (or a row's). */
void bench_products_measure(bench_products *p, const bench_opts *opts, bench_session *s);

#endif
