/* clrt-train's progress on stderr, so that stdout stays exactly the loss
 * lines: the epoch, the mini-batch within it (counted as the loss lines count
 * it), images/s and the time left. On a terminal one line rewritten in place
 * at most a few times a second, cleared before a loss line is printed;
 * elsewhere (a pipe, a CI log) a plain line every TRAIN_PROGRESS_PLAIN_S
 * seconds. --no-progress turns both off.
 *
 * Speed and time left are measured from the end of the run's first
 * mini-batch, and shown only once a few mini-batches and a second have passed
 * since: the first one carries the kernels' compilation (seconds to minutes
 * on a cold cache), and a rate that counted it would promise hours. */
#ifndef CLRT_TOOLS_TRAIN_PROGRESS_H
#define CLRT_TOOLS_TRAIN_PROGRESS_H

#include <stddef.h>
#include <stdio.h>

/* Seconds between two plain lines. */
#define TRAIN_PROGRESS_PLAIN_S 5.0

typedef enum { TRAIN_PROGRESS_OFF, TRAIN_PROGRESS_TTY, TRAIN_PROGRESS_PLAIN } train_progress_mode;

/* on: wanted (--no-progress turns it off); total: mini-batches this run;
 * per_epoch: mini-batches in an epoch; epochs: the number of the run's last
 * epoch. TTY mode when stderr is a terminal, else PLAIN. */
void train_progress_start(int on, size_t total, size_t per_epoch, unsigned epochs);
/* After each mini-batch: epoch and mini-batch within it (both 1-based, as
 * the loss lines print them), mini-batches and images done in this run. */
void train_progress_step(unsigned epoch, size_t batch, size_t done, size_t images);
/* Whether train_progress_step for mini-batch `done` of the run will write a
 * line or take the first mini-batch's time. The caller then finishes its
 * queue first, so that the line counts mini-batches the device has done: the
 * host queues up to --print-every of them ahead, and a rate of queued ones
 * would promise too early an end. */
int train_progress_due(size_t done);
/* Erase the terminal's line (before printing to stdout, and at the end). */
void train_progress_clear(void);

/* The same on stream f in the given mode, at the times given (seconds):
 * what the two above call with stderr and train_now(), and what the unit
 * test calls with a file and a made-up clock. */
void train_progress_start_at(FILE *f, train_progress_mode mode, size_t total, size_t per_epoch, unsigned epochs,
                             double now);
void train_progress_step_at(double now, unsigned epoch, size_t batch, size_t done, size_t images);
int train_progress_due_at(double now, size_t done);

/* Seconds since an arbitrary start (a monotonic clock). */
double train_now(void);

#endif
