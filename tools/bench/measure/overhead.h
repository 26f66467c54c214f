/* clrt-bench: the per-operation overhead of a tiny clrt_add, pipelined,
 * against a raw OpenCL enqueue of the very same cl_kernel (arguments set
 * once, and set for every operation); and its round trip, one add waited for
 * at once, against the raw enqueue + clFinish. */
#ifndef CLRT_TOOLS_BENCH_OVERHEAD_H
#define CLRT_TOOLS_BENCH_OVERHEAD_H

#include "cli/opts.h"
#include "measure/session.h"
#include "report/report.h"

/* Fills *o; a failure is noted in o->note. */
void bench_overhead_measure(bench_overhead *o, const bench_opts *opts, bench_session *s);

#endif
