/* clrt_transpose: c = a^T, bit for bit (float32 and float64 bit patterns of
 * every kind, NaN payloads included; int32 through the float32 kernel), at odd
 * and non-square shapes, on views at odd offsets (the parents' other elements
 * must stay as they were) and on outputs with a canary after them; both kernel
 * variants with tiles that divide nothing, forced through the tuning API; and
 * every refusal, overlaps through views included, with nothing left alive. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fault_sweep.h"
#include "common/test_util.h"

#include "base/debug.h"

/* Random bit patterns: denormals, infinities and NaNs with payloads among them. */
static void fill_bits(void *p, size_t bytes, uint64_t seed)
{
    uint64_t s = 0x9e3779b97f4a7c15ULL * (seed + 1);
    unsigned char *b = p;
    for (size_t i = 0; i < bytes; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        b[i] = (unsigned char)(s >> 32);
    }
}

/* A rows x cols operand: a plain buffer (with a canary after it when asked),
 * or a window at (3, 1) of a parent 4 rows and 6 columns larger whose bytes
 * are `around`. */
enum { CANARY = 16 };

typedef struct win {
    clrt_buffer *buf, *parent;
    clrt_dtype dt;
    size_t rows, cols, prow, pcol;
    unsigned char around;
    int canary;
} win;

static void win_make(win *w, clrt_context *ctx, clrt_queue *q, clrt_dtype dt, size_t rows, size_t cols,
                     const void *host, int view, unsigned char around)
{
    memset(w, 0, sizeof *w);
    w->dt = dt;
    w->rows = rows;
    w->cols = cols;
    w->around = around;
    if (!view) {
        if (host) {
            TU_OK(clrt_buffer_create(&w->buf, ctx, dt, rows, cols));
            TU_OK(clrt_buffer_write(q, w->buf, host, rows * cols));
        } else {
            w->buf = tu_padded_buffer(ctx, q, dt, rows, cols, CANARY);
            w->canary = 1;
        }
        return;
    }
    w->prow = rows + 4;
    w->pcol = cols + 6;
    const size_t n = w->prow * w->pcol;
    unsigned char *fill = malloc(n * tu_dtype_size(dt));
    assert_non_null(fill);
    memset(fill, around, n * tu_dtype_size(dt));
    TU_OK(clrt_buffer_create(&w->parent, ctx, dt, w->prow, w->pcol));
    TU_OK(clrt_buffer_write(q, w->parent, fill, n));
    free(fill);
    TU_OK(clrt_buffer_view(&w->buf, w->parent, 3, 1, rows, cols));
    if (host)
        TU_OK(clrt_buffer_write(q, w->buf, host, rows * cols));
}

static void win_check_around(const win *w, clrt_queue *q)
{
    if (w->canary && !tu_canary_intact(q, w->buf, CANARY))
        fail_msg("the canary after the %zux%zu output was overwritten", w->rows, w->cols);
    if (!w->parent)
        return;
    const size_t es = tu_dtype_size(w->dt), n = w->prow * w->pcol;
    unsigned char *all = malloc(n * es);
    assert_non_null(all);
    TU_OK(clrt_buffer_read(q, w->parent, all, n));
    for (size_t r = 0; r < w->prow; r++)
        for (size_t c = 0; c < w->pcol; c++) {
            if (r >= 3 && r < 3 + w->rows && c >= 1 && c < 1 + w->cols)
                continue;
            for (size_t k = 0; k < es; k++)
                if (all[(r * w->pcol + c) * es + k] != w->around)
                    fail_msg("the parent's element (%zu, %zu) outside the %zux%zu output window changed", r, c,
                             w->rows, w->cols);
        }
    free(all);
}

static void win_free(win *w)
{
    clrt_buffer_destroy(w->buf);
    clrt_buffer_destroy(w->parent);
}

static const char *dt_name(clrt_dtype dt)
{
    return dt == CLRT_FLOAT64 ? "f64" : dt == CLRT_INT32 ? "i32" : "f32";
}

/* One transpose, checked bit for bit. views: bit 0 a, bit 1 c are windows. */
static void check_transpose(clrt_context *ctx, clrt_queue *q, clrt_dtype dt, size_t M, size_t N, unsigned views)
{
    const size_t es = tu_dtype_size(dt);
    unsigned char *a = malloc(M * N * es), *c = malloc(M * N * es);
    assert_true(a && c);
    fill_bits(a, M * N * es, M * 1000003 + N);
    win wa, wc;
    win_make(&wa, ctx, q, dt, M, N, a, views & 1, 0x5a);
    win_make(&wc, ctx, q, dt, N, M, NULL, views & 2, 0xc3);
    TU_OK(clrt_transpose(q, wc.buf, wa.buf));
    TU_OK(clrt_buffer_read(q, wc.buf, c, M * N));
    size_t bad = 0;
    for (size_t i = 0; i < M; i++)
        for (size_t j = 0; j < N; j++)
            if (memcmp(c + (j * M + i) * es, a + (i * N + j) * es, es) != 0 && bad++ < 3)
                print_message("  c[%zu][%zu] differs from a[%zu][%zu]\n", j, i, i, j);
    if (bad)
        fail_msg("transpose %s %zux%zu (views %u): %zu of %zu wrong", dt_name(dt), M, N, views, bad, M * N);
    win_check_around(&wc, q);
    win_free(&wa);
    win_free(&wc);
    free(a);
    free(c);
}

static const size_t dims_full[] = {1, 7, 17, 65, 127, 1031};
static const size_t dims_small[] = {1, 7, 17, 33};

static void every_shape(clrt_context *ctx, clrt_queue *q, clrt_dtype dt)
{
    const size_t *dims = tu_small() ? dims_small : dims_full;
    const size_t nd = tu_small() ? sizeof dims_small / sizeof *dims_small : sizeof dims_full / sizeof *dims_full;
    for (size_t i = 0; i < nd; i++)
        for (size_t j = 0; j < nd; j++) {
            check_transpose(ctx, q, dt, dims[i], dims[j], 0);
            check_transpose(ctx, q, dt, dims[i], dims[j], 1u + (unsigned)(i + j) % 3u);
        }
}

static void transpose_f32(void **state)
{
    (void)state;
    every_shape(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32);
}

static void transpose_f64(void **state)
{
    (void)state;
    if (!tu_fx->dev.has_fp64) {
        print_message("device has no fp64: CLRT_FLOAT64 is refused (tested in device_api)\n");
        skip();
    }
    every_shape(tu_fx->ctx, tu_fx->q, CLRT_FLOAT64);
}

static void transpose_i32(void **state)
{
    (void)state;
    every_shape(tu_fx->ctx, tu_fx->q, CLRT_INT32);
}

/* 10^6 elements (not on emulators): one long row, one long column, a large square. */
static void transpose_large(void **state)
{
    (void)state;
    if (tu_small()) {
        print_message("large sizes are not run under an emulator\n");
        skip();
    }
    check_transpose(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, 1, 1000000, 0);
    check_transpose(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, 1000000, 1, 2);
    check_transpose(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, 1000, 1001, 3);
}

/* Both variants, tiles and groups that divide no shape, forced through the
 * tuning API (the float32 parameters serve int32 too). */
static void transpose_every_variant(void **state)
{
    (void)state;
    static const char *const variants[] = {
        "use_local=0 tile=3 wgx=4",      "use_local=0 tile=1 wgx=1",       "use_local=0 tile=16 wgx=64",
        "use_local=1 tile=5 wgx=5 wgy=2", "use_local=1 tile=8 wgx=4 wgy=8", "use_local=1 tile=16 wgx=16 wgy=1",
    };
    static const size_t shapes[][2] = {{1, 1}, {1, 37}, {37, 1}, {19, 23}, {40, 9}};
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        clrt_queue *q;
        clrt_context *ctx = tu_fresh_context(&q);
        for (int d = 0; d < tu_n_dtypes(); d++) {
            const clrt_dtype dt = tu_dtype_at(d);
            tu_override(ctx, "transpose", dt, variants[v]);
            for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
                check_transpose(ctx, q, dt, shapes[s][0], shapes[s][1], (unsigned)s % 4u);
                if (!d)
                    check_transpose(ctx, q, CLRT_INT32, shapes[s][0], shapes[s][1], 3u - (unsigned)s % 4u);
            }
            tu_assert_ran(ctx, "transpose", dt, variants[v]);
        }
        clrt_queue_destroy(q);
        clrt_context_destroy(ctx);
    }
}

static void refusals(void **state)
{
    (void)state;
    clrt_queue *q = tu_fx->q;
    clrt_buffer *f64 = NULL, *parent, *v1, *v2, *v3, *v4;
    clrt_buffer *a = tu_buffer(CLRT_FLOAT32, 4, 5), *c = tu_buffer(CLRT_FLOAT32, 5, 4);
    clrt_buffer *sq = tu_buffer(CLRT_FLOAT32, 3, 3), *bad = tu_buffer(CLRT_FLOAT32, 4, 5);
    clrt_buffer *i32 = tu_buffer(CLRT_INT32, 5, 4);
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_transpose(NULL, c, a));
    TU_REFUSED(CLRT_EINVAL, "buffer c is NULL", clrt_transpose(q, NULL, a));
    TU_REFUSED(CLRT_EINVAL, "buffer a is NULL", clrt_transpose(q, c, NULL));
    /* shapes and dtypes */
    TU_REFUSED(CLRT_ESHAPE, "transpose of a 4x5 matrix is 5x4", clrt_transpose(q, bad, a));
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_transpose(q, i32, a));
    if (tu_fx->dev.has_fp64) {
        f64 = tu_buffer(CLRT_FLOAT64, 5, 4);
        TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_transpose(q, f64, a));
    }
    /* overlap: in place, or windows of one parent sharing any element */
    TU_REFUSED(CLRT_EINVAL, "shares memory", clrt_transpose(q, sq, sq));
    TU_OK(clrt_buffer_create(&parent, tu_fx->ctx, CLRT_FLOAT32, 12, 12));
    TU_OK(clrt_buffer_view(&v1, parent, 1, 1, 4, 6)); /* a: rows 1-4, cols 1-6 */
    TU_OK(clrt_buffer_view(&v2, parent, 4, 6, 6, 4)); /* c: rows 4-9, cols 6-9: shares (4, 6) */
    TU_OK(clrt_buffer_view(&v3, parent, 5, 0, 6, 4)); /* c: rows 5-10: disjoint */
    TU_OK(clrt_buffer_view(&v4, parent, 0, 0, 6, 4)); /* c: rows 0-5, cols 0-3: shares (1..4, 1..3) */
    TU_REFUSED(CLRT_EINVAL, "shares memory", clrt_transpose(q, v2, v1));
    TU_REFUSED(CLRT_EINVAL, "shares memory", clrt_transpose(q, v4, v1));
    TU_OK(clrt_transpose(q, v3, v1));
    /* another context's operand */
    clrt_context *other = tu_context_on(&tu_fx->dev);
    clrt_buffer *oc;
    TU_OK(clrt_buffer_create(&oc, other, CLRT_FLOAT32, 5, 4));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_transpose(q, oc, a));
    clrt_buffer_destroy(oc);
    clrt_context_destroy(other);
    TU_OK(clrt_queue_finish(q));
    TU_DESTROY_BUFFERS(a, c, sq, bad, i32, f64, parent, v1, v2, v3, v4);
}

/* ---- injected OpenCL failures (src/base/debug.h's seam): every call of every site
 * a transpose reaches fails once in turn; the session gets the named status and
 * leaves nothing alive */

static int transpose_session(void)
{
    enum { M = 5, N = 9 };
    clrt_context *ctx = NULL;
    clrt_queue *q = NULL;
    clrt_buffer *a = NULL, *c = NULL, *ia = NULL, *ic = NULL;
    float h[M * N], got[M * N];
    int32_t hi[M * N], goti[M * N];
    for (int i = 0; i < M * N; i++) {
        h[i] = (float)i * 0.5f;
        hi[i] = -7 * i;
    }
    int s = tu_session_open(&ctx, &q);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&a, ctx, CLRT_FLOAT32, M, N);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&c, ctx, CLRT_FLOAT32, N, M);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&ia, ctx, CLRT_INT32, M, N);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&ic, ctx, CLRT_INT32, N, M);
    if (s == CLRT_OK)
        s = clrt_buffer_write(q, a, h, M * N);
    if (s == CLRT_OK)
        s = clrt_buffer_write(q, ia, hi, M * N);
    if (s == CLRT_OK)
        s = clrt_transpose(q, c, a);
    if (s == CLRT_OK)
        s = clrt_transpose(q, ic, ia);
    if (s == CLRT_OK)
        s = clrt_queue_finish(q);
    if (s == CLRT_OK)
        s = clrt_buffer_read(q, c, got, M * N);
    if (s == CLRT_OK)
        s = clrt_buffer_read(q, ic, goti, M * N);
    if (s == CLRT_OK)
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                assert_true(got[j * M + i] == h[i * N + j]);
                assert_int_equal(goti[j * M + i], hi[i * N + j]);
            }
    TU_DESTROY_BUFFERS(a, c, ia, ic);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    return s;
}

/* Two launches, and one build: int32 runs the float32 kernel. */
static void transpose_calls(const unsigned long calls[CLRT__FAULT_SITES])
{
    assert_int_equal(calls[CLRT__FAULT_ENQUEUE_KERNEL], 2);
    assert_int_equal(calls[CLRT__FAULT_BUILD], 1);
}

static void fault_sweep(void **state)
{
    (void)state;
    tu_fault_sweep(transpose_session, CLRT__FAULT_CREATE_BUFFER, CLRT__FAULT_SITES, transpose_calls, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_FIXTURE_TEST(transpose_f32),
        TU_FIXTURE_TEST(transpose_f64),
        TU_FIXTURE_TEST(transpose_i32),
        TU_FIXTURE_TEST(transpose_large),
        TU_FIXTURE_TEST(transpose_every_variant),
        TU_FIXTURE_TEST(refusals),
        TU_FIXTURE_TEST(fault_sweep),
    };
    return TU_RUN_FIXTURE_SUITE(tests);
}
