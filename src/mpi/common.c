/* clrt_mpi's message and votes (mpi/common.h). */
#include "mpi/common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char message[1024];

void clrt__mpi_fail(const char *fn, MPI_Comm comm, const char *fmt, ...) {
    int rank = -1, size = 0;
    if (comm != MPI_COMM_NULL) {
        MPI_Comm_rank(comm, &rank);
        MPI_Comm_size(comm, &size);
    }
    int used = snprintf(message, sizeof message, "%s (rank %d of %d): ", fn, rank, size);
    if (used < 0 || (size_t)used >= sizeof message)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message + used, sizeof message - (size_t)used, fmt, ap);
    va_end(ap);
}

void clrt__mpi_clear(void) { message[0] = '\0'; }

const char *clrt__mpi_message(void) { return message; }

const char *clrt_mpi_error_message(void) { return message; }

const char *clrt_mpi_status_name(int status) {
    return status == CLRT_MPI_EPEER ? "CLRT_MPI_EPEER"
           : status == CLRT_MPI_EMPI ? "CLRT_MPI_EMPI"
                                     : clrt_status_name(status);
}

int clrt__mpi_vote_all(MPI_Comm comm, clrt__mpi_vote *mine, clrt__mpi_vote **all, int *size) {
    *all = NULL;
    if (MPI_Comm_size(comm, size) != MPI_SUCCESS)
        return CLRT_MPI_EMPI;
    memset(mine->message, 0, sizeof mine->message);
    if (mine->status < 0) {
        /* this rank's message, cut to what a vote carries */
        size_t len = strlen(message);
        memcpy(mine->message, message, len < sizeof mine->message ? len : sizeof mine->message - 1);
    }
    /* A few hundred bytes per rank: if even that fails, this rank leaves the
     * vote and the others wait in it; nothing better is possible without
     * memory, and MPI's own buffers would fail first. */
    clrt__mpi_vote *votes = calloc((size_t)*size, sizeof *votes);
    if (!votes)
        return CLRT_ENOMEM;
    if (MPI_Allgather(mine, (int)sizeof *mine, MPI_BYTE, votes, (int)sizeof *mine, MPI_BYTE, comm) !=
        MPI_SUCCESS) {
        free(votes);
        return CLRT_MPI_EMPI;
    }
    *all = votes;
    return CLRT_OK;
}

int clrt__mpi_outcome(const char *fn, MPI_Comm comm, const clrt__mpi_vote *all, int size) {
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (all[rank].status < 0)
        return (int)all[rank].status;
    for (int r = 0; r < size; r++) {
        if (all[r].status < 0) {
            clrt__mpi_fail(fn, comm, "rank %d failed (%s): %s", r, clrt_mpi_status_name((int)all[r].status),
                           all[r].message);
            return CLRT_MPI_EPEER;
        }
    }
    return CLRT_OK;
}

int clrt__mpi_agree(const char *fn, MPI_Comm comm, int status) {
    clrt__mpi_vote mine;
    memset(&mine, 0, sizeof mine);
    mine.status = status;
    clrt__mpi_vote *all;
    int size;
    int rc = clrt__mpi_vote_all(comm, &mine, &all, &size);
    if (rc != CLRT_OK) {
        if (status >= 0)
            clrt__mpi_fail(fn, comm, "%s", rc == CLRT_ENOMEM ? "no host memory for the ranks' statuses"
                                                              : "MPI_Allgather of the ranks' statuses failed");
        return status < 0 ? status : rc;
    }
    rc = clrt__mpi_outcome(fn, comm, all, size);
    free(all);
    return rc;
}

int clrt__mpi_clrt_failed(const char *fn, MPI_Comm comm, const char *call, int status) {
    clrt__mpi_fail(fn, comm, "%s failed (%s): %s", call, clrt_status_name(status), clrt_error_message());
    return status;
}

size_t clrt__mpi_dtype_size(clrt_dtype dtype) {
    switch (dtype) {
    case CLRT_FLOAT32:
    case CLRT_INT32:
        return 4;
    case CLRT_FLOAT64:
        return 8;
    case CLRT_FLOAT16: /* storage only: not reduced across ranks */
    case CLRT_BFLOAT16:
        return 0;
    }
    return 0;
}

int clrt_mpi_check(MPI_Comm comm, int status) {
    static const char fn[] = "clrt_mpi_check";
    if (comm == MPI_COMM_NULL) {
        clrt__mpi_fail(fn, comm, "comm is MPI_COMM_NULL");
        return CLRT_EINVAL;
    }
    if (status < 0)
        clrt__mpi_fail(fn, comm, "%s: %s", clrt_mpi_status_name(status), clrt_error_message());
    status = clrt__mpi_agree(fn, comm, status > 0 ? CLRT_OK : status);
    if (status == CLRT_OK)
        clrt__mpi_clear();
    return status;
}
