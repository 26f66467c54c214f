/* Host references (see ref.h). */
#include "hostref/ref.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void clrt__ref_fill(void *data, clrt_dtype dtype, size_t count, unsigned seed)
{
    /* xorshift64 from a seed spread over the word; the top 53 bits as [0, 1) */
    uint64_t s = 0x9e3779b97f4a7c15ULL * ((uint64_t)seed + 1);
    for (size_t i = 0; i < count; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        const double v = (double)(s >> 11) / 9007199254740992.0 * 2.0 - 1.0;
        if (dtype == CLRT_FLOAT64)
            ((double *)data)[i] = v;
        else
            ((float *)data)[i] = (float)v;
    }
}

double clrt__ref_get(const void *data, clrt_dtype dtype, size_t i)
{
    return dtype == CLRT_FLOAT64 ? ((const double *)data)[i] : (double)((const float *)data)[i];
}

size_t clrt__ref_gemm_wrong(clrt_dtype dtype, int ta, int tb, const void *a, const void *b, const void *c, size_t M,
                            size_t N, size_t K, size_t max_rows, size_t *checked, FILE *log)
{
    const double eps = dtype == CLRT_FLOAT64 ? DBL_EPSILON : FLT_EPSILON;
    const size_t rows = M < max_rows ? M : max_rows;
    /* one row of the reference at a time, k outer and j inner (b's rows read in order) */
    double *ref = calloc(N ? N : 1, sizeof *ref), *abs_ref = calloc(N ? N : 1, sizeof *abs_ref);
    size_t wrong = 0, count = 0;
    for (size_t r = 0; r < rows && ref && abs_ref; r++) {
        const size_t i = rows == 1 ? 0 : r * (M - 1) / (rows - 1);
        for (size_t j = 0; j < N; j++)
            ref[j] = abs_ref[j] = 0;
        for (size_t k = 0; k < K; k++) {
            const double x = clrt__ref_get(a, dtype, ta ? k * M + i : i * K + k);
            for (size_t j = 0; j < N; j++) {
                const double xy = x * clrt__ref_get(b, dtype, tb ? j * K + k : k * N + j);
                ref[j] += xy;
                abs_ref[j] += fabs(xy);
            }
        }
        for (size_t j = 0; j < N; j++, count++) {
            const double got = clrt__ref_get(c, dtype, i * N + j);
            const double bound = 2.0 * (double)K * eps * abs_ref[j] + 1e-30;
            if (!(fabs(got - ref[j]) <= bound)) {
                if (log && wrong < 5)
                    fprintf(log, "  c[%zu][%zu] = %.9g, reference %.9g, bound %.3g\n", i, j, got, ref[j], bound);
                wrong++;
            }
        }
    }
    if (!ref || !abs_ref)
        wrong = SIZE_MAX;
    free(ref);
    free(abs_ref);
    if (checked)
        *checked = count;
    return wrong;
}

double clrt__ref_act(int act, double x)
{
    switch (act) {
    case 1:
        return x < 0 ? 0.0 : x;
    case 2:
        return 0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
    case 3:
        return 1.0 / (1.0 + exp(-x));
    case 4:
        return tanh(x);
    default:
        return x;
    }
}

/* Element (i, j) of g's reference before the activation, in *pre, and its bound. */
static double ref_element(const clrt__ref_gemm *g, size_t i, size_t j, double *pre)
{
    const clrt_dtype dt = g->dtype;
    const double eps = dt == CLRT_FLOAT64 ? DBL_EPSILON / 2 : FLT_EPSILON / 2;
    const double al = dt == CLRT_FLOAT64 ? g->alpha : (double)(float)g->alpha;
    const double be = dt == CLRT_FLOAT64 ? g->beta : (double)(float)g->beta;
    double ref = 0, mag = 0;
    for (size_t k = 0; k < g->K; k++) {
        const double x = clrt__ref_get(g->a, dt, g->ta ? k * g->lda + i : i * g->lda + k);
        const double y = clrt__ref_get(g->b, dt, g->tb ? j * g->ldb + k : k * g->ldb + j);
        ref += x * y;
        mag += fabs(x * y);
    }
    const double cold = g->c0 ? be * clrt__ref_get(g->c0, dt, i * g->ldc + j) : 0.0;
    const double bias = g->bias_mode == 1   ? clrt__ref_get(g->bias, dt, j)
                        : g->bias_mode == 2 ? clrt__ref_get(g->bias, dt, i * g->bias_ld)
                                            : 0.0;
    *pre = al * ref + cold + bias;
    return 2.0 * (double)(g->K + 3) * eps * (fabs(al) * mag + fabs(cold) + fabs(bias));
}

size_t clrt__ref_gemm_ex_wrong(const clrt__ref_gemm *g, FILE *log)
{
    const double eps = g->dtype == CLRT_FLOAT64 ? DBL_EPSILON / 2 : FLT_EPSILON / 2;
    size_t wrong = 0;
    for (size_t i = 0; i < g->M; i++)
        for (size_t j = 0; j < g->N; j++) {
            double pre;
            const double pre_bound = ref_element(g, i, j, &pre);
            const double want = clrt__ref_act(g->act, pre);
            const double bound = g->act ? 1.2 * pre_bound + 16 * eps * (fabs(want) + (g->act == 2 ? fabs(pre) : 0))
                                        : pre_bound;
            const double got = clrt__ref_get(g->c, g->dtype, i * g->ldc + j);
            const int ok = isnan(want) ? isnan(got) : fabs(got - want) <= bound + 1e-300;
            if (!ok) {
                if (log && wrong < 5)
                    fprintf(log, "  c[%zu][%zu] = %.17g, reference %.17g (before act %d: %.17g), bound %.3g\n", i, j,
                            got, want, g->act, pre, bound);
                wrong++;
            }
        }
    return wrong;
}

/* x rounded to nearest even to a binary format of mbits stored significand bits
 * and ebits exponent bits: its bits. */
static uint32_t ref_round(double x, int mbits, int ebits)
{
    const int bias = (1 << (ebits - 1)) - 1, top = (1 << ebits) - 1;
    const uint32_t sign = signbit(x) ? 1u << (mbits + ebits) : 0u, inf = sign | (uint32_t)top << mbits;
    if (isnan(x))
        return inf | 1u << (mbits - 1);
    const double a = fabs(x);
    if (isinf(a))
        return inf;
    if (a == 0)
        return sign;
    int e2;
    (void)frexp(a, &e2);
    int e = e2 - 1; /* a in [2^e, 2^(e+1)) */
    if (e < 1 - bias)
        e = 1 - bias; /* subnormal: in units of the smallest normal's last place */
    double q = nearbyint(ldexp(a, mbits - e));
    if (q >= ldexp(1.0, mbits + 1)) { /* rounded up to the next power of two */
        q = ldexp(1.0, mbits);
        e++;
    }
    if (e + bias >= top)
        return inf;
    const uint32_t m = (uint32_t)q;
    if (m < (1u << mbits))
        return sign | m; /* subnormal (exponent field 0) */
    return sign | (((uint32_t)(e + bias) << mbits) + (m - (1u << mbits)));
}

uint16_t clrt__ref_f16_of(double x) { return (uint16_t)ref_round(x, 10, 5); }
uint16_t clrt__ref_bf16_of(double x) { return (uint16_t)ref_round(x, 7, 8); }

double clrt__ref_f16_value(uint16_t h)
{
    const int e = (h >> 10) & 31, m = h & 1023;
    const double s = h & 0x8000 ? -1.0 : 1.0;
    if (e == 31)
        return m ? NAN : s * INFINITY;
    return s * (e ? ldexp(1024 + m, e - 25) : ldexp(m, -24));
}

double clrt__ref_bf16_value(uint16_t b)
{
    const uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return (double)f;
}
