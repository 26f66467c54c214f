/* Argument validation that needs no device: every entry point refuses NULL,
 * foreign and stale handles, bad dtypes and sizes before touching OpenCL. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/test_util.h"

#include "base/error.h"
#include "kernels/table.h"
#include "runtime/handles.h"

static void status_names_and_strings(void **state)
{
    (void)state;
    static const struct {
        int code;
        const char *name;
    } codes[] = {{CLRT_OK, "CLRT_OK"},           {CLRT_EINVAL, "CLRT_EINVAL"},
                 {CLRT_ESHAPE, "CLRT_ESHAPE"},   {CLRT_ENODEVICE, "CLRT_ENODEVICE"},
                 {CLRT_ENOMEM, "CLRT_ENOMEM"},   {CLRT_EBUILD, "CLRT_EBUILD"},
                 {CLRT_EUNSUPPORTED, "CLRT_EUNSUPPORTED"}, {CLRT_EDEVICE, "CLRT_EDEVICE"},
                 {CLRT_EOPENCL, "CLRT_EOPENCL"}};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        assert_string_equal(clrt_status_name(codes[i].code), codes[i].name);
        assert_true(codes[i].code <= 0);
        const char *s = clrt_status_string(codes[i].code);
        assert_non_null(s);
        assert_true(strlen(s) > 5);
        for (size_t j = 0; j < i; j++) /* every code has its own sentence */
            assert_string_not_equal(s, clrt_status_string(codes[j].code));
    }
    assert_string_equal(clrt_status_name(1), "CLRT_UNKNOWN");
    assert_string_equal(clrt_status_name(-1000), "CLRT_UNKNOWN");
    assert_string_equal(clrt_status_name(INT_MIN), "CLRT_UNKNOWN");
    assert_string_equal(clrt_status_string(12345), "CLRT_UNKNOWN");
    assert_string_equal(clrt_status_string(1), "CLRT_UNKNOWN");
    assert_non_null(clrt_error_message());
}

static void version(void **state)
{
    (void)state;
    char expect[32];
    snprintf(expect, sizeof expect, "%d.%d.%d", CLRT_VERSION_MAJOR, CLRT_VERSION_MINOR, CLRT_VERSION_PATCH);
    assert_string_equal(clrt_version(), expect);
    assert_int_equal(CLRT_VERSION_NUMBER, CLRT_VERSION_MAJOR * 10000 + CLRT_VERSION_MINOR * 100 + CLRT_VERSION_PATCH);
}

/* The message names the function that failed. */
static void expect_message_mentions(const char *text)
{
    if (!strstr(clrt_error_message(), text))
        fail_msg("message \"%s\" does not mention \"%s\"", clrt_error_message(), text);
}

static void null_arguments(void **state)
{
    (void)state;
    clrt_context *ctx = (clrt_context *)0x1;
    TU_REFUSED(CLRT_EINVAL, "clrt_context_create", clrt_context_create(NULL, NULL));
    TU_REFUSED(CLRT_EINVAL, "clrt_device_list", clrt_device_list(NULL, 0, NULL));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_context_device(NULL, NULL));
    clrt_device_info info;
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_context_device(NULL, &info));

    clrt_queue *q = (clrt_queue *)0x1;
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_queue_create(NULL, NULL));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_queue_create(&q, NULL));
    assert_null(q); /* a failed create clears the output */
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_queue_finish(NULL));

    clrt_buffer *b = (clrt_buffer *)0x1;
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_buffer_create(&b, NULL, CLRT_FLOAT32, 4, 4));
    assert_null(b);
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_buffer_create(NULL, NULL, CLRT_FLOAT32, 4, 4));
    float host[4];
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_buffer_write(NULL, NULL, host, 4));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_buffer_read(NULL, NULL, host, 4));
    TU_REFUSED(CLRT_EINVAL, "clrt_add", clrt_add(NULL, NULL, NULL, NULL));
    TU_REFUSED(CLRT_EINVAL, "clrt_matmul", clrt_matmul(NULL, NULL, NULL, NULL));
    (void)ctx;
}

static void destroy_null_and_getters(void **state)
{
    (void)state;
    clrt_context_destroy(NULL);
    clrt_queue_destroy(NULL);
    clrt_buffer_destroy(NULL);
    assert_int_equal(clrt_buffer_rows(NULL), 0);
    assert_int_equal(clrt_buffer_cols(NULL), 0);
    assert_int_equal(clrt_buffer_dtype(NULL), 0);
}

/* Handles that are not ours (or no longer live) are refused by their tag. */
static void foreign_handles(void **state)
{
    (void)state;
    union {
        unsigned tag;
        char bytes[1024];
    } junk;
    memset(&junk, 0x5a, sizeof junk);
    clrt_queue *q = (clrt_queue *)&junk;
    clrt_buffer *b = (clrt_buffer *)&junk;
    clrt_context *c = (clrt_context *)&junk;
    clrt_buffer *out = NULL;
    float host[4];
    TU_REFUSED(CLRT_EINVAL, "not a live clrt queue", clrt_queue_finish(q));
    TU_REFUSED(CLRT_EINVAL, "not a live clrt context", clrt_buffer_create(&out, c, CLRT_FLOAT32, 2, 2));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_buffer_write(q, b, host, 4));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_add(q, b, b, b));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_matmul(q, b, b, b));
    clrt_device_info info;
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_context_device(c, &info));
    assert_int_equal(clrt_buffer_rows(b), 0);
    /* destroying a foreign handle is reported and ignored, not a crash */
    clrt_buffer_destroy(b);
    clrt_queue_destroy(q);
    clrt_context_destroy(c);
    expect_message_mentions("not a live clrt context");
}

static void sizes_and_dtypes(void **state)
{
    (void)state;
    size_t bytes = 0;
    assert_int_equal(clrt__dtype_size(CLRT_FLOAT32), 4);
    assert_int_equal(clrt__dtype_size(CLRT_FLOAT64), 8);
    assert_int_equal(clrt__dtype_size(0), 0);
    assert_int_equal(clrt__dtype_size(CLRT_INT32), 4);
    assert_int_equal(clrt__dtype_size(CLRT_FLOAT16), 2);
    assert_int_equal(clrt__dtype_size(CLRT_BFLOAT16), 2);
    assert_int_equal(clrt__dtype_size(6), 0);
    assert_int_equal(clrt__dtype_size(-1), 0);
    assert_int_equal(clrt__matrix_bytes(3, 5, 4, &bytes), 0);
    assert_int_equal(bytes, 60);
    assert_int_equal(clrt__matrix_bytes(0, 5, 4, &bytes), -1);
    assert_int_equal(clrt__matrix_bytes(5, 0, 4, &bytes), -1);
    assert_int_equal(clrt__matrix_bytes(SIZE_MAX, 2, 4, &bytes), -1);
    assert_int_equal(clrt__matrix_bytes(SIZE_MAX / 4 + 1, 1, 4, &bytes), -1);
    assert_int_equal(clrt__matrix_bytes((size_t)1 << 32, (size_t)1 << 32, 4, &bytes), -1);
    assert_int_equal(clrt__matrix_bytes(SIZE_MAX / 8, 1, 8, &bytes), 0);
}

/* A context that failed on the device refuses further work with CLRT_EDEVICE. */
static void failed_context_refuses_work(void **state)
{
    (void)state;
    clrt_context fake;
    memset(&fake, 0, sizeof fake);
    fake.tag = CLRT__TAG_CONTEXT;
    atomic_init(&fake.failed, 1);
    snprintf(fake.info.name, sizeof fake.info.name, "fake device");
    snprintf(fake.failure, sizeof fake.failure, "clFinish returned CL_OUT_OF_RESOURCES");
    fake.info.max_alloc = 1 << 20;
    clrt_queue *q = NULL;
    TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_queue_create(&q, &fake));
    expect_message_mentions("CL_OUT_OF_RESOURCES");
    clrt_buffer *b = NULL;
    TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_buffer_create(&b, &fake, CLRT_FLOAT32, 2, 2));
    assert_null(q);
    assert_null(b);
    /* a bad argument is still CLRT_EINVAL: the device state does not hide it */
    TU_REFUSED(CLRT_EINVAL, "dtype", clrt_buffer_create(&b, &fake, (clrt_dtype)9, 2, 2));
    TU_REFUSED(CLRT_EINVAL, "zero", clrt_buffer_create(&b, &fake, CLRT_FLOAT32, 0, 2));
    TU_REFUSED(CLRT_EINVAL, "out is NULL", clrt_queue_create(NULL, &fake));
    clrt_queue fq = {.tag = CLRT__TAG_QUEUE, .ctx = &fake};
    clrt_buffer fb = {.tag = CLRT__TAG_BUFFER, .ctx = &fake, .dtype = CLRT_FLOAT32, .rows = 2, .cols = 2, .ld = 2, .elem = 4};
    float host[4];
    TU_REFUSED(CLRT_EINVAL, "host pointer is NULL", clrt_buffer_read(&fq, &fb, NULL, 4));
    TU_REFUSED(CLRT_EINVAL, "count", clrt_buffer_write(&fq, &fb, host, 3));
    TU_REFUSED(CLRT_EINVAL, "NULL", clrt_add(&fq, NULL, &fb, &fb));
    TU_REFUSED(CLRT_EINVAL, "in place", clrt_matmul(&fq, &fb, &fb, &fb));
    /* and well-formed work is refused with the reason */
    TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_buffer_read(&fq, &fb, host, 4));
    TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_buffer_write(&fq, &fb, host, 4));
    TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_queue_finish(&fq));
    TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_add(&fq, &fb, &fb, &fb));
    /* the device can still be asked for */
    clrt_device_info info;
    TU_OK(clrt_context_device(&fake, &info));
    assert_string_equal(info.name, "fake device");
}

static void unknown_dtype_before_device(void **state)
{
    (void)state;
    clrt_context fake;
    memset(&fake, 0, sizeof fake);
    fake.tag = CLRT__TAG_CONTEXT;
    fake.info.max_alloc = 1 << 20;
    clrt_buffer *b = NULL;
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_buffer_create(&b, &fake, (clrt_dtype)0, 2, 2));
    TU_REFUSED(CLRT_EINVAL, "dtype", clrt_buffer_create(&b, &fake, (clrt_dtype)6, 2, 2));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_buffer_create(&b, &fake, CLRT_FLOAT32, 0, 2));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_buffer_create(&b, &fake, CLRT_FLOAT32, 2, 0));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_buffer_create(&b, &fake, CLRT_FLOAT32, SIZE_MAX, 2));
    TU_REFUSED(CLRT_EUNSUPPORTED, NULL, clrt_buffer_create(&b, &fake, CLRT_FLOAT64, 2, 2));
    TU_REFUSED(CLRT_ENOMEM, "largest buffer", clrt_buffer_create(&b, &fake, CLRT_FLOAT32, 1024, 1024));
    assert_null(b);
}

/* Operand checks of add and matmul on made-up handles: every one of them is
 * refused before OpenCL, so no device is needed, and a driver without fp64
 * still gets its dtype mismatches tested. */
typedef struct fake_world {
    clrt_context ctx, other;
    clrt_queue q, oq;
    clrt_buffer f32_2x3, f32_2x3b, f32_3x2, f32_3x4, f32_2x4, f64_2x3, f64_3x4, dead;
} fake_world;

static void fake_buffer(clrt_buffer *b, clrt_context *ctx, clrt_dtype dtype, size_t rows, size_t cols)
{
    memset(b, 0, sizeof *b);
    b->tag = CLRT__TAG_BUFFER;
    b->ctx = ctx;
    b->dtype = dtype;
    b->rows = rows;
    b->cols = cols;
    b->ld = cols;
    b->elem = clrt__dtype_size((int)dtype);
    /* every fake has memory of its own (a distinct handle), so none overlaps another */
    static uintptr_t next_mem = 0x1000;
    b->cl = (cl_mem)(next_mem += 0x100);
}

static void fake_world_init(fake_world *w)
{
    memset(w, 0, sizeof *w);
    w->ctx.tag = w->other.tag = CLRT__TAG_CONTEXT;
    w->q.tag = w->oq.tag = CLRT__TAG_QUEUE;
    w->q.ctx = &w->ctx;
    w->oq.ctx = &w->other;
    fake_buffer(&w->f32_2x3, &w->ctx, CLRT_FLOAT32, 2, 3);
    fake_buffer(&w->f32_2x3b, &w->ctx, CLRT_FLOAT32, 2, 3);
    fake_buffer(&w->f32_3x2, &w->ctx, CLRT_FLOAT32, 3, 2);
    fake_buffer(&w->f32_3x4, &w->ctx, CLRT_FLOAT32, 3, 4);
    fake_buffer(&w->f32_2x4, &w->ctx, CLRT_FLOAT32, 2, 4);
    fake_buffer(&w->f64_2x3, &w->ctx, CLRT_FLOAT64, 2, 3);
    fake_buffer(&w->f64_3x4, &w->ctx, CLRT_FLOAT64, 3, 4);
    fake_buffer(&w->dead, &w->ctx, CLRT_FLOAT32, 2, 3);
    w->dead.tag = CLRT__TAG_DEAD; /* what destroy leaves behind */
}

static void operand_checks_without_device(void **state)
{
    (void)state;
    fake_world w;
    fake_world_init(&w);
    float host[8] = {0};
    /* dtypes */
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ (c float32, a float32, b float64)", clrt_add(&w.q, &w.f32_2x3, &w.f32_2x3b, &w.f64_2x3));
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ (c float64, a float32, b float32)", clrt_add(&w.q, &w.f64_2x3, &w.f32_2x3, &w.f32_2x3b));
    TU_REFUSED(CLRT_ESHAPE, "dtypes differ", clrt_matmul(&w.q, &w.f32_2x4, &w.f32_2x3, &w.f64_3x4));
    /* shapes */
    TU_REFUSED(CLRT_ESHAPE, "shapes differ: c 3x2, a 2x3, b 2x3", clrt_add(&w.q, &w.f32_3x2, &w.f32_2x3, &w.f32_2x3b));
    TU_REFUSED(CLRT_ESHAPE, "shapes differ", clrt_add(&w.q, &w.f32_2x3, &w.f32_3x2, &w.f32_2x3b));
    TU_REFUSED(CLRT_ESHAPE, "shapes differ", clrt_add(&w.q, &w.f32_2x3, &w.f32_2x3b, &w.f32_3x2));
    TU_REFUSED(CLRT_ESHAPE, "c(2x3) = op(a)(2x3) op(b)(2x3)", clrt_matmul(&w.q, &w.f32_2x3b, &w.f32_2x3, &w.f32_2x3));
    TU_REFUSED(CLRT_ESHAPE, "need op(a) MxK", clrt_matmul(&w.q, &w.f32_2x3b, &w.f32_2x3, &w.f32_3x4));
    /* aliasing is refused as such (EINVAL), before the shapes are compared */
    TU_REFUSED(CLRT_EINVAL, "cannot run in place", clrt_matmul(&w.q, &w.f32_2x3, &w.f32_2x3, &w.f32_3x4));
    TU_REFUSED(CLRT_EINVAL, "cannot run in place", clrt_matmul(&w.q, &w.f32_3x4, &w.f32_2x3, &w.f32_3x4));
    /* ...and before the dtypes */
    TU_REFUSED(CLRT_EINVAL, "cannot run in place", clrt_matmul(&w.q, &w.f32_2x3, &w.f32_2x3, &w.f64_3x4));
    /* dimensions the kernels cannot index (checked before any device work) */
    clrt_buffer tall = w.f32_2x3, wide = w.f32_3x4, out = w.f32_2x4;
    tall.rows = out.rows = (size_t)UINT32_MAX + 1;
    TU_REFUSED(CLRT_EUNSUPPORTED, "above 4294967295", clrt_matmul(&w.q, &out, &tall, &wide));
    /* N (b's and c's columns) and K (a's columns, b's rows) too: each is indexed in 32 bits */
    clrt_buffer a_n = w.f32_2x3, b_n = w.f32_3x4, c_n = w.f32_2x4;
    b_n.cols = c_n.cols = (size_t)UINT32_MAX + 1;
    TU_REFUSED(CLRT_EUNSUPPORTED, "above 4294967295", clrt_matmul(&w.q, &c_n, &a_n, &b_n));
    clrt_buffer a_k = w.f32_2x3, b_k = w.f32_3x4, c_k = w.f32_2x4;
    a_k.cols = b_k.rows = (size_t)UINT32_MAX + 1;
    TU_REFUSED(CLRT_EUNSUPPORTED, "above 4294967295", clrt_matmul(&w.q, &c_k, &a_k, &b_k));
    /* other contexts */
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_add(&w.oq, &w.f32_2x3, &w.f32_2x3, &w.f32_2x3b));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_matmul(&w.oq, &w.f32_2x4, &w.f32_2x3, &w.f32_3x4));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_buffer_write(&w.oq, &w.f32_2x3, host, 6));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_buffer_read(&w.oq, &w.f32_2x3, host, 6));
    /* counts */
    TU_REFUSED(CLRT_EINVAL, "count is 5 but the buffer holds 2 x 3 = 6", clrt_buffer_write(&w.q, &w.f32_2x3, host, 5));
    TU_REFUSED(CLRT_EINVAL, "count is 7", clrt_buffer_read(&w.q, &w.f32_2x3, host, 7));
    TU_REFUSED(CLRT_EINVAL, "count is 0", clrt_buffer_read(&w.q, &w.f32_2x3, host, 0));
    TU_REFUSED(CLRT_EINVAL, "host pointer is NULL", clrt_buffer_write(&w.q, &w.f32_2x3, NULL, 6));
    /* a destroyed handle whose memory is still readable: refused by its tag */
    TU_REFUSED(CLRT_EINVAL, "buffer a (", clrt_add(&w.q, &w.f32_2x3, &w.dead, &w.f32_2x3b));
    TU_REFUSED(CLRT_EINVAL, "not a live clrt buffer", clrt_matmul(&w.q, &w.f32_2x3, &w.f32_2x3b, &w.dead));
    TU_REFUSED(CLRT_EINVAL, "not a live clrt buffer", clrt_buffer_write(&w.q, &w.dead, host, 6));
    TU_REFUSED(CLRT_EINVAL, "not a live clrt buffer", clrt_buffer_read(&w.q, &w.dead, host, 6));
    assert_int_equal(clrt_buffer_rows(&w.dead), 0);
    assert_int_equal(clrt_buffer_cols(&w.dead), 0);
    assert_int_equal(clrt_buffer_dtype(&w.dead), 0);
    w.q.tag = CLRT__TAG_DEAD;
    TU_REFUSED(CLRT_EINVAL, "not a live clrt queue", clrt_queue_finish(&w.q));
    TU_REFUSED(CLRT_EINVAL, "not a live clrt queue", clrt_add(&w.q, &w.f32_2x3, &w.f32_2x3, &w.f32_2x3b));
    w.ctx.tag = CLRT__TAG_DEAD;
    clrt_queue *q = (clrt_queue *)0x1;
    TU_REFUSED(CLRT_EINVAL, "not a live clrt context", clrt_queue_create(&q, &w.ctx));
    assert_null(q);
    /* destroying a dead handle again is reported and ignored */
    clrt_buffer_destroy(&w.dead);
    assert_non_null(strstr(clrt_error_message(), "clrt_buffer_destroy"));
    clrt_queue_destroy(&w.q);
    assert_non_null(strstr(clrt_error_message(), "clrt_queue_destroy"));
    clrt_context_destroy(&w.ctx);
    assert_non_null(strstr(clrt_error_message(), "clrt_context_destroy"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(status_names_and_strings, tu_teardown_no_live),
        cmocka_unit_test_teardown(version, tu_teardown_no_live),
        cmocka_unit_test_teardown(null_arguments, tu_teardown_no_live),
        cmocka_unit_test_teardown(destroy_null_and_getters, tu_teardown_no_live),
        cmocka_unit_test_teardown(foreign_handles, tu_teardown_no_live),
        cmocka_unit_test_teardown(sizes_and_dtypes, tu_teardown_no_live),
        cmocka_unit_test_teardown(failed_context_refuses_work, tu_teardown_no_live),
        cmocka_unit_test_teardown(unknown_dtype_before_device, tu_teardown_no_live),
        cmocka_unit_test_teardown(operand_checks_without_device, tu_teardown_no_live),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
