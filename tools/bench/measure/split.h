/* clrt-bench --op split: one float32 product C = A B split by rows of A and C
 * across the --device list (each device its own context and queue, B on
 * each), weighted by each device's measured speed, timed side by side with
 * each device alone; every result checked against the host. */
#ifndef CLRT_TOOLS_BENCH_SPLIT_H
#define CLRT_TOOLS_BENCH_SPLIT_H

#include "cli/opts.h"

/* The exit status: 0 when every result was right, 1 otherwise. */
int bench_split_run(const bench_opts *o);

#endif
