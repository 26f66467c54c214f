/* Sums of device buffers over the ranks (clrt_mpi_allreduce_sum_list): read
 * every buffer into one host array, vote, one MPI_Allreduce, write back, vote. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/common.h"

/* The facts every rank's vote carries. */
enum { FACT_N, FACT_TOTAL, FACT_DTYPE };

static MPI_Datatype mpi_type(clrt_dtype dtype) {
    return dtype == CLRT_FLOAT64 ? MPI_DOUBLE : dtype == CLRT_FLOAT32 ? MPI_FLOAT : MPI_INT32_T;
}

/* This rank's arguments: *dtype and *total (elements of all buffers). */
static int check_local(const char *fn, MPI_Comm comm, clrt_queue *q, clrt_buffer *const *bufs, size_t n,
                       clrt_dtype *dtype, size_t *total) {
    *dtype = 0;
    *total = 0;
    if (!q || !bufs || n == 0) {
        clrt__mpi_fail(fn, comm, "%s", !q ? "q is NULL" : !bufs ? "bufs is NULL" : "n is 0");
        return CLRT_EINVAL;
    }
    for (size_t i = 0; i < n; i++) {
        if (!bufs[i]) {
            clrt__mpi_fail(fn, comm, "bufs[%zu] is NULL", i);
            return CLRT_EINVAL;
        }
        clrt_dtype d = clrt_buffer_dtype(bufs[i]);
        if (i == 0)
            *dtype = d;
        if (d != *dtype) {
            clrt__mpi_fail(fn, comm, "bufs[%zu] has dtype %d, bufs[0] %d: one dtype for all", i, (int)d,
                           (int)*dtype);
            return CLRT_EINVAL;
        }
        size_t count = clrt_buffer_rows(bufs[i]) * clrt_buffer_cols(bufs[i]);
        if (count > SIZE_MAX / 8 - *total) {
            clrt__mpi_fail(fn, comm, "the buffers' total size overflows");
            return CLRT_EINVAL;
        }
        *total += count;
    }
    if (clrt__mpi_dtype_size(*dtype) == 0) {
        clrt__mpi_fail(fn, comm, "dtype %d: float32, float64 or int32 only", (int)*dtype);
        return CLRT_EUNSUPPORTED;
    }
    return CLRT_OK;
}

/* The vote's facts must be the same on every rank: else CLRT_ESHAPE on all,
 * naming the first rank that differs from rank 0. */
static int check_facts(const char *fn, MPI_Comm comm, const clrt__mpi_vote *all, int size) {
    static const char *what[] = {"number of buffers", "total number of elements", "dtype"};
    for (int r = 1; r < size; r++) {
        for (int f = FACT_N; f <= FACT_DTYPE; f++) {
            if (all[r].fact[f] != all[0].fact[f]) {
                clrt__mpi_fail(fn, comm, "rank %d's %s is %lld, rank 0's %lld: every rank passes the same shapes",
                               r, what[f], (long long)all[r].fact[f], (long long)all[0].fact[f]);
                return CLRT_ESHAPE;
            }
        }
    }
    return CLRT_OK;
}

/* One MPI_Allreduce in place, in pieces of at most INT_MAX elements. */
static int allreduce(MPI_Comm comm, void *host, size_t total, clrt_dtype dtype) {
    size_t esize = clrt__mpi_dtype_size(dtype);
    for (size_t done = 0; done < total;) {
        size_t part = total - done < (size_t)INT_MAX ? total - done : (size_t)INT_MAX;
        if (MPI_Allreduce(MPI_IN_PLACE, (char *)host + done * esize, (int)part, mpi_type(dtype), MPI_SUM, comm) !=
            MPI_SUCCESS)
            return CLRT_MPI_EMPI;
        done += part;
    }
    return CLRT_OK;
}

int clrt_mpi_allreduce_sum_list(MPI_Comm comm, clrt_queue *q, clrt_buffer *const *bufs, size_t n) {
    static const char fn[] = "clrt_mpi_allreduce_sum_list";
    if (comm == MPI_COMM_NULL) {
        clrt__mpi_fail(fn, comm, "comm is MPI_COMM_NULL");
        return CLRT_EINVAL;
    }
    clrt_dtype dtype;
    size_t total;
    int status = check_local(fn, comm, q, bufs, n, &dtype, &total);
    size_t esize = clrt__mpi_dtype_size(dtype);
    char *host = NULL;
    if (status == CLRT_OK) {
        host = malloc(total * esize);
        if (!host) {
            clrt__mpi_fail(fn, comm, "no host memory for %zu bytes of staging", total * esize);
            status = CLRT_ENOMEM;
        }
    }
    for (size_t i = 0, at = 0; status == CLRT_OK && i < n; i++) {
        size_t count = clrt_buffer_rows(bufs[i]) * clrt_buffer_cols(bufs[i]);
        int rc = clrt_buffer_read(q, bufs[i], host + at * esize, count);
        if (rc != CLRT_OK)
            status = clrt__mpi_clrt_failed(fn, comm, "clrt_buffer_read", rc);
        at += count;
    }

    /* Before any data moves: every rank's status and shapes. */
    clrt__mpi_vote mine, *all;
    memset(&mine, 0, sizeof mine);
    mine.status = status;
    mine.fact[FACT_N] = (int64_t)n;
    mine.fact[FACT_TOTAL] = (int64_t)total;
    mine.fact[FACT_DTYPE] = (int64_t)dtype;
    int size;
    int rc = clrt__mpi_vote_all(comm, &mine, &all, &size);
    if (rc != CLRT_OK) {
        free(host);
        if (status == CLRT_OK)
            clrt__mpi_fail(fn, comm, "the vote before the exchange failed (%s)", clrt_mpi_status_name(rc));
        return status != CLRT_OK ? status : rc;
    }
    /* A rank's own failure first (its message stands), then shape mismatches,
     * which matter only when every rank could say what it has. */
    status = clrt__mpi_outcome(fn, comm, all, size);
    if (status == CLRT_OK)
        status = check_facts(fn, comm, all, size);
    free(all);
    if (status != CLRT_OK) {
        free(host);
        return status;
    }

    status = allreduce(comm, host, total, dtype);
    if (status != CLRT_OK)
        clrt__mpi_fail(fn, comm, "MPI_Allreduce failed");
    for (size_t i = 0, at = 0; status == CLRT_OK && i < n; i++) {
        size_t count = clrt_buffer_rows(bufs[i]) * clrt_buffer_cols(bufs[i]);
        rc = clrt_buffer_write(q, bufs[i], host + at * esize, count);
        if (rc != CLRT_OK)
            status = clrt__mpi_clrt_failed(fn, comm, "clrt_buffer_write", rc);
        at += count;
    }
    free(host);
    /* After: a rank whose write failed stops the others at this call, not at
     * their next collective. */
    status = clrt__mpi_agree(fn, comm, status);
    if (status == CLRT_OK)
        clrt__mpi_clear();
    return status;
}

int clrt_mpi_allreduce_sum(MPI_Comm comm, clrt_queue *q, clrt_buffer *buf) {
    return clrt_mpi_allreduce_sum_list(comm, q, &buf, 1);
}
