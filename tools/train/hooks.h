/* What one clrt-train run asks of the program around it: clrt-train runs in
 * one process (train_single_process, main.c); clrt-train-mpi runs the same
 * loop on every MPI rank with its own hooks (mpi_main.c). The run calls these
 * and nothing else differs, so that a reader of run.c sees every place where
 * the two programs part. */
#ifndef CLRT_TOOLS_TRAIN_HOOKS_H
#define CLRT_TOOLS_TRAIN_HOOKS_H

#include <stddef.h>

#include <clrt/clrt.h>

#include "net.h"
#include "opts.h"

typedef struct train_hooks {
    /* Before anything is read: may change the options (clrt-train-mpi: ranks
     * other than 0 print and write nothing). 0, or an exit status. */
    int (*begin)(train_opts *o);
    /* The device: train_device_open's contract. */
    int (*device_open)(const char *selector, clrt_context **ctx, clrt_queue **q, char *name, size_t namecap);
    /* One SGD step on a mini-batch: train_net_step's contract. */
    int (*step)(train_net *n, const clrt_buffer *x, const clrt_buffer *labels, clrt_buffer *loss, double lr,
                double mu);
    /* After the run, given its exit status; returns the program's. */
    int (*end)(int rc);
} train_hooks;

/* clrt-train's: no change to the options, train_device_open, train_net_step. */
extern const train_hooks train_single_process;

/* Parse the command line, then train or predict with h: the whole of a
 * main(). The exit status: 0, 1 (a device failure) or 2 (bad input). */
int train_main(int argc, char **argv, const train_hooks *h);

#endif
