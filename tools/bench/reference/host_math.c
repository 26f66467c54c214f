/* clrt-bench's host references for the math family (see bench/reference/host_math.h).
 * Each loop is written once for float and once for double by the macros
 * below; every thread takes a contiguous share. */
#include "reference/host_math.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ops.h"
#include "reference/host_ref.h"

enum {
    LANES = 16,     /* independent accumulators of a sum block */
    ARG_LANES = 64, /* argmax's lanes: GCC vectorizes a select over this many, not over 16 */
    BLOCK = 2048,   /* a sum is pairwise down to blocks of at most this many */
    ROW_BLOCK = 64, /* colsum: rows added in sequence before they join the total */
    TILE = 32       /* transpose: TILE x TILE tiles, both sides in the cache */
};

/* The loops get one copy per x86-64 level, chosen when the program loads
 * (GCC's function multiversioning): the device compiler uses the CPU's widest
 * vectors and FMA, so the host loop should too, not the x86-64 baseline
 * (SSE2) the bench is built for. The levels are chosen by the CPU's features
 * (GCC 12 on); "arch=haswell" would be chosen by CPU model, never on AMD.
 * Elsewhere: the compiler's default. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12 && defined(__x86_64__) && defined(__ELF__)
#define CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define CLONES
#endif

/* out = 1 / (1 + p 2^n) for the sigmoids below, n a whole number: 2^n put
 * in the exponent bits of a T (U: an unsigned integer of its size, mant:
 * its mantissa bits, round_bias: the exponent's bias + 2^mant). A macro,
 * not a function, for the reason e^x is computed in their loops. */
#define ONE_OVER_ONE_PLUS_SCALED(T, U, p, n, round_bias, mant, out)                                                   \
    do {                                                                                                              \
        const T t_ = (n) + (round_bias);                                                                              \
        U bits_;                                                                                                      \
        memcpy(&bits_, &t_, sizeof bits_);                                                                            \
        bits_ <<= (mant);                                                                                             \
        T scale_;                                                                                                     \
        memcpy(&scale_, &bits_, sizeof scale_);                                                                       \
        (out) = (T)1 / ((T)1 + (p) * scale_);                                                                         \
    } while (0)

/* The sigmoid, 1 / (1 + e^-x), with e^x computed in the loop (a call
 * would keep it from vectorizing, and GCC does not inline into the copies
 * above): x = n ln2 + r (Cody-Waite: n ln2_hi is exact), e^r by its Taylor
 * series (|r| <= ln2/2: the first term left out is below 0.1 ulp), 2^n put
 * in the exponent bits, n + bias first being the low bits of a number in
 * [2^p, 2^(p+1)). Branch-free, so it vectorizes; the exponent is clamped to
 * where e^x is a normal number. Relative error under 2 eps. */
CLONES static void sigmoid_f(const float *restrict a, float *restrict c, size_t count)
{
    const float round = 0x1.8p23f; /* adding it rounds to an integer */
    for (size_t i = 0; i < count; i++) {
        float x = -a[i];
        x = x < -87.0f ? -87.0f : x; /* two plain selects: both vectorize */
        x = x > 88.0f ? 88.0f : x;
        const float n = (x * 0x1.715476p+0f + round) - round;
        const float r = (x - n * 0x1.62ep-1f) - n * 0x1.0bfbe8p-15f;
        const float p =
            1.0f +
            r * (1.0f +
                 r * (1.0f / 2 +
                      r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120 + r * (1.0f / 720 + r * (1.0f / 5040)))))));
        ONE_OVER_ONE_PLUS_SCALED(float, uint32_t, p, n, 127.0f + 0x1p23f, 23, c[i]);
    }
}

CLONES static void sigmoid_d(const double *restrict a, double *restrict c, size_t count)
{
    const double round = 0x1.8p52;
    for (size_t i = 0; i < count; i++) {
        double x = -a[i];
        x = x < -708.0 ? -708.0 : x;
        x = x > 709.0 ? 709.0 : x;
        const double n = (x * 0x1.71547652b82fep+0 + round) - round;
        const double r = (x - n * 0x1.62e42feep-1) - n * 0x1.a39ef35793c76p-33;
        /* Horner from 1/13! down to 1 */
        double p = 1.0 / 6227020800.0;
        p = p * r + 1.0 / 479001600;
        p = p * r + 1.0 / 39916800;
        p = p * r + 1.0 / 3628800;
        p = p * r + 1.0 / 362880;
        p = p * r + 1.0 / 40320;
        p = p * r + 1.0 / 5040;
        p = p * r + 1.0 / 720;
        p = p * r + 1.0 / 120;
        p = p * r + 1.0 / 24;
        p = p * r + 1.0 / 6;
        p = p * r + 1.0 / 2;
        p = p * r + 1.0;
        p = p * r + 1.0;
        ONE_OVER_ONE_PLUS_SCALED(double, uint64_t, p, n, 1023.0 + 0x1p52, 52, c[i]);
    }
}

/* ---- the loops, for T = float (suffix f) and double (d) */

#define LOOPS(T, S)                                                                                                \
    CLONES static void mul_##S(const T *restrict a, const T *restrict b, T *restrict c, size_t n)                     \
    {                                                                                                                 \
        for (size_t i = 0; i < n; i++)                                                                                \
            c[i] = a[i] * b[i];                                                                                       \
    }                                                                                                                 \
    CLONES static void bias_##S(const T *restrict a, const T *restrict b, T *restrict c, size_t rows, size_t cols)    \
    {                                                                                                                 \
        for (size_t i = 0; i < rows; i++)                                                                             \
            for (size_t j = 0; j < cols; j++)                                                                         \
                c[i * cols + j] = a[i * cols + j] + b[j];                                                             \
    }                                                                                                                 \
    CLONES static void relu_##S(const T *restrict a, T *restrict c, size_t n)                                         \
    {                                                                                                                 \
        for (size_t i = 0; i < n; i++)                                                                                \
            c[i] = a[i] < 0 ? (T)0 : a[i]; /* NaN < 0 is false: NaN stays */                                       \
    }                                                                                                                 \
    CLONES static void axpby_##S(const T *restrict x, T *restrict y, size_t n)                                        \
    {                                                                                                                 \
        for (size_t i = 0; i < n; i++)                                                                                \
            y[i] = (T)BENCH_AXPBY_ALPHA * x[i] + (T)BENCH_AXPBY_BETA * y[i];                                          \
    }                                                                                                                 \
    /* LANES running sums, each over every LANES-th element, then a halving tree */                                   \
    CLONES static T sum_block_##S(const T *restrict a, size_t n)                                                      \
    {                                                                                                                 \
        T acc[LANES] = {0};                                                                                           \
        size_t i = 0;                                                                                                 \
        for (; i + LANES <= n; i += LANES)                                                                            \
            for (int l = 0; l < LANES; l++)                                                                           \
                acc[l] += a[i + l];                                                                                   \
        for (int l = 0; i + (size_t)l < n; l++)                                                                       \
            acc[l] += a[i + (size_t)l];                                                                               \
        for (int w = LANES / 2; w > 0; w /= 2)                                                                        \
            for (int l = 0; l < w; l++)                                                                               \
                acc[l] += acc[l + w];                                                                                 \
        return acc[0];                                                                                                \
    }                                                                                                                 \
    static T sum_##S(const T *a, size_t n)                                                                            \
    {                                                                                                                 \
        if (n <= BLOCK)                                                                                               \
            return sum_block_##S(a, n);                                                                               \
        const size_t h = n / 2 / LANES * LANES;                                                                       \
        return sum_##S(a, h) + sum_##S(a + h, n - h);                                                                 \
    }                                                                                                                 \
    /* rows [r0, r1): blocks of ROW_BLOCK rows added in sequence into blk, each                                      \
     * block then added to acc */                                                                                     \
    CLONES static void colsum_##S(const T *restrict a, size_t r0, size_t r1, size_t cols, T *restrict blk,            \
                                  T *restrict acc)                                                                    \
    {                                                                                                                 \
        for (size_t j = 0; j < cols; j++)                                                                             \
            acc[j] = 0;                                                                                               \
        for (size_t r = r0; r < r1; r += ROW_BLOCK) {                                                                 \
            const size_t end = r + ROW_BLOCK < r1 ? r + ROW_BLOCK : r1;                                               \
            const T *row = a + r * cols;                                                                              \
            for (size_t j = 0; j < cols; j++)                                                                         \
                blk[j] = row[j];                                                                                      \
            for (size_t k = r + 1; k < end; k++) {                                                                    \
                row = a + k * cols;                                                                                   \
                for (size_t j = 0; j < cols; j++)                                                                     \
                    blk[j] += row[j];                                                                                 \
            }                                                                                                         \
            for (size_t j = 0; j < cols; j++)                                                                         \
                acc[j] += blk[j];                                                                                     \
        }                                                                                                             \
    }                                                                                                                 \
    static int32_t first_nan_##S(const T *x, size_t n)                                                                \
    {                                                                                                                 \
        size_t j = 0;                                                                                                 \
        while (j < n && x[j] == x[j])                                                                                 \
            j++;                                                                                                      \
        return (int32_t)j;                                                                                            \
    }                                                                                                                 \
    /* Two passes over the row (the second in the cache): the largest value,                                          \
     * ARG_LANES lanes at a time, with a running sum that turns NaN if a NaN is                                       \
     * there (or +inf and -inf: a false alarm, which the look for a NaN                                              \
     * clears); then the first column holding it, ARG_LANES columns at a time. */                                     \
    CLONES static int32_t argmax_##S(const T *restrict x, size_t n)                                                   \
    {                                                                                                                 \
        T best = x[0], probe = 0;                                                                                     \
        size_t j = 0;                                                                                                 \
        if (n >= 2 * ARG_LANES) {                                                                                     \
            T m[ARG_LANES], sum[ARG_LANES];                                                                           \
            for (int l = 0; l < ARG_LANES; l++) {                                                                     \
                m[l] = x[l];                                                                                          \
                sum[l] = x[l];                                                                                        \
            }                                                                                                         \
            for (j = ARG_LANES; j + ARG_LANES <= n; j += ARG_LANES)                                                   \
                for (int l = 0; l < ARG_LANES; l++) {                                                                 \
                    const T v = x[j + (size_t)l];                                                                     \
                    m[l] = v > m[l] ? v : m[l];                                                                       \
                    sum[l] += v;                                                                                      \
                }                                                                                                     \
            best = m[0];                                                                                              \
            for (int l = 0; l < ARG_LANES; l++) {                                                                     \
                best = m[l] > best ? m[l] : best;                                                                     \
                probe += sum[l];                                                                                      \
            }                                                                                                         \
        }                                                                                                             \
        for (; j < n; j++) {                                                                                          \
            best = x[j] > best ? x[j] : best;                                                                         \
            probe += x[j];                                                                                            \
        }                                                                                                             \
        if (probe != probe || best != best) {                                                                         \
            const int32_t at = first_nan_##S(x, n);                                                                   \
            if ((size_t)at < n)                                                                                       \
                return at;                                                                                            \
        }                                                                                                             \
        for (j = 0; j + ARG_LANES <= n; j += ARG_LANES) {                                                             \
            int hit = 0;                                                                                              \
            for (int l = 0; l < ARG_LANES; l++)                                                                       \
                hit |= x[j + (size_t)l] == best;                                                                      \
            if (hit)                                                                                                  \
                break;                                                                                                \
        }                                                                                                             \
        while (j < n && x[j] != best)                                                                                 \
            j++;                                                                                                      \
        return (int32_t)j;                                                                                            \
    }                                                                                                                 \
    static void transpose_##S(const T *restrict a, T *restrict c, size_t rows, size_t cols, size_t r0, size_t r1)    \
    {                                                                                                                 \
        for (size_t i0 = r0; i0 < r1; i0 += TILE)                                                                     \
            for (size_t j0 = 0; j0 < cols; j0 += TILE) {                                                              \
                const size_t i1 = i0 + TILE < r1 ? i0 + TILE : r1, j1 = j0 + TILE < cols ? j0 + TILE : cols;          \
                for (size_t i = i0; i < i1; i++)                                                                      \
                    for (size_t j = j0; j < j1; j++)                                                                  \
                        c[j * rows + i] = a[i * cols + j];                                                            \
            }                                                                                                         \
    }

LOOPS(float, f)
LOOPS(double, d)

/* ---- one job on the pool */

typedef struct job {
    int op, dbl;
    size_t rows, cols;
    const void *a, *b;
    void *c;
    void *scratch;         /* colsum: 2 x cols per thread (a block's sums, the share's) */
    float part_f[64];      /* sum: each thread's share */
    double part_d[64];
} job;

#define DO(fn, ...) (j->dbl ? fn##_d(__VA_ARGS__) : fn##_f(__VA_ARGS__))
#define AT(p, i) (j->dbl ? (const void *)((const double *)(p) + (i)) : (const void *)((const float *)(p) + (i)))
#define AT_W(p, i) (j->dbl ? (void *)((double *)(p) + (i)) : (void *)((float *)(p) + (i)))

static void share(void *arg, int w, int threads)
{
    job *j = arg;
    const size_t n = j->rows * j->cols;
    size_t lo, hi;
    switch (j->op) {
    case BENCH_MUL:
    case BENCH_RELU:
    case BENCH_SIGMOID:
    case BENCH_AXPBY:
    case BENCH_SUM:
        /* elements, in shares of whole 64-byte lines: no two threads write one line */
        bench_host_share(n, 16, w, threads, &lo, &hi);
        if (j->op == BENCH_MUL)
            DO(mul, AT(j->a, lo), AT(j->b, lo), AT_W(j->c, lo), hi - lo);
        else if (j->op == BENCH_RELU)
            DO(relu, AT(j->a, lo), AT_W(j->c, lo), hi - lo);
        else if (j->op == BENCH_SIGMOID)
            DO(sigmoid, AT(j->a, lo), AT_W(j->c, lo), hi - lo);
        else if (j->op == BENCH_AXPBY)
            DO(axpby, AT(j->a, lo), AT_W(j->c, lo), hi - lo);
        else if (j->dbl)
            j->part_d[w] = sum_d((const double *)j->a + lo, hi - lo);
        else
            j->part_f[w] = sum_f((const float *)j->a + lo, hi - lo);
        return;
    case BENCH_TRANSPOSE:
        /* rows in whole tiles */
        bench_host_share(j->rows, TILE, w, threads, &lo, &hi);
        DO(transpose, j->a, j->c, j->rows, j->cols, lo, hi);
        return;
    default:
        break;
    }
    bench_host_share(j->rows, 1, w, threads, &lo, &hi);
    for (size_t i = lo; i < hi && j->op == BENCH_ROWSUM; i++) {
        if (j->dbl)
            ((double *)j->c)[i] = sum_d((const double *)j->a + i * j->cols, j->cols);
        else
            ((float *)j->c)[i] = sum_f((const float *)j->a + i * j->cols, j->cols);
    }
    for (size_t i = lo; i < hi && j->op == BENCH_ARGMAX; i++)
        ((int32_t *)j->c)[i] = j->dbl ? argmax_d((const double *)j->a + i * j->cols, j->cols)
                                      : argmax_f((const float *)j->a + i * j->cols, j->cols);
    if (j->op == BENCH_BIAS)
        DO(bias, AT(j->a, lo * j->cols), j->b, AT_W(j->c, lo * j->cols), hi - lo, j->cols);
    if (j->op == BENCH_COLSUM) {
        void *blk = AT_W(j->scratch, 2 * (size_t)w * j->cols), *acc = AT_W(j->scratch, (2 * (size_t)w + 1) * j->cols);
        DO(colsum, j->a, lo, hi, j->cols, blk, acc);
    }
}

int bench_host_math(int op, int dbl, size_t rows, size_t cols, const void *a, const void *b, void *c)
{
    job *j = calloc(1, sizeof *j);
    if (!j)
        return -1;
    const int threads = bench_host_threads();
    *j = (job){.op = op, .dbl = dbl, .rows = rows, .cols = cols, .a = a, .b = b, .c = c};
    const size_t es = dbl ? sizeof(double) : sizeof(float);
    if (op == BENCH_COLSUM && !(j->scratch = malloc(2 * (size_t)threads * cols * es))) {
        free(j);
        return -1;
    }
    bench_host_run(share, j);
    if (op == BENCH_SUM) { /* the shares' sums, in order */
        if (dbl) {
            double s = j->part_d[0];
            for (int w = 1; w < threads; w++)
                s += j->part_d[w];
            *(double *)c = s;
        } else {
            float s = j->part_f[0];
            for (int w = 1; w < threads; w++)
                s += j->part_f[w];
            *(float *)c = s;
        }
    }
    if (op == BENCH_COLSUM) { /* the shares' column sums, in order */
        for (size_t col = 0; col < cols; col++) {
            if (dbl) {
                const double *p = j->scratch;
                double s = p[cols + col];
                for (int w = 1; w < threads; w++)
                    s += p[(2 * (size_t)w + 1) * cols + col];
                ((double *)c)[col] = s;
            } else {
                const float *p = j->scratch;
                float s = p[cols + col];
                for (int w = 1; w < threads; w++)
                    s += p[(2 * (size_t)w + 1) * cols + col];
                ((float *)c)[col] = s;
            }
        }
    }
    free(j->scratch);
    free(j);
    return 0;
}

/* levels of halving from n down to BLOCK (one more for the uneven halves) */
static double pairwise_depth(size_t n)
{
    double levels = 1;
    for (size_t m = n; m > BLOCK; m = (m + 1) / 2)
        levels++;
    return (double)BLOCK / LANES + 1 + 4 /* log2 LANES */ + levels;
}

double bench_host_sum_depth(int op, size_t rows, size_t cols, int threads)
{
    if (threads < 1)
        threads = 1;
    if (op == BENCH_ROWSUM)
        return pairwise_depth(cols);
    if (op == BENCH_COLSUM) {
        const size_t per = (rows + (size_t)threads - 1) / (size_t)threads;
        return ROW_BLOCK + (double)((per + ROW_BLOCK - 1) / ROW_BLOCK) + threads;
    }
    return pairwise_depth(rows * cols / (size_t)threads + 16) + threads;
}
