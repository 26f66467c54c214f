/* clrt-bench's checks of the math family (see bench/reference/check_math.h). */
#include "reference/check_math.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ops.h"

static double get(const void *p, int dbl, size_t i)
{
    return dbl ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

/* ---- exact elementwise results: the same operation in the dtype, compared
 * with == (so +0 and -0 are equal, as max(x, 0) may give either) */

static int exact_one(int op, int dbl, double x, double y, double got)
{
    if (dbl) {
        double want = op == BENCH_MUL    ? x * y
                      : op == BENCH_BIAS ? x + y
                      : op == BENCH_RELU ? (x < 0 ? 0.0 : x)
                                         : BENCH_AXPBY_ALPHA * x + BENCH_AXPBY_BETA * y;
        return got == want || (got != got && want != want);
    }
    const float fx = (float)x, fy = (float)y;
    float want = op == BENCH_MUL    ? fx * fy
                 : op == BENCH_BIAS ? fx + fy
                 : op == BENCH_RELU ? (fx < 0 ? 0.0f : fx)
                                    : (float)BENCH_AXPBY_ALPHA * fx + (float)BENCH_AXPBY_BETA * fy;
    return (float)got == want || (got != got && want != want);
}

static size_t check_elementwise(int op, int dbl, size_t rows, size_t cols, const void *a, const void *b,
                                const void *out)
{
    const double eps = dbl ? DBL_EPSILON : FLT_EPSILON, tiny = dbl ? DBL_MIN : FLT_MIN;
    size_t wrong = 0;
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++) {
            const size_t at = i * cols + j;
            const double x = get(a, dbl, at), got = get(out, dbl, at);
            if (op == BENCH_SIGMOID) {
                const double want = 1.0 / (1.0 + exp(-x));
                wrong += !(fabs(got - want) <= 8 * eps * fabs(want) + tiny);
                continue;
            }
            const double y = op == BENCH_RELU ? 0 : get(b, dbl, op == BENCH_BIAS ? j : at);
            wrong += !exact_one(op, dbl, x, y, got);
        }
    return wrong;
}

/* ---- sums: the exact value by Neumaier's compensated summation (its error
 * is about one rounding of the result, far below the bounds it checks) */

typedef struct exact_sum {
    double s, comp, mag;
} exact_sum;

static void exact_add(exact_sum *e, double x)
{
    const double t = e->s + x;
    e->comp += fabs(e->s) >= fabs(x) ? (e->s - t) + x : (x - t) + e->s;
    e->s = t;
    e->mag += fabs(x);
}

static int sum_ok(const exact_sum *e, double got, double depth, int dbl)
{
    const double eps = dbl ? DBL_EPSILON : FLT_EPSILON, tiny = dbl ? DBL_MIN : FLT_MIN;
    const double want = e->s + e->comp;
    return fabs(got - want) <= depth * eps * e->mag + tiny;
}

static size_t check_sums(int op, int dbl, size_t rows, size_t cols, const void *a, const void *out, double depth,
                         size_t *checked)
{
    size_t wrong = 0;
    if (op == BENCH_SUM) {
        exact_sum e = {0, 0, 0};
        for (size_t i = 0; i < rows * cols; i++)
            exact_add(&e, get(a, dbl, i));
        *checked = 1;
        return !sum_ok(&e, get(out, dbl, 0), depth, dbl);
    }
    if (op == BENCH_ROWSUM) {
        for (size_t i = 0; i < rows; i++) {
            exact_sum e = {0, 0, 0};
            for (size_t j = 0; j < cols; j++)
                exact_add(&e, get(a, dbl, i * cols + j));
            wrong += !sum_ok(&e, get(out, dbl, i), depth, dbl);
        }
        *checked = rows;
        return wrong;
    }
    /* colsum: every column at once, walking the rows in order */
    exact_sum *e = calloc(cols, sizeof *e);
    if (!e) {
        *checked = 0;
        return 1;
    }
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++)
            exact_add(&e[j], get(a, dbl, i * cols + j));
    for (size_t j = 0; j < cols; j++)
        wrong += !sum_ok(&e[j], get(out, dbl, j), depth, dbl);
    free(e);
    *checked = cols;
    return wrong;
}

/* ---- argmax: the first column of the largest value; a row's first NaN */

static size_t check_argmax(int dbl, size_t rows, size_t cols, const void *a, const int32_t *out)
{
    size_t wrong = 0;
    for (size_t i = 0; i < rows; i++) {
        size_t at = 0;
        double best = get(a, dbl, i * cols);
        for (size_t j = 0; j < cols && best == best; j++) {
            const double v = get(a, dbl, i * cols + j);
            if (v > best || v != v) {
                best = v;
                at = j;
            }
        }
        wrong += out[i] != (int32_t)at;
    }
    return wrong;
}

static size_t check_transpose(int dbl, size_t rows, size_t cols, const void *a, const void *out)
{
    const size_t es = dbl ? 8 : 4;
    const unsigned char *src = a, *dst = out;
    size_t wrong = 0;
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++)
            wrong += memcmp(dst + (j * rows + i) * es, src + (i * cols + j) * es, es) != 0;
    return wrong;
}

size_t bench_check_math(int op, int dbl, size_t rows, size_t cols, const void *a, const void *b, const void *out,
                        double depth, size_t *checked)
{
    size_t n = rows * cols;
    switch (op) {
    case BENCH_SUM:
    case BENCH_ROWSUM:
    case BENCH_COLSUM:
        return check_sums(op, dbl, rows, cols, a, out, depth, checked);
    case BENCH_ARGMAX:
        *checked = rows;
        return check_argmax(dbl, rows, cols, a, out);
    case BENCH_TRANSPOSE:
        *checked = n;
        return check_transpose(dbl, rows, cols, a, out);
    default:
        *checked = n;
        return check_elementwise(op, dbl, rows, cols, a, b, out);
    }
}

size_t bench_check_copy(int dbl, size_t count, const void *src, const void *dst)
{
    const size_t es = dbl ? 8 : 4;
    size_t wrong = 0;
    for (size_t i = 0; i < count; i++)
        wrong += memcmp((const char *)src + i * es, (const char *)dst + i * es, es) != 0;
    return wrong;
}

/* "key=value" in a parameter text, -1 when absent */
static long param(const char *text, const char *key)
{
    const size_t len = strlen(key);
    for (const char *p = text; (p = strstr(p, key)) != NULL; p += len)
        if ((p == text || p[-1] == ' ') && p[len] == '=')
            return strtol(p + len + 1, NULL, 10);
    return -1;
}

double bench_clrt_sum_depth(const char *params, size_t n)
{
    const double logn = log((double)(n > 1 ? n : 2));
    const long items = param(params, "items"), vw = param(params, "vw"), wg = param(params, "wg"),
               crows = param(params, "crows");
    if (items < 1 || vw < 1 || wg < 1 || crows < 2)
        return 64 * (2 + ceil(logn / log(2.0)));
    const double per = (double)(items + 1 + crows) + log2((double)vw) + log2((double)wg);
    const double shrink = fmin((double)(items * vw), (double)crows);
    return per * (2 + ceil(logn / log(shrink)));
}
