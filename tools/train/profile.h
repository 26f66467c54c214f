/* clrt-train --profile: where a training step's time goes, per layer.
 *
 * On a sample of mini-batches (every --profile-every'th, 50 by default,
 * starting with the second of the run, whose kernels are already built) the
 * queue is finished before the step and after each part (train_net_mark),
 * and the wall time between two finishes is charged to the part just
 * enqueued. The other mini-batches run as they always do, so --profile
 * barely slows a run, and it changes no result: finishing the queue only
 * waits. The host's work is timed too: per sampled step the views and
 * bookkeeping around the network's calls, and per epoch the shuffle and the
 * upload of the epoch's images, spread over its mini-batches. */
#ifndef CLRT_TOOLS_TRAIN_PROFILE_H
#define CLRT_TOOLS_TRAIN_PROFILE_H

#include <stddef.h>
#include <stdio.h>

#include <clrt/clrt.h>

#include "net.h"

typedef struct train_profile {
    clrt_queue *q;
    size_t every;                    /* sample every every'th mini-batch */
    int active;                      /* a sampled step is being timed */
    double last;                     /* when the last part ended (train_now) */
    double part[TRAIN_PARTS][2];     /* seconds, summed over the samples: [part][backward] */
    double host_step;                /* seconds of host work in the sampled steps */
    size_t samples;
    double host_epoch;               /* seconds of shuffles and uploads, all epochs */
    size_t epoch_steps;              /* the mini-batches of those epochs */
} train_profile;

/* 1 when the run's mini-batch `done` (0-based, in this run) of `rows` rows
 * (batch: the full size) is one to time. */
int train_profile_wanted(const train_profile *p, size_t done, size_t rows, size_t batch);
/* Start timing a sampled step: finish the queue (what was queued before is
 * not this step's), then the clock runs. A clrt status. */
int train_profile_begin(train_profile *p);
/* The train_net_mark hook (arg: the train_profile): when a step is timed,
 * finish the queue and charge the time since the last mark to the part.
 * TRAIN_PARTS as part charges the host (the work before the network's calls). */
int train_profile_mark(void *arg, int part, int backward);
/* End a sampled step: the time since the last mark is the host's. */
int train_profile_end(train_profile *p);

/* The table on f, a line per part: forward, backward, both in ms per
 * mini-batch, and the share of the step. */
void train_profile_print(FILE *f, const train_profile *p, size_t batch);
/* The same as the value of --json's "profile" key. */
void train_profile_json(FILE *f, const train_profile *p);

#endif
