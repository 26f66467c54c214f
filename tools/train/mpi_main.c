/* clrt-train-mpi: clrt-train, data-parallel over MPI ranks (docs/mpi.md).
 *
 *   mpirun -np R clrt-train-mpi [clrt-train's options]
 *
 * The same program as clrt-train, built from the same files but main.c,
 * with these hooks (hooks.h) in place of clrt-train's:
 *
 *   begin/end    MPI_Init/MPI_Finalize around the run; ranks other than 0
 *                print nothing and write no files (no --save, --json,
 *                progress): rank 0 prints, evaluates and saves.
 *   device_open  each rank's device from clrt_mpi_context_create (one device
 *                per rank by local rank, or --device / $CLRT_DEVICE).
 *   step         the data-parallel step below.
 *
 * Every rank loads the same data, draws the same shuffle from the same seed
 * and initialises the same weights, so the ranks start equal; each step
 * leaves them equal, because every rank applies the same summed gradient.
 *
 * A step of a global mini-batch of B rows: rank r takes its block of rows
 * (clrt_mpi_block_rows: b_r rows), runs forward and loss (the mean over its
 * b_r rows), scales the logits' gradient and its loss by b_r / B, so that
 * the backward pass gives b_r / B times its mean gradient, and the sum over
 * the ranks is the mean gradient of the whole mini-batch, as one process
 * computes it; then clrt_mpi_check (a rank whose device failed stops every
 * rank here), one clrt_mpi_allreduce_sum_list over the 8 gradients and the
 * loss, and the SGD update, the same on every rank. --batch stays the global
 * batch. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#include <clrt/clrt_mpi.h>

#include "hooks.h"
#include "net.h"

static int rank, size;
/* Set when a failure was agreed by every rank inside a collective call: the
 * ranks then end together; any other failure of one rank aborts the job, so
 * that no rank waits in a collective for one that has left. */
static int failure_agreed;

/* "rank r of R: what: the message" on stderr, from every rank that fails. */
static int fail(const char *what, int status) {
    fprintf(stderr, "clrt-train-mpi: rank %d of %d: %s: %s: %s\n", rank, size, what, clrt_mpi_status_name(status),
            clrt_mpi_error_message());
    return status;
}

static int mpi_device_open(const char *selector, clrt_context **ctx, clrt_queue **q, char *name, size_t namecap) {
    *ctx = NULL;
    *q = NULL;
    int st = clrt_mpi_context_create(ctx, MPI_COMM_WORLD, selector);
    if (st != CLRT_OK) {
        failure_agreed = 1;
        fail("opening the device", st);
        return st == CLRT_ENODEVICE ? 2 : 1;
    }
    clrt_device_info info;
    st = clrt_queue_create(q, *ctx);
    if (st == CLRT_OK)
        st = clrt_context_device(*ctx, &info);
    /* agreed, so that a rank whose queue failed stops the others here */
    st = clrt_mpi_check(MPI_COMM_WORLD, st);
    if (st != CLRT_OK) {
        failure_agreed = 1;
        fail("opening a queue", st);
        if (*q)
            clrt_queue_destroy(*q);
        clrt_context_destroy(*ctx);
        *ctx = NULL;
        *q = NULL;
        return 1;
    }
    snprintf(name, namecap, "%s (%s), %d rank%s", info.name, info.platform, size, size == 1 ? "" : "s");
    return 0;
}

/* Forward, loss and backward of this rank's rows [first, first + count) of
 * the mini-batch, scaled by count / rows; zero gradients and loss for a rank
 * without rows (a last mini-batch smaller than the number of ranks). */
static int local_gradients(train_net *n, const clrt_buffer *x, const clrt_buffer *labels, clrt_buffer *loss) {
    size_t rows = clrt_buffer_rows(x), first, count;
    clrt_mpi_block_rows(rows, rank, size, &first, &count);
    if (count == 0) {
        int st = clrt_fill(n->q, loss, 0);
        for (int i = 0; st == CLRT_OK && i < TRAIN_TENSORS; i++)
            st = clrt_fill(n->q, n->grad[i], 0);
        return st;
    }
    clrt_buffer *xs = NULL, *ys = NULL;
    /* views only read x and labels here; clrt_buffer_view takes a non-const parent */
    int st = clrt_buffer_view(&xs, (clrt_buffer *)(uintptr_t)x, first, 0, count, clrt_buffer_cols(x));
    if (st == CLRT_OK)
        st = clrt_buffer_view(&ys, (clrt_buffer *)(uintptr_t)labels, first, 0, count, 1);
    if (st == CLRT_OK)
        st = train_net_forward(n, xs, 1);
    if (st == CLRT_OK)
        st = train_net_loss(n, loss, ys);
    const double share = (double)count / (double)rows;
    if (st == CLRT_OK && count != rows)
        st = clrt_scale(n->q, n->act[TA_DLOGITS], share, n->act[TA_DLOGITS]);
    if (st == CLRT_OK && count != rows)
        st = clrt_scale(n->q, loss, share, loss);
    if (st == CLRT_OK)
        st = train_net_backward(n, xs);
    if (xs)
        clrt_buffer_destroy(xs);
    if (ys)
        clrt_buffer_destroy(ys);
    return st;
}

/* Seconds this rank spent computing its share (forward, loss, backward,
 * waited for; the SGD update of the step before is counted here too, as it
 * runs ahead on the queue), waiting in the check for the slowest rank, and
 * exchanging (the staging reads and writes and the MPI_Allreduce). */
static double compute_s, wait_s, exchange_s;
static size_t steps;

static int mpi_step(train_net *n, const clrt_buffer *x, const clrt_buffer *labels, clrt_buffer *loss, double lr,
                    double mu) {
    double t0 = MPI_Wtime();
    int st = local_gradients(n, x, labels, loss);
    if (st == CLRT_OK)
        st = clrt_queue_finish(n->q);
    double t1 = MPI_Wtime();
    st = clrt_mpi_check(MPI_COMM_WORLD, st);
    double t2 = MPI_Wtime();
    clrt_buffer *sum[TRAIN_TENSORS + 1];
    for (int i = 0; i < TRAIN_TENSORS; i++)
        sum[i] = n->grad[i];
    sum[TRAIN_TENSORS] = loss;
    if (st == CLRT_OK)
        st = clrt_mpi_allreduce_sum_list(MPI_COMM_WORLD, n->q, sum, TRAIN_TENSORS + 1);
    compute_s += t1 - t0;
    wait_s += t2 - t1;
    exchange_s += MPI_Wtime() - t2;
    steps++;
    if (st != CLRT_OK) {
        failure_agreed = 1;
        /* clrt-train then prints clrt_error_message(), which is not ours */
        fail("training step", st);
        return st;
    }
    return train_net_sgd(n, lr, mu);
}

static int mpi_begin(train_opts *o) {
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank != 0) {
        o->save = NULL;
        o->json = NULL;
        o->out = NULL;
        o->progress = 0;
        o->profile = 0; /* rank 0's table alone (its optimizer row holds the allreduce) */
        if (!freopen("/dev/null", "w", stdout)) {
            fprintf(stderr, "clrt-train-mpi: rank %d: cannot silence stdout\n", rank);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    return 0;
}

static int mpi_end(int rc) {
    /* The step's time split, from rank 0 (stderr: stdout is clrt-train's). */
    if (rc == 0 && rank == 0 && steps)
        fprintf(stderr, "clrt-train-mpi: %d rank%s, %zu steps: per step on rank 0 %.2f ms compute, "
                        "%.2f ms waiting for the other ranks, %.2f ms gradient allreduce\n", size,
                size == 1 ? "" : "s", steps, 1e3 * compute_s / (double)steps, 1e3 * wait_s / (double)steps,
                1e3 * exchange_s / (double)steps);
    if (rc != 0 && !failure_agreed && size > 1) {
        fprintf(stderr, "clrt-train-mpi: rank %d of %d stopped (exit status %d) outside the ranks' agreed "
                        "steps; stopping every rank\n", rank, size, rc);
        MPI_Abort(MPI_COMM_WORLD, rc);
    }
    MPI_Finalize();
    return rc;
}

static const train_hooks mpi_hooks = {mpi_begin, mpi_device_open, mpi_step, mpi_end};

int main(int argc, char **argv) { return train_main(argc, argv, &mpi_hooks); }
