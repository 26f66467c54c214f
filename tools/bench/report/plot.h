/* clrt-bench --plot: a PNG of GFLOP/s (matmul) and GB/s (add) against size,
 * one line per device and reference, and the math family's GB/s as bars
 * (bench/report/plot_math.h), drawn by gnuplot. */
#ifndef CLRT_TOOLS_BENCH_PLOT_H
#define CLRT_TOOLS_BENCH_PLOT_H

#include "report/report.h"

/* 0 when written (tools/common/output.h's rules); -1 with a message on
 * stderr when gnuplot is missing or fails, -2 when the file cannot be
 * written (a full disk, a folder there...), nothing written either way. */
int bench_plot(const bench_report *r, const char *png);

#endif
