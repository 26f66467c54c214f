/* clrt-bench's progress line on stderr: "[done/total] what it is doing",
 * rewritten in place; off when stderr is not a terminal (or --no-progress). */
#ifndef CLRT_TOOLS_BENCH_PROGRESS_H
#define CLRT_TOOLS_BENCH_PROGRESS_H

#include <stddef.h>

/* on: print anything at all; total: the number of cases (0: no counter). */
void bench_progress_start(int on, size_t total);
void bench_progress(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* One case done. */
void bench_progress_step(void);
/* Clear the line before the report is printed. */
void bench_progress_end(void);

#endif
