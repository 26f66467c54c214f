/* Host references (see ref.h). */
#include "hostref/ref.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

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
