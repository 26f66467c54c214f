/* clrt_convert and the 16-bit storage dtypes: every pair of float32, float64,
 * float16 and bfloat16 against the host's own rounding in double (hostref:
 * clrt__ref_f16_of, clrt__ref_bf16_of), bit for bit, over values picked to break
 * a conversion (ties to even, the largest finite values and the first that
 * overflow, subnormals of each format and the ties between them, NaN, infinities,
 * signed zeros, values a conversion through float would round twice) and random
 * ones over every exponent; views with their parents' other elements untouched;
 * clrt_copy of 16-bit buffers bit for bit (NaN payloads too); every refusal, and
 * every other operation refusing the 16-bit dtypes. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

#include "base/debug.h"

static const clrt_dtype dtypes[4] = {CLRT_FLOAT32, CLRT_FLOAT64, CLRT_FLOAT16, CLRT_BFLOAT16};

static const char *name(clrt_dtype dt)
{
    return dt == CLRT_FLOAT64 ? "f64" : dt == CLRT_FLOAT32 ? "f32" : dt == CLRT_FLOAT16 ? "f16" : "bf16";
}

static size_t size_of(clrt_dtype dt) { return dt == CLRT_FLOAT64 ? 8 : dt == CLRT_FLOAT32 ? 4 : 2; }

/* x rounded to dt, stored at element i of p (the host's reference rounding). */
static void put(void *p, clrt_dtype dt, size_t i, double x)
{
    if (dt == CLRT_FLOAT64)
        ((double *)p)[i] = x;
    else if (dt == CLRT_FLOAT32)
        ((float *)p)[i] = (float)x;
    else
        ((uint16_t *)p)[i] = dt == CLRT_FLOAT16 ? clrt__ref_f16_of(x) : clrt__ref_bf16_of(x);
}

static double get(const void *p, clrt_dtype dt, size_t i)
{
    if (dt == CLRT_FLOAT64)
        return ((const double *)p)[i];
    if (dt == CLRT_FLOAT32)
        return ((const float *)p)[i];
    const uint16_t h = ((const uint16_t *)p)[i];
    return dt == CLRT_FLOAT16 ? clrt__ref_f16_value(h) : clrt__ref_bf16_value(h);
}

/* The values: the hard ones, then n - that many random ones over exponents
 * -150 .. 130 (each format's range and past it), both signs. */
static double *values(size_t n, size_t *hard)
{
    const double t = ldexp(1.0, -11), tb = ldexp(1.0, -8);
    const double v[] = {
        0.0, -0.0, 1.0, -1.0, 0.1, -2.5, 65504.0, 65519.99, 65520.0, -65520.0, 70000.0, 1e5,
        1 + t, 1 + 3 * t, 1 + t + ldexp(1.0, -40), -(1 + t), /* float16 ties, and past one */
        ldexp(1.0, -24), ldexp(1.0, -25), 3 * ldexp(1.0, -25), ldexp(1.0, -14) - ldexp(1.0, -25),
        ldexp(1.0, -14), 1e-8, -6e-8, ldexp(1.0, -26),          /* float16 subnormals */
        1 + tb, 1 + 3 * tb, 1 + tb + ldexp(1.0, -30), -(1 + tb), /* bfloat16 ties; past one via float */
        3.3895313892515355e38, 3.3961775292304630e38, 3.4028234663852886e38, 3.5e38, 1e39, -1e300,
        ldexp(1.0, -126), ldexp(1.0, -130), ldexp(1.0, -133), ldexp(1.0, -134), 3 * ldexp(1.0, -134),
        ldexp(1.0, -149), ldexp(1.0, -150), 1e-40, 1e-300, /* bfloat16 and float32 subnormals */
        INFINITY, -INFINITY, NAN, -NAN,
    };
    *hard = sizeof v / sizeof *v;
    double *x = malloc(n * sizeof *x);
    assert_non_null(x);
    memcpy(x, v, sizeof v);
    uint64_t s = 0x9e3779b97f4a7c15ULL;
    for (size_t i = *hard; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        const double m = 1.0 + (double)(s >> 11) / 9007199254740992.0;
        x[i] = ldexp(s & 1 ? -m : m, (int)(s >> 3 & 255) - 150 + (int)(s >> 40 & 15));
    }
    return x;
}

/* One conversion src -> dst of n values (each first rounded to src's dtype on the
 * host), as windows of wider parents when view; every element against the
 * reference, bit for bit (NaN: any NaN), the parents' other elements unchanged. */
static void check_pair(clrt_dtype sd, clrt_dtype dd, size_t rows, size_t cols, int view)
{
    clrt_queue *q = tu_fx->q;
    const size_t n = rows * cols;
    size_t hard;
    double *x = values(n, &hard);
    unsigned char *hs = malloc(n * 8), *hd = malloc(n * 8), *want = malloc(n * 8);
    assert_true(hs && hd && want);
    for (size_t i = 0; i < n; i++)
        put(hs, sd, i, x[i]);
    for (size_t i = 0; i < n; i++)
        put(want, dd, i, get(hs, sd, i)); /* the source's value, rounded once to dst */
    clrt_buffer *s, *d, *ps = NULL, *pd = NULL;
    unsigned char *fill = calloc((rows + 3) * (cols + 4), 8);
    assert_non_null(fill);
    memset(fill, 0x5a, (rows + 3) * (cols + 4) * 8);
    if (view) {
        TU_OK(clrt_buffer_create(&ps, tu_fx->ctx, sd, rows + 3, cols + 4));
        TU_OK(clrt_buffer_create(&pd, tu_fx->ctx, dd, rows + 3, cols + 4));
        TU_OK(clrt_buffer_write(q, pd, fill, (rows + 3) * (cols + 4)));
        TU_OK(clrt_buffer_view(&s, ps, 1, 3, rows, cols));
        TU_OK(clrt_buffer_view(&d, pd, 2, 1, rows, cols));
    } else {
        TU_OK(clrt_buffer_create(&s, tu_fx->ctx, sd, rows, cols));
        TU_OK(clrt_buffer_create(&d, tu_fx->ctx, dd, rows, cols));
    }
    TU_OK(clrt_buffer_write(q, s, hs, n));
    TU_OK(clrt_convert(q, d, s));
    TU_OK(clrt_buffer_read(q, d, hd, n));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        const double g = get(hd, dd, i), w = get(want, dd, i);
        const int ok = isnan(w) ? isnan(g) : memcmp(hd + i * size_of(dd), want + i * size_of(dd), size_of(dd)) == 0;
        if (!ok && bad++ < 4)
            print_message("  %s %.17g -> %s: got %.17g, want %.17g (value %zu%s)\n", name(sd),
                          get(hs, sd, i), name(dd), g, w, i,
                          i < hard ? ", a hard one" : "");
    }
    if (bad)
        fail_msg("convert %s -> %s (%zux%zu%s): %zu of %zu wrong", name(sd), name(dd), rows, cols,
                 view ? ", views" : "", bad, n);
    if (pd) { /* dst's parent outside the window: as written */
        const size_t pn = (rows + 3) * (cols + 4), es = size_of(dd);
        unsigned char *all = malloc(pn * es);
        assert_non_null(all);
        TU_OK(clrt_buffer_read(q, pd, all, pn));
        for (size_t r = 0; r < rows + 3; r++)
            for (size_t c = 0; c < cols + 4; c++)
                if (!(r >= 2 && r < 2 + rows && c >= 1 && c < 1 + cols) &&
                    memcmp(all + (r * (cols + 4) + c) * es, fill, es) != 0)
                    fail_msg("convert %s -> %s: dst's parent changed at (%zu, %zu)", name(sd),
                             name(dd), r, c);
        free(all);
    }
    TU_DESTROY_BUFFERS(s, d, ps, pd);
    TU_FREE_ALL(x, hs, hd, want, fill);
}

static int usable(clrt_dtype dt) { return dt != CLRT_FLOAT64 || tu_fx->dev.has_fp64; }

/* Every pair (float64 where the device has it), a long row and views. */
static void convert_every_pair(void **state)
{
    (void)state;
    const size_t n = tu_small() ? 300 : 4099;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            if (!usable(dtypes[i]) || !usable(dtypes[j]))
                continue;
            check_pair(dtypes[i], dtypes[j], 1, n, 0);
            check_pair(dtypes[i], dtypes[j], tu_small() ? 7 : 37, tu_small() ? 9 : 67, 1);
        }
}

/* The 16-bit dtypes moved bit for bit: clrt_convert and clrt_copy of one dtype,
 * NaN payloads and subnormals as they are; clrt_copy of the very window is
 * nothing to do. */
static void copy_16bit(void **state)
{
    (void)state;
    clrt_queue *q = tu_fx->q;
    const uint16_t h[8] = {0x7e01, 0xffc1, 0x0001, 0x8001, 0x7c00, 0x3c00, 0x0000, 0x8000};
    uint16_t got[8];
    for (int t = 2; t < 4; t++) {
        clrt_buffer *a, *b;
        TU_OK(clrt_buffer_create(&a, tu_fx->ctx, dtypes[t], 2, 4));
        TU_OK(clrt_buffer_create(&b, tu_fx->ctx, dtypes[t], 2, 4));
        TU_OK(clrt_buffer_write(q, a, h, 8));
        TU_OK(clrt_copy(q, b, a));
        TU_OK(clrt_buffer_read(q, b, got, 8));
        assert_memory_equal(got, h, sizeof h);
        TU_OK(clrt_convert(q, b, a));
        TU_OK(clrt_buffer_read(q, b, got, 8));
        assert_memory_equal(got, h, sizeof h);
        TU_OK(clrt_copy(q, a, a));
        TU_OK(clrt_buffer_read(q, a, got, 8));
        assert_memory_equal(got, h, sizeof h);
        TU_DESTROY_BUFFERS(a, b);
    }
}

static void refusals(void **state)
{
    (void)state;
    clrt_queue *q = tu_fx->q;
    clrt_buffer *f32 = tu_buffer(CLRT_FLOAT32, 3, 4), *h16 = tu_buffer(CLRT_FLOAT16, 3, 4);
    clrt_buffer *b16 = tu_buffer(CLRT_BFLOAT16, 3, 4), *i32 = tu_buffer(CLRT_INT32, 3, 4);
    clrt_buffer *wide = tu_buffer(CLRT_FLOAT16, 3, 5), *h16b = tu_buffer(CLRT_FLOAT16, 4, 3);
    clrt_buffer *one = tu_buffer(CLRT_FLOAT16, 1, 1), *parent, *v1, *v2;
    const uint16_t h[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    uint16_t got[12];
    TU_OK(clrt_buffer_write(q, h16, h, 12));
    assert_int_equal(clrt_buffer_dtype(h16), CLRT_FLOAT16);
    clrt__debug_fault_clear(); /* counts the launches from here */
    TU_REFUSED(CLRT_EUNSUPPORTED, "int32", clrt_convert(q, i32, f32));
    TU_REFUSED(CLRT_EUNSUPPORTED, "int32", clrt_convert(q, h16, i32));
    TU_REFUSED(CLRT_ESHAPE, "one shape", clrt_convert(q, wide, f32));
    TU_REFUSED(CLRT_ESHAPE, "one shape", clrt_convert(q, h16b, f32));
    TU_REFUSED(CLRT_EINVAL, "is NULL", clrt_convert(q, NULL, f32));
    TU_REFUSED(CLRT_EINVAL, "is NULL", clrt_convert(NULL, h16, f32));
    TU_REFUSED(CLRT_EINVAL, "shares memory", clrt_convert(q, h16, h16)); /* even the same window */
    TU_OK(clrt_buffer_create(&parent, tu_fx->ctx, CLRT_FLOAT16, 6, 4));
    TU_OK(clrt_buffer_view(&v1, parent, 0, 0, 3, 4));
    TU_OK(clrt_buffer_view(&v2, parent, 2, 0, 3, 4));
    TU_REFUSED(CLRT_EINVAL, "shares memory", clrt_convert(q, v2, v1));
    TU_REFUSED(CLRT_EINVAL, "shares memory", clrt_copy(q, v2, v1));
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_copy(q, b16, h16));
    clrt_context *other = tu_context_on(&tu_fx->dev);
    clrt_buffer *ob;
    TU_OK(clrt_buffer_create(&ob, other, CLRT_FLOAT16, 3, 4));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_convert(q, ob, f32));
    clrt_buffer_destroy(ob);
    clrt_context_destroy(other);
    /* the neural-network calls refuse 16-bit storage (the math family widens it to
     * float32: tests/math/device_half.c) */
    TU_REFUSED(CLRT_EUNSUPPORTED, "neural-network", clrt_nn_relu_forward(q, b16, b16));
    /* nothing written by the refusals */
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 0); /* the refusals launched nothing */
    TU_OK(clrt_buffer_read(q, h16, got, 12));
    assert_memory_equal(got, h, sizeof h);
    TU_DESTROY_BUFFERS(f32, h16, b16, i32, wide, h16b, one, parent, v1, v2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_FIXTURE_TEST(convert_every_pair),
        TU_FIXTURE_TEST(copy_16bit),
        TU_FIXTURE_TEST(refusals),
    };
    return TU_RUN_FIXTURE_SUITE(tests);
}
