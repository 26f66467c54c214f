/* What the MPI test programs share: a check that stops the whole job on
 * failure (MPI_Abort, so no rank waits for one that gave up), deterministic
 * data that every rank can generate for any element, and the set-up. The
 * tests see clrt as a user does: the public headers and libclrt_mpi. */
#ifndef CLRT_TOOLS___MPI_TEST_H
#define CLRT_TOOLS___MPI_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clrt/clrt_mpi.h"

static int mt_rank, mt_size;
static long mt_checks;

#define MT_CHECK(cond, ...)                                                                              \
    do {                                                                                                 \
        mt_checks++;                                                                                     \
        if (!(cond)) {                                                                                   \
            fprintf(stderr, "FAIL rank %d of %d, %s:%d: %s: ", mt_rank, mt_size, __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                                \
            fprintf(stderr, "\n  clrt: %s\n  clrt_mpi: %s\n", clrt_error_message(),                     \
                    clrt_mpi_error_message());                                                           \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                                \
        }                                                                                                \
    } while (0)

#define MT_OK(call) MT_CHECK((call) == CLRT_OK, "%s", "call failed")

/* A value in [-1, 1) for element i of matrix `which` of rank `rank`: the same
 * on every rank that asks. */
static inline double mt_value(unsigned which, unsigned rank, size_t i) {
    unsigned long long x = (unsigned long long)which * 0x9E3779B97F4A7C15ull ^ (unsigned long long)rank << 32 ^ i;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return (double)(x >> 11) / (double)(1ull << 52) - 1.0;
}

static inline void mt_init(int *argc, char ***argv) {
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mt_size);
}

static inline int mt_finish(const char *name) {
    long total = 0;
    MPI_Reduce(&mt_checks, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("%s: %d rank(s), %ld checks passed\n", name, mt_size, total);
    MPI_Finalize();
    return 0;
}

#endif
