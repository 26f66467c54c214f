/* One rank gets something wrong; every rank must return an error from the
 * same call, with a message that names the rank, and none may hang (ctest's
 * TIMEOUT is the backstop). The last rank is the odd one out; on one rank
 * the local errors are checked alone. After each failure the job goes on and
 * a correct call still works. */
#include "mpi_test.h"

static clrt_context *ctx;
static clrt_queue *q;
static int odd_one; /* this rank is the one that gets it wrong */

/* The outcome every rank must see: the odd rank `own`, the others
 * CLRT_MPI_EPEER with a message naming the odd rank; or `all` everywhere. */
static void expect(int rc, int own, const char *what) {
    char name[32];
    snprintf(name, sizeof name, "rank %d", mt_size - 1);
    int want = odd_one ? own : CLRT_MPI_EPEER;
    MT_CHECK(rc == want, "%s: got %s, want %s", what, clrt_mpi_status_name(rc), clrt_mpi_status_name(want));
    MT_CHECK(strstr(clrt_mpi_error_message(), odd_one ? "rank" : name) != NULL, "%s: message '%s'", what,
             clrt_mpi_error_message());
}

static void expect_all(int rc, int want, const char *what) {
    char name[32];
    snprintf(name, sizeof name, "rank %d", mt_size - 1);
    MT_CHECK(rc == want, "%s: got %s, want %s", what, clrt_mpi_status_name(rc), clrt_mpi_status_name(want));
    MT_CHECK(strstr(clrt_mpi_error_message(), name) != NULL, "%s: message '%s' names %s", what,
             clrt_mpi_error_message(), name);
}

/* Afterwards the ranks still agree: a sum of ones is the number of ranks. */
static void still_works(void) {
    clrt_buffer *b;
    float ones[7] = {1, 1, 1, 1, 1, 1, 1}, got[7];
    MT_OK(clrt_buffer_create(&b, ctx, CLRT_FLOAT32, 1, 7));
    MT_OK(clrt_buffer_write(q, b, ones, 7));
    MT_OK(clrt_mpi_allreduce_sum(MPI_COMM_WORLD, q, b));
    MT_OK(clrt_buffer_read(q, b, got, 7));
    for (int i = 0; i < 7; i++)
        MT_CHECK(got[i] == (float)mt_size, "after a failure: %g", (double)got[i]);
    clrt_buffer_destroy(b);
}

static void test_context(void) {
    clrt_context *c = (clrt_context *)&c;
    int rc = clrt_mpi_context_create(&c, MPI_COMM_WORLD, odd_one ? "no such device anywhere" : NULL);
    expect(rc, CLRT_ENODEVICE, "a rank without its device");
    MT_CHECK(c == NULL, "no context on any rank after a failure");
    MT_CHECK(clrt_mpi_context_create(NULL, MPI_COMM_WORLD, NULL) == CLRT_EINVAL, "NULL out");
    still_works();
}

/* A rank's own failure, told to the others by clrt_mpi_check. */
static void test_check(void) {
    expect(clrt_mpi_check(MPI_COMM_WORLD, odd_one ? CLRT_EDEVICE : CLRT_OK), CLRT_EDEVICE, "a failed device");
    MT_OK(clrt_mpi_check(MPI_COMM_WORLD, CLRT_OK));
    MT_CHECK(clrt_mpi_check(MPI_COMM_NULL, CLRT_OK) == CLRT_EINVAL, "MPI_COMM_NULL");
    MT_CHECK(!strcmp(clrt_mpi_status_name(CLRT_MPI_EPEER), "CLRT_MPI_EPEER") &&
                 !strcmp(clrt_mpi_status_name(CLRT_MPI_EMPI), "CLRT_MPI_EMPI") &&
                 !strcmp(clrt_mpi_status_name(CLRT_ESHAPE), "CLRT_ESHAPE"),
             "%s", "status names");
    still_works();
}

static void test_allreduce(void) {
    clrt_buffer *b, *odd;
    MT_OK(clrt_buffer_create(&b, ctx, CLRT_FLOAT32, 3, 5));
    MT_OK(clrt_fill(q, b, 1));
    if (mt_size > 1) {
        /* the odd rank has one element more */
        MT_OK(clrt_buffer_create(&odd, ctx, CLRT_FLOAT32, 1, odd_one ? 16 : 15));
        expect_all(clrt_mpi_allreduce_sum(MPI_COMM_WORLD, q, odd), CLRT_ESHAPE, "an element count that differs");
        clrt_buffer_destroy(odd);
        /* the odd rank has float64 */
        MT_OK(clrt_buffer_create(&odd, ctx, odd_one ? CLRT_FLOAT64 : CLRT_FLOAT32, 3, 5));
        expect_all(clrt_mpi_allreduce_sum(MPI_COMM_WORLD, q, odd), CLRT_ESHAPE, "a dtype that differs");
        clrt_buffer_destroy(odd);
        /* the odd rank passes two buffers, the others one */
        clrt_buffer *two[2] = {b, b};
        expect_all(clrt_mpi_allreduce_sum_list(MPI_COMM_WORLD, q, two, odd_one ? 2 : 1), CLRT_ESHAPE,
                   "a number of buffers that differs");
    }
    expect(clrt_mpi_allreduce_sum(MPI_COMM_WORLD, q, odd_one ? NULL : b), CLRT_EINVAL, "a NULL buffer");
    expect(clrt_mpi_allreduce_sum_list(MPI_COMM_WORLD, q, odd_one ? NULL : &b, 1), CLRT_EINVAL, "a NULL list");
    /* the odd rank's buffer lives in another context: its read fails */
    clrt_context *other;
    MT_OK(clrt_context_create(&other, NULL));
    MT_OK(clrt_buffer_create(&odd, other, CLRT_FLOAT32, 3, 5));
    expect(clrt_mpi_allreduce_sum(MPI_COMM_WORLD, q, odd_one ? odd : b), CLRT_EINVAL,
           "a buffer the queue cannot reach");
    clrt_buffer_destroy(odd);
    clrt_context_destroy(other);
    clrt_buffer_destroy(b);
    still_works();
}

static void test_matmul(void) {
    size_t k0, kr, m0, mr;
    size_t m = 2 * (size_t)mt_size + 1, k = 3 * (size_t)mt_size, n = 5;
    clrt_mpi_block_rows(m, mt_rank, mt_size, &m0, &mr);
    clrt_mpi_block_rows(k, mt_rank, mt_size, &k0, &kr);
    clrt_buffer *a, *b, *c, *bad;
    MT_OK(clrt_buffer_create(&a, ctx, CLRT_FLOAT32, mr, k));
    MT_OK(clrt_buffer_create(&b, ctx, CLRT_FLOAT32, kr, n));
    MT_OK(clrt_buffer_create(&c, ctx, CLRT_FLOAT32, mr, n));
    MT_OK(clrt_fill(q, a, 1));
    MT_OK(clrt_fill(q, b, 2));
    /* the odd rank's b has one column more */
    MT_OK(clrt_buffer_create(&bad, ctx, CLRT_FLOAT32, kr, n + 1));
    expect_all(clrt_mpi_matmul_rows(MPI_COMM_WORLD, ctx, q, c, a, odd_one ? bad : b), CLRT_ESHAPE,
               "b's columns differ");
    clrt_buffer_destroy(bad);
    /* the odd rank's a has one column more than K */
    MT_OK(clrt_buffer_create(&bad, ctx, CLRT_FLOAT32, mr, k + 1));
    expect_all(clrt_mpi_matmul_rows(MPI_COMM_WORLD, ctx, q, c, odd_one ? bad : a, b), CLRT_ESHAPE,
               "a's columns are not K");
    clrt_buffer_destroy(bad);
    /* the odd rank's c has one row fewer than its a */
    if (mr > 1) {
        MT_OK(clrt_buffer_create(&bad, ctx, CLRT_FLOAT32, mr - 1, n));
        expect_all(clrt_mpi_matmul_rows(MPI_COMM_WORLD, ctx, q, odd_one ? bad : c, a, b), CLRT_ESHAPE,
                   "c's rows are not a's");
        clrt_buffer_destroy(bad);
    }
    /* local refusals mirrored to the others */
    expect(clrt_mpi_matmul_rows(MPI_COMM_WORLD, ctx, q, odd_one ? a : c, a, b), CLRT_EINVAL, "c is a");
    expect(clrt_mpi_matmul_rows(MPI_COMM_WORLD, odd_one ? NULL : ctx, q, c, a, b), CLRT_EINVAL, "a NULL ctx");
    /* and the product itself is right afterwards: every element 2K */
    MT_OK(clrt_mpi_matmul_rows(MPI_COMM_WORLD, ctx, q, c, a, b));
    float *got = malloc(mr * n * sizeof *got);
    MT_CHECK(got != NULL, "malloc");
    MT_OK(clrt_buffer_read(q, c, got, mr * n));
    for (size_t i = 0; i < mr * n; i++)
        MT_CHECK(got[i] == (float)(2 * k), "c[%zu] = %g, want %zu", i, (double)got[i], 2 * k);
    free(got);
    clrt_buffer_destroy(a);
    clrt_buffer_destroy(b);
    clrt_buffer_destroy(c);
    still_works();
}

int main(int argc, char **argv) {
    mt_init(&argc, &argv);
    odd_one = mt_rank == mt_size - 1;
    MT_OK(clrt_mpi_context_create(&ctx, MPI_COMM_WORLD, NULL));
    MT_OK(clrt_queue_create(&q, ctx));
    test_context();
    test_check();
    test_allreduce();
    test_matmul();
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    return mt_finish("mpi_faults");
}
