/* One device per rank: the rank's place on its machine, and its context
 * (clrt_mpi_local_rank, clrt_mpi_context_create). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/common.h"

int clrt_mpi_local_rank(MPI_Comm comm, int *local_rank, int *local_size) {
    static const char fn[] = "clrt_mpi_local_rank";
    if (comm == MPI_COMM_NULL || !local_rank || !local_size) {
        clrt__mpi_fail(fn, MPI_COMM_NULL, "%s is NULL", comm == MPI_COMM_NULL ? "comm" : "an output");
        return CLRT_EINVAL;
    }
    int rank;
    MPI_Comm node;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
        MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node) != MPI_SUCCESS) {
        clrt__mpi_fail(fn, comm, "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) failed");
        return CLRT_MPI_EMPI;
    }
    int rc = MPI_Comm_rank(node, local_rank) == MPI_SUCCESS && MPI_Comm_size(node, local_size) == MPI_SUCCESS;
    MPI_Comm_free(&node);
    if (!rc) {
        clrt__mpi_fail(fn, comm, "MPI_Comm_rank/size of the node's communicator failed");
        return CLRT_MPI_EMPI;
    }
    clrt__mpi_clear();
    return CLRT_OK;
}

static int blank(const char *s) {
    if (!s)
        return 1;
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n')
            return 0;
    return 1;
}

/* The selector "N" of device (local_rank mod n) among the n devices of the
 * kind the default ranking puts first. */
static int device_by_local_rank(const char *fn, MPI_Comm comm, int local_rank, char *selector, size_t cap) {
    clrt_device_info best;
    int rc = clrt_device_select(NULL, &best);
    if (rc != CLRT_OK)
        return clrt__mpi_clrt_failed(fn, comm, "clrt_device_select", rc);
    size_t count = 0;
    rc = clrt_device_list(NULL, 0, &count);
    clrt_device_info *all = count ? calloc(count, sizeof *all) : NULL;
    if (rc == CLRT_OK && !all) {
        clrt__mpi_fail(fn, comm, "no host memory for the device list");
        return CLRT_ENOMEM;
    }
    if (rc == CLRT_OK)
        rc = clrt_device_list(all, count, &count);
    if (rc != CLRT_OK) {
        free(all);
        return clrt__mpi_clrt_failed(fn, comm, "clrt_device_list", rc);
    }
    size_t kind = 0, chosen = best.index;
    for (size_t i = 0; i < count; i++)
        if (all[i].type == best.type && clrt_device_is_emulator(&all[i]) == clrt_device_is_emulator(&best))
            kind++;
    for (size_t i = 0, k = 0; kind && i < count; i++) {
        if (all[i].type == best.type && clrt_device_is_emulator(&all[i]) == clrt_device_is_emulator(&best)) {
            if (k++ == (size_t)local_rank % kind) {
                chosen = all[i].index;
                break;
            }
        }
    }
    free(all);
    snprintf(selector, cap, "%zu", chosen);
    return CLRT_OK;
}

int clrt_mpi_context_create(clrt_context **out, MPI_Comm comm, const char *selector) {
    static const char fn[] = "clrt_mpi_context_create";
    if (out)
        *out = NULL;
    if (comm == MPI_COMM_NULL) {
        clrt__mpi_fail(fn, comm, "comm is MPI_COMM_NULL");
        return CLRT_EINVAL;
    }
    int status = CLRT_OK;
    char by_rank[32];
    const char *chosen = selector;
    int local_rank = 0, local_size = 1;
    /* Every rank makes the same collective calls whatever its arguments: the
     * node split always, then the vote. */
    int rc = clrt_mpi_local_rank(comm, &local_rank, &local_size);
    if (!out) {
        clrt__mpi_fail(fn, comm, "out is NULL");
        status = CLRT_EINVAL;
    } else if (rc != CLRT_OK) {
        status = rc;
    } else if (blank(selector) && blank(getenv("CLRT_DEVICE"))) {
        status = device_by_local_rank(fn, comm, local_rank, by_rank, sizeof by_rank);
        chosen = by_rank;
    }
    clrt_context *ctx = NULL;
    if (status == CLRT_OK) {
        rc = clrt_context_create(&ctx, chosen);
        if (rc != CLRT_OK)
            status = clrt__mpi_clrt_failed(fn, comm, "clrt_context_create", rc);
    }
    status = clrt__mpi_agree(fn, comm, status);
    if (status != CLRT_OK) {
        clrt_context_destroy(ctx);
        return status;
    }
    *out = ctx;
    clrt__mpi_clear();
    return CLRT_OK;
}
