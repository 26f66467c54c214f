/* Every public function on a real device, and every documented error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

#include "base/debug.h"
#include "base/error.h"
#include "kernels/table.h"
#include "runtime/handles.h"

static void device_list(void **state)
{
    tu_fixture *f = *state;
    size_t n = 0;
    TU_OK(clrt_device_list(NULL, 0, &n));
    assert_true(n >= 1);
    clrt_device_info *all = calloc(n + 1, sizeof *all);
    size_t m = 0;
    TU_OK(clrt_device_list(all, n + 1, &m));
    assert_int_equal(m, n);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(all[i].index, i);
        assert_true(all[i].type >= CLRT_DEVICE_CPU && all[i].type <= CLRT_DEVICE_OTHER);
        assert_true(strlen(all[i].name) > 0);
        assert_true(strlen(all[i].platform) > 0);
        assert_true(all[i].compute_units > 0);
        assert_true(all[i].max_alloc > 0 && all[i].max_alloc <= all[i].global_mem);
        assert_true(all[i].max_work_group > 0);
    }
    /* a smaller capacity fills what fits and still counts all */
    clrt_device_info one;
    TU_OK(clrt_device_list(&one, 1, &m));
    assert_int_equal(m, n);
    assert_memory_equal(&one, &all[0], sizeof one);
    /* out NULL only counts, whatever the capacity says (documented) */
    m = 0;
    TU_OK(clrt_device_list(NULL, 5, &m));
    assert_int_equal(m, n);
    /* the context's device is one of them */
    assert_true(f->dev.index < n);
    assert_string_equal(all[f->dev.index].name, f->dev.name);
    free(all);
}

static void selectors_pick_the_device(void **state)
{
    tu_fixture *f = *state;
    char sel[64];
    clrt_context *c;
    clrt_device_info d;

    snprintf(sel, sizeof sel, "%zu", f->dev.index);
    TU_OK(clrt_context_create(&c, sel));
    TU_OK(clrt_context_device(c, &d));
    assert_int_equal(d.index, f->dev.index);
    clrt_context_destroy(c);

    snprintf(sel, sizeof sel, "%u:%u", f->dev.platform_index, f->dev.device_index);
    TU_OK(clrt_context_create(&c, sel));
    TU_OK(clrt_context_device(c, &d));
    assert_int_equal(d.index, f->dev.index);
    clrt_context_destroy(c);

    /* part of the name, in another case */
    snprintf(sel, sizeof sel, "%.6s", f->dev.name);
    for (char *p = sel; *p; p++)
        *p = (char)((*p >= 'a' && *p <= 'z') ? *p - 32 : (*p >= 'A' && *p <= 'Z') ? *p + 32 : *p);
    TU_OK(clrt_context_create(&c, sel));
    clrt_context_destroy(c);

    static const char *const type_word[] = {"", "cpu", "gpu", "accelerator", ""};
    if (f->dev.type != CLRT_DEVICE_OTHER) {
        TU_OK(clrt_context_create(&c, type_word[f->dev.type]));
        TU_OK(clrt_context_device(c, &d));
        assert_int_equal(d.type, f->dev.type);
        clrt_context_destroy(c);
    }
}

static void selectors_that_match_nothing(void **state)
{
    tu_fixture *f = *state;
    char own[32];
    snprintf(own, sizeof own, "%u:%u", f->dev.platform_index, f->dev.device_index);
    static const char *const bad[] = {"1:", ":", "-1", "99", "0:99", "no such device at all",
                                      "\xe2\x98\x83 snowman", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        clrt_context *c = (clrt_context *)0x1;
        /* "1:", ":", "-1" are malformed; the rest are well-formed but match nothing */
        TU_REFUSED(CLRT_ENODEVICE, i < 3 ? "is malformed" : "matches no device", clrt_context_create(&c, bad[i]));
        assert_null(c);
        /* the message lists the devices that exist */
        assert_non_null(strstr(clrt_error_message(), "Devices"));
        assert_non_null(strstr(clrt_error_message(), own));
        assert_non_null(strstr(clrt_error_message(), f->dev.name));
    }
    char *longsel = malloc(10000);
    memset(longsel, 'q', 9999);
    longsel[9999] = '\0';
    clrt_context *c;
    TU_REFUSED(CLRT_ENODEVICE, "...\" matches no device", clrt_context_create(&c, longsel));
    assert_true(strlen(clrt_error_message()) < 4000); /* cut, not echoed whole */
    free(longsel);
}

static void env_selector(void **state)
{
    tu_fixture *f = *state;
    const char *saved = getenv("CLRT_DEVICE");
    char *keep = saved ? strdup(saved) : NULL;
    clrt_context *c;

    setenv("CLRT_DEVICE", "no device is called this", 1);
    TU_REFUSED(CLRT_ENODEVICE, "$CLRT_DEVICE selector \"no device is called this\" matches no device",
               clrt_context_create(&c, NULL));
    TU_REFUSED(CLRT_ENODEVICE, "$CLRT_DEVICE", clrt_context_create(&c, ""));
    setenv("CLRT_DEVICE", "0:", 1);
    TU_REFUSED(CLRT_ENODEVICE, "is malformed", clrt_context_create(&c, "  "));
    setenv("CLRT_DEVICE", "no device is called this", 1);
    /* an explicit selector wins over the environment */
    char sel[32];
    snprintf(sel, sizeof sel, "%zu", f->dev.index);
    TU_OK(clrt_context_create(&c, sel));
    clrt_context_destroy(c);

    snprintf(sel, sizeof sel, "%u:%u", f->dev.platform_index, f->dev.device_index);
    setenv("CLRT_DEVICE", sel, 1);
    clrt_device_info d;
    TU_OK(clrt_context_create(&c, NULL));
    TU_OK(clrt_context_device(c, &d));
    assert_int_equal(d.index, f->dev.index);
    clrt_context_destroy(c);

    if (keep) {
        setenv("CLRT_DEVICE", keep, 1);
        free(keep);
    } else {
        unsetenv("CLRT_DEVICE");
    }
}

static void buffer_shape_and_errors(void **state)
{
    tu_fixture *f = *state;
    clrt_buffer *b = NULL;
    TU_OK(clrt_buffer_create(&b, f->ctx, CLRT_FLOAT32, 3, 7));
    assert_int_equal(clrt_buffer_rows(b), 3);
    assert_int_equal(clrt_buffer_cols(b), 7);
    assert_int_equal(clrt_buffer_dtype(b), CLRT_FLOAT32);

    float in[21], out[21 + 4];
    for (int i = 0; i < 21; i++)
        in[i] = (float)i * 0.5f - 3.0f;
    for (int i = 0; i < 25; i++)
        out[i] = -77.0f;
    TU_OK(clrt_buffer_write(f->q, b, in, 21));
    TU_OK(clrt_buffer_read(f->q, b, out, 21));
    assert_memory_equal(in, out, sizeof in);
    for (int i = 21; i < 25; i++)
        assert_true(out[i] == -77.0f); /* nothing written past count */

    /* count must be exactly rows*cols */
    TU_REFUSED(CLRT_EINVAL, "count is 20 but the buffer holds 3 x 7 = 21", clrt_buffer_write(f->q, b, in, 20));
    TU_REFUSED(CLRT_EINVAL, "count is 22", clrt_buffer_write(f->q, b, in, 22));
    TU_REFUSED(CLRT_EINVAL, "count is 20", clrt_buffer_read(f->q, b, out, 20));
    TU_REFUSED(CLRT_EINVAL, "count is 22", clrt_buffer_read(f->q, b, out, 22));
    TU_REFUSED(CLRT_EINVAL, "count is 0", clrt_buffer_read(f->q, b, out, 0));
    TU_REFUSED(CLRT_EINVAL, "count is ", clrt_buffer_write(f->q, b, in, SIZE_MAX));
    TU_REFUSED(CLRT_EINVAL, "host pointer is NULL", clrt_buffer_write(f->q, b, NULL, 21));
    TU_REFUSED(CLRT_EINVAL, "host pointer is NULL", clrt_buffer_read(f->q, b, NULL, 21));
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_buffer_write(NULL, b, in, 21));
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_buffer_read(NULL, b, out, 21));
    TU_REFUSED(CLRT_EINVAL, "buffer dst is NULL", clrt_buffer_write(f->q, NULL, in, 21));
    TU_REFUSED(CLRT_EINVAL, "buffer src is NULL", clrt_buffer_read(f->q, NULL, out, 21));
    for (int i = 21; i < 25; i++)
        assert_true(out[i] == -77.0f); /* refused reads wrote nothing */
    clrt_buffer_destroy(b);

    /* creation errors, each refused before OpenCL */
    b = (clrt_buffer *)0x1;
    TU_REFUSED(CLRT_EINVAL, "a dimension is zero", clrt_buffer_create(&b, f->ctx, CLRT_FLOAT32, 0, 5));
    assert_null(b);
    TU_REFUSED(CLRT_EINVAL, "a dimension is zero", clrt_buffer_create(&b, f->ctx, CLRT_FLOAT32, 5, 0));
    TU_REFUSED(CLRT_EINVAL, "a dimension is zero", clrt_buffer_create(&b, f->ctx, CLRT_FLOAT64, 0, 0));
    TU_REFUSED(CLRT_EINVAL, "unknown dtype 7", clrt_buffer_create(&b, f->ctx, (clrt_dtype)7, 5, 5));
    TU_REFUSED(CLRT_EINVAL, "unknown dtype 0", clrt_buffer_create(&b, f->ctx, (clrt_dtype)0, 5, 5));
    TU_REFUSED(CLRT_EINVAL, "unknown dtype -1", clrt_buffer_create(&b, f->ctx, (clrt_dtype)-1, 5, 5));
    TU_REFUSED(CLRT_EINVAL, "overflows", clrt_buffer_create(&b, f->ctx, CLRT_FLOAT32, SIZE_MAX / 2, 3));
    TU_REFUSED(CLRT_EINVAL, "overflows", clrt_buffer_create(&b, f->ctx, CLRT_FLOAT64, SIZE_MAX / 16, 3));
    TU_REFUSED(CLRT_EINVAL, "overflows", clrt_buffer_create(&b, f->ctx, CLRT_FLOAT32, SIZE_MAX, SIZE_MAX));
    /* rows*cols fits, rows*cols*4 does not */
    TU_REFUSED(CLRT_EINVAL, "overflows", clrt_buffer_create(&b, f->ctx, CLRT_FLOAT32, 1, SIZE_MAX / 2));
    TU_REFUSED(CLRT_EINVAL, "out is NULL", clrt_buffer_create(NULL, f->ctx, CLRT_FLOAT32, 5, 5));
    TU_REFUSED(CLRT_EINVAL, "context is NULL", clrt_buffer_create(&b, NULL, CLRT_FLOAT32, 5, 5));
    /* one element above the device's largest single allocation */
    size_t too_many = (size_t)(f->dev.max_alloc / 4) + 1;
    TU_REFUSED(CLRT_ENOMEM, "largest buffer", clrt_buffer_create(&b, f->ctx, CLRT_FLOAT32, 1, too_many));
    assert_null(b);
    /* the same bytes as a square-ish shape: the byte count decides, not the shape */
    TU_REFUSED(CLRT_ENOMEM, "largest buffer", clrt_buffer_create(&b, f->ctx, CLRT_FLOAT32, too_many, 1));
    if (!f->dev.has_fp64) {
        TU_REFUSED(CLRT_EUNSUPPORTED, "fp64", clrt_buffer_create(&b, f->ctx, CLRT_FLOAT64, 4, 4));
        assert_null(b);
    } else {
        TU_OK(clrt_buffer_create(&b, f->ctx, CLRT_FLOAT64, 4, 4));
        assert_int_equal(clrt_buffer_dtype(b), CLRT_FLOAT64);
        clrt_buffer_destroy(b);
    }
    assert_int_equal(clrt__debug_live(CLRT__LIVE_BUFFER), 0);
}

/* A tuning size whose operands' bytes (at twice the size, as the tuner
 * times) are no size_t is refused before anything runs: it wrapped to a small
 * host allocation that the reference fill then overran. */
static void tune_size_checked(void **state)
{
    tu_fixture *f = *state;
    clrt_tune_options o;
    clrt_tune_options_init(&o);
    clrt_tune_result r;
    const size_t product[] = {SIZE_MAX, SIZE_MAX / 2, SIZE_MAX / 2 - 8, (size_t)1 << 33};
    for (size_t i = 0; i < sizeof product / sizeof product[0]; i++) {
        o.size = product[i];
        TU_REFUSED(CLRT_EINVAL, "is too large: the operands at twice that size overflow size_t",
                   clrt_tune_run(f->ctx, "matmul", CLRT_FLOAT32, &o, &r));
    }
    o.size = SIZE_MAX / 4;
    TU_REFUSED(CLRT_EINVAL, "is too large", clrt_tune_run(f->ctx, "elementwise", CLRT_FLOAT32, &o, &r));
    o.size = SIZE_MAX / 4;
    TU_REFUSED(CLRT_EINVAL, "is too large", clrt_tune_run(f->ctx, "transpose", CLRT_FLOAT32, &o, &r));
}

static void op_errors(void **state)
{
    tu_fixture *f = *state;
    clrt_buffer *a, *b, *c, *d, *k1;
    TU_OK(clrt_buffer_create(&a, f->ctx, CLRT_FLOAT32, 4, 5));
    TU_OK(clrt_buffer_create(&b, f->ctx, CLRT_FLOAT32, 5, 3));
    TU_OK(clrt_buffer_create(&c, f->ctx, CLRT_FLOAT32, 4, 3));
    TU_OK(clrt_buffer_create(&d, f->ctx, CLRT_FLOAT32, 4, 5));
    TU_OK(clrt_buffer_create(&k1, f->ctx, CLRT_FLOAT32, 5, 4));
    /* contents start undefined: give the inputs values (Oclgrind flags reads
     * of uninitialised memory) */
    static const float zeros[20];
    TU_OK(clrt_buffer_write(f->q, a, zeros, 20));
    TU_OK(clrt_buffer_write(f->q, b, zeros, 15));
    TU_OK(clrt_buffer_write(f->q, d, zeros, 20));

    /* add: shapes must agree */
    TU_REFUSED(CLRT_ESHAPE, "shapes differ: c 4x3, a 4x5, b 4x5", clrt_add(f->q, c, a, d));
    TU_REFUSED(CLRT_ESHAPE, "shapes differ", clrt_add(f->q, d, a, b));
    TU_REFUSED(CLRT_ESHAPE, "shapes differ", clrt_add(f->q, k1, a, d)); /* same count, transposed shape */
    TU_REFUSED(CLRT_EINVAL, "buffer c is NULL", clrt_add(f->q, NULL, a, d));
    TU_REFUSED(CLRT_EINVAL, "buffer a is NULL", clrt_add(f->q, d, NULL, d));
    TU_REFUSED(CLRT_EINVAL, "buffer b is NULL", clrt_add(f->q, d, a, NULL));
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_add(NULL, d, a, a));
    TU_OK(clrt_add(f->q, d, a, d)); /* in place is allowed */
    /* ...and computes the sum, with c == b and with c == a (quarters: exact in float) */
    float ha[20], hd[20], got[20];
    for (int i = 0; i < 20; i++) {
        ha[i] = 0.5f * (float)i - 4.0f;
        hd[i] = 3.0f - 0.25f * (float)i;
    }
    TU_OK(clrt_buffer_write(f->q, a, ha, 20));
    TU_OK(clrt_buffer_write(f->q, d, hd, 20));
    TU_OK(clrt_add(f->q, d, a, d)); /* d = a + d */
    TU_OK(clrt_buffer_read(f->q, d, got, 20));
    for (int i = 0; i < 20; i++)
        assert_true(got[i] == ha[i] + hd[i]);
    TU_OK(clrt_add(f->q, a, a, d)); /* a = a + (a + d) */
    TU_OK(clrt_buffer_read(f->q, a, got, 20));
    for (int i = 0; i < 20; i++)
        assert_true(got[i] == ha[i] + (ha[i] + hd[i]));

    /* matmul: inner dimensions, output shape, aliasing */
    TU_REFUSED(CLRT_ESHAPE, "c(4x3) = op(a)(4x5) op(b)(4x5)", clrt_matmul(f->q, c, a, a));
    TU_REFUSED(CLRT_ESHAPE, "need op(a) MxK, op(b) KxN, c MxN", clrt_matmul(f->q, d, a, b));
    TU_REFUSED(CLRT_ESHAPE, "need op(a) MxK", clrt_matmul(f->q, c, b, a));
    TU_REFUSED(CLRT_EINVAL, "cannot run in place", clrt_matmul(f->q, a, a, b));
    TU_REFUSED(CLRT_EINVAL, "cannot run in place", clrt_matmul(f->q, b, a, b));
    TU_REFUSED(CLRT_EINVAL, "buffer c is NULL", clrt_matmul(f->q, NULL, a, b));
    TU_REFUSED(CLRT_EINVAL, "buffer a is NULL", clrt_matmul(f->q, c, NULL, b));
    TU_REFUSED(CLRT_EINVAL, "buffer b is NULL", clrt_matmul(f->q, c, a, NULL));
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_matmul(NULL, c, a, b));
    clrt_buffer *sq;
    TU_OK(clrt_buffer_create(&sq, f->ctx, CLRT_FLOAT32, 4, 4));
    TU_OK(clrt_buffer_write(f->q, sq, zeros, 16));
    TU_REFUSED(CLRT_EINVAL, "cannot run in place", clrt_matmul(f->q, sq, sq, sq)); /* aliasing, even when shapes fit */
    clrt_buffer *sq2;
    TU_OK(clrt_buffer_create(&sq2, f->ctx, CLRT_FLOAT32, 4, 4));
    float sqh[16], sq2h[16];
    for (int i = 0; i < 16; i++)
        sqh[i] = (float)(i % 5) - 1.5f;
    TU_OK(clrt_buffer_write(f->q, sq, sqh, 16));
    TU_OK(clrt_matmul(f->q, sq2, sq, sq)); /* a == b is fine */
    TU_OK(clrt_buffer_read(f->q, sq2, sq2h, 16));
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            float ref = 0; /* small integers and halves: exact in float */
            for (int k = 0; k < 4; k++)
                ref += sqh[i * 4 + k] * sqh[k * 4 + j];
            assert_true(sq2h[i * 4 + j] == ref);
        }
    TU_OK(clrt_matmul(f->q, c, a, b));

    /* dtypes must agree */
    if (f->dev.has_fp64) {
        clrt_buffer *a64;
        TU_OK(clrt_buffer_create(&a64, f->ctx, CLRT_FLOAT64, 4, 5));
        TU_REFUSED(CLRT_ESHAPE, "dtypes differ (c float32, a float32, b float64)", clrt_add(f->q, d, a, a64));
        TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_add(f->q, d, a64, a));
        TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_matmul(f->q, c, a64, b));
        TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_add(f->q, a64, a, d)); /* the output counts too */
        clrt_buffer_destroy(a64);
    }
    TU_OK(clrt_queue_finish(f->q));
    TU_DESTROY_BUFFERS(a, b, c, d, k1, sq, sq2);
}

static void handles_from_another_context(void **state)
{
    tu_fixture *f = *state;
    clrt_context *other = tu_context_on(&f->dev);
    clrt_queue *oq;
    TU_OK(clrt_queue_create(&oq, other));
    clrt_buffer *a, *b, *c, *x;
    TU_OK(clrt_buffer_create(&a, f->ctx, CLRT_FLOAT32, 3, 3));
    TU_OK(clrt_buffer_create(&b, f->ctx, CLRT_FLOAT32, 3, 3));
    TU_OK(clrt_buffer_create(&c, f->ctx, CLRT_FLOAT32, 3, 3));
    TU_OK(clrt_buffer_create(&x, other, CLRT_FLOAT32, 3, 3));
    float host[9] = {0};
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_buffer_write(oq, a, host, 9));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_buffer_read(oq, a, host, 9));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_add(oq, c, a, b));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_add(f->q, c, a, x));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_add(f->q, x, a, b));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_matmul(f->q, c, x, b));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_matmul(f->q, c, a, x));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_matmul(oq, x, a, b));
    TU_DESTROY_BUFFERS(a, b, c, x);
    clrt_queue_destroy(oq);
    clrt_context_destroy(other);
}

/* Destroying a context while its queue and buffer live is reported, and the
 * context stays usable by them until the last one goes. */
/* clrt_live_objects: the public count of what clrt holds, as the internal
 * counters see it; each new handle adds one, each destroy takes it back. */
static void live_objects_count(void **state)
{
    tu_fixture *f = *state;
    const long start = clrt_live_objects();
    assert_int_equal(start, clrt__debug_live_total());
    assert_true(start >= 2); /* the fixture's context and queue */
    clrt_context *c = tu_context_on(&f->dev);
    clrt_queue *q;
    clrt_buffer *b, *v;
    assert_int_equal(clrt_live_objects(), start + 1);
    TU_OK(clrt_queue_create(&q, c));
    TU_OK(clrt_buffer_create(&b, c, CLRT_FLOAT32, 4, 5));
    TU_OK(clrt_buffer_view(&v, b, 1, 1, 2, 2));
    assert_int_equal(clrt_live_objects(), start + 4);
    clrt_buffer_destroy(v);
    clrt_buffer_destroy(b);
    assert_int_equal(clrt_live_objects(), start + 2);
    clrt_queue_destroy(q);
    clrt_context_destroy(c);
    assert_int_equal(clrt_live_objects(), start);
}

static void context_outlives_children(void **state)
{
    tu_fixture *f = *state;
    clrt_context *c = tu_context_on(&f->dev);
    clrt_queue *q;
    clrt_buffer *b;
    TU_OK(clrt_queue_create(&q, c));
    TU_OK(clrt_buffer_create(&b, c, CLRT_FLOAT32, 2, 3));
    clrt_context_destroy(c);
    assert_non_null(strstr(clrt_error_message(), "still live"));
    assert_int_equal(clrt__debug_live(CLRT__LIVE_CONTEXT), 2); /* the fixture's and this one */
    /* the context is gone for new work... */
    clrt_buffer *b2 = (clrt_buffer *)0x1;
    TU_REFUSED(CLRT_EINVAL, "the context was destroyed", clrt_buffer_create(&b2, c, CLRT_FLOAT32, 2, 3));
    assert_null(b2);
    clrt_queue *q2 = (clrt_queue *)0x1;
    TU_REFUSED(CLRT_EINVAL, "the context was destroyed", clrt_queue_create(&q2, c));
    assert_null(q2);
    clrt_device_info info;
    TU_REFUSED(CLRT_EINVAL, "the context was destroyed", clrt_context_device(c, &info));
    clrt_context_destroy(c); /* twice: reported, ignored */
    assert_non_null(strstr(clrt_error_message(), "clrt_context_destroy: context destroyed twice"));
    assert_int_equal(clrt__debug_live(CLRT__LIVE_CONTEXT), 2);
    /* ...but its children still work */
    float in[6] = {1, 2, 3, 4, 5, 6}, out[6];
    TU_OK(clrt_buffer_write(q, b, in, 6));
    TU_OK(clrt_add(q, b, b, b));
    TU_OK(clrt_buffer_read(q, b, out, 6));
    for (int i = 0; i < 6; i++)
        assert_true(out[i] == 2 * in[i]);
    clrt_buffer_destroy(b);
    assert_int_equal(clrt__debug_live(CLRT__LIVE_CONTEXT), 2);
    clrt_queue_destroy(q);
    assert_int_equal(clrt__debug_live(CLRT__LIVE_CONTEXT), 1); /* released with its last child */
}

static void finish_and_destroy(void **state)
{
    tu_fixture *f = *state;
    clrt_queue *q;
    TU_OK(clrt_queue_create(&q, f->ctx));
    TU_OK(clrt_queue_finish(q));
    TU_OK(clrt_queue_finish(q)); /* idempotent */
    clrt_queue_destroy(q);
    TU_REFUSED(CLRT_EINVAL, "out is NULL", clrt_queue_create(NULL, f->ctx));
    TU_REFUSED(CLRT_EINVAL, "out is NULL", clrt_context_device(f->ctx, NULL));
    TU_REFUSED(CLRT_EINVAL, "queue is NULL", clrt_queue_finish(NULL));
}

/* A kernel that fails to compile gives CLRT_EBUILD with the device's build
 * log; the context keeps working afterwards. */
static void build_failure_reports_log(void **state)
{
    tu_fixture *f = *state;
    long programs = clrt__debug_live(CLRT__LIVE_PROGRAM);
    clrt_program *p = (clrt_program *)0x1;
    TU_REFUSED(CLRT_EBUILD, "clBuildProgram",
               clrt_program_create(&p, f->ctx, "__kernel void broken(__global float *x) { x[0] = undeclared_name; }",
                                   ""));
    assert_null(p);
    const char *msg = clrt_error_message();
    assert_non_null(strstr(msg, "clBuildProgram"));
    assert_non_null(strstr(msg, "CL_BUILD_PROGRAM_FAILURE"));
    assert_non_null(strstr(msg, "Build log"));
    assert_non_null(strstr(msg, "undeclared_name"));
    assert_int_equal(clrt__debug_live(CLRT__LIVE_PROGRAM), programs); /* nothing kept from the failed build */
    /* the context still builds and runs the built-in kernels */
    clrt_buffer *v;
    float in[3] = {1, 2, 3}, out[3];
    TU_OK(clrt_buffer_create(&v, f->ctx, CLRT_FLOAT32, 1, 3));
    TU_OK(clrt_buffer_write(f->q, v, in, 3));
    TU_OK(clrt_add(f->q, v, v, v));
    TU_OK(clrt_buffer_read(f->q, v, out, 3));
    for (int i = 0; i < 3; i++)
        assert_true(out[i] == 2 * in[i]);
    clrt_buffer_destroy(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_FIXTURE_TEST(device_list),
        TU_FIXTURE_TEST(selectors_pick_the_device),
        TU_FIXTURE_TEST(selectors_that_match_nothing),
        TU_FIXTURE_TEST(env_selector),
        TU_FIXTURE_TEST(buffer_shape_and_errors),
        TU_FIXTURE_TEST(op_errors),
        TU_FIXTURE_TEST(tune_size_checked),
        TU_FIXTURE_TEST(handles_from_another_context),
        TU_FIXTURE_TEST(live_objects_count),
        TU_FIXTURE_TEST(context_outlives_children),
        TU_FIXTURE_TEST(finish_and_destroy),
        TU_FIXTURE_TEST(build_failure_reports_log),
    };
    return TU_RUN_FIXTURE_SUITE(tests);
}
