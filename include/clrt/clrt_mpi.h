/*
 * clrt_mpi — clrt on many machines: one device per MPI rank, sums of device
 * buffers across ranks, and a matrix product distributed by block rows.
 *
 * An optional library (libclrt_mpi, CMake target clrt::clrt_mpi), built when
 * CMake finds MPI; the core libclrt never links MPI. It is written on clrt's
 * public API only, with host-staged transfers: a buffer is read to the host,
 * exchanged with MPI, and written back (docs/mpi.md has the costs).
 *
 * Conventions (on top of clrt.h's)
 *   - Every function taking an MPI_Comm is collective: every rank of comm
 *     calls it, in the same order, with matching arguments.
 *   - They never leave a rank waiting on the others: each rank's local result
 *     (its arguments, its device's status) is agreed among all ranks with one
 *     small collective before any data moves and once after. When one rank
 *     fails, every rank returns an error: that rank its own status, the others
 *     CLRT_MPI_EPEER, or all of them CLRT_ESHAPE when the ranks' shapes
 *     disagree; clrt_mpi_error_message() names the rank and the reason on every
 *     rank. Only a rank that does not call at all (or an invalid comm) hangs
 *     the others, as with any MPI collective.
 *   - MPI must be initialised (MPI_Init) by the caller; the library never
 *     calls MPI_Init, MPI_Finalize or MPI_Abort. MPI's thread rules apply:
 *     calls on one comm from several threads at once need MPI_THREAD_MULTIPLE
 *     and a communicator per thread.
 */
#ifndef CLRT_CLRT_MPI_H
#define CLRT_CLRT_MPI_H

#include <mpi.h>

#include "clrt/clrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup mpi MPI (optional library clrt_mpi)
 *  One device per rank, allreduce of device buffers, distributed GEMM.
 *  Include <clrt/clrt_mpi.h> and link clrt::clrt_mpi (pkg-config: clrt_mpi is
 *  not provided; link -lclrt_mpi -lclrt and your MPI's flags).
 *  @{ */

/** Another rank failed this collective call (its device, its arguments or
 *  its memory); clrt_mpi_error_message() names it and its status. */
#define CLRT_MPI_EPEER (-100)
/** An MPI call returned an error (only seen when comm's error handler is
 *  MPI_ERRORS_RETURN; MPI's default aborts the job instead). */
#define CLRT_MPI_EMPI (-101)

/** The name of a status, clrt_mpi's two ("CLRT_MPI_EPEER", "CLRT_MPI_EMPI")
 *  and clrt's (clrt_status_name()). Never NULL. */
CLRT_API const char *clrt_mpi_status_name(int status);

/** This thread's last clrt_mpi failure in detail: the function, this rank,
 *  the failing rank and why (clrt's own message for a device failure).
 *  Empty when the last clrt_mpi call succeeded. Never NULL. */
CLRT_API const char *clrt_mpi_error_message(void);

/** Agree on a status: every rank of comm passes the status of its own work
 *  since the last collective call (a clrt status, CLRT_OK when it went well;
 *  clrt_error_message() is taken as its reason), and every rank learns
 *  whether all went well. Call it after local work that may fail on one rank
 *  (a training step's forward and backward passes) and before the next
 *  exchange, so that the failure stops every rank there. Collective.
 *  @return CLRT_OK when every status was CLRT_OK; else on the failing rank
 *          its own status, and on the others CLRT_MPI_EPEER with a message
 *          naming the lowest failing rank, its status and its reason. */
CLRT_API int clrt_mpi_check(MPI_Comm comm, int status);

/** This process's rank among the ranks of comm on the same machine (shared
 *  memory node, MPI_Comm_split_type), and how many there are. Collective.
 *  @return CLRT_OK; CLRT_EINVAL for MPI_COMM_NULL or NULL outputs; CLRT_MPI_EMPI. */
CLRT_API int clrt_mpi_local_rank(MPI_Comm comm, int *local_rank, int *local_size);

/** Open a context for this rank. Collective: fails on every rank when one
 *  rank cannot open its device (the others' contexts are destroyed again).
 *  The device: selector when not NULL or blank; else $CLRT_DEVICE when set
 *  (it may differ per rank: mpirun -x, or a wrapper script per rank); else
 *  device (local rank mod n) of the n devices of the kind the default ranking
 *  puts first (its type, native or emulator), in clrt_device_list() order:
 *  the 8 GPUs of a node for its 8 ranks; one CPU device shared by every rank
 *  on a machine without GPUs.
 *  @return CLRT_OK; clrt_context_create()'s status on the rank that failed,
 *          CLRT_MPI_EPEER on the others; CLRT_EINVAL for a NULL out. */
CLRT_API int clrt_mpi_context_create(clrt_context **out, MPI_Comm comm, const char *selector);

/** Every buffer b of bufs[0..n) becomes the sum over the ranks of comm of
 *  that rank's bufs[i], elementwise, on every rank (an allreduce). All the
 *  buffers are read into one host array, summed with one MPI_Allreduce, and
 *  written back: one exchange for all of a network's gradients. Views are
 *  allowed; the buffers must not overlap. Blocks until the buffers hold the
 *  sums (work enqueued on q before is waited for).
 *  The i-th buffers of all ranks must have the same number of elements, and
 *  all buffers the same dtype: CLRT_FLOAT32, CLRT_FLOAT64 or CLRT_INT32 (sums
 *  of counts; int32 overflow wraps as MPI's does). The sum's order (so its
 *  last bits for floats) is MPI's choice, the same on every rank.
 *  @return CLRT_OK; on every rank CLRT_ESHAPE when the ranks' counts, element
 *          totals or dtypes differ; CLRT_EINVAL (a NULL q or bufs, n == 0, a NULL
 *          buffer, mixed dtypes on this rank) or CLRT_EUNSUPPORTED, or a device
 *          status, on the rank concerned and CLRT_MPI_EPEER on the others;
 *          CLRT_ENOMEM for the host array. After a failure the buffers' contents
 *          are undefined. */
CLRT_API int clrt_mpi_allreduce_sum_list(MPI_Comm comm, clrt_queue *q, clrt_buffer *const *bufs,
                                         size_t n);

/** clrt_mpi_allreduce_sum_list() of the one buffer buf. */
CLRT_API int clrt_mpi_allreduce_sum(MPI_Comm comm, clrt_queue *q, clrt_buffer *buf);

/** The even split of n rows over size ranks: rank gets rows
 *  [*first, *first + *count), the first n mod size ranks one row more. For
 *  clrt_mpi_matmul_rows()'s blocks. *count is 0 when n < size. Outputs may
 *  be NULL. */
CLRT_API void clrt_mpi_block_rows(size_t n, int rank, int size, size_t *first, size_t *count);

/** Distributed C (M x N) = A (M x K) B (K x N), by block rows: rank r holds
 *  its block of rows of A and C (a and c, the same number of rows) and its
 *  block of rows of B (b), the blocks stacked in rank order. Every rank needs
 *  at least one row of A and of B (clrt_mpi_block_rows() splits evenly when
 *  M and K are at least the number of ranks); a is a_rows x K and b, c have N
 *  columns on every rank. ctx is the context of q, a, b and c: the two
 *  scratch blocks of B are made there. The blocks of B travel round a ring of the ranks
 *  (host-staged MPI_Sendrecv), and each rank adds A_r[:, block s] B_s to its
 *  C_r with clrt_gemm as block s passes, the next block's exchange
 *  overlapping the current product. float32/float64. Blocks until c is
 *  complete. Memory per rank: two blocks of B on the device and the host.
 *  @return CLRT_OK; on every rank CLRT_ESHAPE when the blocks do not fit
 *          together (the message names the rank), CLRT_EINVAL (a NULL argument, c
 *          being a or b, a foreign ctx: clrt_gemm's checks) or a device status
 *          on the rank concerned and CLRT_MPI_EPEER on the others. After a
 *          failure c's contents are undefined. */
CLRT_API int clrt_mpi_matmul_rows(MPI_Comm comm, clrt_context *ctx, clrt_queue *q, clrt_buffer *c,
                                  const clrt_buffer *a, const clrt_buffer *b);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLRT_CLRT_MPI_H */
