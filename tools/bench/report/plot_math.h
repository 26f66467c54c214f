/* clrt-bench --plot, the math family's panels: one per (dtype, element
 * count), each operation's GB/s as a group of bars (clrt on each device, the
 * host loop, clrt_copy on each device where it was measured). */
#ifndef CLRT_TOOLS_BENCH_PLOT_MATH_H
#define CLRT_TOOLS_BENCH_PLOT_MATH_H

#include <stddef.h>
#include <stdio.h>

#include "report/report.h"

typedef struct bench_math_panel {
    int dbl;
    size_t count;
} bench_math_panel;

/* The panels the report has data for, by dtype then count, at most cap. */
size_t bench_math_panels(const bench_report *r, bench_math_panel *out, size_t cap);

/* One panel's commands and data to gnuplot (in a multiplot); index names its
 * data block. Leaves gnuplot in histogram style. */
void bench_plot_math_panel(FILE *g, const bench_report *r, const bench_math_panel *p, int index);

#endif
