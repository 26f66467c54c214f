/* Every public function on a real device, and every documented error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "debug.h"
#include "internal.h"

typedef struct fixture {
    clrt_context *ctx;
    clrt_queue *q;
    clrt_device_info dev;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f || clrt_context_create(&f->ctx, NULL) != CLRT_OK || clrt_queue_create(&f->q, f->ctx) != CLRT_OK ||
        clrt_context_device(f->ctx, &f->dev) != CLRT_OK) {
        fprintf(stderr, "setup: %s\n", clrt_error_message());
        return -1;
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    clrt_queue_destroy(f->q);
    clrt_context_destroy(f->ctx);
    free(f);
    tu_assert_no_live_handles();
    return 0;
}

static void device_list(void **state)
{
    fixture *f = *state;
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
    /* the context's device is one of them */
    assert_true(f->dev.index < n);
    assert_string_equal(all[f->dev.index].name, f->dev.name);
    free(all);
}

static void selectors_pick_the_device(void **state)
{
    fixture *f = *state;
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
    fixture *f = *state;
    char own[32];
    snprintf(own, sizeof own, "%u:%u", f->dev.platform_index, f->dev.device_index);
    static const char *const bad[] = {"1:", ":", "-1", "99", "0:99", "no such device at all",
                                      "\xe2\x98\x83 snowman", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        clrt_context *c = (clrt_context *)0x1;
        TU_STATUS(CLRT_ENODEVICE, clrt_context_create(&c, bad[i]));
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
    TU_STATUS(CLRT_ENODEVICE, clrt_context_create(&c, longsel));
    assert_true(strlen(clrt_error_message()) < 4000); /* cut, not echoed whole */
    free(longsel);
}

static void env_selector(void **state)
{
    fixture *f = *state;
    const char *saved = getenv("CLRT_DEVICE");
    char *keep = saved ? strdup(saved) : NULL;
    clrt_context *c;

    setenv("CLRT_DEVICE", "no device is called this", 1);
    TU_STATUS(CLRT_ENODEVICE, clrt_context_create(&c, NULL));
    assert_non_null(strstr(clrt_error_message(), "$CLRT_DEVICE"));
    TU_STATUS(CLRT_ENODEVICE, clrt_context_create(&c, ""));
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
    fixture *f = *state;
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
    TU_STATUS(CLRT_EINVAL, clrt_buffer_write(f->q, b, in, 20));
    TU_STATUS(CLRT_EINVAL, clrt_buffer_write(f->q, b, in, 22));
    TU_STATUS(CLRT_EINVAL, clrt_buffer_read(f->q, b, out, 20));
    TU_STATUS(CLRT_EINVAL, clrt_buffer_read(f->q, b, out, 22));
    TU_STATUS(CLRT_EINVAL, clrt_buffer_read(f->q, b, out, 0));
    TU_STATUS(CLRT_EINVAL, clrt_buffer_write(f->q, b, NULL, 21));
    TU_STATUS(CLRT_EINVAL, clrt_buffer_read(f->q, b, NULL, 21));
    TU_STATUS(CLRT_EINVAL, clrt_buffer_write(NULL, b, in, 21));
    TU_STATUS(CLRT_EINVAL, clrt_buffer_read(f->q, NULL, out, 21));
    clrt_buffer_destroy(b);

    /* creation errors, each refused before OpenCL */
    b = (clrt_buffer *)0x1;
    TU_STATUS(CLRT_EINVAL, clrt_buffer_create(&b, f->ctx, CLRT_FLOAT32, 0, 5));
    assert_null(b);
    TU_STATUS(CLRT_EINVAL, clrt_buffer_create(&b, f->ctx, CLRT_FLOAT32, 5, 0));
    TU_STATUS(CLRT_EINVAL, clrt_buffer_create(&b, f->ctx, (clrt_dtype)7, 5, 5));
    TU_STATUS(CLRT_EINVAL, clrt_buffer_create(&b, f->ctx, CLRT_FLOAT32, SIZE_MAX / 2, 3));
    TU_STATUS(CLRT_EINVAL, clrt_buffer_create(&b, f->ctx, CLRT_FLOAT64, SIZE_MAX / 16, 3));
    TU_STATUS(CLRT_EINVAL, clrt_buffer_create(NULL, f->ctx, CLRT_FLOAT32, 5, 5));
    /* one element above the device's largest single allocation */
    size_t too_many = (size_t)(f->dev.max_alloc / 4) + 1;
    TU_STATUS(CLRT_ENOMEM, clrt_buffer_create(&b, f->ctx, CLRT_FLOAT32, 1, too_many));
    assert_null(b);
    if (!f->dev.has_fp64) {
        TU_STATUS(CLRT_EUNSUPPORTED, clrt_buffer_create(&b, f->ctx, CLRT_FLOAT64, 4, 4));
        assert_null(b);
    } else {
        TU_OK(clrt_buffer_create(&b, f->ctx, CLRT_FLOAT64, 4, 4));
        assert_int_equal(clrt_buffer_dtype(b), CLRT_FLOAT64);
        clrt_buffer_destroy(b);
    }
    assert_int_equal(clrt_debug_live(CLRT_LIVE_BUFFER), 0);
}

static void op_errors(void **state)
{
    fixture *f = *state;
    clrt_buffer *a, *b, *c, *d, *k1;
    TU_OK(clrt_buffer_create(&a, f->ctx, CLRT_FLOAT32, 4, 5));
    TU_OK(clrt_buffer_create(&b, f->ctx, CLRT_FLOAT32, 5, 3));
    TU_OK(clrt_buffer_create(&c, f->ctx, CLRT_FLOAT32, 4, 3));
    TU_OK(clrt_buffer_create(&d, f->ctx, CLRT_FLOAT32, 4, 5));
    TU_OK(clrt_buffer_create(&k1, f->ctx, CLRT_FLOAT32, 5, 4));

    /* add: shapes must agree */
    TU_STATUS(CLRT_ESHAPE, clrt_add(f->q, c, a, d));
    TU_STATUS(CLRT_ESHAPE, clrt_add(f->q, d, a, b));
    TU_STATUS(CLRT_ESHAPE, clrt_add(f->q, k1, a, d)); /* same count, transposed shape */
    TU_STATUS(CLRT_EINVAL, clrt_add(f->q, NULL, a, d));
    TU_STATUS(CLRT_EINVAL, clrt_add(f->q, d, NULL, d));
    TU_STATUS(CLRT_EINVAL, clrt_add(f->q, d, a, NULL));
    TU_STATUS(CLRT_EINVAL, clrt_add(NULL, d, a, a));
    TU_OK(clrt_add(f->q, d, a, d)); /* in place is allowed */

    /* matmul: inner dimensions, output shape, aliasing */
    TU_STATUS(CLRT_ESHAPE, clrt_matmul(f->q, c, a, a));
    TU_STATUS(CLRT_ESHAPE, clrt_matmul(f->q, d, a, b));
    TU_STATUS(CLRT_ESHAPE, clrt_matmul(f->q, c, b, a));
    TU_STATUS(CLRT_EINVAL, clrt_matmul(f->q, a, a, b));
    TU_STATUS(CLRT_EINVAL, clrt_matmul(f->q, b, a, b));
    TU_STATUS(CLRT_EINVAL, clrt_matmul(f->q, NULL, a, b));
    TU_STATUS(CLRT_EINVAL, clrt_matmul(f->q, c, NULL, b));
    TU_STATUS(CLRT_EINVAL, clrt_matmul(f->q, c, a, NULL));
    TU_STATUS(CLRT_EINVAL, clrt_matmul(NULL, c, a, b));
    clrt_buffer *sq;
    TU_OK(clrt_buffer_create(&sq, f->ctx, CLRT_FLOAT32, 4, 4));
    TU_STATUS(CLRT_EINVAL, clrt_matmul(f->q, sq, sq, sq)); /* aliasing, even when shapes fit */
    clrt_buffer *sq2;
    TU_OK(clrt_buffer_create(&sq2, f->ctx, CLRT_FLOAT32, 4, 4));
    TU_OK(clrt_matmul(f->q, sq2, sq, sq)); /* a == b is fine */
    TU_OK(clrt_matmul(f->q, c, a, b));

    /* dtypes must agree */
    if (f->dev.has_fp64) {
        clrt_buffer *a64;
        TU_OK(clrt_buffer_create(&a64, f->ctx, CLRT_FLOAT64, 4, 5));
        TU_STATUS(CLRT_ESHAPE, clrt_add(f->q, d, a, a64));
        TU_STATUS(CLRT_ESHAPE, clrt_add(f->q, d, a64, a));
        TU_STATUS(CLRT_ESHAPE, clrt_matmul(f->q, c, a64, b));
        clrt_buffer_destroy(a64);
    }
    TU_OK(clrt_queue_finish(f->q));
    clrt_buffer *all[] = {a, b, c, d, k1, sq, sq2};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        clrt_buffer_destroy(all[i]);
}

static void handles_from_another_context(void **state)
{
    fixture *f = *state;
    clrt_context *other;
    clrt_queue *oq;
    char sel[32];
    snprintf(sel, sizeof sel, "%zu", f->dev.index);
    TU_OK(clrt_context_create(&other, sel));
    TU_OK(clrt_queue_create(&oq, other));
    clrt_buffer *a, *b, *c, *x;
    TU_OK(clrt_buffer_create(&a, f->ctx, CLRT_FLOAT32, 3, 3));
    TU_OK(clrt_buffer_create(&b, f->ctx, CLRT_FLOAT32, 3, 3));
    TU_OK(clrt_buffer_create(&c, f->ctx, CLRT_FLOAT32, 3, 3));
    TU_OK(clrt_buffer_create(&x, other, CLRT_FLOAT32, 3, 3));
    float host[9] = {0};
    TU_STATUS(CLRT_EINVAL, clrt_buffer_write(oq, a, host, 9));
    TU_STATUS(CLRT_EINVAL, clrt_buffer_read(oq, a, host, 9));
    TU_STATUS(CLRT_EINVAL, clrt_add(oq, c, a, b));
    TU_STATUS(CLRT_EINVAL, clrt_add(f->q, c, a, x));
    TU_STATUS(CLRT_EINVAL, clrt_add(f->q, x, a, b));
    TU_STATUS(CLRT_EINVAL, clrt_matmul(f->q, c, x, b));
    TU_STATUS(CLRT_EINVAL, clrt_matmul(oq, x, a, b));
    assert_non_null(strstr(clrt_error_message(), "different contexts"));
    clrt_buffer_destroy(a);
    clrt_buffer_destroy(b);
    clrt_buffer_destroy(c);
    clrt_buffer_destroy(x);
    clrt_queue_destroy(oq);
    clrt_context_destroy(other);
}

/* Destroying a context while its queue and buffer live is reported, and the
 * context stays usable by them until the last one goes. */
static void context_outlives_children(void **state)
{
    fixture *f = *state;
    char sel[32];
    snprintf(sel, sizeof sel, "%zu", f->dev.index);
    clrt_context *c;
    clrt_queue *q;
    clrt_buffer *b;
    TU_OK(clrt_context_create(&c, sel));
    TU_OK(clrt_queue_create(&q, c));
    TU_OK(clrt_buffer_create(&b, c, CLRT_FLOAT32, 2, 3));
    clrt_context_destroy(c);
    assert_non_null(strstr(clrt_error_message(), "still live"));
    assert_int_equal(clrt_debug_live(CLRT_LIVE_CONTEXT), 2); /* the fixture's and this one */
    /* the context is gone for new work... */
    clrt_buffer *b2 = (clrt_buffer *)0x1;
    TU_STATUS(CLRT_EINVAL, clrt_buffer_create(&b2, c, CLRT_FLOAT32, 2, 3));
    assert_null(b2);
    clrt_context_destroy(c); /* twice: reported, ignored */
    assert_non_null(strstr(clrt_error_message(), "twice"));
    /* ...but its children still work */
    float in[6] = {1, 2, 3, 4, 5, 6}, out[6];
    TU_OK(clrt_buffer_write(q, b, in, 6));
    TU_OK(clrt_add(q, b, b, b));
    TU_OK(clrt_buffer_read(q, b, out, 6));
    for (int i = 0; i < 6; i++)
        assert_true(out[i] == 2 * in[i]);
    clrt_buffer_destroy(b);
    assert_int_equal(clrt_debug_live(CLRT_LIVE_CONTEXT), 2);
    clrt_queue_destroy(q);
    assert_int_equal(clrt_debug_live(CLRT_LIVE_CONTEXT), 1); /* released with its last child */
}

static void finish_and_destroy(void **state)
{
    fixture *f = *state;
    clrt_queue *q;
    TU_OK(clrt_queue_create(&q, f->ctx));
    TU_OK(clrt_queue_finish(q));
    TU_OK(clrt_queue_finish(q)); /* idempotent */
    clrt_queue_destroy(q);
    TU_STATUS(CLRT_EINVAL, clrt_queue_create(NULL, f->ctx));
}

/* A kernel that fails to compile gives CLRT_EBUILD with the device's build
 * log; the context keeps working afterwards. */
static void build_failure_reports_log(void **state)
{
    fixture *f = *state;
    cl_program p = NULL;
    int status = clrt__program_get(f->ctx, "__kernel void broken(__global float *x) { x[0] = undeclared_name; }",
                                   0, "", "test", &p);
    assert_int_equal(status, CLRT_EBUILD);
    assert_null(p);
    const char *msg = clrt_error_message();
    assert_non_null(strstr(msg, "clBuildProgram"));
    assert_non_null(strstr(msg, "CL_BUILD_PROGRAM_FAILURE"));
    assert_non_null(strstr(msg, "Build log"));
    assert_non_null(strstr(msg, "undeclared_name"));
    assert_int_equal(clrt_debug_live(CLRT_LIVE_PROGRAM) >= 0, 1);
}

int main(void)
{
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(device_list),
        cmocka_unit_test(selectors_pick_the_device),
        cmocka_unit_test(selectors_that_match_nothing),
        cmocka_unit_test(env_selector),
        cmocka_unit_test(buffer_shape_and_errors),
        cmocka_unit_test(op_errors),
        cmocka_unit_test(handles_from_another_context),
        cmocka_unit_test(context_outlives_children),
        cmocka_unit_test(finish_and_destroy),
        cmocka_unit_test(build_failure_reports_log),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
