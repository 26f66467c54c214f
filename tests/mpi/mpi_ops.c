/* clrt_mpi's results against the host, on any number of ranks (ctest runs
 * 1, 2 and 3): the even split of rows, allreduce of one buffer, of a view and
 * of a list (float32, float64, int32), and the block-row distributed product
 * on sizes that are not multiples of the number of ranks. */
#include "mpi_test.h"

static clrt_context *ctx;
static clrt_queue *q;
static int has_fp64;

static void test_block_rows(void) {
    for (size_t n = 0; n < 20; n++) {
        for (int size = 1; size <= 5; size++) {
            size_t next = 0;
            for (int r = 0; r < size; r++) {
                size_t first, count;
                clrt_mpi_block_rows(n, r, size, &first, &count);
                MT_CHECK(first == next, "n %zu size %d rank %d first %zu", n, size, r, first);
                MT_CHECK(count == n / (size_t)size || count == n / (size_t)size + 1, "count %zu", count);
                next = first + count;
            }
            MT_CHECK(next == n, "n %zu size %d covered %zu", n, size, next);
        }
    }
}

/* Element i of rank r's buffer: a float for float dtypes, a small int for int32. */
static double contribution(clrt_dtype dtype, unsigned which, int r, size_t i) {
    double v = mt_value(which, (unsigned)r, i);
    return dtype == CLRT_INT32 ? floor(v * 1000.0) : v;
}

static void put(clrt_dtype dtype, void *host, size_t i, double v) {
    if (dtype == CLRT_FLOAT32)
        ((float *)host)[i] = (float)v;
    else if (dtype == CLRT_FLOAT64)
        ((double *)host)[i] = v;
    else
        ((int *)host)[i] = (int)v;
}

static double get(clrt_dtype dtype, const void *host, size_t i) {
    return dtype == CLRT_FLOAT32 ? ((const float *)host)[i]
           : dtype == CLRT_FLOAT64 ? ((const double *)host)[i]
                                   : ((const int *)host)[i];
}

/* n buffers of the given shapes, each a view (row 1, col 2) of a larger
 * parent when view is set; allreduced as one list; compared with the sum
 * over the ranks in double precision, and the parent outside the window
 * unchanged. */
static void check_allreduce(clrt_dtype dtype, size_t n, const size_t *rows, const size_t *cols, int view) {
    clrt_buffer *parent[8], *buf[8];
    void *host[8];
    size_t pr[8], pc[8];
    for (size_t b = 0; b < n; b++) {
        pr[b] = rows[b] + (view ? 3 : 0);
        pc[b] = cols[b] + (view ? 5 : 0);
        MT_OK(clrt_buffer_create(&parent[b], ctx, dtype, pr[b], pc[b]));
        host[b] = malloc(pr[b] * pc[b] * 8);
        MT_CHECK(host[b] != NULL, "malloc");
        for (size_t i = 0; i < pr[b] * pc[b]; i++)
            put(dtype, host[b], i, contribution(dtype, (unsigned)b, mt_rank, i));
        MT_OK(clrt_buffer_write(q, parent[b], host[b], pr[b] * pc[b]));
        buf[b] = parent[b];
        if (view)
            MT_OK(clrt_buffer_view(&buf[b], parent[b], 1, 2, rows[b], cols[b]));
    }
    MT_OK(n == 1 ? clrt_mpi_allreduce_sum(MPI_COMM_WORLD, q, buf[0])
                 : clrt_mpi_allreduce_sum_list(MPI_COMM_WORLD, q, buf, n));
    double tol = dtype == CLRT_FLOAT32 ? 1e-6 * mt_size : dtype == CLRT_FLOAT64 ? 1e-14 * mt_size : 0;
    for (size_t b = 0; b < n; b++) {
        MT_OK(clrt_buffer_read(q, parent[b], host[b], pr[b] * pc[b]));
        for (size_t i = 0; i < pr[b] * pc[b]; i++) {
            size_t r = i / pc[b], c = i % pc[b];
            int inside = !view || (r >= 1 && r < 1 + rows[b] && c >= 2 && c < 2 + cols[b]);
            double want = 0;
            for (int k = 0; k < (inside ? mt_size : 1); k++)
                want += contribution(dtype, (unsigned)b, inside ? k : mt_rank, i);
            if (dtype == CLRT_FLOAT32 && !inside)
                want = (float)want;
            double got = get(dtype, host[b], i);
            MT_CHECK(fabs(got - want) <= tol, "dtype %d buffer %zu element %zu (%s): %.17g, want %.17g", (int)dtype, b,
                     i, inside ? "summed" : "outside the view", got, want);
        }
    }
    for (size_t b = 0; b < n; b++) {
        if (view)
            clrt_buffer_destroy(buf[b]);
        clrt_buffer_destroy(parent[b]);
        free(host[b]);
    }
}

static void test_allreduce(void) {
    const size_t rows1[] = {37}, cols1[] = {53};
    const size_t rows3[] = {1, 17, 5}, cols3[] = {431, 3, 129};
    clrt_dtype dtypes[] = {CLRT_FLOAT32, CLRT_FLOAT64, CLRT_INT32};
    for (int d = 0; d < 3; d++) {
        if (dtypes[d] == CLRT_FLOAT64 && !has_fp64)
            continue;
        for (int view = 0; view < 2; view++) {
            check_allreduce(dtypes[d], 1, rows1, cols1, view);
            check_allreduce(dtypes[d], 3, rows3, cols3, view);
        }
    }
    /* A gradient-sized list: the article's network, 431,080 float32 in 8 buffers. */
    const size_t rows8[] = {20, 1, 50, 1, 500, 1, 10, 1}, cols8[] = {25, 20, 500, 50, 800, 500, 500, 10};
    check_allreduce(CLRT_FLOAT32, 8, rows8, cols8, 0);
}

/* Rank r's block rows of the M x K matrix A and K x N matrix B (values
 * mt_value(0 / 1, 0, global index)), the product's block rows against a
 * double-precision host product. */
static void check_matmul(clrt_dtype dtype, size_t m, size_t k, size_t n) {
    size_t m0, mr, k0, kr;
    clrt_mpi_block_rows(m, mt_rank, mt_size, &m0, &mr);
    clrt_mpi_block_rows(k, mt_rank, mt_size, &k0, &kr);
    size_t es = dtype == CLRT_FLOAT64 ? 8 : 4;
    char *ha = malloc(mr * k * es), *hb = malloc(kr * n * es), *hc = malloc(mr * n * es);
    MT_CHECK(ha && hb && hc, "malloc");
    for (size_t i = 0; i < mr * k; i++)
        put(dtype, ha, i, mt_value(0, 0, m0 * k + i));
    for (size_t i = 0; i < kr * n; i++)
        put(dtype, hb, i, mt_value(1, 0, k0 * n + i));
    clrt_buffer *a, *b, *c;
    MT_OK(clrt_buffer_create(&a, ctx, dtype, mr, k));
    MT_OK(clrt_buffer_create(&b, ctx, dtype, kr, n));
    MT_OK(clrt_buffer_create(&c, ctx, dtype, mr, n));
    MT_OK(clrt_buffer_write(q, a, ha, mr * k));
    MT_OK(clrt_buffer_write(q, b, hb, kr * n));
    MT_OK(clrt_fill(q, c, NAN)); /* the product must overwrite it */
    MT_OK(clrt_mpi_matmul_rows(MPI_COMM_WORLD, ctx, q, c, a, b));
    MT_OK(clrt_buffer_read(q, c, hc, mr * n));
    double eps = dtype == CLRT_FLOAT64 ? 1e-15 : 1e-6;
    for (size_t i = 0; i < mr; i++) {
        for (size_t j = 0; j < n; j++) {
            double want = 0, mag = 0;
            for (size_t p = 0; p < k; p++) {
                /* the operands as the device has them (rounded to the dtype) */
                double x = mt_value(0, 0, (m0 + i) * k + p), y = mt_value(1, 0, p * n + j);
                if (dtype == CLRT_FLOAT32) {
                    x = (float)x;
                    y = (float)y;
                }
                want += x * y;
                mag += fabs(x * y);
            }
            double got = get(dtype, hc, i * n + j);
            MT_CHECK(fabs(got - want) <= 4 * eps * (double)k * mag + 1e-30,
                     "%zux%zux%zu dtype %d: c[%zu][%zu] = %.17g, want %.17g", m, k, n, (int)dtype, m0 + i, j, got,
                     want);
        }
    }
    clrt_buffer_destroy(a);
    clrt_buffer_destroy(b);
    clrt_buffer_destroy(c);
    free(ha);
    free(hb);
    free(hc);
}

static void test_matmul(void) {
    /* odd sizes, not multiples of 2 or 3; the smallest ones give some ranks a
     * single row, or more rows to one rank than another */
    const size_t shapes[][3] = {{37, 29, 41}, {5, 7, 3}, {3, 3, 1}, {101, 67, 53}, {1 + 2 * (size_t)mt_size, 130, 9}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        if (shapes[s][0] < (size_t)mt_size || shapes[s][1] < (size_t)mt_size)
            continue;
        check_matmul(CLRT_FLOAT32, shapes[s][0], shapes[s][1], shapes[s][2]);
        if (has_fp64)
            check_matmul(CLRT_FLOAT64, shapes[s][0], shapes[s][1], shapes[s][2]);
    }
}

int main(int argc, char **argv) {
    mt_init(&argc, &argv);
    MT_OK(clrt_mpi_context_create(&ctx, MPI_COMM_WORLD, NULL));
    MT_OK(clrt_queue_create(&q, ctx));
    clrt_device_info info;
    MT_OK(clrt_context_device(ctx, &info));
    has_fp64 = info.has_fp64;
    int local_rank, local_size;
    MT_OK(clrt_mpi_local_rank(MPI_COMM_WORLD, &local_rank, &local_size));
    MT_CHECK(local_size == mt_size && local_rank == mt_rank, "one machine: local %d of %d", local_rank, local_size);
    test_block_rows();
    test_allreduce();
    test_matmul();
    MT_CHECK(clrt_mpi_error_message()[0] == '\0', "no message after success: %s", clrt_mpi_error_message());
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    return mt_finish("mpi_ops");
}
