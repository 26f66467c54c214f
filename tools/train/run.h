/* The two things clrt-train does: train (and test) the network, or classify
 * images with saved weights (--predict). Each returns the exit status: 0, 1
 * for a device failure, 2 for bad input (after a one-line message). */
#ifndef CLRT_TOOLS_TRAIN_RUN_H
#define CLRT_TOOLS_TRAIN_RUN_H

#include "hooks.h"
#include "opts.h"

/* h: the device and the step (hooks.h). */
int train_run(const train_opts *o, const train_hooks *h);
int train_predict(const train_opts *o, const train_hooks *h);

#endif
