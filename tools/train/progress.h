/* clrt-train's progress line on stderr, only when stderr is a terminal:
 * epoch, mini-batches done of the run, images/s and the time left, rewritten
 * in place at most a few times a second. Cleared before a loss line is
 * printed, so stdout stays exactly the article's format. */
#ifndef CLRT_TOOLS_TRAIN_PROGRESS_H
#define CLRT_TOOLS_TRAIN_PROGRESS_H

#include <stddef.h>

/* on: wanted (--no-progress turns it off); total: mini-batches this run. */
void train_progress_start(int on, size_t total, size_t batch);
/* After each mini-batch: epoch (1-based), mini-batches and images done in this run. */
void train_progress_step(unsigned epoch, size_t done, size_t images);
/* Erase the line (before printing to stdout, and at the end). */
void train_progress_clear(void);

/* Seconds since an arbitrary start (a monotonic clock). */
double train_now(void);

#endif
