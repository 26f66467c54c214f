/* clrt-bench --cold: for each selected operation and dtype, the time a new
 * process takes from main() to its first result (the context, the buffers,
 * the kernels' builds, the run) with empty caches (new, empty CLRT_CACHE_DIR
 * and POCL_CACHE_DIR), then the same again with the caches that first run
 * left: what a CI job that starts from nothing pays, beside what a user pays
 * the second time. Each in a child process (a new process is the only way to
 * have nothing built yet). */
#ifndef CLRT_TOOLS_BENCH_COLD_H
#define CLRT_TOOLS_BENCH_COLD_H

#include <stddef.h>

#include <clrt/clrt.h>

#include "cli/opts.h"

/* The table (or JSON) for every selected device; the exit status: 0, or 1
 * when no child gave a result. */
int bench_cold_run(const bench_opts *o, const clrt_device_info *devs, size_t ndevs);

/* The child (--child-cold OP f32|f64 N DEVICE): "COLD <s to the result>
 * <s to the context>" on stdout, or "ERROR <why>". Its exit status. */
int bench_cold_child(const bench_opts *o, double t_main);

#endif
