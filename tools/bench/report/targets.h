/* clrt-bench's check of the performance targets (docs/benchmarks.md), from the
 * results of one run: each target with the measured ratio and PASS/MISS. */
#ifndef CLRT_TOOLS_BENCH_TARGETS_H
#define CLRT_TOOLS_BENCH_TARGETS_H

#include <stdio.h>

#include "report/report.h"

void bench_print_targets(FILE *f, const bench_report *r);
/* A JSON array of {device, target, value, limit, upper, pass, info, detail};
 * info: reported, not judged (limit and pass null). */
void bench_print_targets_json(FILE *f, const bench_report *r);

#endif
