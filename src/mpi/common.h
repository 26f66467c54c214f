/* clrt_mpi's shared machinery: this thread's message, and the vote that every
 * collective call holds before and after it moves data, so that one rank's
 * failure becomes an error on every rank instead of a hang. Written on the
 * public API only. */
#ifndef CLRT_MPI_COMMON_H
#define CLRT_MPI_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "clrt/clrt_mpi.h"

/* What one rank tells the others: its status so far, the facts the call
 * checks between ranks (counts, shapes, dtypes), and its own message when it
 * failed. Plain bytes: the ranks are assumed to share one architecture. */
typedef struct clrt__mpi_vote {
    int64_t status;
    int64_t fact[8];
    char message[400];
} clrt__mpi_vote;

/* Set this thread's message (printf-style), prefixed "fn (rank r of R): ". */
void clrt__mpi_fail(const char *fn, MPI_Comm comm, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Clear this thread's message (a call that succeeds). */
void clrt__mpi_clear(void);
/* The message set last, for copying into a vote. */
const char *clrt__mpi_message(void);

/* Fill mine->message from this thread's message and gather every rank's vote
 * into *all (malloc'ed, *size entries; the caller frees it). CLRT_OK or
 * CLRT_MPI_EMPI / CLRT_ENOMEM (then *all is NULL). */
int clrt__mpi_vote_all(MPI_Comm comm, clrt__mpi_vote *mine, clrt__mpi_vote **all, int *size);

/* The outcome of a vote's statuses, the same decision on every rank: this
 * rank's own status when it failed (its message stands), else CLRT_MPI_EPEER
 * naming the lowest failing rank and its message, else CLRT_OK. */
int clrt__mpi_outcome(const char *fn, MPI_Comm comm, const clrt__mpi_vote *all, int size);

/* A vote on the status alone: clrt__mpi_vote_all then clrt__mpi_outcome. */
int clrt__mpi_agree(const char *fn, MPI_Comm comm, int status);

/* "clrt_<call> failed: <clrt_error_message()>" into this thread's message,
 * for a clrt call that returned status; returns status. */
int clrt__mpi_clrt_failed(const char *fn, MPI_Comm comm, const char *call, int status);

/* Bytes of one element of a clrt dtype; 0 for anything else. */
size_t clrt__mpi_dtype_size(clrt_dtype dtype);

#endif
