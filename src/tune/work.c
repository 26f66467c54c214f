/* What the tuner runs for each built-in kernel (see tune/work.h). */
#include "tune/work.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostref/ref.h"
#include "kernels/matmul_plan.h"
#include "kernels/table.h"

/* The elementwise kernel's run (clrt__work_run): c = a + b (the flat path, bound by
 * memory), c = sigmoid(c) (flat, bound by arithmetic on CPUs), c = c + b's first row
 * broadcast to every row (the row-by-row path), in the rows x cols timing shape below. */
enum { EW_ROWS = 64 };

/* reduce and transpose (at the end of this file) */
static int matrix_kernel(int kernel) { return kernel == CLRT__K_REDUCE || kernel == CLRT__K_TRANSPOSE; }
static clrt__shape matrix_shape(size_t size);
static int matrix_make(clrt__work *w, int dtype, clrt_context *ctx, const void *ha);
static int matrix_run(clrt__work *w);
static size_t matrix_check_shapes(clrt__shape *out, size_t cap);
static int matrix_verify(int kernel, int dtype, clrt_context *ctx, clrt_queue *q, clrt__shape s, size_t *wrong);

int clrt__work_known(int kernel)
{
    return kernel == CLRT__K_MATMUL || kernel == CLRT__K_ELEMENTWISE || matrix_kernel(kernel);
}

clrt__shape clrt__work_shape(int kernel, size_t size)
{
    if (matrix_kernel(kernel))
        return matrix_shape(size);
    if (kernel == CLRT__K_MATMUL)
        return (clrt__shape){size, size, size};
    /* EW_ROWS rows once there are enough elements, so that the broadcast takes the row path */
    const size_t m = size >= (size_t)EW_ROWS * EW_ROWS ? EW_ROWS : 1;
    return (clrt__shape){m, (size + m - 1) / m, 0};
}

double clrt__work_amount(int kernel, int dtype, clrt__shape s)
{
    if (kernel == CLRT__K_MATMUL)
        return 2.0 * (double)s.m * (double)s.n * (double)s.k;
    if (matrix_kernel(kernel)) /* reduce: three sums and an argmax of the matrix; transpose: a read and a write */
        return (kernel == CLRT__K_REDUCE ? 4.0 : 2.0) * (double)s.m * (double)s.n * (double)clrt__dtype_size(dtype);
    /* bytes: 3 for the add, 2 for the sigmoid in place, 2 for the broadcast add in
     * place (and its row) */
    return (7.0 * (double)s.m + 1.0) * (double)s.n * (double)clrt__dtype_size(dtype);
}

const char *clrt__work_unit(int kernel) { return kernel == CLRT__K_MATMUL ? "GFLOP/s" : "GB/s"; }

size_t clrt__work_default_size(int kernel) { return kernel == CLRT__K_MATMUL ? 1024 : 10000000; }

/* rows x cols of a, b and c at s */
static void dims(int kernel, clrt__shape s, size_t d[3][2])
{
    if (kernel == CLRT__K_MATMUL) {
        d[0][0] = s.m, d[0][1] = s.k;
        d[1][0] = s.k, d[1][1] = s.n;
        d[2][0] = s.m, d[2][1] = s.n;
    } else {
        for (int i = 0; i < 3; i++)
            d[i][0] = s.m, d[i][1] = s.n;
    }
}

void clrt__work_free(clrt__work *w)
{
    clrt_buffer_destroy(w->a);
    clrt_buffer_destroy(w->b);
    clrt_buffer_destroy(w->c);
    clrt_buffer_destroy(w->brow);
    clrt_buffer_destroy(w->d);
    clrt_buffer_destroy(w->e);
    w->a = w->b = w->c = w->brow = w->d = w->e = NULL;
}

int clrt__work_make(clrt__work *w, int kernel, int dtype, clrt_context *ctx, clrt_queue *q, clrt__shape s,
                    const void *ha, const void *hb)
{
    size_t d[3][2];
    dims(kernel, s, d);
    *w = (clrt__work){.kernel = kernel, .q = q};
    if (matrix_kernel(kernel)) {
        int st = clrt_buffer_create(&w->a, ctx, (clrt_dtype)dtype, s.m, s.n);
        st = st == CLRT_OK ? matrix_make(w, dtype, ctx, ha) : st;
        if (st != CLRT_OK)
            clrt__work_free(w);
        return st;
    }
    clrt_buffer **bufs[3] = {&w->a, &w->b, &w->c};
    int st = CLRT_OK;
    for (int i = 0; i < 3 && st == CLRT_OK; i++)
        st = clrt_buffer_create(bufs[i], ctx, (clrt_dtype)dtype, d[i][0], d[i][1]);
    if (st == CLRT_OK)
        st = clrt_buffer_write(q, w->a, ha, d[0][0] * d[0][1]);
    if (st == CLRT_OK)
        st = clrt_buffer_write(q, w->b, hb, d[1][0] * d[1][1]);
    if (st == CLRT_OK && kernel != CLRT__K_MATMUL)
        st = clrt_buffer_view(&w->brow, w->b, 0, 0, 1, d[1][1]);
    if (st != CLRT_OK)
        clrt__work_free(w);
    return st;
}

int clrt__work_run(void *arg)
{
    clrt__work *w = arg;
    if (matrix_kernel(w->kernel))
        return matrix_run(w);
    int st;
    if (w->kernel == CLRT__K_MATMUL) {
        st = clrt_matmul(w->q, w->c, w->a, w->b);
    } else {
        st = clrt_add(w->q, w->c, w->a, w->b);
        if (st == CLRT_OK)
            st = clrt_unary(w->q, CLRT_OP_SIGMOID, w->c, w->c);
        if (st == CLRT_OK)
            st = clrt_binary(w->q, CLRT_OP_ADD, w->c, w->c, w->brow);
    }
    return st == CLRT_OK ? clrt_queue_finish(w->q) : st;
}

size_t clrt__work_check_shapes(int kernel, clrt__shape *out, size_t cap)
{
    /* matmul: edge tiles both ways, thinner than a tile, K not a multiple of the
     * k block, K = 1; elementwise: odd lengths (one row: every op flat), odd rows
     * (the broadcast by rows), one column (the broadcast of one element) */
    static const clrt__shape mm[] = {{67, 83, 777}, {5, 7, 33}, {129, 1, 65}, {1, 131, 17}, {40, 50, 1}};
    static const clrt__shape ew[] = {{1, 1, 0}, {1, 17, 0}, {1, 100003, 0}, {7, 33, 0}, {65, 1, 0}, {33, 1031, 0}};
    if (matrix_kernel(kernel))
        return matrix_check_shapes(out, cap);
    const clrt__shape *src = kernel == CLRT__K_MATMUL ? mm : ew;
    size_t n = kernel == CLRT__K_MATMUL ? sizeof mm / sizeof *mm : sizeof ew / sizeof *ew;
    for (size_t i = 0; i < n && i < cap; i++)
        out[i] = src[i];
    return n < cap ? n : cap;
}

size_t clrt__work_param_shapes(int kernel, int dtype, const clrt__device_facts *dev, const clrt__pvals *pv,
                               clrt__shape *out, size_t cap)
{
    if (kernel != CLRT__K_MATMUL || cap == 0)
        return 0;
    const clrt__matmul_params p = clrt__mm(pv);
    if (p.use_local || p.pack == 0)
        return 0;
    /* edge tiles both ways, and large enough that packing pays (kernels/matmul.c) */
    size_t m = 4 * (size_t)p.wgy * p.tm + 7, n = 2 * (size_t)p.tn + 5;
    if (m < 519)
        m = 519;
    if (n < 517)
        n = 517;
    size_t k = (size_t)(640.0 * 640.0 * 640.0 / ((double)m * (double)n)) + 3;
    if (clrt__matmul_pack_panels(&p, m, n, k, clrt__dtype_size(dtype), clrt__matmul_pack_scratch_max(dev, &p), 0) ==
        0)
        return 0;
    out[0] = (clrt__shape){m, n, k};
    return 1;
}

/* Wrong elements of c = sigmoid(a + b) + b[0][j] (clrt__work_run), against the host
 * in double: the sum rounded once, the sigmoid within 16 units of rounding (the
 * OpenCL bounds of exp and of the division, and two roundings), the last sum once. */
static size_t wrong_elementwise(int dtype, const void *a, const void *b, const void *c, clrt__shape s)
{
    const double u = dtype == CLRT_FLOAT64 ? DBL_EPSILON / 2 : FLT_EPSILON / 2;
    size_t wrong = 0;
    for (size_t i = 0; i < s.m; i++)
        for (size_t j = 0; j < s.n; j++) {
            const size_t e = i * s.n + j;
            const double sum = clrt__ref_get(a, (clrt_dtype)dtype, e) + clrt__ref_get(b, (clrt_dtype)dtype, e);
            const double sig = 1.0 / (1.0 + exp(-sum)), bias = clrt__ref_get(b, (clrt_dtype)dtype, j);
            const double want = sig + bias;
            wrong += !(fabs(clrt__ref_get(c, (clrt_dtype)dtype, e) - want) <= 24.0 * u * (fabs(sig) + fabs(bias)) + 1e-300);
        }
    return wrong;
}

int clrt__work_verify(int kernel, int dtype, clrt_context *ctx, clrt_queue *q, clrt__shape s, size_t rows,
                      char *why, size_t cap)
{
    if (matrix_kernel(kernel)) {
        size_t wrong = 0;
        int st = matrix_verify(kernel, dtype, ctx, q, s, &wrong);
        if (st != CLRT_OK)
            snprintf(why, cap, "at %zux%zu: %s: %.150s", s.m, s.n, clrt_status_name(st), clrt_error_message());
        else if (wrong)
            snprintf(why, cap, "WRONG RESULT at %zux%zu (%zu elements)", s.m, s.n, wrong);
        return st == CLRT_OK && wrong == 0 ? 0 : -1;
    }
    size_t d[3][2];
    dims(kernel, s, d);
    const size_t elem = clrt__dtype_size(dtype);
    const size_t na = d[0][0] * d[0][1], nb = d[1][0] * d[1][1], nc = d[2][0] * d[2][1];
    void *a = malloc(na * elem), *b = malloc(nb * elem), *c = malloc(nc * elem);
    int st = CLRT_ENOMEM;
    size_t wrong = 0;
    clrt__work w;
    if (a && b && c) {
        clrt__ref_fill(a, (clrt_dtype)dtype, na, 11);
        clrt__ref_fill(b, (clrt_dtype)dtype, nb, 12);
        st = clrt__work_make(&w, kernel, dtype, ctx, q, s, a, b);
    }
    if (st == CLRT_OK) {
        st = clrt__work_run(&w);
        if (st == CLRT_OK)
            st = clrt_buffer_read(q, w.c, c, nc);
        if (st == CLRT_OK)
            wrong = kernel == CLRT__K_MATMUL
                        ? clrt__ref_gemm_wrong((clrt_dtype)dtype, 0, 0, a, b, c, s.m, s.n, s.k, rows, NULL, NULL)
                        : wrong_elementwise(dtype, a, b, c, s);
        clrt__work_free(&w);
    }
    free(a);
    free(b);
    free(c);
    if (st != CLRT_OK)
        snprintf(why, cap, "at %zux%zux%zu: %s: %.150s", s.m, s.n, s.k, clrt_status_name(st), clrt_error_message());
    else if (wrong)
        snprintf(why, cap, "WRONG RESULT at %zux%zux%zu (%zu elements)", s.m, s.n, s.k, wrong);
    return st == CLRT_OK && wrong == 0 ? 0 : -1;
}

/* ---- reduce and transpose: an m x n matrix */

static clrt__shape matrix_shape(size_t size)
{
    /* as square as size allows, at most size elements (the tuner's host operands) */
    size_t m = (size_t)sqrt((double)size);
    while (m > 1 && m * m > size)
        m--;
    if (m == 0)
        m = 1;
    return (clrt__shape){m, size / m, 0};
}

/* w->a exists (m x n); the outputs, and a written from ha. */
static int matrix_make(clrt__work *w, int dtype, clrt_context *ctx, const void *ha)
{
    const clrt_dtype dt = (clrt_dtype)dtype;
    const size_t m = clrt_buffer_rows(w->a), n = clrt_buffer_cols(w->a);
    int st = CLRT_OK;
    if (w->kernel == CLRT__K_REDUCE) {
        st = clrt_buffer_create(&w->b, ctx, dt, m, 1);
        if (st == CLRT_OK)
            st = clrt_buffer_create(&w->c, ctx, dt, 1, n);
        if (st == CLRT_OK)
            st = clrt_buffer_create(&w->d, ctx, dt, 1, 1);
        if (st == CLRT_OK)
            st = clrt_buffer_create(&w->e, ctx, CLRT_INT32, m, 1);
    } else {
        st = clrt_buffer_create(&w->c, ctx, dt, n, m);
    }
    return st == CLRT_OK ? clrt_buffer_write(w->q, w->a, ha, m * n) : st;
}

static int matrix_run(clrt__work *w)
{
    int st;
    if (w->kernel == CLRT__K_REDUCE) {
        st = clrt_reduce(w->q, CLRT_REDUCE_SUM, CLRT_ALL, w->d, w->a);
        if (st == CLRT_OK)
            st = clrt_reduce(w->q, CLRT_REDUCE_SUM, CLRT_EACH_ROW, w->b, w->a);
        if (st == CLRT_OK)
            st = clrt_reduce(w->q, CLRT_REDUCE_SUM, CLRT_EACH_COL, w->c, w->a);
        if (st == CLRT_OK)
            st = clrt_argmax_rows(w->q, w->e, w->a);
    } else {
        st = clrt_transpose(w->q, w->c, w->a);
    }
    return st == CLRT_OK ? clrt_queue_finish(w->q) : st;
}

static size_t matrix_check_shapes(clrt__shape *out, size_t cap)
{
    /* one element, odd and thin both ways, one long row, one long column */
    static const clrt__shape s[] = {{1, 1, 0}, {7, 17, 0}, {65, 127, 0}, {1, 100003, 0}, {1031, 3, 0}, {33, 1, 0}};
    size_t n = sizeof s / sizeof *s;
    for (size_t i = 0; i < n && i < cap; i++)
        out[i] = s[i];
    return n < cap ? n : cap;
}

/* Values that are small integers (-16..16): every sum of the check shapes is
 * exact in float32 in any order, so each result must equal the host's. */
static void integer_fill(void *data, int dtype, size_t count)
{
    clrt__ref_fill(data, (clrt_dtype)dtype, count, 13);
    for (size_t i = 0; i < count; i++) {
        if (dtype == CLRT_FLOAT64)
            ((double *)data)[i] = floor(((double *)data)[i] * 16.5);
        else
            ((float *)data)[i] = floorf(((float *)data)[i] * 16.5f);
    }
}

static double elem_at(const void *p, int dtype, size_t i)
{
    return dtype == CLRT_FLOAT64 ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

/* Wrong elements of the three sums, the maximum of all and each row's argmax,
 * or of the transpose, against the host. */
static int matrix_verify(int kernel, int dtype, clrt_context *ctx, clrt_queue *q, clrt__shape s, size_t *wrong)
{
    const clrt_dtype dt = (clrt_dtype)dtype;
    const size_t m = s.m, n = s.n, elem = clrt__dtype_size(dtype);
    void *a = malloc(m * n * elem), *got = malloc(m * n * elem);
    int32_t *arg = malloc(m * sizeof *arg);
    clrt_buffer *da = NULL, *out[5] = {NULL, NULL, NULL, NULL, NULL};
    int st = a && got && arg ? CLRT_OK : CLRT_ENOMEM;
    *wrong = 0;
    if (st == CLRT_OK) {
        integer_fill(a, dtype, m * n);
        st = clrt_buffer_create(&da, ctx, dt, m, n);
    }
    if (st == CLRT_OK)
        st = clrt_buffer_write(q, da, a, m * n);
    if (st == CLRT_OK && kernel == CLRT__K_TRANSPOSE) {
        st = clrt_buffer_create(&out[0], ctx, dt, n, m);
        if (st == CLRT_OK)
            st = clrt_transpose(q, out[0], da);
        if (st == CLRT_OK)
            st = clrt_buffer_read(q, out[0], got, m * n);
        for (size_t i = 0; st == CLRT_OK && i < m; i++)
            for (size_t j = 0; j < n; j++)
                *wrong += memcmp((char *)got + (j * m + i) * elem, (char *)a + (i * n + j) * elem, elem) != 0;
    } else if (st == CLRT_OK) {
        /* out: the sum of all, of each row, of each column; the maximum of all; each row's argmax */
        const size_t shape[5][2] = {{1, 1}, {m, 1}, {1, n}, {1, 1}, {m, 1}};
        const clrt_axis axis[4] = {CLRT_ALL, CLRT_EACH_ROW, CLRT_EACH_COL, CLRT_ALL};
        for (int i = 0; i < 5 && st == CLRT_OK; i++)
            st = clrt_buffer_create(&out[i], ctx, i == 4 ? CLRT_INT32 : dt, shape[i][0], shape[i][1]);
        for (int i = 0; i < 4 && st == CLRT_OK; i++)
            st = clrt_reduce(q, i == 3 ? CLRT_REDUCE_MAX : CLRT_REDUCE_SUM, axis[i], out[i], da);
        if (st == CLRT_OK)
            st = clrt_argmax_rows(q, out[4], da);
        double all = 0, max = -INFINITY;
        for (size_t i = 0; i < m * n; i++) {
            all += elem_at(a, dtype, i);
            max = elem_at(a, dtype, i) > max ? elem_at(a, dtype, i) : max;
        }
        for (int k = 0; k < 4 && st == CLRT_OK; k++) {
            st = clrt_buffer_read(q, out[k], got, shape[k][0] * shape[k][1]);
            for (size_t i = 0; st == CLRT_OK && i < shape[k][0] * shape[k][1]; i++) {
                double want = k == 0 ? all : k == 3 ? max : 0;
                for (size_t j = 0; (k == 1 || k == 2) && j < (k == 1 ? n : m); j++)
                    want += elem_at(a, dtype, k == 1 ? i * n + j : j * n + i);
                *wrong += elem_at(got, dtype, i) != want;
            }
        }
        if (st == CLRT_OK)
            st = clrt_buffer_read(q, out[4], arg, m);
        for (size_t i = 0; st == CLRT_OK && i < m; i++) {
            size_t best = 0;
            for (size_t j = 1; j < n; j++)
                best = elem_at(a, dtype, i * n + j) > elem_at(a, dtype, i * n + best) ? j : best;
            *wrong += arg[i] != (int32_t)best;
        }
    }
    for (int i = 0; i < 5; i++)
        clrt_buffer_destroy(out[i]);
    clrt_buffer_destroy(da);
    free(a);
    free(got);
    free(arg);
    return st;
}
