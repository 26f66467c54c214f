/* Distributed C = A B by block rows (clrt_mpi_matmul_rows): the blocks of B
 * go round a ring of the ranks while each rank multiplies its rows of A by
 * the block it holds. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/common.h"

/* The facts every rank's vote carries. */
enum { A_ROWS, A_COLS, B_ROWS, B_COLS, C_ROWS, C_COLS, DTYPE };

static int check_local(const char *fn, MPI_Comm comm, clrt_context *ctx, clrt_queue *q, clrt_buffer *c,
                       const clrt_buffer *a, const clrt_buffer *b) {
    if (!ctx || !q || !c || !a || !b) {
        clrt__mpi_fail(fn, comm, "%s is NULL", !ctx ? "ctx" : !q ? "q" : !c ? "c" : !a ? "a" : "b");
        return CLRT_EINVAL;
    }
    if (c == a || c == b) {
        clrt__mpi_fail(fn, comm, "c is %s: the product needs a separate output", c == a ? "a" : "b");
        return CLRT_EINVAL;
    }
    clrt_dtype d = clrt_buffer_dtype(c);
    if (d != CLRT_FLOAT32 && d != CLRT_FLOAT64) {
        clrt__mpi_fail(fn, comm, "c's dtype %d: float32 or float64 only", (int)d);
        return CLRT_EUNSUPPORTED;
    }
    return CLRT_OK;
}

/* Do the blocks fit together? The same verdict and message on every rank. */
static int check_shapes(const char *fn, MPI_Comm comm, const clrt__mpi_vote *all, int size) {
    int64_t k = 0;
    for (int r = 0; r < size; r++)
        k += all[r].fact[B_ROWS];
    for (int r = 0; r < size; r++) {
        const int64_t *f = all[r].fact;
        const char *why = NULL;
        if (f[DTYPE] != all[0].fact[DTYPE])
            why = "a dtype that differs from rank 0's";
        else if (f[A_ROWS] < 1 || f[B_ROWS] < 1)
            why = "no rows of a or b (every rank needs at least one of each)";
        else if (f[C_ROWS] != f[A_ROWS])
            why = "c with a different number of rows than a";
        else if (f[A_COLS] != k)
            why = "a whose columns differ from K, the rows of b summed over the ranks";
        else if (f[B_COLS] != all[0].fact[B_COLS] || f[C_COLS] != f[B_COLS])
            why = "b or c with a different number of columns than rank 0's b";
        else if (f[B_ROWS] > INT_MAX / f[B_COLS])
            why = "a block of b above 2^31-1 elements (one MPI message; use more ranks)";
        if (why) {
            clrt__mpi_fail(fn, comm,
                           "rank %d has %s: a %lldx%lld, b %lldx%lld, c %lldx%lld, dtype %lld; K = %lld, "
                           "rank 0's b has %lld columns",
                           r, why, (long long)f[A_ROWS], (long long)f[A_COLS], (long long)f[B_ROWS],
                           (long long)f[B_COLS], (long long)f[C_ROWS], (long long)f[C_COLS], (long long)f[DTYPE],
                           (long long)k, (long long)all[0].fact[B_COLS]);
            return CLRT_ESHAPE;
        }
    }
    return CLRT_OK;
}

/* One step's product: c (+)= a[:, offset .. offset + k) * dev[0 .. k). */
static int step_product(clrt_queue *q, clrt_buffer *c, const clrt_buffer *a, clrt_buffer *dev, size_t offset,
                        size_t k, int first, const char **call) {
    clrt_buffer *a_part = NULL, *b_part = NULL;
    /* Views only read their parent here: clrt_buffer_view takes it non-const
     * because a view can also be written through. */
    *call = "clrt_buffer_view";
    int rc = clrt_buffer_view(&a_part, (clrt_buffer *)(uintptr_t)a, 0, offset, clrt_buffer_rows(a), k);
    if (rc == CLRT_OK)
        rc = clrt_buffer_view(&b_part, dev, 0, 0, k, clrt_buffer_cols(dev));
    if (rc == CLRT_OK) {
        *call = "clrt_gemm";
        rc = clrt_gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.0, a_part, b_part, first ? 0.0 : 1.0, c);
    }
    clrt_buffer_destroy(a_part);
    clrt_buffer_destroy(b_part);
    return rc;
}

/* The ring: at step t this rank holds block s = (rank - t) mod size of B in
 * host[t % 2]; it uploads it into dev[t % 2], enqueues c += a[:, block s] B_s
 * (c = on the first step), and while the device works passes the block on to
 * rank + 1 and receives the next from rank - 1. An in-order queue makes the
 * upload of step t + 1 wait for the product of step t - 1, which used the
 * same device block. A device failure stops this rank's device work but not
 * its exchanges, so that the others never wait; the vote after tells all. */
static int ring(const char *fn, MPI_Comm comm, clrt_context *ctx, clrt_queue *q, clrt_buffer *c,
                const clrt_buffer *a, const clrt_buffer *b, const clrt__mpi_vote *all, int rank, int size) {
    clrt_dtype dtype = clrt_buffer_dtype(c);
    size_t esize = clrt__mpi_dtype_size(dtype), n = clrt_buffer_cols(c);
    size_t kmax = 0;
    size_t *offset = calloc((size_t)size + 1, sizeof *offset);
    if (offset) {
        for (int r = 0; r < size; r++) {
            size_t kr = (size_t)all[r].fact[B_ROWS];
            offset[r + 1] = offset[r] + kr;
            kmax = kr > kmax ? kr : kmax;
        }
    }
    char *host[2] = {NULL, NULL};
    clrt_buffer *dev[2] = {NULL, NULL};
    int status = CLRT_OK, rc;
    if (!offset || !(host[0] = malloc(kmax * n * esize)) || !(host[1] = malloc(kmax * n * esize))) {
        clrt__mpi_fail(fn, comm, "no host memory for two blocks of b (%zu bytes each)", kmax * n * esize);
        status = CLRT_ENOMEM;
    }
    if (status == CLRT_OK && (rc = clrt_buffer_read(q, b, host[0], clrt_buffer_rows(b) * n)) != CLRT_OK)
        status = clrt__mpi_clrt_failed(fn, comm, "clrt_buffer_read of b", rc);
    for (int i = 0; status == CLRT_OK && i < 2 && i < size; i++)
        if ((rc = clrt_buffer_create(&dev[i], ctx, dtype, kmax, n)) != CLRT_OK)
            status = clrt__mpi_clrt_failed(fn, comm, "clrt_buffer_create", rc);
    /* Memory is per rank: agree on it before the first exchange. */
    status = clrt__mpi_agree(fn, comm, status);
    if (status != CLRT_OK)
        goto done;
    int device_ok = 1;
    MPI_Datatype type = dtype == CLRT_FLOAT64 ? MPI_DOUBLE : MPI_FLOAT;
    for (int t = 0; t < size; t++) {
        int s = (rank - t + size) % size, from = (s - 1 + size) % size;
        size_t k = offset[s + 1] - offset[s];
        if (device_ok) {
            const char *call = "clrt_buffer_write";
            clrt_buffer *block = NULL;
            rc = clrt_buffer_view(&block, dev[t % 2], 0, 0, k, n);
            if (rc == CLRT_OK)
                rc = clrt_buffer_write(q, block, host[t % 2], k * n);
            clrt_buffer_destroy(block);
            if (rc == CLRT_OK)
                rc = step_product(q, c, a, dev[t % 2], offset[s], k, t == 0, &call);
            if (rc != CLRT_OK) {
                clrt__mpi_clrt_failed(fn, comm, call, rc);
                device_ok = 0;
                status = rc;
            }
        }
        if (t + 1 < size) {
            size_t k_next = offset[from + 1] - offset[from];
            if (MPI_Sendrecv(host[t % 2], (int)(k * n), type, (rank + 1) % size, 0, host[(t + 1) % 2],
                             (int)(k_next * n), type, (rank - 1 + size) % size, 0, comm,
                             MPI_STATUS_IGNORE) != MPI_SUCCESS) {
                clrt__mpi_fail(fn, comm, "MPI_Sendrecv of a block of b failed");
                status = CLRT_MPI_EMPI;
                break;
            }
        }
    }
    if (device_ok && status == CLRT_OK && (rc = clrt_queue_finish(q)) != CLRT_OK)
        status = clrt__mpi_clrt_failed(fn, comm, "clrt_queue_finish", rc);
    /* A rank whose device failed stops the others here, not at their next
     * collective. */
    if (status != CLRT_MPI_EMPI)
        status = clrt__mpi_agree(fn, comm, status);
done:
    for (int i = 0; i < 2; i++) {
        clrt_buffer_destroy(dev[i]);
        free(host[i]);
    }
    free(offset);
    return status;
}

int clrt_mpi_matmul_rows(MPI_Comm comm, clrt_context *ctx, clrt_queue *q, clrt_buffer *c,
                         const clrt_buffer *a, const clrt_buffer *b) {
    static const char fn[] = "clrt_mpi_matmul_rows";
    if (comm == MPI_COMM_NULL) {
        clrt__mpi_fail(fn, comm, "comm is MPI_COMM_NULL");
        return CLRT_EINVAL;
    }
    clrt__mpi_vote mine, *all;
    memset(&mine, 0, sizeof mine);
    mine.status = check_local(fn, comm, ctx, q, c, a, b);
    if (mine.status == CLRT_OK) {
        mine.fact[A_ROWS] = (int64_t)clrt_buffer_rows(a);
        mine.fact[A_COLS] = (int64_t)clrt_buffer_cols(a);
        mine.fact[B_ROWS] = (int64_t)clrt_buffer_rows(b);
        mine.fact[B_COLS] = (int64_t)clrt_buffer_cols(b);
        mine.fact[C_ROWS] = (int64_t)clrt_buffer_rows(c);
        mine.fact[C_COLS] = (int64_t)clrt_buffer_cols(c);
        mine.fact[DTYPE] = (int64_t)clrt_buffer_dtype(c);
    }
    int size, rank;
    MPI_Comm_rank(comm, &rank);
    int rc = clrt__mpi_vote_all(comm, &mine, &all, &size);
    if (rc != CLRT_OK) {
        if (mine.status == CLRT_OK)
            clrt__mpi_fail(fn, comm, "the vote on the shapes failed (%s)", clrt_mpi_status_name(rc));
        return mine.status != CLRT_OK ? (int)mine.status : rc;
    }
    int status = clrt__mpi_outcome(fn, comm, all, size);
    if (status == CLRT_OK)
        status = check_shapes(fn, comm, all, size);
    if (status == CLRT_OK)
        status = ring(fn, comm, ctx, q, c, a, b, all, rank, size);
    free(all);
    if (status == CLRT_OK)
        clrt__mpi_clear();
    return status;
}

void clrt_mpi_block_rows(size_t n, int rank, int size, size_t *first, size_t *count) {
    size_t r = rank < 0 ? 0 : (size_t)rank, p = size < 1 ? 1 : (size_t)size;
    size_t base = n / p, extra = n % p;
    if (first)
        *first = r * base + (r < extra ? r : extra);
    if (count)
        *count = r < p ? base + (r < extra ? 1 : 0) : 0;
}
