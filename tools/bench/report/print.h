/* clrt-bench's three printers of a report: a readable table (with the
 * target check), JSON (the form scripts read: .ci/tune.sh, plots) and CSV
 * (one row per case and implementation). */
#ifndef CLRT_TOOLS_BENCH_PRINT_H
#define CLRT_TOOLS_BENCH_PRINT_H

#include <stdio.h>

#include "report/report.h"

void bench_print_table(FILE *f, const bench_report *r);
void bench_print_json(FILE *f, const bench_report *r);
void bench_print_csv(FILE *f, const bench_report *r);

#endif
