/* clrt-bench --plot: a PNG of GFLOP/s (matmul) and GB/s (add) against size,
 * one line per device and reference, and the math family's GB/s as bars
 * (bench/plot_math.h), drawn by gnuplot. */
#ifndef CLRT_TOOLS_BENCH_PLOT_H
#define CLRT_TOOLS_BENCH_PLOT_H

#include "report.h"

/* 0 when written; -1 with a message on stderr (gnuplot missing or failing). */
int bench_plot(const bench_report *r, const char *png);

#endif
