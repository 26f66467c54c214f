/* The elementwise family (clrt_binary, clrt_unary, clrt_axpby, clrt_scale,
 * clrt_fill, clrt_copy, and clrt_add through it) against a double-precision
 * host reference with each op's error bound, at odd and non-square shapes,
 * with every broadcast form of b, on plain buffers (a canary after them), on
 * views at odd offsets (the parent outside the window must not change) and on
 * contiguous views at odd offsets (the flat path, unaligned), in place, with
 * special values, in several kernel variants forced through the tuning API;
 * int32 fill and copy; and every documented refusal, with nothing leaked and
 * nothing enqueued. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fault_sweep.h"
#include "common/test_util.h"

#include "base/debug.h"
#include "runtime/handles.h"

enum { CANARY = 37 };

/* v as the dtype holds it */
static double rounded(clrt_dtype dt, double v) { return dt == CLRT_FLOAT32 ? (double)(float)v : v; }

/* The unit roundoff of the dtype. */
static double unit(clrt_dtype dt) { return dt == CLRT_FLOAT64 ? DBL_EPSILON / 2 : FLT_EPSILON / 2; }

/* ---- operands: how a rows x cols operand lies on the device */

enum kind {
    PLAIN, /* its own buffer, CANARY elements after it */
    VIEW,  /* a window at (2, 3) of a parent 5 rows and 7 columns larger: the row path */
    ROWS,  /* rows 1.. of a parent as wide as it, 3 rows more: contiguous at an odd offset, the flat path */
    NKINDS
};
static const char *const kind_name[] = {"plain", "view", "rows view"};

typedef struct operand {
    clrt_buffer *buf, *parent;
    clrt_dtype dt;
    enum kind kind;
    size_t rows, cols, prows, pcols, r0, c0;
    double outside; /* the parent's elements outside the window */
} operand;

static void operand_make(operand *o, clrt_context *ctx, clrt_queue *q, clrt_dtype dt, size_t rows, size_t cols,
                         const void *host, enum kind kind, double outside)
{
    memset(o, 0, sizeof *o);
    o->dt = dt;
    o->kind = kind;
    o->rows = rows;
    o->cols = cols;
    o->outside = rounded(dt, outside);
    if (kind == PLAIN) {
        o->buf = tu_padded_buffer(ctx, q, dt, rows, cols, CANARY);
    } else {
        o->prows = rows + (kind == VIEW ? 5 : 3);
        o->pcols = cols + (kind == VIEW ? 7 : 0);
        o->r0 = kind == VIEW ? 2 : 1;
        o->c0 = kind == VIEW ? 3 : 0;
        const size_t n = o->prows * o->pcols;
        unsigned char *fill = malloc(n * tu_dtype_size(dt));
        assert_non_null(fill);
        for (size_t i = 0; i < n; i++)
            tu_put(fill, dt, i, outside);
        TU_OK(clrt_buffer_create(&o->parent, ctx, dt, o->prows, o->pcols));
        TU_OK(clrt_buffer_write(q, o->parent, fill, n));
        free(fill);
        TU_OK(clrt_buffer_view(&o->buf, o->parent, o->r0, o->c0, rows, cols));
    }
    if (host)
        TU_OK(clrt_buffer_write(q, o->buf, host, rows * cols));
}

/* Nothing outside the operand's window changed: the canary after a plain
 * buffer, the parent's other elements for a view. */
static void operand_check_outside(const operand *o, clrt_queue *q, const char *what)
{
    if (o->kind == PLAIN) {
        if (!tu_canary_intact(q, o->buf, CANARY))
            fail_msg("%s: written past the end of its %zux%zu buffer", what, o->rows, o->cols);
        return;
    }
    const size_t n = o->prows * o->pcols;
    unsigned char *all = malloc(n * tu_dtype_size(o->dt));
    assert_non_null(all);
    TU_OK(clrt_buffer_read(q, o->parent, all, n));
    for (size_t r = 0; r < o->prows; r++)
        for (size_t c = 0; c < o->pcols; c++) {
            const int inside = r >= o->r0 && r < o->r0 + o->rows && c >= o->c0 && c < o->c0 + o->cols;
            const double v = tu_get(all, o->dt, r * o->pcols + c);
            if (!inside && !(v == o->outside || (isnan(v) && isnan(o->outside))))
                fail_msg("%s (%s): the parent's element (%zu, %zu) outside the %zux%zu window at (%zu, %zu) "
                         "changed to %g",
                         what, kind_name[o->kind], r, c, o->rows, o->cols, o->r0, o->c0, v);
        }
    free(all);
}

/* The operand's window reads back as want (an input that must not change). */
static void operand_check_same(const operand *o, clrt_queue *q, const void *want, const char *what)
{
    const size_t n = o->rows * o->cols, es = tu_dtype_size(o->dt);
    unsigned char *got = malloc(n * es);
    assert_non_null(got);
    TU_OK(clrt_buffer_read(q, o->buf, got, n));
    if (memcmp(got, want, n * es) != 0)
        fail_msg("%s (%s %zux%zu), an input, changed", what, kind_name[o->kind], o->rows, o->cols);
    free(got);
}

static void operand_free(operand *o)
{
    clrt_buffer_destroy(o->buf);
    clrt_buffer_destroy(o->parent);
    memset(o, 0, sizeof *o);
}

/* got within bound of want (want already rounded to the dtype): NaN for NaN,
 * an infinity exactly, else |got - want| <= bound, plus the smallest normal
 * number (a driver may flush subnormal results to zero). */
static int close_to(clrt_dtype dt, double got, double want, double bound)
{
    if (isnan(want))
        return isnan(got);
    if (isinf(want) || got == want)
        return got == want;
    const double tiny = dt == CLRT_FLOAT64 ? DBL_MIN : FLT_MIN;
    return fabs(got - want) <= bound + tiny;
}

/* ---- the ops, their host references and error bounds */

/* Bounds in units of rounding of the result (2 u |want|, u the unit roundoff),
 * from OpenCL C's accuracy requirements: basic arithmetic correctly rounded
 * (0.5), fp32 division 2.5 ulp, fp32 sqrt 3 ulp, exp and log 3 ulp, tanh 5
 * ulp; sigmoid = 1 / (1 + e^-x) adds the exp's, the sum's and the division's;
 * for fp64 transcendental results one more for the host's own libm. The
 * reference is rounded to the dtype too (half a unit more). */
typedef struct op_info {
    const char *name;
    int op;
    double ulp32, ulp64;
} op_info;

static const op_info binary_ops[] = {
    {"add", CLRT_OP_ADD, 0.5, 0.5}, {"sub", CLRT_OP_SUB, 0.5, 0.5}, {"mul", CLRT_OP_MUL, 0.5, 0.5},
    {"div", CLRT_OP_DIV, 2.5, 0.5}, {"min", CLRT_OP_MIN, 0, 0},     {"max", CLRT_OP_MAX, 0, 0},
};
static const op_info unary_ops[] = {
    {"neg", CLRT_OP_NEG, 0, 0},         {"abs", CLRT_OP_ABS, 0, 0},   {"exp", CLRT_OP_EXP, 3, 4},
    {"log", CLRT_OP_LOG, 3, 4},         {"sqrt", CLRT_OP_SQRT, 3, 0.5}, {"relu", CLRT_OP_RELU, 0, 0},
    {"tanh", CLRT_OP_TANH, 5, 6},       {"sigmoid", CLRT_OP_SIGMOID, 7, 8},
};
enum { NBINARY = sizeof binary_ops / sizeof *binary_ops, NUNARY = sizeof unary_ops / sizeof *unary_ops };

static double bound_of(const op_info *o, clrt_dtype dt, double want)
{
    const double ulps = (dt == CLRT_FLOAT64 ? o->ulp64 : o->ulp32) + 0.5;
    return 2.0 * ulps * unit(dt) * fabs(want);
}

static double ref_binary(int op, double x, double y)
{
    switch (op) {
    case CLRT_OP_ADD:
        return x + y;
    case CLRT_OP_SUB:
        return x - y;
    case CLRT_OP_MUL:
        return x * y;
    case CLRT_OP_DIV:
        return x / y;
    case CLRT_OP_MIN:
        return isnan(x) || isnan(y) ? NAN : x < y ? x : y;
    default:
        return isnan(x) || isnan(y) ? NAN : x > y ? x : y;
    }
}

static double ref_unary(int op, double x)
{
    switch (op) {
    case CLRT_OP_NEG:
        return -x;
    case CLRT_OP_ABS:
        return fabs(x);
    case CLRT_OP_EXP:
        return exp(x);
    case CLRT_OP_LOG:
        return log(x);
    case CLRT_OP_SQRT:
        return sqrt(x);
    case CLRT_OP_RELU:
        return isnan(x) ? x : x > 0 ? x : 0;
    case CLRT_OP_TANH:
        return tanh(x);
    default:
        return 1.0 / (1.0 + exp(-x));
    }
}

/* Inputs where each unary op is interesting: exp over [-10, 10], log and sqrt
 * over positive values, tanh and sigmoid across their bends. */
static double unary_input(int op, double v)
{
    switch (op) {
    case CLRT_OP_EXP:
        return 10 * v;
    case CLRT_OP_LOG:
    case CLRT_OP_SQRT:
        return 4 * fabs(v) + 1e-3;
    case CLRT_OP_TANH:
        return 5 * v;
    case CLRT_OP_SIGMOID:
        return 12 * v;
    default:
        return v;
    }
}

/* ---- binary: every op, broadcast form, operand kind and in-place choice */

enum form { SAME, ROW, COL, ONE, NFORMS };
static const char *const form_name[] = {"same shape", "1 x cols", "rows x 1", "1 x 1"};

enum place { SEPARATE, C_IS_A, C_IS_B };
static const char *const place_name[] = {"", ", c == a", ", c == b"};

static void b_shape(enum form f, size_t rows, size_t cols, size_t *br, size_t *bc)
{
    *br = f == SAME || f == COL ? rows : 1;
    *bc = f == SAME || f == ROW ? cols : 1;
}

static double b_at(const void *b, clrt_dtype dt, enum form f, size_t cols, size_t i, size_t j)
{
    switch (f) {
    case SAME:
        return tu_get(b, dt, i * cols + j);
    case ROW:
        return tu_get(b, dt, j);
    case COL:
        return tu_get(b, dt, i);
    default:
        return tu_get(b, dt, 0);
    }
}

/* c = a op b, checked; the kinds of c, a, b and the in-place choice as given.
 * via_add: run as clrt_add (same shape only). */
static void check_binary(clrt_context *ctx, clrt_queue *q, clrt_dtype dt, const op_info *o, size_t rows,
                         size_t cols, enum form f, enum kind kc, enum kind ka, enum kind kb, enum place place,
                         int via_add)
{
    const size_t n = rows * cols, es = tu_dtype_size(dt);
    size_t br, bc;
    b_shape(f, rows, cols, &br, &bc);
    unsigned char *a = malloc(n * es), *b = malloc(br * bc * es), *c = malloc(n * es);
    assert_true(a && b && c);
    clrt__ref_fill(a, dt, n, (unsigned)(rows * 31 + cols + (size_t)o->op));
    clrt__ref_fill(b, dt, br * bc, (unsigned)(rows * 17 + cols + 5 + (size_t)f));
    operand oa, ob, oc;
    operand_make(&oa, ctx, q, dt, rows, cols, a, ka, -7.0);
    operand_make(&ob, ctx, q, dt, br, bc, b, kb, -8.0);
    const operand *out = &oc;
    if (place == C_IS_A)
        out = &oa;
    else if (place == C_IS_B)
        out = &ob;
    else
        operand_make(&oc, ctx, q, dt, rows, cols, NULL, kc, -9.0);
    if (via_add)
        TU_OK(clrt_add(q, out->buf, oa.buf, ob.buf));
    else
        TU_OK(clrt_binary(q, (clrt_binary_op)o->op, out->buf, oa.buf, ob.buf));
    TU_OK(clrt_buffer_read(q, out->buf, c, n));
    size_t bad = 0;
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++) {
            const double want = rounded(dt, ref_binary(o->op, tu_get(a, dt, i * cols + j), b_at(b, dt, f, cols, i, j)));
            const double got = tu_get(c, dt, i * cols + j);
            if (!close_to(dt, got, want, bound_of(o, dt, want)) && bad++ < 3)
                print_message("c[%zu][%zu] = %.17g, want %.17g\n", i, j, got, want);
        }
    if (bad)
        fail_msg("%s %s %zux%zu, b %s, c %s a %s b %s%s: %zu of %zu wrong", via_add ? "clrt_add" : o->name,
                 tu_dtype_name(dt), rows, cols, form_name[f], kind_name[kc], kind_name[ka],
                 kind_name[kb], place_name[place], bad, n);
    operand_check_outside(&oa, q, "a");
    operand_check_outside(&ob, q, "b");
    if (place != C_IS_A)
        operand_check_same(&oa, q, a, "a");
    if (place != C_IS_B)
        operand_check_same(&ob, q, b, "b");
    if (place == SEPARATE) {
        operand_check_outside(&oc, q, "c");
        operand_free(&oc);
    }
    operand_free(&oa);
    operand_free(&ob);
    free(a);
    free(b);
    free(c);
}

/* The shapes: odd, non-square, one row, one column; small under Oclgrind. */
static const size_t shapes_full[][2] = {{1, 1}, {1, 1031}, {7, 17}, {17, 7}, {65, 127}, {127, 65}, {1031, 7}, {3, 1031}};
static const size_t shapes_small[][2] = {{1, 1}, {1, 67}, {7, 17}, {17, 7}, {5, 1}};

static const size_t (*shapes(size_t *count))[2]
{
    *count = tu_small() ? sizeof shapes_small / sizeof *shapes_small : sizeof shapes_full / sizeof *shapes_full;
    return tu_small() ? shapes_small : shapes_full;
}

static void run_binary(clrt_dtype dt)
{
    size_t ns;
    const size_t(*s)[2] = shapes(&ns);
    for (size_t o = 0; o < NBINARY; o++)
        for (int f = 0; f < NFORMS; f++)
            for (size_t i = 0; i < ns; i++) {
                /* every kind for every operand, in turn; in place where the shapes allow */
                const size_t k = o + (size_t)f + i;
                enum place place = (enum place)(k % 3);
                if (place == C_IS_B && f != SAME)
                    place = SEPARATE;
                check_binary(tu_fx->ctx, tu_fx->q, dt, &binary_ops[o], s[i][0], s[i][1], (enum form)f,
                             (enum kind)(k % NKINDS), (enum kind)((k + 1) % NKINDS), (enum kind)((k + 2) % NKINDS),
                             place, 0);
            }
}

static void binary_f32(void **state)
{
    (void)state;
    run_binary(CLRT_FLOAT32);
}

static void binary_f64(void **state)
{
    (void)state;
    if (!tu_fx->dev.has_fp64) {
        print_message("device has no fp64: CLRT_FLOAT64 is refused (tested in device_api)\n");
        skip();
    }
    run_binary(CLRT_FLOAT64);
}

/* clrt_add is the binary add: now on views too, in place, exactly. */
static void add_takes_views(void **state)
{
    (void)state;
    size_t ns;
    const size_t(*s)[2] = shapes(&ns);
    for (size_t i = 0; i < ns; i++)
        for (int k = 0; k < NKINDS; k++)
            for (int place = 0; place < 3; place++)
                check_binary(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, &binary_ops[0], s[i][0], s[i][1], SAME, (enum kind)k,
                             (enum kind)((k + 1) % NKINDS), (enum kind)((k + 2) % NKINDS), (enum place)place, 1);
}

/* ---- unary */

static void check_unary(clrt_context *ctx, clrt_queue *q, clrt_dtype dt, const op_info *o, size_t rows,
                        size_t cols, enum kind kc, enum kind ka, int in_place)
{
    const size_t n = rows * cols, es = tu_dtype_size(dt);
    unsigned char *a = malloc(n * es), *c = malloc(n * es);
    assert_true(a && c);
    clrt__ref_fill(a, dt, n, (unsigned)(rows * 13 + cols + (size_t)o->op));
    for (size_t i = 0; i < n; i++)
        tu_put(a, dt, i, unary_input(o->op, tu_get(a, dt, i)));
    operand oa, oc;
    operand_make(&oa, ctx, q, dt, rows, cols, a, ka, -7.0);
    if (!in_place)
        operand_make(&oc, ctx, q, dt, rows, cols, NULL, kc, -9.0);
    const operand *out = in_place ? &oa : &oc;
    TU_OK(clrt_unary(q, (clrt_unary_op)o->op, out->buf, oa.buf));
    TU_OK(clrt_buffer_read(q, out->buf, c, n));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        const double want = rounded(dt, ref_unary(o->op, tu_get(a, dt, i)));
        const double got = tu_get(c, dt, i);
        if (!close_to(dt, got, want, bound_of(o, dt, want)) && bad++ < 3)
            print_message("%s(%.17g) = %.17g, want %.17g\n", o->name, tu_get(a, dt, i), got, want);
    }
    if (bad)
        fail_msg("%s %s %zux%zu, c %s a %s%s: %zu of %zu wrong", o->name, tu_dtype_name(dt), rows,
                 cols, kind_name[kc], kind_name[ka], in_place ? ", c == a" : "", bad, n);
    operand_check_outside(&oa, q, "a");
    if (!in_place) {
        operand_check_same(&oa, q, a, "a");
        operand_check_outside(&oc, q, "c");
        operand_free(&oc);
    }
    operand_free(&oa);
    free(a);
    free(c);
}

static void run_unary(clrt_dtype dt)
{
    size_t ns;
    const size_t(*s)[2] = shapes(&ns);
    for (size_t o = 0; o < NUNARY; o++)
        for (size_t i = 0; i < ns; i++) {
            const size_t k = o + i;
            check_unary(tu_fx->ctx, tu_fx->q, dt, &unary_ops[o], s[i][0], s[i][1], (enum kind)(k % NKINDS),
                        (enum kind)((k + 1) % NKINDS), (int)(k % 2));
        }
}

static void unary_f32(void **state)
{
    (void)state;
    run_unary(CLRT_FLOAT32);
}

static void unary_f64(void **state)
{
    (void)state;
    if (!tu_fx->dev.has_fp64)
        skip();
    run_unary(CLRT_FLOAT64);
}

/* ---- special values: NaN, infinities, signed zeros, overflow */

static void special_values_of(clrt_dtype dt)
{
    static const double xs[] = {NAN, -INFINITY, INFINITY, -0.0, 0.0, -1.0, 1.0, 100.0, -100.0, 1000.0, -1000.0, 2.0};
    static const double ys[] = {1.0, NAN, 0.0, 0.0, -0.0, -INFINITY, INFINITY, NAN, 3.0, -3.0, 0.0, 2.0};
    enum { N = sizeof xs / sizeof *xs };
    unsigned char a[N * 8], b[N * 8], c[N * 8];
    for (size_t i = 0; i < N; i++) {
        tu_put(a, dt, i, xs[i]);
        tu_put(b, dt, i, ys[i]);
    }
    clrt_buffer *da = tu_buffer(dt, 1, N), *db = tu_buffer(dt, 1, N), *dc = tu_buffer(dt, 1, N);
    TU_OK(clrt_buffer_write(tu_fx->q, da, a, N));
    TU_OK(clrt_buffer_write(tu_fx->q, db, b, N));
    for (size_t o = 0; o < NBINARY; o++) {
        TU_OK(clrt_binary(tu_fx->q, (clrt_binary_op)binary_ops[o].op, dc, da, db));
        TU_OK(clrt_buffer_read(tu_fx->q, dc, c, N));
        for (size_t i = 0; i < N; i++) {
            const double want = rounded(dt, ref_binary(binary_ops[o].op, tu_get(a, dt, i), tu_get(b, dt, i)));
            if (!close_to(dt, tu_get(c, dt, i), want, bound_of(&binary_ops[o], dt, want)))
                fail_msg("%s(%g, %g) = %g, want %g", binary_ops[o].name, tu_get(a, dt, i), tu_get(b, dt, i),
                         tu_get(c, dt, i), want);
        }
    }
    for (size_t o = 0; o < NUNARY; o++) {
        TU_OK(clrt_unary(tu_fx->q, (clrt_unary_op)unary_ops[o].op, dc, da));
        TU_OK(clrt_buffer_read(tu_fx->q, dc, c, N));
        for (size_t i = 0; i < N; i++) {
            const double want = rounded(dt, ref_unary(unary_ops[o].op, tu_get(a, dt, i)));
            if (!close_to(dt, tu_get(c, dt, i), want, bound_of(&unary_ops[o], dt, want)))
                fail_msg("%s(%g) = %g, want %g", unary_ops[o].name, tu_get(a, dt, i), tu_get(c, dt, i), want);
        }
    }
    TU_DESTROY_BUFFERS(da, db, dc);
}

/* check for fp32, and for fp64 where the device has it */
static void each_float(void (*check)(clrt_dtype))
{
    check(CLRT_FLOAT32);
    if (tu_fx->dev.has_fp64)
        check(CLRT_FLOAT64);
}

static void special_values(void **state)
{
    (void)state;
    each_float(special_values_of);
}

/* The sigmoid across its whole range, where fp64 computes e^-|x| itself
 * (cl/elementwise.cl): both tails down to where the result underflows,
 * against a long double reference; as a view with an odd column count so
 * vector and one-by-one elements both run. fp64 is held to 3 units of
 * rounding (the kernel's own error, 1.55 in a host emulation, plus the
 * reference's rounding) and its subnormal results to 2 of the smallest
 * subnormal (OpenCL requires denormals for double; the built-in form gave 0
 * there); fp32 runs OpenCL's exp and has the other tests' bound. */
static void sigmoid_range_of(clrt_dtype dt)
{
    const size_t cols = tu_small() ? 2003 : 30011;
    const double lo = -760.0, step = 1520.0 / (double)(cols - 1);
    const op_info *o = &unary_ops[NUNARY - 1];
    assert_int_equal(o->op, CLRT_OP_SIGMOID);
    unsigned char *a = malloc(cols * 8), *c = malloc(cols * 8);
    assert_true(a && c);
    for (size_t i = 0; i < cols; i++)
        tu_put(a, dt, i, lo + step * (double)i);
    operand oa, oc;
    operand_make(&oa, tu_fx->ctx, tu_fx->q, dt, 1, cols, a, VIEW, -7.0);
    operand_make(&oc, tu_fx->ctx, tu_fx->q, dt, 1, cols, NULL, PLAIN, -9.0);
    TU_OK(clrt_unary(tu_fx->q, CLRT_OP_SIGMOID, oc.buf, oa.buf));
    TU_OK(clrt_buffer_read(tu_fx->q, oc.buf, c, cols));
    size_t bad = 0;
    for (size_t i = 0; i < cols; i++) {
        const long double x = tu_get(a, dt, i);
        const double want = rounded(dt, (double)(1.0L / (1.0L + expl(-x)))), got = tu_get(c, dt, i);
        const int ok = dt == CLRT_FLOAT64 ? fabs(got - want) <= 3 * unit(dt) * want + 0x1p-1073
                                          : close_to(dt, got, want, bound_of(o, dt, want));
        if (!ok && bad++ < 3)
            print_message("sigmoid(%.17g) = %.17g, want %.17g\n", (double)x, got, want);
    }
    if (bad)
        fail_msg("sigmoid %s over [-760, 760]: %zu of %zu wrong", tu_dtype_name(dt), bad, cols);
    operand_check_outside(&oc, tu_fx->q, "c");
    operand_free(&oa);
    operand_free(&oc);
    free(a);
    free(c);
}

static void sigmoid_range(void **state)
{
    (void)state;
    each_float(sigmoid_range_of);
}

/* ---- axpby and scale */

static void check_axpby(clrt_dtype dt, size_t rows, size_t cols, double alpha, double beta, enum kind kx,
                        enum kind ky, int x_is_y)
{
    const size_t n = rows * cols, es = tu_dtype_size(dt);
    unsigned char *x = malloc(n * es), *y = malloc(n * es), *got = malloc(n * es);
    assert_true(x && y && got);
    clrt__ref_fill(x, dt, n, (unsigned)(rows + 3 * cols));
    clrt__ref_fill(y, dt, n, (unsigned)(rows * 5 + cols));
    if (beta == 0.0 && !x_is_y)
        for (size_t i = 0; i < n; i++) /* never read: NaN must not leak */
            tu_put(y, dt, i, NAN);
    if (x_is_y)
        memcpy(x, y, n * es);
    operand ox, oy;
    operand_make(&oy, tu_fx->ctx, tu_fx->q, dt, rows, cols, y, ky, -9.0);
    if (!x_is_y)
        operand_make(&ox, tu_fx->ctx, tu_fx->q, dt, rows, cols, x, kx, -7.0);
    TU_OK(clrt_axpby(tu_fx->q, alpha, x_is_y ? oy.buf : ox.buf, beta, oy.buf));
    TU_OK(clrt_buffer_read(tu_fx->q, oy.buf, got, n));
    const double al = rounded(dt, alpha), be = rounded(dt, beta), u = unit(dt);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        const double ax = al * tu_get(x, dt, i), by = beta == 0.0 ? 0.0 : be * tu_get(y, dt, i);
        /* two products and a sum (or a fused multiply-add), each rounded */
        const double want = rounded(dt, ax + by);
        if (!close_to(dt, tu_get(got, dt, i), want, 3 * u * (fabs(ax) + fabs(by)) + u * fabs(want)) && bad++ < 3)
            print_message("y[%zu] = %.17g, want %.17g\n", i, tu_get(got, dt, i), want);
    }
    if (bad)
        fail_msg("axpby %s %zux%zu alpha %g beta %g, x %s y %s%s: %zu of %zu wrong", tu_dtype_name(dt),
                 rows, cols, alpha, beta, kind_name[kx], kind_name[ky], x_is_y ? ", x == y" : "", bad, n);
    operand_check_outside(&oy, tu_fx->q, "y");
    if (!x_is_y) {
        operand_check_same(&ox, tu_fx->q, x, "x");
        operand_check_outside(&ox, tu_fx->q, "x");
        operand_free(&ox);
    }
    operand_free(&oy);
    free(x);
    free(y);
    free(got);
}

static void check_scale(clrt_dtype dt, size_t rows, size_t cols, double alpha, enum kind kc, enum kind ka,
                        int in_place)
{
    const size_t n = rows * cols, es = tu_dtype_size(dt);
    unsigned char *a = malloc(n * es), *got = malloc(n * es);
    assert_true(a && got);
    clrt__ref_fill(a, dt, n, (unsigned)(rows * 7 + cols));
    operand oa, oc;
    operand_make(&oa, tu_fx->ctx, tu_fx->q, dt, rows, cols, a, ka, -7.0);
    if (!in_place)
        operand_make(&oc, tu_fx->ctx, tu_fx->q, dt, rows, cols, NULL, kc, -9.0);
    const operand *out = in_place ? &oa : &oc;
    TU_OK(clrt_scale(tu_fx->q, out->buf, alpha, oa.buf));
    TU_OK(clrt_buffer_read(tu_fx->q, out->buf, got, n));
    const double al = rounded(dt, alpha);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        const double want = rounded(dt, al * tu_get(a, dt, i));
        if (!close_to(dt, tu_get(got, dt, i), want, 2 * unit(dt) * fabs(want)) && bad++ < 3)
            print_message("c[%zu] = %.17g, want %.17g\n", i, tu_get(got, dt, i), want);
    }
    if (bad)
        fail_msg("scale %s %zux%zu alpha %g, c %s a %s%s: %zu of %zu wrong", tu_dtype_name(dt), rows,
                 cols, alpha, kind_name[kc], kind_name[ka], in_place ? ", c == a" : "", bad, n);
    operand_check_outside(&oa, tu_fx->q, "a");
    if (!in_place) {
        operand_check_same(&oa, tu_fx->q, a, "a");
        operand_check_outside(&oc, tu_fx->q, "c");
        operand_free(&oc);
    }
    operand_free(&oa);
    free(a);
    free(got);
}

static void axpby_and_scale(void **state)
{
    (void)state;
    static const double ab[][2] = {{2.0, -0.5}, {1.0, 0.0}, {0.0, 1.0}, {-1.25, 3.0}, {NAN, 1.0}, {1.0, INFINITY}};
    size_t ns;
    const size_t(*s)[2] = shapes(&ns);
    for (int d = 0; d < tu_n_dtypes(); d++) {
        const clrt_dtype dt = tu_dtype_at(d);
        for (size_t i = 0; i < ns; i++)
            for (size_t j = 0; j < sizeof ab / sizeof *ab; j++) {
                const size_t k = i + j;
                check_axpby(dt, s[i][0], s[i][1], ab[j][0], ab[j][1], (enum kind)(k % NKINDS),
                            (enum kind)((k + 1) % NKINDS), k % 4 == 3);
                check_scale(dt, s[i][0], s[i][1], ab[j][0] - ab[j][1], (enum kind)(k % NKINDS),
                            (enum kind)((k + 2) % NKINDS), (int)(k % 2));
            }
    }
}

/* ---- fill and copy, every dtype */

static void check_fill(clrt_dtype dt, size_t rows, size_t cols, double value, enum kind kind)
{
    const size_t n = rows * cols, es = tu_dtype_size(dt);
    unsigned char *got = malloc(n * es);
    assert_non_null(got);
    operand o;
    operand_make(&o, tu_fx->ctx, tu_fx->q, dt, rows, cols, NULL, kind, 5.0);
    TU_OK(clrt_fill(tu_fx->q, o.buf, value));
    TU_OK(clrt_buffer_read(tu_fx->q, o.buf, got, n));
    const double want = rounded(dt, value);
    for (size_t i = 0; i < n; i++)
        if (!(tu_get(got, dt, i) == want || (isnan(want) && isnan(tu_get(got, dt, i)))))
            fail_msg("fill %s %zux%zu (%s) with %g: element %zu is %g", dt == CLRT_INT32 ? "int32" : "float", rows, cols,
                     kind_name[kind], value, i, tu_get(got, dt, i));
    if (dt == CLRT_FLOAT64 && !signbit(tu_get(got, dt, 0)) != !signbit(want))
        fail_msg("fill with %g lost the sign", value);
    operand_check_outside(&o, tu_fx->q, "c");
    operand_free(&o);
    free(got);
}

static void check_copy(clrt_dtype dt, size_t rows, size_t cols, enum kind kd, enum kind ks)
{
    const size_t n = rows * cols, es = tu_dtype_size(dt);
    unsigned char *src = malloc(n * es), *got = malloc(n * es);
    assert_true(src && got);
    if (dt == CLRT_INT32)
        for (size_t i = 0; i < n; i++)
            ((int32_t *)src)[i] = (int32_t)(i * 2654435761u); /* every bit pattern class */
    else
        clrt__ref_fill(src, dt, n, (unsigned)(rows + cols));
    operand od, os;
    operand_make(&os, tu_fx->ctx, tu_fx->q, dt, rows, cols, src, ks, 3.0);
    operand_make(&od, tu_fx->ctx, tu_fx->q, dt, rows, cols, NULL, kd, 4.0);
    TU_OK(clrt_copy(tu_fx->q, od.buf, os.buf));
    TU_OK(clrt_buffer_read(tu_fx->q, od.buf, got, n));
    if (memcmp(got, src, n * es) != 0)
        fail_msg("copy %s %zux%zu, dst %s src %s: not an exact copy", clrt_buffer_dtype(od.buf) == CLRT_INT32 ? "int32"
                                                                                                           : "float",
                 rows, cols, kind_name[kd], kind_name[ks]);
    operand_check_same(&os, tu_fx->q, src, "src");
    operand_check_outside(&os, tu_fx->q, "src");
    operand_check_outside(&od, tu_fx->q, "dst");
    /* in place: the same window through another handle changes nothing */
    if (ks != PLAIN) {
        clrt_buffer *again;
        TU_OK(clrt_buffer_view(&again, os.parent, os.r0, os.c0, rows, cols));
        TU_OK(clrt_copy(tu_fx->q, again, os.buf));
        operand_check_same(&os, tu_fx->q, src, "src copied onto itself");
        clrt_buffer_destroy(again);
    }
    operand_free(&od);
    operand_free(&os);
    free(src);
    free(got);
}

static void fill_and_copy(void **state)
{
    (void)state;
    static const double fvalues[] = {1.5, -0.0, NAN, 1e300, -3.25e-5};
    static const double ivalues[] = {INT32_MIN, INT32_MAX, -7, 0, 123456789};
    size_t ns;
    const size_t(*s)[2] = shapes(&ns);
    const clrt_dtype dts[] = {CLRT_FLOAT32, CLRT_INT32, CLRT_FLOAT64};
    for (size_t d = 0; d < (tu_fx->dev.has_fp64 ? 3u : 2u); d++)
        for (size_t i = 0; i < ns; i++)
            for (size_t v = 0; v < 5; v++) {
                const size_t k = i + v;
                check_fill(dts[d], s[i][0], s[i][1], dts[d] == CLRT_INT32 ? ivalues[v] : fvalues[v],
                           (enum kind)(k % NKINDS));
                if (v < 3)
                    check_copy(dts[d], s[i][0], s[i][1], (enum kind)(k % NKINDS), (enum kind)((k + v) % NKINDS));
            }
}

/* Two windows of one parent side by side: copy and add between them (no
 * overlap), and in place through two handles of one window. */
static void windows_of_one_parent(void **state)
{
    (void)state;
    enum { R = 9, C = 11 };
    float h[R * C], got[R * C];
    for (int i = 0; i < R * C; i++)
        h[i] = (float)i;
    clrt_buffer *p, *left, *right, *left2;
    TU_OK(clrt_buffer_create(&p, tu_fx->ctx, CLRT_FLOAT32, R, C));
    TU_OK(clrt_buffer_write(tu_fx->q, p, h, R * C));
    TU_OK(clrt_buffer_view(&left, p, 1, 0, 7, 5));
    TU_OK(clrt_buffer_view(&right, p, 1, 5, 7, 5));
    TU_OK(clrt_buffer_view(&left2, p, 1, 0, 7, 5));
    TU_OK(clrt_copy(tu_fx->q, right, left));               /* right = left */
    TU_OK(clrt_binary(tu_fx->q, CLRT_OP_ADD, left2, left, right)); /* left = 2 left, through another handle */
    TU_OK(clrt_buffer_read(tu_fx->q, p, got, R * C));
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            float want = h[r * C + c];
            if (r >= 1 && r < 8 && c < 5)
                want = 2 * h[r * C + c];
            else if (r >= 1 && r < 8 && c < 10)
                want = h[r * C + c - 5];
            if (got[r * C + c] != want)
                fail_msg("element (%d, %d) is %g, want %g", r, c, got[r * C + c], want);
        }
    TU_DESTROY_BUFFERS(left, right, left2, p);
}

/* ---- kernel variants forced through the tuning API: every geometry path
 * (vectors, tails, several vectors per work-item, narrow and wide groups) */

static void every_variant(void **state)
{
    (void)state;
    static const char *const variants[] = {"vw=1 items=1 wg=1 ops=1", "vw=4 items=3 wg=8 ops=0",
                                           "vw=16 items=2 wg=4 ops=1", "vw=8 items=1 wg=64 ops=0",
                                           "vw=2 items=1 wg=12 ops=1"};
    static const size_t sh[][2] = {{1, 1}, {1, 67}, {5, 33}, {33, 5}, {17, 1}, {2, 130}};
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        clrt_queue *q;
        clrt_context *ctx = tu_fresh_context(&q);
        tu_override(ctx, "elementwise", CLRT_FLOAT32, variants[v]);
        for (size_t i = 0; i < sizeof sh / sizeof *sh; i++) {
            for (int f = 0; f < NFORMS; f++)
                check_binary(ctx, q, CLRT_FLOAT32, &binary_ops[(i + (size_t)f) % NBINARY], sh[i][0], sh[i][1],
                             (enum form)f, (enum kind)((i + (size_t)f) % NKINDS), (enum kind)(i % NKINDS),
                             (enum kind)((size_t)f % NKINDS), f == SAME ? C_IS_B : SEPARATE, 0);
            check_unary(ctx, q, CLRT_FLOAT32, &unary_ops[(i + v) % NUNARY], sh[i][0], sh[i][1], (enum kind)(i % NKINDS),
                        (enum kind)((i + 1) % NKINDS), (int)(i % 2));
        }
        /* int32 runs with the float32 parameters */
        clrt_buffer *i32, *j32;
        TU_OK(clrt_buffer_create(&i32, ctx, CLRT_INT32, 3, 67));
        TU_OK(clrt_buffer_create(&j32, ctx, CLRT_INT32, 3, 67));
        TU_OK(clrt_fill(q, i32, -123456));
        TU_OK(clrt_copy(q, j32, i32));
        int32_t back[3 * 67];
        TU_OK(clrt_buffer_read(q, j32, back, 3 * 67));
        for (size_t i = 0; i < 3 * 67; i++)
            assert_int_equal(back[i], -123456);
        clrt_buffer_destroy(i32);
        clrt_buffer_destroy(j32);
        tu_assert_ran(ctx, "elementwise", CLRT_FLOAT32, variants[v]);
        if (tu_fx->dev.has_fp64) {
            tu_override(ctx, "elementwise", CLRT_FLOAT64, variants[v]);
            check_binary(ctx, q, CLRT_FLOAT64, &binary_ops[3], 5, 33, ROW, VIEW, PLAIN, ROWS, SEPARATE, 0);
            check_unary(ctx, q, CLRT_FLOAT64, &unary_ops[7], 3, 21, ROWS, VIEW, 1);
        }
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
    }
}

static void count_elementwise_builds(const clrt_build_event *ev, const char *line, void *user)
{
    (void)line;
    *(int *)user += strcmp(ev->kernel, "elementwise") == 0;
}

/* Every op the library launches, in both builds on every driver: a program per
 * op (ops=0, GPUs' and the emulators' default) and one program of them all
 * (ops=1, POCL's), each checked against the reference: the binary ops with b of
 * each broadcast form, the unary ops, axpby, scale, fill and copy (int32 too).
 * The builds counted: with ops=0 one per op and way of reading b (a binary op's
 * b as rows or as one value per row: the four broadcast forms take two), with
 * ops=1 one per dtype. */
static void every_op_in_each_build(void **state)
{
    (void)state;
    tu_fixture saved = *tu_fx;
    for (int ops = 0; ops <= 1; ops++) {
        int builds = 0;
        clrt_set_log(count_elementwise_builds, &builds);
        tu_fx->ctx = tu_fresh_context(&tu_fx->q);
        const char *params = ops ? "ops=1" : "ops=0";
        for (int d = 0; d < tu_n_dtypes(); d++) {
            const clrt_dtype dt = tu_dtype_at(d);
            tu_override(tu_fx->ctx, "elementwise", dt, params);
            for (size_t o = 0; o < NBINARY; o++)
                for (int f = 0; f < NFORMS; f++)
                    check_binary(tu_fx->ctx, tu_fx->q, dt, &binary_ops[o], 5, 19, (enum form)f, PLAIN,
                                 (enum kind)((o + (size_t)f) % NKINDS), PLAIN, SEPARATE, 0);
            for (size_t o = 0; o < NUNARY; o++)
                check_unary(tu_fx->ctx, tu_fx->q, dt, &unary_ops[o], 3, 21, PLAIN, (enum kind)(o % NKINDS), 0);
            check_axpby(dt, 4, 35, 2.0, -0.5, PLAIN, PLAIN, 0);
            check_scale(dt, 4, 35, -1.5, PLAIN, PLAIN, 0);
            check_fill(dt, 3, 17, 2.5, PLAIN);
            check_copy(dt, 3, 17, PLAIN, PLAIN);
            tu_assert_ran(tu_fx->ctx, "elementwise", dt, params);
        }
        check_fill(CLRT_INT32, 3, 17, -77, PLAIN);
        check_copy(CLRT_INT32, 3, 17, PLAIN, PLAIN);
        clrt_set_log(NULL, NULL);
        const int per_float = ops ? 1 : 2 * NBINARY + NUNARY + 4; /* + axpby, scale, fill, copy */
        assert_int_equal(builds, per_float * tu_n_dtypes() + (ops ? 1 : 2)); /* int32: fill and copy */
        clrt_queue_destroy(tu_fx->q);
        clrt_context_destroy(tu_fx->ctx);
        *tu_fx = saved;
    }
}

/* The kernel's earlier name still names it in the tuning API. */
static void old_kernel_name(void **state)
{
    (void)state;
    char now[256], old[256];
    TU_OK(clrt_tune_current(tu_fx->ctx, "elementwise", CLRT_FLOAT32, now, sizeof now, NULL));
    TU_OK(clrt_tune_current(tu_fx->ctx, "add", CLRT_FLOAT32, old, sizeof old, NULL));
    assert_string_equal(now, old);
}

/* ---- refusals: status, message, nothing made, nothing enqueued */

/* Wrong shapes: for each broadcast form of b, and a != c (wide is 4x6, vrow 1x5). */
static void refuse_shapes(clrt_queue *q, clrt_buffer *a, clrt_buffer *b, clrt_buffer *c, clrt_buffer *wide,
                          clrt_buffer *vrow)
{
    static const size_t bad_b[][2] = {{2, 5}, {4, 2}, {1, 4}, {5, 1}, {1, 6}, {3, 1}, {2, 1}, {5, 5}};
    for (size_t i = 0; i < sizeof bad_b / sizeof *bad_b; i++) {
        clrt_buffer *bb;
        TU_OK(clrt_buffer_create(&bb, tu_fx->ctx, CLRT_FLOAT32, bad_b[i][0], bad_b[i][1]));
        TU_REFUSED(CLRT_ESHAPE, "it must have c's shape 4x5", clrt_binary(q, CLRT_OP_MUL, c, a, bb));
        clrt_buffer_destroy(bb);
    }
    TU_REFUSED(CLRT_ESHAPE, "shapes differ: c 4x5, a 4x6", clrt_binary(q, CLRT_OP_ADD, c, wide, b));
    TU_REFUSED(CLRT_ESHAPE, "shapes differ", clrt_binary(q, CLRT_OP_ADD, wide, a, b));
    TU_REFUSED(CLRT_ESHAPE, "shapes differ", clrt_add(q, c, a, vrow)); /* clrt_add does not broadcast */
    TU_REFUSED(CLRT_ESHAPE, "shapes differ: c 4x5, a 4x6", clrt_unary(q, CLRT_OP_EXP, c, wide));
    TU_REFUSED(CLRT_ESHAPE, "shapes differ: y 4x5, x 4x6", clrt_axpby(q, 1, wide, 1, c));
    TU_REFUSED(CLRT_ESHAPE, "shapes differ", clrt_scale(q, wide, 2, a));
    TU_REFUSED(CLRT_ESHAPE, "shapes differ: dst 4x6, src 4x5", clrt_copy(q, wide, a));
}

/* Unknown op codes. */
static void refuse_unknown_ops(clrt_queue *q, clrt_buffer *a, clrt_buffer *b, clrt_buffer *c)
{
    TU_REFUSED(CLRT_EINVAL, "unknown binary op 0", clrt_binary(q, (clrt_binary_op)0, c, a, b));
    TU_REFUSED(CLRT_EINVAL, "unknown binary op 7", clrt_binary(q, (clrt_binary_op)7, c, a, b));
    TU_REFUSED(CLRT_EINVAL, "unknown binary op -1", clrt_binary(q, (clrt_binary_op)-1, c, a, b));
    TU_REFUSED(CLRT_EINVAL, "unknown unary op 0", clrt_unary(q, (clrt_unary_op)0, c, a));
    TU_REFUSED(CLRT_EINVAL, "unknown unary op 9", clrt_unary(q, (clrt_unary_op)9, c, a));
}

/* int32 fill takes int32 values only. */
static void refuse_non_int32_fills(clrt_queue *q, clrt_buffer *i32)
{
    TU_REFUSED(CLRT_EINVAL, "not an int32 value", clrt_fill(q, i32, 0.5));
    TU_REFUSED(CLRT_EINVAL, "not an int32 value", clrt_fill(q, i32, 2147483648.0));
    TU_REFUSED(CLRT_EINVAL, "not an int32 value", clrt_fill(q, i32, -2147483649.0));
    TU_REFUSED(CLRT_EINVAL, "not an int32 value", clrt_fill(q, i32, NAN));
    TU_REFUSED(CLRT_EINVAL, "not an int32 value", clrt_fill(q, i32, INFINITY));
}

static void refusals(void **state)
{
    (void)state;
    clrt_queue *q = tu_fx->q;
    clrt_buffer *a = tu_buffer(CLRT_FLOAT32, 4, 5), *b = tu_buffer(CLRT_FLOAT32, 4, 5);
    clrt_buffer *c = tu_buffer(CLRT_FLOAT32, 4, 5), *i32 = tu_buffer(CLRT_INT32, 4, 5);
    clrt_buffer *j32 = tu_buffer(CLRT_INT32, 4, 5), *wide = tu_buffer(CLRT_FLOAT32, 4, 6);
    clrt_buffer *p = tu_buffer(CLRT_FLOAT32, 10, 10), *v1, *v2, *vrow, *f64 = NULL;
    TU_OK(clrt_buffer_view(&v1, p, 0, 0, 4, 5));   /* rows 0-3, cols 0-4 */
    TU_OK(clrt_buffer_view(&v2, p, 3, 4, 4, 5));   /* rows 3-6, cols 4-8: shares (3, 4) with v1 */
    TU_OK(clrt_buffer_view(&vrow, p, 2, 0, 1, 5)); /* row 2 of v1 */
    if (tu_fx->dev.has_fp64)
        f64 = tu_buffer(CLRT_FLOAT64, 4, 5);
    clrt_context *other = tu_context_on(&tu_fx->dev);
    clrt_buffer *ob;
    TU_OK(clrt_buffer_create(&ob, other, CLRT_FLOAT32, 4, 5));
    clrt_buffer dead = *a;
    dead.tag = CLRT__TAG_DEAD;
    const long live = clrt__debug_live(CLRT__LIVE_BUFFER);
    TU_OK(clrt_queue_finish(q));
    clrt__debug_fault_clear(); /* zeroes the call counts */

    refuse_shapes(q, a, b, c, wide, vrow);

    /* dtypes: mixed is a shape error, int32 arithmetic is not supported */
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ (c float32, a int32, b float32)", clrt_binary(q, CLRT_OP_ADD, c, i32, b));
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_unary(q, CLRT_OP_NEG, i32, a));
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_axpby(q, 1, i32, 1, c));
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_scale(q, c, 1, i32));
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ (dst int32, src float32)", clrt_copy(q, i32, a));
    if (f64) {
        TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_binary(q, CLRT_OP_ADD, f64, a, b));
        TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_copy(q, f64, a));
    }
    TU_REFUSED(CLRT_EUNSUPPORTED, "int32", clrt_binary(q, CLRT_OP_ADD, i32, i32, j32));
    TU_REFUSED(CLRT_EUNSUPPORTED, "int32", clrt_add(q, i32, i32, j32));
    TU_REFUSED(CLRT_EUNSUPPORTED, "int32", clrt_unary(q, CLRT_OP_ABS, i32, j32));
    TU_REFUSED(CLRT_EUNSUPPORTED, "int32", clrt_axpby(q, 1, i32, 1, j32));
    TU_REFUSED(CLRT_EUNSUPPORTED, "int32", clrt_scale(q, i32, 2, j32));

    refuse_unknown_ops(q, a, b, c);

    /* partial overlap of the output with an input */
    TU_REFUSED(CLRT_EINVAL, "overlaps a only in part", clrt_binary(q, CLRT_OP_ADD, v2, v1, b));
    TU_REFUSED(CLRT_EINVAL, "overlaps b only in part", clrt_binary(q, CLRT_OP_ADD, v2, a, v1));
    TU_REFUSED(CLRT_EINVAL, "overlaps b only in part", clrt_binary(q, CLRT_OP_ADD, v1, a, vrow)); /* a bias in c */
    TU_REFUSED(CLRT_EINVAL, "overlaps a only in part", clrt_add(q, v2, v1, b));
    TU_REFUSED(CLRT_EINVAL, "overlaps a only in part", clrt_unary(q, CLRT_OP_RELU, v2, v1));
    TU_REFUSED(CLRT_EINVAL, "overlaps x only in part", clrt_axpby(q, 1, v1, 1, v2));
    TU_REFUSED(CLRT_EINVAL, "overlaps a only in part", clrt_scale(q, v2, 3, v1));
    TU_REFUSED(CLRT_EINVAL, "overlaps src only in part", clrt_copy(q, v2, v1));

    /* NULL, dead and foreign handles, other contexts */
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_binary(NULL, CLRT_OP_ADD, c, a, b));
    TU_REFUSED(CLRT_EINVAL, "buffer c is NULL", clrt_binary(q, CLRT_OP_ADD, NULL, a, b));
    TU_REFUSED(CLRT_EINVAL, "buffer a is NULL", clrt_binary(q, CLRT_OP_ADD, c, NULL, b));
    TU_REFUSED(CLRT_EINVAL, "buffer b is NULL", clrt_binary(q, CLRT_OP_ADD, c, a, NULL));
    TU_REFUSED(CLRT_EINVAL, "buffer b is NULL", clrt_binary(q, (clrt_binary_op)99, c, a, NULL)); /* handles first */
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_unary(NULL, CLRT_OP_EXP, c, a));
    TU_REFUSED(CLRT_EINVAL, "buffer c is NULL", clrt_unary(q, CLRT_OP_EXP, NULL, a));
    TU_REFUSED(CLRT_EINVAL, "buffer a is NULL", clrt_unary(q, CLRT_OP_EXP, c, NULL));
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_axpby(NULL, 1, a, 1, c));
    TU_REFUSED(CLRT_EINVAL, "buffer x is NULL", clrt_axpby(q, 1, NULL, 1, c));
    TU_REFUSED(CLRT_EINVAL, "buffer y is NULL", clrt_axpby(q, 1, a, 1, NULL));
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_scale(NULL, c, 1, a));
    TU_REFUSED(CLRT_EINVAL, "buffer c is NULL", clrt_scale(q, NULL, 1, a));
    TU_REFUSED(CLRT_EINVAL, "buffer a is NULL", clrt_scale(q, c, 1, NULL));
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_fill(NULL, c, 1));
    TU_REFUSED(CLRT_EINVAL, "buffer c is NULL", clrt_fill(q, NULL, 1));
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_copy(NULL, c, a));
    TU_REFUSED(CLRT_EINVAL, "buffer dst is NULL", clrt_copy(q, NULL, a));
    TU_REFUSED(CLRT_EINVAL, "buffer src is NULL", clrt_copy(q, c, NULL));
    TU_REFUSED(CLRT_EINVAL, "not a live clrt buffer", clrt_binary(q, CLRT_OP_ADD, c, &dead, b));
    TU_REFUSED(CLRT_EINVAL, "not a live clrt buffer", clrt_unary(q, CLRT_OP_EXP, &dead, a));
    TU_REFUSED(CLRT_EINVAL, "not a live clrt buffer", clrt_fill(q, &dead, 0));
    TU_REFUSED(CLRT_EINVAL, "not a live clrt buffer", clrt_copy(q, c, &dead));
    TU_REFUSED(CLRT_EINVAL, "not a live clrt queue", clrt_scale((clrt_queue *)a, c, 1, a));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_binary(q, CLRT_OP_ADD, c, a, ob));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_binary(q, CLRT_OP_ADD, ob, a, b));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_unary(q, CLRT_OP_TANH, c, ob));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_axpby(q, 1, ob, 1, c));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_scale(q, ob, 1, a));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_fill(q, ob, 1));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_copy(q, c, ob));

    refuse_non_int32_fills(q, i32);

    /* nothing made, nothing enqueued */
    assert_int_equal(clrt__debug_live(CLRT__LIVE_BUFFER), live);
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 0);

    clrt_buffer_destroy(ob);
    clrt_context_destroy(other);
    TU_DESTROY_BUFFERS(a, b, c, i32, j32, f64, wide, p, v1, v2, vrow);
}

/* ---- every OpenCL call the elementwise calls make, failing in turn */

/* One user's session through the family: binary with a row broadcast, unary
 * in place on a view, axpby, scale, fill (float32 and int32) and copy; stops
 * at the first failure, checks the results when it gets through, and always
 * cleans up. */
static int elementwise_session(void)
{
    enum { M = 3, N = 70 };
    clrt_context *ctx = NULL;
    clrt_queue *q = NULL;
    clrt_buffer *a = NULL, *b = NULL, *row = NULL, *c = NULL, *v = NULL, *ix = NULL;
    float ha[M * N], hrow[N], got[M * N];
    int32_t hix[M];
    for (int i = 0; i < M * N; i++)
        ha[i] = (float)((i * 7) % 11) - 5.0f;
    for (int j = 0; j < N; j++)
        hrow[j] = (float)(j % 5);
    int s = tu_session_open(&ctx, &q);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&a, ctx, CLRT_FLOAT32, M, N);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&b, ctx, CLRT_FLOAT32, M, N);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&row, ctx, CLRT_FLOAT32, 1, N);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&c, ctx, CLRT_FLOAT32, M, N);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&ix, ctx, CLRT_INT32, M, 1);
    if (s == CLRT_OK)
        s = clrt_buffer_view(&v, c, 1, 3, 2, 60);
    if (s == CLRT_OK)
        s = clrt_buffer_write(q, a, ha, M * N);
    if (s == CLRT_OK)
        s = clrt_buffer_write(q, row, hrow, N);
    if (s == CLRT_OK)
        s = clrt_binary(q, CLRT_OP_MUL, b, a, a); /* b = a*a */
    if (s == CLRT_OK)
        s = clrt_binary(q, CLRT_OP_ADD, c, b, row); /* c = a*a + row */
    if (s == CLRT_OK)
        s = clrt_unary(q, CLRT_OP_NEG, v, v); /* a window of c negated in place */
    if (s == CLRT_OK)
        s = clrt_axpby(q, 2.0, a, 1.0, c); /* c += 2a */
    if (s == CLRT_OK)
        s = clrt_scale(q, b, 0.5, b);
    if (s == CLRT_OK)
        s = clrt_copy(q, a, b); /* a = a*a/2 */
    if (s == CLRT_OK)
        s = clrt_fill(q, ix, 7.0);
    if (s == CLRT_OK)
        s = clrt_queue_finish(q);
    if (s == CLRT_OK)
        s = clrt_buffer_read(q, c, got, M * N);
    if (s == CLRT_OK) {
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                const float x = ha[i * N + j];
                float want = x * x + hrow[j];
                if (i >= 1 && j >= 3 && j < 63)
                    want = -want;
                want += 2.0f * x; /* all small integers: exact */
                assert_true(got[i * N + j] == want);
            }
        s = clrt_buffer_read(q, a, got, M * N);
    }
    if (s == CLRT_OK) {
        for (int i = 0; i < M * N; i++)
            assert_true(got[i] == 0.5f * ha[i] * ha[i]);
        s = clrt_buffer_read(q, ix, hix, M);
    }
    if (s == CLRT_OK)
        for (int i = 0; i < M; i++)
            assert_int_equal(hix[i], 7);
    TU_DESTROY_BUFFERS(v, a, b, row, c, ix);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    return s;
}

/* The session's seven launches at least: the sweep fails each of them. */
static void elementwise_calls(const unsigned long calls[CLRT__FAULT_SITES])
{
    assert_true(calls[CLRT__FAULT_ENQUEUE_KERNEL] >= 7);
}

static void fault_sweep(void **state)
{
    (void)state;
    tu_fault_sweep(elementwise_session, CLRT__FAULT_CREATE_BUFFER, CLRT__FAULT_SITES, elementwise_calls, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_FIXTURE_TEST(binary_f32),
        TU_FIXTURE_TEST(binary_f64),
        TU_FIXTURE_TEST(add_takes_views),
        TU_FIXTURE_TEST(unary_f32),
        TU_FIXTURE_TEST(unary_f64),
        TU_FIXTURE_TEST(special_values),
        TU_FIXTURE_TEST(sigmoid_range),
        TU_FIXTURE_TEST(axpby_and_scale),
        TU_FIXTURE_TEST(fill_and_copy),
        TU_FIXTURE_TEST(windows_of_one_parent),
        TU_FIXTURE_TEST(every_variant),
        TU_FIXTURE_TEST(every_op_in_each_build),
        TU_FIXTURE_TEST(old_kernel_name),
        TU_FIXTURE_TEST(refusals),
        TU_FIXTURE_TEST(fault_sweep),
    };
    return TU_RUN_FIXTURE_SUITE(tests);
}
