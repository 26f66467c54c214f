/* clrt-mpi-bench: what one gradient exchange costs (docs/mpi.md).
 *
 *   mpirun -np R clrt-mpi-bench [--reps N] [--floats N]
 *
 * Times, on every rank, N rounds of clrt_mpi_allreduce_sum_list over the
 * article's network's 8 gradient tensors (431,080 float32, 1.7 MB; or one
 * buffer of --floats elements), split into its parts: the host staging alone
 * (clrt_buffer_read and clrt_buffer_write of the same buffers) and a bare
 * MPI_Allreduce of the same bytes; each round starts after an MPI_Barrier.
 * Rank 0 prints the minimum and the median over the rounds of the slowest
 * rank's time: the minimum is the cost on an idle machine, the median what a
 * shared one gives. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clrt/clrt_mpi.h>

#include "common/tool_args.h"
#include "common/output.h"

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* min and median over the rounds of the slowest rank's seconds, in ms */
static void report(const char *what, double *t, int reps, size_t bytes) {
    MPI_Allreduce(MPI_IN_PLACE, t, reps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    qsort(t, (size_t)reps, sizeof *t, cmp);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("  %-38s min %8.3f ms  median %8.3f ms  (%.2f GB/s of the buffer at the min)\n", what, 1e3 * t[0],
               1e3 * t[reps / 2], (double)bytes / t[0] / 1e9);
}

/* --reps N and --floats N, each range-checked where it enters: a round
 * count the timings' arrays hold, and an element count MPI_Allreduce's int
 * count holds (and its float32 bytes a size_t). */
typedef struct mpi_bench_opts {
    int reps;
    size_t floats;
} mpi_bench_opts;

static int take_help(tool_args *a, char **v) {
    (void)v;
    if (!a->quiet)
        printf("usage: mpirun -np R clrt-mpi-bench [--reps N] [--floats N]\n"
               "  --reps N    rounds timed (default 50, at most 100000)\n"
               "  --floats N  one buffer of N float32 (at most %d) instead of the network's 8 gradients\n",
               INT_MAX);
    return TOOL_ARGS_DONE;
}
static int take_reps(tool_args *a, char **v) {
    return tool_args_int(a, v[0], 1, 100000, &((mpi_bench_opts *)a->state)->reps);
}
static int take_floats(tool_args *a, char **v) {
    return tool_args_size(a, v[0], 1, INT_MAX, &((mpi_bench_opts *)a->state)->floats);
}

/* TOOL_ARGS_RUN, TOOL_ARGS_DONE after --help, TOOL_ARGS_BAD after a message
 * (said by rank 0 alone: quiet on the others). */
static int parse(int argc, char **argv, int quiet, int *reps, size_t *floats) {
    static const tool_option options[] = {TOOL_VALUES("--help", "-h", 0, take_help),
                                          TOOL_VALUES("--reps", NULL, 1, take_reps),
                                          TOOL_VALUES("--floats", NULL, 1, take_floats)};
    mpi_bench_opts o = {*reps, 0};
    tool_args a = {.tool = "clrt-mpi-bench", .state = &o, .quiet = quiet};
    const int rc = tool_args_parse(&a, options, sizeof options / sizeof *options, argc, argv);
    *reps = o.reps;
    *floats = o.floats;
    return rc;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, reps = 50;
    size_t floats = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int parsed = parse(argc, argv, rank != 0, &reps, &floats);
    if (parsed != TOOL_ARGS_RUN) {
        MPI_Finalize();
        return parsed == TOOL_ARGS_DONE ? 0 : 2;
    }
    /* the article's network: conv1 20x25 + 20, conv2 50x500 + 50, fc1 500x800 + 500, fc2 10x500 + 10 */
    size_t rows[8] = {20, 1, 50, 1, 500, 1, 10, 1}, cols[8] = {25, 20, 500, 50, 800, 500, 500, 10};
    size_t n = 8, total = 0;
    if (floats) {
        n = 1;
        rows[0] = 1;
        cols[0] = floats;
    }
    for (size_t i = 0; i < n; i++)
        total += rows[i] * cols[i];
    clrt_context *ctx = NULL;
    clrt_queue *q = NULL;
    clrt_buffer *b[8] = {NULL};
    float *host = calloc(total, sizeof *host);
    int st = host ? clrt_mpi_context_create(&ctx, MPI_COMM_WORLD, NULL) : CLRT_ENOMEM;
    if (st == CLRT_OK)
        st = clrt_queue_create(&q, ctx);
    for (size_t i = 0; st == CLRT_OK && i < n; i++)
        if ((st = clrt_buffer_create(&b[i], ctx, CLRT_FLOAT32, rows[i], cols[i])) == CLRT_OK)
            st = clrt_fill(q, b[i], 1.0 / size);
    st = clrt_mpi_check(MPI_COMM_WORLD, st);
    double *t[3];
    for (int k = 0; k < 3; k++)
        t[k] = st == CLRT_OK ? calloc((size_t)reps, sizeof(double)) : NULL;
    if (st == CLRT_OK && (!t[0] || !t[1] || !t[2]))
        st = CLRT_ENOMEM;
    st = clrt_mpi_check(MPI_COMM_WORLD, st);
    if (st != CLRT_OK) {
        fprintf(stderr, "clrt-mpi-bench: rank %d: %s: %s\n", rank, clrt_mpi_status_name(st), clrt_mpi_error_message());
        MPI_Finalize();
        return 1;
    }
    if (rank == 0) {
        clrt_device_info info;
        clrt_context_device(ctx, &info);
        printf("clrt-mpi-bench: %d rank%s on %s; %zu float32 in %zu buffer%s (%.2f MB), %d rounds\n", size,
               size == 1 ? "" : "s", info.name, total, n, n == 1 ? "" : "s", 4e-6 * (double)total, reps);
    }
    for (int r = 0; st == CLRT_OK && r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        st = clrt_mpi_allreduce_sum_list(MPI_COMM_WORLD, q, b, n);
        t[0][r] = MPI_Wtime() - t0;
        /* staging alone: the same reads and writes */
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (size_t i = 0, at = 0; st == CLRT_OK && i < n; at += rows[i] * cols[i], i++)
            st = clrt_buffer_read(q, b[i], host + at, rows[i] * cols[i]);
        for (size_t i = 0, at = 0; st == CLRT_OK && i < n; at += rows[i] * cols[i], i++)
            st = clrt_buffer_write(q, b[i], host + at, rows[i] * cols[i]);
        t[1][r] = MPI_Wtime() - t0;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        MPI_Allreduce(MPI_IN_PLACE, host, (int)total, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        t[2][r] = MPI_Wtime() - t0;
        st = clrt_mpi_check(MPI_COMM_WORLD, st);
    }
    if (st == CLRT_OK) {
        report("clrt_mpi_allreduce_sum_list", t[0], reps, 4 * total);
        report("  of which host staging (read+write)", t[1], reps, 4 * total);
        report("  of which MPI_Allreduce", t[2], reps, 4 * total);
    } else {
        fprintf(stderr, "clrt-mpi-bench: rank %d: %s: %s\n", rank, clrt_mpi_status_name(st), clrt_mpi_error_message());
    }
    for (size_t i = 0; i < n; i++)
        clrt_buffer_destroy(b[i]);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    for (int k = 0; k < 3; k++)
        free(t[k]);
    free(host);
    MPI_Finalize();
    /* the timings printed, checked to their end */
    return st != CLRT_OK ? 1 : tool_stdout_close("clrt-mpi-bench");
}
