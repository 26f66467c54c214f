/* The math family on 16-bit storage (float16, bfloat16), widened to float32
 * (docs/half.md): every result against a host reference in double, within the
 * bound docs/half.md states (a float32 result's bound plus half an ulp of a
 * 16-bit output): GEMM with a 16-bit or float32 c at k = 4096 (small k under
 * Oclgrind), odd shapes, transposes, a view whose parent's other elements stay
 * as they were, gemm_ex's bias and relu, both batched calls (a strided batch
 * whose c windows are all of c as one launch over stacks widened whole); the elementwise calls with a broadcast
 * row; reductions and argmax; fill's one rounding (70000 is infinity in float16,
 * 1/3 in bfloat16); transpose bit for bit; the elementwise calls on operands
 * all of one 16-bit dtype (one pass, no float32 copies) word for word what the
 * float32 call between conversions gives, NaN, infinities, subnormals and
 * overflow included; and the refused dtype mixes writing nothing. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

static const clrt_dtype halves[2] = {CLRT_FLOAT16, CLRT_BFLOAT16};

/* x rounded to dt as the host does it (float32 or a 16-bit dtype) */
static double rnd(clrt_dtype dt, double x)
{
    if (dt == CLRT_FLOAT16)
        return clrt__ref_f16_value(clrt__ref_f16_of(x));
    if (dt == CLRT_BFLOAT16)
        return clrt__ref_bf16_value(clrt__ref_bf16_of(x));
    return (float)x;
}

/* unit roundoff (half an ulp of 1) and half the smallest subnormal of dt */
static double unit(clrt_dtype dt)
{
    return dt == CLRT_FLOAT16 ? ldexp(1.0, -11) : dt == CLRT_BFLOAT16 ? ldexp(1.0, -8) : ldexp(1.0, -24);
}
static double tiny(clrt_dtype dt)
{
    return dt == CLRT_FLOAT16 ? ldexp(1.0, -25) : dt == CLRT_BFLOAT16 ? ldexp(1.0, -134) : ldexp(1.0, -150);
}

/* A rows x cols buffer of dt holding h, whose values are first rounded to dt in
 * place (so that the reference reads what the device holds). */
static clrt_buffer *up(clrt_dtype dt, size_t rows, size_t cols, double *h)
{
    clrt_buffer *b;
    TU_OK(clrt_buffer_create(&b, tu_fx->ctx, dt, rows, cols));
    const size_t n = rows * cols;
    if (dt == CLRT_FLOAT32) {
        float *f = malloc(n * sizeof *f);
        assert_non_null(f);
        for (size_t i = 0; i < n; i++)
            h[i] = f[i] = (float)h[i];
        TU_OK(clrt_buffer_write(tu_fx->q, b, f, n));
        free(f);
        return b;
    }
    uint16_t *u = malloc(n * sizeof *u);
    assert_non_null(u);
    for (size_t i = 0; i < n; i++) {
        u[i] = dt == CLRT_FLOAT16 ? clrt__ref_f16_of(h[i]) : clrt__ref_bf16_of(h[i]);
        h[i] = rnd(dt, h[i]);
    }
    TU_OK(clrt_buffer_write(tu_fx->q, b, u, n));
    free(u);
    return b;
}

/* The n elements of b (float32, int32 or 16-bit) as doubles. */
static void down(const clrt_buffer *b, double *h, size_t n)
{
    const clrt_dtype dt = clrt_buffer_dtype(b);
    if (dt == CLRT_FLOAT32 || dt == CLRT_INT32) {
        float *f = malloc(n * sizeof *f);
        assert_non_null(f);
        TU_OK(clrt_buffer_read(tu_fx->q, b, f, n));
        for (size_t i = 0; i < n; i++)
            h[i] = dt == CLRT_INT32 ? (double)((int32_t *)(void *)f)[i] : f[i];
        free(f);
        return;
    }
    uint16_t *u = malloc(n * sizeof *u);
    assert_non_null(u);
    TU_OK(clrt_buffer_read(tu_fx->q, b, u, n));
    for (size_t i = 0; i < n; i++)
        h[i] = dt == CLRT_FLOAT16 ? clrt__ref_f16_value(u[i]) : clrt__ref_bf16_value(u[i]);
    free(u);
}

/* got[i] within err[i] (the float32 operation's bound) plus half an ulp of out
 * of the exact ref[i] */
static void expect(const char *what, clrt_dtype out, const double *got, const double *ref, const double *err,
                   size_t n)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        const double e = err[i] + unit(out) * (fabs(ref[i]) + err[i]) + tiny(out);
        if (!(fabs(got[i] - ref[i]) <= e) && !(isinf(ref[i]) && got[i] == ref[i]))
            if (bad++ == 0)
                first = i;
    }
    if (bad)
        fail_msg("%s: %zu of %zu wrong, first [%zu] %.9g, want %.9g", what, bad, n, first, got[first], ref[first]);
}

static double *randoms(size_t n, unsigned seed) { return tu_random_doubles(n, seed, CLRT_FLOAT64); }

/* c = alpha op(a) op(b) + beta c, a and b of dt, c of ct; in a view of a bigger
 * parent when view (the parent's other elements checked untouched) */
static void gemm_case(clrt_dtype dt, clrt_dtype ct, size_t M, size_t N, size_t K, int ta, int tb, int view)
{
    const double alpha = 1.5, beta = view ? 0.0 : -0.5;
    /* c alone (PR x PC = M x N), or a view at (1, 2) of a PR x PC parent */
    const size_t PR = view ? M + 2 : M, PC = view ? N + 3 : N, r0 = view ? 1 : 0, j0 = view ? 2 : 0, pn = PR * PC;
    double *a = randoms(M * K, 1), *b = randoms(K * N, 2), *c0 = randoms(pn, 3);
    clrt_buffer *A = up(dt, ta ? K : M, ta ? M : K, a), *B = up(dt, tb ? N : K, tb ? K : N, b);
    clrt_buffer *P = up(ct, PR, PC, c0), *C = P;
    if (view)
        TU_OK(clrt_buffer_view(&C, P, r0, j0, M, N));
    TU_OK(clrt_gemm(tu_fx->q, ta ? CLRT_TRANS : CLRT_NO_TRANS, tb ? CLRT_TRANS : CLRT_NO_TRANS, alpha, A, B, beta,
                    C));
    double *got = malloc(pn * sizeof *got), *ref = malloc(pn * sizeof *ref), *err = malloc(pn * sizeof *err);
    assert_true(got && ref && err);
    down(P, got, pn);
    for (size_t i = 0; i < PR; i++)
        for (size_t j = 0; j < PC; j++) {
            const size_t p = i * PC + j;
            ref[p] = c0[p];
            err[p] = 0;
            if (i < r0 || i >= r0 + M || j < j0 || j >= j0 + N)
                continue; /* outside c: untouched */
            double s = 0, mag = 0;
            for (size_t k = 0; k < K; k++) {
                const double x = ta ? a[k * M + (i - r0)] : a[(i - r0) * K + k];
                const double y = tb ? b[(j - j0) * K + k] : b[k * N + (j - j0)];
                s += x * y;
                mag += fabs(x * y);
            }
            ref[p] = alpha * s + beta * c0[p];
            err[p] = 1.01 * (double)(K + 2) * ldexp(1.0, -24) * (fabs(alpha) * mag + fabs(beta * c0[p]));
        }
    char what[96];
    snprintf(what, sizeof what, "gemm %s->%s %zux%zux%zu ta %d tb %d view %d", dt == CLRT_FLOAT16 ? "f16" : "bf16",
             ct == CLRT_FLOAT32 ? "f32" : "same", M, N, K, ta, tb, view);
    expect(what, ct, got, ref, err, pn);
    if (view)
        clrt_buffer_destroy(C);
    TU_DESTROY_BUFFERS(A, B, P);
    TU_FREE_ALL(a, b, c0, got, ref, err);
}

static void gemm_half(void **state)
{
    (void)state;
    const size_t K = tu_small() ? 300 : 4096;
    for (int i = 0; i < 2; i++)
        for (int f32 = 0; f32 < 2; f32++) {
            const clrt_dtype ct = f32 ? CLRT_FLOAT32 : halves[i];
            gemm_case(halves[i], ct, 37, 29, K, 0, 0, 0);
            gemm_case(halves[i], ct, 5, 7, 3, 0, 0, 0);
            gemm_case(halves[i], ct, 13, 11, 33, 1, 1, 0);
            gemm_case(halves[i], ct, 9, 6, 17, 0, 1, 1);
        }
}

/* gemm_ex: c = relu(a b + bias), every operand 16-bit */
static void gemm_ex_half(void **state)
{
    (void)state;
    const size_t M = 19, N = 23, K = 41;
    for (int i = 0; i < 2; i++) {
        const clrt_dtype dt = halves[i];
        double *a = randoms(M * K, 4), *b = randoms(K * N, 5), *bias = randoms(N, 6), *c = randoms(M * N, 7);
        clrt_buffer *A = up(dt, M, K, a), *B = up(dt, K, N, b), *BI = up(dt, 1, N, bias), *C = up(dt, M, N, c);
        const clrt_epilogue ep = {BI, CLRT_ACT_RELU};
        TU_OK(clrt_gemm_ex(tu_fx->q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.0, A, B, 0.0, C, &ep));
        double *got = malloc(M * N * sizeof *got), *ref = malloc(M * N * sizeof *ref), *err = malloc(M * N * 8);
        assert_true(got && ref && err);
        down(C, got, M * N);
        for (size_t r = 0; r < M; r++)
            for (size_t j = 0; j < N; j++) {
                double s = bias[j], mag = fabs(bias[j]);
                for (size_t k = 0; k < K; k++) {
                    s += a[r * K + k] * b[k * N + j];
                    mag += fabs(a[r * K + k] * b[k * N + j]);
                }
                ref[r * N + j] = s > 0 ? s : 0;
                err[r * N + j] = 1.01 * (double)(K + 2) * ldexp(1.0, -24) * mag;
            }
        expect("gemm_ex bias relu", dt, got, ref, err, M * N);
        TU_DESTROY_BUFFERS(A, B, BI, C);
        TU_FREE_ALL(a, b, bias, c, got, ref, err);
    }
}

/* strided batched, 3 products of a and b of dt into c of dt, c's windows 2 rows
 * apart beyond m (the rows between stay as they were); then clrt_gemm_batched
 * over arrays of views of the same matrices */
static void batched_half(void **state)
{
    (void)state;
    const size_t m = 7, n = 9, k = 13, cnt = 3, sc = m + 2, cr = sc * cnt;
    for (int i = 0; i < 2; i++) {
        const clrt_dtype dt = halves[i];
        double *a = randoms(cnt * m * k, 20), *b = randoms(cnt * k * n, 21), *c0 = randoms(cr * n, 22);
        double *got = malloc(cr * n * 8), *ref = malloc(cr * n * 8), *err = calloc(cr * n, 8);
        assert_true(got && ref && err);
        clrt_buffer *A = up(dt, cnt * m, k, a), *B = up(dt, cnt * k, n, b), *C = up(dt, cr, n, c0);
        for (int arrays = 0; arrays < 2; arrays++) {
            const double beta = arrays ? 0.0 : 0.25;
            if (!arrays) {
                TU_OK(clrt_gemm_strided_batched(tu_fx->q, CLRT_NO_TRANS, CLRT_NO_TRANS, m, n, k, 1.0, A, m, B, k,
                                                beta, C, sc, cnt));
            } else {
                clrt_buffer *va[3], *vb[3], *vc[3];
                for (size_t j = 0; j < cnt; j++) {
                    TU_OK(clrt_buffer_view(&va[j], A, j * m, 0, m, k));
                    TU_OK(clrt_buffer_view(&vb[j], B, j * k, 0, k, n));
                    TU_OK(clrt_buffer_view(&vc[j], C, j * sc, 0, m, n));
                }
                TU_OK(clrt_gemm_batched(tu_fx->q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.0, (const clrt_buffer *const *)va,
                                        (const clrt_buffer *const *)vb, beta, vc, cnt));
                for (size_t j = 0; j < cnt; j++)
                    TU_DESTROY_BUFFERS(va[j], vb[j], vc[j]);
            }
            for (size_t r = 0; r < cr; r++)
                for (size_t j = 0; j < n; j++) {
                    const size_t p = r * n + j, mat = r / sc, row = r % sc;
                    err[p] = 0;
                    if (row >= m) { /* between c's windows: as written */
                        ref[p] = c0[p];
                        continue;
                    }
                    double s = 0, mag = 0;
                    for (size_t q = 0; q < k; q++) {
                        const double x = a[(mat * m + row) * k + q], y = b[(mat * k + q) * n + j];
                        s += x * y;
                        mag += fabs(x * y);
                    }
                    ref[p] = s + beta * c0[p];
                    err[p] = 1.01 * (double)(k + 2) * ldexp(1.0, -24) * (mag + fabs(beta * c0[p]));
                }
            down(C, got, cr * n);
            expect(arrays ? "gemm_batched" : "gemm_strided_batched", dt, got, ref, err, cr * n);
            memcpy(c0, got, cr * n * sizeof *c0); /* the next pass starts from this c */
        }
        TU_DESTROY_BUFFERS(A, B, C);
        TU_FREE_ALL(a, b, c0, got, ref, err);
    }
}

/* strided batched whose c windows are all of c: one launch over the stacks
 * widened whole. a a view (rows 1.. and columns 2.. of a parent), b one matrix
 * for the whole batch (stride 0) read transposed, beta 0.5; a 16-bit and a
 * float32 c */
static void batched_half_whole(void **state)
{
    (void)state;
    const size_t m = 5, n = 11, k = 300, cnt = 4, pr = cnt * m + 1, pc = k + 2;
    for (int i = 0; i < 4; i++) {
        const clrt_dtype dt = halves[i / 2], ct = i % 2 ? CLRT_FLOAT32 : dt;
        double *pa = randoms(pr * pc, 30), *b = randoms(n * k, 31), *c0 = randoms(cnt * m * n, 32);
        double *got = malloc(cnt * m * n * 8), *ref = malloc(cnt * m * n * 8), *err = malloc(cnt * m * n * 8);
        assert_true(got && ref && err);
        clrt_buffer *P = up(dt, pr, pc, pa), *B = up(dt, n, k, b), *C = up(ct, cnt * m, n, c0), *A;
        TU_OK(clrt_buffer_view(&A, P, 1, 2, cnt * m, k));
        TU_OK(clrt_gemm_strided_batched(tu_fx->q, CLRT_NO_TRANS, CLRT_TRANS, m, n, k, 1.0, A, m, B, 0, 0.5, C, m,
                                        cnt));
        for (size_t r = 0; r < cnt * m; r++)
            for (size_t j = 0; j < n; j++) {
                double sum = 0, mag = 0;
                for (size_t q = 0; q < k; q++) {
                    const double x = pa[(r + 1) * pc + 2 + q], y = b[j * k + q];
                    sum += x * y;
                    mag += fabs(x * y);
                }
                ref[r * n + j] = sum + 0.5 * c0[r * n + j];
                err[r * n + j] = 1.01 * (double)(k + 2) * ldexp(1.0, -24) * (mag + fabs(0.5 * c0[r * n + j]));
            }
        down(C, got, cnt * m * n);
        expect("gemm_strided_batched, c whole", ct, got, ref, err, cnt * m * n);
        TU_DESTROY_BUFFERS(A, P, B, C);
        TU_FREE_ALL(pa, b, c0, got, ref, err);
    }
}

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* c = op(a[, b]) for add, mul (b a broadcast row), relu, sigmoid, axpby; a
 * 16-bit or a float32 c */
static void elementwise_half(void **state)
{
    (void)state;
    const size_t R = 17, C = 31, n = R * C;
    for (int i = 0; i < 2; i++)
        for (int f32 = 0; f32 < 2; f32++) {
            const clrt_dtype dt = halves[i], ct = f32 ? CLRT_FLOAT32 : dt;
            double *a = randoms(n, 8), *b = randoms(n, 9), *row = randoms(C, 10), *y = randoms(n, 11);
            double *got = malloc(n * 8), *ref = malloc(n * 8), *err = calloc(n, 8);
            assert_true(got && ref && err);
            clrt_buffer *A = up(dt, R, C, a), *B = up(dt, R, C, b), *W = up(dt, 1, C, row), *O;
            TU_OK(clrt_buffer_create(&O, tu_fx->ctx, ct, R, C));
            for (int op = 0; op < 4; op++) {
                if (op == 0)
                    TU_OK(clrt_add(tu_fx->q, O, A, B));
                else if (op == 1)
                    TU_OK(clrt_binary(tu_fx->q, CLRT_OP_MUL, O, A, W));
                else
                    TU_OK(clrt_unary(tu_fx->q, op == 2 ? CLRT_OP_RELU : CLRT_OP_SIGMOID, O, A));
                for (size_t k = 0; k < n; k++) {
                    ref[k] = op == 0   ? a[k] + b[k]
                             : op == 1 ? a[k] * row[k % C]
                             : op == 2 ? (a[k] > 0 ? a[k] : 0)
                                       : sigmoid(a[k]);
                    err[k] = (op == 3 ? 4 : 1) * ldexp(1.0, -24) * fabs(ref[k]);
                }
                down(O, got, n);
                expect(op == 0 ? "add" : op == 1 ? "mul row" : op == 2 ? "relu" : "sigmoid", ct, got, ref, err, n);
            }
            if (!f32) { /* y = 2 x - 0.5 y, y 16-bit */
                clrt_buffer *Y = up(dt, R, C, y);
                TU_OK(clrt_axpby(tu_fx->q, 2.0, A, -0.5, Y));
                down(Y, got, n);
                for (size_t k = 0; k < n; k++) {
                    ref[k] = 2 * a[k] - 0.5 * y[k];
                    err[k] = 2 * ldexp(1.0, -24) * (2 * fabs(a[k]) + 0.5 * fabs(y[k]));
                }
                expect("axpby", dt, got, ref, err, n);
                clrt_buffer_destroy(Y);
            }
            TU_DESTROY_BUFFERS(A, B, W, O);
            TU_FREE_ALL(a, b, row, y, got, ref, err);
        }
}

/* ---- one pass over 16-bit storage: the same bits as through float32 */

/* The elementwise calls, as ew_call below runs them: binary ops with b as a
 * matrix, a row, a column or one value; unary ops; axpby; scale. */
enum { EW_BINARY, EW_UNARY, EW_AXPBY, EW_SCALE };
typedef struct ew_call {
    int kind, op;
    size_t b_rows, b_cols; /* binary: b's shape (c's, 1 x C, R x 1, 1 x 1) */
} ew_call;

/* c = the call on a (and b); axpby: c = 1.5 a - 0.75 c. */
static void ew_run(const ew_call *e, clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b)
{
    if (e->kind == EW_BINARY)
        TU_OK(clrt_binary(tu_fx->q, (clrt_binary_op)e->op, c, a, b));
    else if (e->kind == EW_UNARY)
        TU_OK(clrt_unary(tu_fx->q, (clrt_unary_op)e->op, c, a));
    else if (e->kind == EW_AXPBY)
        TU_OK(clrt_axpby(tu_fx->q, 1.5, a, -0.75, c));
    else
        TU_OK(clrt_scale(tu_fx->q, c, -3.0, a));
}

/* The margins of bits_case's parents: a view of rows x cols at (1, 2) in a
 * parent of (rows + 2) x (cols + 3) (rows run by rows, none on a vector's
 * alignment), or the whole parent (one contiguous run, the flat path, whose
 * vectors are aligned). */
typedef struct margins {
    size_t top, left, rows, cols; /* the view's place, and how much larger the parent is */
} margins;
static const margins in_view = {1, 2, 2, 3}, whole = {0, 0, 0, 0};

/* A parent of dt from h (rounded to dt), rows x cols plus m's margins, and the
 * rows x cols view in it: *view. */
static clrt_buffer *up_view(clrt_dtype dt, size_t rows, size_t cols, const margins *m, double *h,
                            clrt_buffer **view)
{
    clrt_buffer *parent = up(dt, rows + m->rows, cols + m->cols, h);
    TU_OK(clrt_buffer_view(view, parent, m->top, m->left, rows, cols));
    return parent;
}

/* A rows x cols buffer of dt written from the host (zeros) before a kernel
 * writes it: Oclgrind 21.10 gives a new buffer a released one's shadow size
 * until a host write sizes it anew, and reports what kernels write past it as
 * uninitialised (runtime/handles.h, clrt__zero_on_emulator). */
static clrt_buffer *host_zeroed(clrt_dtype dt, size_t rows, size_t cols)
{
    double *zeros = calloc(rows * cols, sizeof *zeros);
    assert_non_null(zeros);
    clrt_buffer *b = up(dt, rows, cols, zeros);
    free(zeros);
    return b;
}

/* A float32 copy of the 16-bit view v (clrt_convert). */
static clrt_buffer *widened(const clrt_buffer *v)
{
    clrt_buffer *w = host_zeroed(CLRT_FLOAT32, clrt_buffer_rows(v), clrt_buffer_cols(v));
    TU_OK(clrt_convert(tu_fx->q, w, v));
    return w;
}

/* The 16-bit words of x's n elements; NaNs as one word (the two paths may
 * give different NaNs: what matters is that both are NaN). */
static void words(const clrt_buffer *x, uint16_t *u, size_t n)
{
    TU_OK(clrt_buffer_read(tu_fx->q, x, u, n));
    const int f16 = clrt_buffer_dtype(x) == CLRT_FLOAT16;
    for (size_t i = 0; i < n; i++)
        if (isnan(f16 ? clrt__ref_f16_value(u[i]) : clrt__ref_bf16_value(u[i])))
            u[i] = 0x7fff;
}

/* Values that stress the one rounding: random ones, and at fixed places NaN,
 * infinities, zeros of both signs, subnormals, the largest finite values
 * (doubled, added or multiplied: overflow), ties of the 16-bit dtype. */
static double *stress_values(clrt_dtype dt, size_t n, unsigned seed)
{
    double *h = randoms(n, seed);
    const double big = dt == CLRT_FLOAT16 ? 65504.0 : 3.38e38, small = dt == CLRT_FLOAT16 ? 3e-7 : 2e-39;
    const double tie = 1 + (dt == CLRT_FLOAT16 ? ldexp(1.0, -11) : ldexp(1.0, -8));
    const double special[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, big, -big, small, -small, tie, 3 * tie, 0.5 * big};
    for (size_t i = 0; i < n; i++) {
        h[i] *= 4;
        if (i % 5 == 0)
            h[i] = special[(i / 5 + seed) % (sizeof special / sizeof *special)];
    }
    return h;
}

/* One call on views of dt (margins m): c16 = call(a16, b16) in one pass
 * against convert(call(convert(a16), convert(b16))) through float32, word for
 * word; c16's parent outside the view as it was. */
static void bits_case(clrt_dtype dt, const ew_call *e, size_t R, size_t C, const margins *m)
{
    const size_t PR = R + m->rows, PC = C + m->cols, pn = PR * PC;
    const size_t br = e->b_rows ? e->b_rows : R, bc = e->b_cols ? e->b_cols : C;
    double *ha = stress_values(dt, pn, 1), *hb = stress_values(dt, (br + m->rows) * (bc + m->cols), 2);
    double *hc = stress_values(dt, pn, 3);
    clrt_buffer *a, *b, *c;
    clrt_buffer *pa = up_view(dt, R, C, m, ha, &a), *pb = up_view(dt, br, bc, m, hb, &b);
    clrt_buffer *pc = up_view(dt, R, C, m, hc, &c);
    clrt_buffer *wa = widened(a), *wb = widened(b), *wc = widened(c);
    ew_run(e, c, a, b);
    ew_run(e, wc, wa, wb);
    clrt_buffer *ref = host_zeroed(dt, R, C);
    TU_OK(clrt_convert(tu_fx->q, ref, wc));
    uint16_t *got = malloc(pn * 2), *want = malloc(R * C * 2), *parent = malloc(pn * 2);
    assert_true(got && want && parent);
    clrt_buffer *dense = host_zeroed(dt, R, C);
    TU_OK(clrt_copy(tu_fx->q, dense, c));
    words(dense, got, R * C);
    words(ref, want, R * C);
    for (size_t i = 0; i < R * C; i++)
        if (got[i] != want[i])
            fail_msg("%s kind %d op %d, b %zux%zu: [%zu] 0x%04x, through float32 0x%04x", dt == CLRT_FLOAT16 ? "float16" : "bfloat16",
                     e->kind, e->op, br, bc, i, got[i], want[i]);
    words(pc, parent, pn);
    uint16_t *before = malloc(pn * 2);
    assert_non_null(before);
    clrt_buffer *fresh = up(dt, PR, PC, hc);
    words(fresh, before, pn);
    for (size_t r = 0; r < PR; r++)
        for (size_t j = 0; j < PC; j++)
            if ((r < m->top || r >= m->top + R || j < m->left || j >= m->left + C) &&
                parent[r * PC + j] != before[r * PC + j])
                fail_msg("element (%zu, %zu) outside the view written", r, j);
    TU_DESTROY_BUFFERS(a, b, c, pa, pb, pc, wa, wb, wc, ref, dense, fresh);
    TU_FREE_ALL(ha, hb, hc, got, want, parent, before);
}

/* Every elementwise op on operands all of one 16-bit dtype, on views (odd
 * sizes, rows off a vector's alignment, a vector tail) and on whole buffers
 * (one aligned run), b in each shape: the one-pass kernel against the float32
 * operation between conversions, word for word. */
static void elementwise_half_bits(void **state)
{
    (void)state;
    const size_t R = 7, C = 37;
    const size_t shapes[4][2] = {{0, 0}, {1, C}, {R, 1}, {1, 1}};
    const margins *ms[2] = {&in_view, &whole};
    for (int i = 0; i < 4; i++) {
        const clrt_dtype dt = halves[i / 2];
        const margins *m = ms[i % 2];
        for (int op = CLRT_OP_ADD; op <= CLRT_OP_MAX; op++)
            for (int s = 0; s < 4; s++) {
                const ew_call e = {EW_BINARY, op, shapes[s][0], shapes[s][1]};
                bits_case(dt, &e, R, C, m);
            }
        for (int op = CLRT_OP_NEG; op <= CLRT_OP_SIGMOID; op++) {
            const ew_call e = {EW_UNARY, op, 0, 0};
            bits_case(dt, &e, R, C, m);
        }
        const ew_call axpby = {EW_AXPBY, 0, 0, 0}, scale = {EW_SCALE, 0, 0, 0};
        bits_case(dt, &axpby, R, C, m);
        bits_case(dt, &scale, R, C, m);
    }
}

/* sum of each row and of everything, into 16-bit and float32 outputs; argmax */
static void reduce_half(void **state)
{
    (void)state;
    const size_t R = 23, C = tu_small() ? 70 : 1000;
    for (int i = 0; i < 2; i++)
        for (int f32 = 0; f32 < 2; f32++) {
            const clrt_dtype dt = halves[i], ct = f32 ? CLRT_FLOAT32 : dt;
            double *a = randoms(R * C, 12), got[23], ref[23], err[23];
            clrt_buffer *A = up(dt, R, C, a), *rows, *all, *arg;
            TU_OK(clrt_buffer_create(&rows, tu_fx->ctx, ct, R, 1));
            TU_OK(clrt_buffer_create(&all, tu_fx->ctx, ct, 1, 1));
            TU_OK(clrt_buffer_create(&arg, tu_fx->ctx, CLRT_INT32, R, 1));
            TU_OK(clrt_reduce(tu_fx->q, CLRT_REDUCE_SUM, CLRT_EACH_ROW, rows, A));
            TU_OK(clrt_reduce(tu_fx->q, CLRT_REDUCE_SUM, CLRT_ALL, all, A));
            TU_OK(clrt_argmax_rows(tu_fx->q, arg, A));
            double total = 0, tmag = 0;
            for (size_t r = 0; r < R; r++) {
                double s = 0, mag = 0;
                for (size_t k = 0; k < C; k++) {
                    s += a[r * C + k];
                    mag += fabs(a[r * C + k]);
                }
                ref[r] = s;
                err[r] = 1.01 * (double)C * ldexp(1.0, -24) * mag;
                total += s;
                tmag += mag;
            }
            down(rows, got, R);
            expect("sum of each row", ct, got, ref, err, R);
            down(all, got, 1);
            const double terr = 1.01 * (double)(R * C) * ldexp(1.0, -24) * tmag;
            expect("sum of all", ct, got, &total, &terr, 1);
            down(arg, got, R);
            for (size_t r = 0; r < R; r++) {
                size_t best = 0;
                for (size_t k = 1; k < C; k++)
                    if (a[r * C + k] > a[r * C + best])
                        best = k;
                /* ties (equal 16-bit values): any of them */
                assert_true(got[r] >= 0 && got[r] < (double)C);
                assert_true(a[r * C + (size_t)got[r]] == a[r * C + best]);
            }
            TU_DESTROY_BUFFERS(A, rows, all, arg);
            free(a);
        }
}

/* fill rounds its value once, in double: 70000 overflows float16, 1/3 in
 * bfloat16 is its nearest; transpose moves the 16-bit values exactly */
static void fill_transpose_half(void **state)
{
    (void)state;
    double got[35];
    clrt_buffer *h, *bf, *t;
    TU_OK(clrt_buffer_create(&h, tu_fx->ctx, CLRT_FLOAT16, 5, 7));
    TU_OK(clrt_buffer_create(&bf, tu_fx->ctx, CLRT_BFLOAT16, 5, 7));
    TU_OK(clrt_fill(tu_fx->q, h, 70000.0));
    down(h, got, 35);
    for (int i = 0; i < 35; i++)
        assert_true(isinf(got[i]) && got[i] > 0);
    TU_OK(clrt_fill(tu_fx->q, h, 65519.0)); /* below the overflow tie: the largest finite */
    down(h, got, 35);
    assert_true(got[34] == 65504.0);
    TU_OK(clrt_fill(tu_fx->q, bf, 1.0 / 3.0));
    uint16_t u[35];
    TU_OK(clrt_buffer_read(tu_fx->q, bf, u, 35));
    for (int i = 0; i < 35; i++)
        assert_int_equal(u[i], clrt__ref_bf16_of(1.0 / 3.0));
    /* just past a tie: rounded through float32 first, these would land on the tie
     * and round to even (down); once, they round up */
    const double past_bf = 1 + ldexp(1.0, -8) + ldexp(1.0, -30), past_h = 1 + ldexp(1.0, -11) + ldexp(1.0, -40);
    TU_OK(clrt_fill(tu_fx->q, bf, past_bf));
    TU_OK(clrt_buffer_read(tu_fx->q, bf, u, 35));
    assert_int_equal(u[20], clrt__ref_bf16_of(past_bf));
    assert_true(clrt__ref_bf16_value(u[20]) == 1 + ldexp(1.0, -7));
    TU_OK(clrt_fill(tu_fx->q, h, past_h));
    down(h, got, 35);
    assert_true(got[20] == 1 + ldexp(1.0, -10));
    for (int i = 0; i < 2; i++) {
        double a[35];
        for (int k = 0; k < 35; k++)
            a[k] = (k - 17) * 0.37;
        clrt_buffer *A = up(halves[i], 5, 7, a);
        TU_OK(clrt_buffer_create(&t, tu_fx->ctx, halves[i], 7, 5));
        TU_OK(clrt_transpose(tu_fx->q, t, A));
        down(t, got, 35);
        for (int r = 0; r < 7; r++)
            for (int c = 0; c < 5; c++)
                assert_true(got[r * 5 + c] == a[c * 7 + r]);
        TU_DESTROY_BUFFERS(A, t);
    }
    TU_DESTROY_BUFFERS(h, bf);
}

/* a and b of two 16-bit dtypes, or c neither theirs nor float32: CLRT_ESHAPE,
 * with nothing written */
static void refusals(void **state)
{
    (void)state;
    double v[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, w[12], got[12];
    memcpy(w, v, sizeof v);
    clrt_buffer *h = up(CLRT_FLOAT16, 3, 4, v), *bf = up(CLRT_BFLOAT16, 4, 3, w), *h43 = up(CLRT_FLOAT16, 4, 3, w);
    clrt_buffer *c = up(CLRT_FLOAT16, 3, 3, v), *c32 = up(CLRT_FLOAT32, 3, 3, w), *f32 = up(CLRT_FLOAT32, 3, 4, w);
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_gemm(tu_fx->q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, h, bf, 0, c));
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_gemm(tu_fx->q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, h, bf, 0, c32));
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ",
               clrt_gemm_strided_batched(tu_fx->q, CLRT_NO_TRANS, CLRT_NO_TRANS, 3, 3, 4, 1, h, 3, bf, 4, 0, c, 3, 1));
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_add(tu_fx->q, h, h, f32));
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_add(tu_fx->q, h, f32, f32));
    if (tu_fx->dev.has_fp64) {
        clrt_buffer *c64;
        TU_OK(clrt_buffer_create(&c64, tu_fx->ctx, CLRT_FLOAT64, 3, 3));
        TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_gemm(tu_fx->q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, h, h43, 0, c64));
        clrt_buffer_destroy(c64);
    }
    down(c, got, 9);
    for (int i = 0; i < 9; i++)
        assert_true(got[i] == v[i]);
    down(h, got, 12);
    for (int i = 0; i < 12; i++)
        assert_true(got[i] == v[i]);
    down(c32, got, 9);
    for (int i = 0; i < 9; i++)
        assert_true(got[i] == w[i]);
    TU_DESTROY_BUFFERS(h, bf, h43, c, c32, f32);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_FIXTURE_TEST(gemm_half),        TU_FIXTURE_TEST(gemm_ex_half),        TU_FIXTURE_TEST(batched_half),
        TU_FIXTURE_TEST(batched_half_whole),        TU_FIXTURE_TEST(elementwise_half),
        TU_FIXTURE_TEST(elementwise_half_bits),
        TU_FIXTURE_TEST(reduce_half),      TU_FIXTURE_TEST(fill_transpose_half), TU_FIXTURE_TEST(refusals),
    };
    return TU_RUN_FIXTURE_SUITE(tests);
}
