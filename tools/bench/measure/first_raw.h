/* clrt-bench: the reference for a new process's first matmul. What any
 * OpenCL program pays on this machine before its first result, clrt or not:
 * the ICD loader opening every registered driver, a context and a queue, a
 * one-line kernel built from source (the driver's own cache warm, as a
 * program without clrt has it) and run once, its result read back. Run as a
 * child (--child-raw-first P:D) like the first matmul, side by side. */
#ifndef CLRT_TOOLS_BENCH_FIRST_RAW_H
#define CLRT_TOOLS_BENCH_FIRST_RAW_H

#include "cli/opts.h"
#include "measure/session.h"
#include "report/report.h"

/* The child's side: o->child_device is "P:D". Exit status. */
int bench_first_raw_child(const bench_opts *o, double t_main);
/* The parent's side: fills dev->raw_first (the median of three children,
 * after one that warms the driver's cache). */
void bench_first_raw_measure(bench_device *dev, const bench_session *s);

#endif
