/* Views (clrt_buffer_view), reshapes (clrt_buffer_reshape) and int32
 * buffers: a view is a window of its parent's memory; writes and reads of it
 * touch only the window; views of views compose; a view outlives its parent
 * handle; a reshape is the same run of memory in another shape, and
 * operations see it overlap other shapes of that memory; every refusal is
 * documented. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

#include "base/debug.h"
#include "runtime/handles.h"

enum { PR = 9, PC = 13 }; /* the parent: 9 x 13 */

/* The parent's contents: element (r, c) = 100 r + c. */
static void parent_values(float *h)
{
    for (int r = 0; r < PR; r++)
        for (int c = 0; c < PC; c++)
            h[r * PC + c] = (float)(100 * r + c);
}

static clrt_buffer *make_parent(void)
{
    float h[PR * PC];
    parent_values(h);
    return tu_upload(tu_fx->ctx, tu_fx->q, CLRT_FLOAT32, PR, PC, h);
}

/* Reading a view gives its window; writing it changes only its window. */
static void window_read_write(void **state)
{
    (void)state;
    clrt_buffer *p = make_parent();
    /* a strided window, a whole-row window (contiguous), one element, one column, the whole parent */
    static const size_t windows[][4] = {{2, 3, 4, 5}, {1, 0, 3, PC}, {8, 12, 1, 1}, {0, 6, PR, 1}, {0, 0, PR, PC}};
    for (size_t w = 0; w < sizeof windows / sizeof *windows; w++) {
        const size_t r0 = windows[w][0], c0 = windows[w][1], rows = windows[w][2], cols = windows[w][3];
        clrt_buffer *v;
        TU_OK(clrt_buffer_view(&v, p, r0, c0, rows, cols));
        assert_int_equal(clrt_buffer_rows(v), rows);
        assert_int_equal(clrt_buffer_cols(v), cols);
        assert_int_equal(clrt_buffer_dtype(v), CLRT_FLOAT32);
        float got[PR * PC], all[PR * PC], want[PR * PC];
        TU_OK(clrt_buffer_read(tu_fx->q, v, got, rows * cols));
        for (size_t r = 0; r < rows; r++)
            for (size_t c = 0; c < cols; c++)
                assert_true(got[r * cols + c] == (float)(100 * (r0 + r) + c0 + c));
        /* write -x into the window, then the parent holds -x there and its own values elsewhere */
        for (size_t i = 0; i < rows * cols; i++)
            got[i] = -got[i] - 0.5f;
        TU_OK(clrt_buffer_write(tu_fx->q, v, got, rows * cols));
        TU_OK(clrt_buffer_read(tu_fx->q, p, all, PR * PC));
        parent_values(want);
        for (size_t r = 0; r < rows; r++)
            for (size_t c = 0; c < cols; c++)
                want[(r0 + r) * PC + c0 + c] = -want[(r0 + r) * PC + c0 + c] - 0.5f;
        assert_memory_equal(all, want, sizeof all);
        /* and back */
        parent_values(want);
        TU_OK(clrt_buffer_write(tu_fx->q, p, want, PR * PC));
        TU_REFUSED(CLRT_EINVAL, "count", clrt_buffer_read(tu_fx->q, v, got, rows * cols + 1));
        clrt_buffer_destroy(v);
    }
    clrt_buffer_destroy(p);
}

/* A view of a view is the window of the same memory at the summed offset. */
static void views_of_views(void **state)
{
    (void)state;
    clrt_buffer *p = make_parent(), *v, *vv, *vvv;
    TU_OK(clrt_buffer_view(&v, p, 1, 2, 7, 9));
    TU_OK(clrt_buffer_view(&vv, v, 2, 3, 4, 5));
    TU_OK(clrt_buffer_view(&vvv, vv, 3, 4, 1, 1));
    float x[20], one;
    TU_OK(clrt_buffer_read(tu_fx->q, vv, x, 20));
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 5; c++)
            assert_true(x[r * 5 + c] == (float)(100 * (3 + r) + 5 + c));
    TU_OK(clrt_buffer_read(tu_fx->q, vvv, &one, 1));
    assert_true(one == (float)(100 * 6 + 9));
    /* a view's window must lie in its own parent (the view), not the whole memory */
    clrt_buffer *bad = (clrt_buffer *)0x1;
    TU_REFUSED(CLRT_EINVAL, "does not lie inside", clrt_buffer_view(&bad, vv, 0, 0, 5, 5));
    assert_null(bad);
    TU_DESTROY_BUFFERS(vvv, vv, v, p);
}

/* The parent may be destroyed first: the view keeps the memory. */
static void view_outlives_parent(void **state)
{
    (void)state;
    clrt_buffer *p = make_parent(), *v;
    TU_OK(clrt_buffer_view(&v, p, 4, 4, 2, 3));
    clrt_buffer_destroy(p);
    assert_int_equal(clrt__debug_live(CLRT__LIVE_BUFFER), 1);
    float x[6];
    TU_OK(clrt_buffer_read(tu_fx->q, v, x, 6));
    assert_true(x[0] == 404.0f && x[5] == 506.0f);
    const float y[6] = {1, 2, 3, 4, 5, 6};
    TU_OK(clrt_buffer_write(tu_fx->q, v, y, 6));
    TU_OK(clrt_buffer_read(tu_fx->q, v, x, 6));
    assert_memory_equal(x, y, sizeof y);
    clrt_buffer_destroy(v);
    assert_int_equal(clrt__debug_live(CLRT__LIVE_BUFFER), 0);
}

static void view_refusals(void **state)
{
    (void)state;
    clrt_buffer *p = make_parent(), *v = (clrt_buffer *)0x1;
    TU_REFUSED(CLRT_EINVAL, "out is NULL", clrt_buffer_view(NULL, p, 0, 0, 1, 1));
    TU_REFUSED(CLRT_EINVAL, "parent is NULL", clrt_buffer_view(&v, NULL, 0, 0, 1, 1));
    assert_null(v);
    TU_REFUSED(CLRT_EINVAL, "dimension is zero", clrt_buffer_view(&v, p, 0, 0, 0, 1));
    TU_REFUSED(CLRT_EINVAL, "dimension is zero", clrt_buffer_view(&v, p, 0, 0, 1, 0));
    TU_REFUSED(CLRT_EINVAL, "does not lie inside", clrt_buffer_view(&v, p, PR, 0, 1, 1));
    TU_REFUSED(CLRT_EINVAL, "does not lie inside", clrt_buffer_view(&v, p, 0, PC, 1, 1));
    TU_REFUSED(CLRT_EINVAL, "does not lie inside", clrt_buffer_view(&v, p, 1, 0, PR, 1));
    TU_REFUSED(CLRT_EINVAL, "does not lie inside", clrt_buffer_view(&v, p, 0, 1, 1, PC));
    TU_REFUSED(CLRT_EINVAL, "does not lie inside", clrt_buffer_view(&v, p, SIZE_MAX, 0, 2, 1));
    TU_REFUSED(CLRT_EINVAL, "does not lie inside", clrt_buffer_view(&v, p, 0, 2, 1, SIZE_MAX));
    assert_null(v);
    /* a handle that is no longer a live buffer (its tag overwritten, as destroy does) */
    clrt_buffer dead = *p;
    dead.tag = CLRT__TAG_DEAD;
    TU_REFUSED(CLRT_EINVAL, "not a live clrt buffer", clrt_buffer_view(&v, &dead, 0, 0, 1, 1));
    assert_int_equal(clrt__debug_live(CLRT__LIVE_BUFFER), 1); /* nothing made */
    clrt_buffer_destroy(p);
}

/* Element k of the reshape is element k of its source in row order; writes
 * go through; a window of it is a window of the new shape. */
static void reshape_read_write(void **state)
{
    (void)state;
    clrt_buffer *p = make_parent(), *v, *r;
    float want[PR * PC], got[PR * PC];
    parent_values(want);
    /* the whole parent, then contiguous views of it: rows 2-4 (as wide as p), one row's part */
    static const size_t srcs[][4] = {{0, 0, PR, PC}, {2, 0, 3, PC}, {4, 3, 1, 7}};
    static const size_t shapes[][2] = {{PC, PR}, {1, PR * PC}, {PR * PC, 1}, {3, 39}, {39, 3}, {13, 3}, {7, 1}};
    for (size_t s = 0; s < sizeof srcs / sizeof *srcs; s++) {
        const size_t r0 = srcs[s][0], c0 = srcs[s][1], n = srcs[s][2] * srcs[s][3];
        TU_OK(clrt_buffer_view(&v, p, r0, c0, srcs[s][2], srcs[s][3]));
        for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++) {
            if (shapes[k][0] * shapes[k][1] != n)
                continue;
            TU_OK(clrt_buffer_reshape(&r, v, shapes[k][0], shapes[k][1]));
            assert_int_equal(clrt_buffer_rows(r), shapes[k][0]);
            assert_int_equal(clrt_buffer_cols(r), shapes[k][1]);
            TU_OK(clrt_buffer_read(tu_fx->q, r, got, n));
            for (size_t i = 0; i < n; i++)
                assert_true(got[i] == want[(r0 + (c0 + i) / PC) * PC + (c0 + i) % PC]);
            clrt_buffer_destroy(r);
        }
        clrt_buffer_destroy(v);
    }
    /* p as 13 x 9: its window (2, 3) 4 x 5 is p's elements 9 (2 + i) + 3 + j; written through */
    clrt_buffer *w;
    TU_OK(clrt_buffer_reshape(&r, p, PC, PR));
    TU_OK(clrt_buffer_view(&w, r, 2, 3, 4, 5));
    float x[20];
    TU_OK(clrt_buffer_read(tu_fx->q, w, x, 20));
    for (size_t i = 0; i < 20; i++)
        assert_true(x[i] == want[(2 + i / 5) * PR + 3 + i % 5]);
    TU_OK(clrt_fill(tu_fx->q, w, -1.0));
    TU_OK(clrt_buffer_read(tu_fx->q, p, got, PR * PC));
    for (size_t i = 0; i < 20; i++)
        want[(2 + i / 5) * PR + 3 + i % 5] = -1.0f;
    assert_memory_equal(got, want, sizeof got);
    /* it keeps the memory, as a view does */
    clrt_buffer_destroy(p);
    TU_OK(clrt_buffer_read(tu_fx->q, r, got, PR * PC));
    assert_memory_equal(got, want, sizeof got);
    TU_DESTROY_BUFFERS(w, r);
}

/* Two shapes of one memory: in place needs the very same window and
 * stride; spans that meet are an overlap; spans apart are not. */
static void reshape_overlap(void **state)
{
    (void)state;
    clrt_buffer *p = make_parent(), *r, *same, *rw, *pw, *last;
    float want[PR * PC], got[PR * PC];
    parent_values(want);
    TU_OK(clrt_buffer_reshape(&r, p, PC, PR));
    TU_OK(clrt_buffer_reshape(&same, r, PR, PC)); /* p's own shape and stride again */
    TU_OK(clrt_add(tu_fx->q, p, same, same));     /* in place: p = 2 p */
    TU_OK(clrt_buffer_read(tu_fx->q, p, got, PR * PC));
    for (size_t i = 0; i < PR * PC; i++)
        assert_true(got[i] == 2 * want[i]);
    /* 9 x 9 at offset 0 of p (stride 13) and of r (stride 9): one shape, other elements */
    TU_OK(clrt_buffer_view(&pw, p, 0, 0, PR, PR));
    TU_OK(clrt_buffer_view(&rw, r, 0, 0, PR, PR));
    TU_REFUSED(CLRT_EINVAL, "overlaps", clrt_add(tu_fx->q, pw, rw, rw));
    TU_REFUSED(CLRT_EINVAL, "shares memory", clrt_transpose(tu_fx->q, pw, rw));
    /* r's last row (p's last 9 elements) and p's first 9: apart, so allowed */
    TU_OK(clrt_buffer_view(&last, r, PC - 1, 0, 1, PR));
    clrt_buffer *first;
    TU_OK(clrt_buffer_view(&first, p, 0, 0, 1, PR));
    TU_OK(clrt_copy(tu_fx->q, first, last));
    TU_OK(clrt_buffer_read(tu_fx->q, first, got, PR));
    for (size_t i = 0; i < PR; i++)
        assert_true(got[i] == 2 * want[PR * PC - PR + i]);
    TU_DESTROY_BUFFERS(first, last, rw, pw, same, r, p);
}

static void reshape_refusals(void **state)
{
    (void)state;
    clrt_buffer *p = make_parent(), *v, *r = (clrt_buffer *)0x1;
    TU_REFUSED(CLRT_EINVAL, "out is NULL", clrt_buffer_reshape(NULL, p, PC, PR));
    TU_REFUSED(CLRT_EINVAL, "src is NULL", clrt_buffer_reshape(&r, NULL, PC, PR));
    assert_null(r);
    TU_REFUSED(CLRT_EINVAL, "dimension is zero", clrt_buffer_reshape(&r, p, 0, PR));
    TU_REFUSED(CLRT_EINVAL, "dimension is zero", clrt_buffer_reshape(&r, p, PR * PC, 0));
    TU_REFUSED(CLRT_ESHAPE, "117 elements", clrt_buffer_reshape(&r, p, PC, PC));
    TU_REFUSED(CLRT_ESHAPE, "117 elements", clrt_buffer_reshape(&r, p, 1, PR * PC + 1));
    TU_OK(clrt_buffer_view(&v, p, 4, 3, 1, 6));
    /* 2 x (2^63 + 3) is 6 once wrapped around in 64 bits: still not 6 elements */
    TU_REFUSED(CLRT_ESHAPE, "6 elements", clrt_buffer_reshape(&r, v, 2, SIZE_MAX / 2 + 4));
    clrt_buffer_destroy(v);
    TU_OK(clrt_buffer_view(&v, p, 2, 3, 4, 5));
    TU_REFUSED(CLRT_EINVAL, "strided window", clrt_buffer_reshape(&r, v, 5, 4));
    assert_null(r);
    clrt_buffer dead = *p;
    dead.tag = CLRT__TAG_DEAD;
    TU_REFUSED(CLRT_EINVAL, "not a live clrt buffer", clrt_buffer_reshape(&r, &dead, PC, PR));
    assert_int_equal(clrt__debug_live(CLRT__LIVE_BUFFER), 2); /* p and v: nothing made */
    TU_DESTROY_BUFFERS(v, p);
}

/* int32: create, write, read and view, exactly. */
static void int32_buffers(void **state)
{
    (void)state;
    enum { R = 5, C = 7 };
    int32_t h[R * C], back[R * C];
    for (int i = 0; i < R * C; i++)
        h[i] = (i % 2 ? -1 : 1) * (INT32_MAX - i * 1000003);
    clrt_buffer *b, *v;
    TU_OK(clrt_buffer_create(&b, tu_fx->ctx, CLRT_INT32, R, C));
    assert_int_equal(clrt_buffer_dtype(b), CLRT_INT32);
    TU_OK(clrt_buffer_write(tu_fx->q, b, h, R * C));
    TU_OK(clrt_buffer_read(tu_fx->q, b, back, R * C));
    assert_memory_equal(h, back, sizeof h);
    TU_OK(clrt_buffer_view(&v, b, 1, 2, 3, 4));
    int32_t w[12];
    TU_OK(clrt_buffer_read(tu_fx->q, v, w, 12));
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            assert_int_equal(w[r * 4 + c], h[(1 + r) * C + 2 + c]);
    /* arithmetic on int32 is not supported */
    TU_REFUSED(CLRT_EUNSUPPORTED, "int32", clrt_add(tu_fx->q, b, b, b));
    clrt_buffer_destroy(v);
    clrt_buffer_destroy(b);
    TU_REFUSED(CLRT_EINVAL, "unknown dtype", clrt_buffer_create(&b, tu_fx->ctx, (clrt_dtype)6, 1, 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_FIXTURE_TEST(window_read_write),
        TU_FIXTURE_TEST(views_of_views),
        TU_FIXTURE_TEST(view_outlives_parent),
        TU_FIXTURE_TEST(view_refusals),
        TU_FIXTURE_TEST(reshape_read_write),
        TU_FIXTURE_TEST(reshape_overlap),
        TU_FIXTURE_TEST(reshape_refusals),
        TU_FIXTURE_TEST(int32_buffers),
    };
    return TU_RUN_FIXTURE_SUITE(tests);
}
