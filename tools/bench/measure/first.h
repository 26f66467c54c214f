/* clrt-bench: first-call latency as users meet it, a new process's first
 * matmul. clrt-bench runs itself as a child (--child-first-call), which
 * times the OpenCL loader's start (its first clGetPlatformIDs, which opens
 * every registered driver), context and queue creation, buffers and uploads,
 * the clrt_matmul call (kernel build or cache fetch) and the finish; then the
 * same steps again on its now warm context, and prints it all on one line for
 * the parent. What being first costs is the difference. */
#ifndef CLRT_TOOLS_BENCH_FIRST_H
#define CLRT_TOOLS_BENCH_FIRST_H

#include <stddef.h>

#include "cli/opts.h"
#include "measure/session.h"
#include "report/report.h"

/* The child's side; t_main: when its main() started. Exit status. */
int bench_first_child(const bench_opts *o, double t_main);
/* The parent's side: fills report->devices[dev_index].first[dbl] (warm
 * caches; also cold and with clrt's cache forced on when opts ask). */
void bench_first_measure(bench_report *report, const bench_opts *opts, bench_session *s, size_t dev_index, int dbl);

#endif
