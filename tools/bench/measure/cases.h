/* clrt-bench: one case, (device, op, dtype, shape), timed for clrt and every
 * reference side by side, every output checked against the host. */
#ifndef CLRT_TOOLS_BENCH_CASES_H
#define CLRT_TOOLS_BENCH_CASES_H

#include <stddef.h>

#include "cli/opts.h"
#include "measure/session.h"
#include "report/report.h"

/* Adds the case to report (op: enum bench_op); a clrt failure or a wrong
 * result is recorded in it, not returned. */
void bench_run_case(bench_report *report, const bench_opts *opts, bench_session *s, size_t dev_index, int op, int dbl,
                    bench_shape shape);

#endif
