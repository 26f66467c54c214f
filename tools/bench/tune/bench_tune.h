/* clrt-bench --tune: search the kernel parameters of a device, check every
 * candidate's result against the host, time it, and store the best in the
 * device's tuned file (clrt_tune_file_store), which clrt then loads by itself. */
#ifndef CLRT_TOOLS_BENCH_TUNE_H
#define CLRT_TOOLS_BENCH_TUNE_H

#include <stddef.h>

#include "cli/opts.h"
#include "measure/session.h"
#include "report/report.h"

/* Tune every (op, dtype) the options select on the session's device; adds
 * lines to r->tuned. 0, -1 when nothing could be tuned, -2 when the tuned
 * file could not be written (said on stderr, with the reason). */
int bench_tune_device(bench_session *s, size_t dev_index, const bench_opts *o, bench_report *r);

#endif
