/* Every rank adds its rank + 1 to a 1 x 3 buffer's sum: each element must be
 * R (R + 1) / 2 on every rank. */
#include <stdio.h>

#include <clrt/clrt_mpi.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    clrt_context *ctx = NULL;
    clrt_queue *q = NULL;
    clrt_buffer *b = NULL;
    float v[3] = {(float)(rank + 1), (float)(rank + 1), (float)(rank + 1)};
    int st = clrt_mpi_context_create(&ctx, MPI_COMM_WORLD, NULL);
    if (st == CLRT_OK)
        st = clrt_queue_create(&q, ctx);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&b, ctx, CLRT_FLOAT32, 1, 3);
    if (st == CLRT_OK)
        st = clrt_buffer_write(q, b, v, 3);
    st = clrt_mpi_check(MPI_COMM_WORLD, st);
    if (st == CLRT_OK)
        st = clrt_mpi_allreduce_sum(MPI_COMM_WORLD, q, b);
    if (st == CLRT_OK)
        st = clrt_buffer_read(q, b, v, 3);
    for (int i = 0; st == CLRT_OK && i < 3; i++)
        bad |= v[i] != (float)(size * (size + 1) / 2);
    if (st != CLRT_OK || bad)
        fprintf(stderr, "consumer_mpi: rank %d: %s %s\n", rank, clrt_mpi_status_name(st), clrt_mpi_error_message());
    else if (rank == 0)
        printf("consumer_mpi: %d ranks, sum %g: ok\n", size, (double)v[0]);
    clrt_buffer_destroy(b);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    MPI_Finalize();
    return st != CLRT_OK || bad;
}
