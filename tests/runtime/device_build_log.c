/* The build log (clrt_set_log, $CLRT_LOG): every program build is reported
 * once, on the thread that asked for it, with the kernel, dtype, variant,
 * device, seconds, where it came from (compiled, or clrt's program cache) and
 * where it is kept (or why nowhere);
 * NULL stops it; with no callback, $CLRT_LOG on prints each line to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/capture.h"
#include "common/temp_files.h"
#include "common/test_util.h"

enum { MAX_EVENTS = 64 };

typedef struct seen {
    int n;
    char kernel[MAX_EVENTS][32], dtype[MAX_EVENTS][16], device[MAX_EVENTS][256], line[MAX_EVENTS][512];
    char cache_dir[MAX_EVENTS][512], uncached[MAX_EVENTS][128];
    double seconds[MAX_EVENTS];
    int source[MAX_EVENTS];
} seen;

static void record(const clrt_build_event *ev, const char *line, void *user)
{
    seen *s = user;
    if (s->n >= MAX_EVENTS)
        return;
    snprintf(s->kernel[s->n], sizeof s->kernel[0], "%s", ev->kernel);
    snprintf(s->dtype[s->n], sizeof s->dtype[0], "%s", ev->dtype);
    snprintf(s->device[s->n], sizeof s->device[0], "%s", ev->device);
    snprintf(s->line[s->n], sizeof s->line[0], "%s", line);
    snprintf(s->cache_dir[s->n], sizeof s->cache_dir[0], "%s", ev->cache_dir);
    snprintf(s->uncached[s->n], sizeof s->uncached[0], "%s", ev->uncached);
    s->seconds[s->n] = ev->seconds;
    s->source[s->n] = (int)ev->source;
    s->n++;
}

/* A new context: an add and a product of float32, a user program. */
static void builds(void)
{
    clrt_context *ctx;
    clrt_queue *q;
    clrt_buffer *a, *c;
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_queue_create(&q, ctx));
    TU_OK(clrt_buffer_create(&a, ctx, CLRT_FLOAT32, 9, 9));
    TU_OK(clrt_buffer_create(&c, ctx, CLRT_FLOAT32, 9, 9));
    TU_OK(clrt_fill(q, a, 0.5));
    TU_OK(clrt_add(q, c, a, a));
    TU_OK(clrt_matmul(q, c, a, a));
    float out[81];
    TU_OK(clrt_buffer_read(q, c, out, 81));
    for (int i = 0; i < 81; i++)
        assert_true(out[i] == 9 * 0.25f); /* exact: 9 products of 0.25 */
    clrt_program *p;
    TU_OK(clrt_program_create(&p, ctx, "__kernel void k(__global float *x) { x[0] = 1; }", ""));
    clrt_program_destroy(p);
    clrt_buffer_destroy(a);
    clrt_buffer_destroy(c);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
}

static int count(const seen *s, const char *kernel)
{
    int n = 0;
    for (int i = 0; i < s->n; i++)
        n += strcmp(s->kernel[i], kernel) == 0;
    return n;
}

static void every_build_reported_once(void **state)
{
    (void)state;
    seen s = {0};
    clrt_set_log(record, &s);
    builds();
    clrt_set_log(NULL, NULL);
    clrt_device_info dev;
    TU_OK(clrt_device_select(NULL, &dev));
    for (int i = 0; i < s.n; i++) {
        print_message("%s\n", s.line[i]);
        assert_string_equal(s.device[i], dev.name);
        assert_true(s.seconds[i] >= 0 && s.seconds[i] < 600);
        assert_int_equal(s.source[i], CLRT_BUILD_COMPILED); /* CLRT_CACHE=0 in the tests */
        assert_non_null(strstr(s.line[i], "clrt: built "));
        assert_non_null(strstr(s.line[i], s.kernel[i]));
    }
    /* the fill and the add: two programs, or one where the device builds every op
     * in one (ops=1) */
    clrt_context *ctx;
    TU_OK(clrt_context_create(&ctx, NULL));
    char params[256];
    TU_OK(clrt_tune_current(ctx, "elementwise", CLRT_FLOAT32, params, sizeof params, NULL));
    clrt_context_destroy(ctx);
    assert_int_equal(count(&s, "elementwise"), strstr(params, "ops=1") ? 1 : 2);
    assert_true(count(&s, "matmul") >= 1);
    assert_int_equal(count(&s, "user"), 1);
    for (int i = 0; i < s.n; i++)
        if (strcmp(s.kernel[i], "user") != 0)
            assert_string_equal(s.dtype[i], "float32");

    /* stopped: a callback set and then cleared hears nothing of new builds */
    seen after = {0};
    clrt_set_log(record, &after);
    clrt_set_log(NULL, NULL);
    builds();
    assert_int_equal(after.n, 0);
}

/* The same builds from clrt's program cache (forced on into a folder of
 * the test's): a second context loads them, and says so. */
static void cached_builds_say_so(void **state)
{
    (void)state;
    char dir[64];
    assert_int_equal(tu_temp_dir(dir, sizeof dir, "build-log"), 0);
    setenv("CLRT_CACHE", "on", 1);
    setenv("CLRT_CACHE_DIR", dir, 1);
    builds(); /* stores */
    seen s = {0};
    clrt_set_log(record, &s);
    builds(); /* loads */
    clrt_set_log(NULL, NULL);
    setenv("CLRT_CACHE", "0", 1);
    unsetenv("CLRT_CACHE_DIR");
    tu_remove_tree(dir);
    int cached = 0;
    for (int i = 0; i < s.n; i++)
        if (s.source[i] == CLRT_BUILD_CACHED) {
            cached++;
            assert_non_null(strstr(s.line[i], "from clrt's program cache"));
        }
    assert_true(cached >= 3); /* the fill's, the add's and the product's programs */
    for (int i = 0; i < s.n; i++) {
        assert_string_equal(s.cache_dir[i], s.cache_dir[0]); /* clrt's folder: kept there */
        assert_non_null(strstr(s.cache_dir[i], dir));
        assert_string_equal(s.uncached[i], "");
    }
}

/* clrt's cache off (as in every test): on POCL the builds are kept in POCL's
 * folder, unless POCL_KERNEL_CACHE=0 turns it off, which the event says;
 * another driver's cache is unknown to clrt: no folder, no reason. */
static void where_builds_are_kept(void **state)
{
    (void)state;
    clrt_device_info dev;
    TU_OK(clrt_device_select(NULL, &dev));
    const int pocl = strstr(dev.platform, "Portable Computing Language") != NULL;
    const char *was = getenv("POCL_KERNEL_CACHE");
    char keep[64] = "";
    if (was)
        snprintf(keep, sizeof keep, "%s", was);
    for (int off = 0; off < 2; off++) {
        seen s = {0};
        if (off)
            setenv("POCL_KERNEL_CACHE", "0", 1);
        else
            unsetenv("POCL_KERNEL_CACHE");
        clrt_set_log(record, &s);
        builds();
        clrt_set_log(NULL, NULL);
        assert_true(s.n >= 3);
        for (int i = 0; i < s.n; i++) {
            const int in_pocl_folder = pocl && !off;
            assert_int_equal(s.cache_dir[i][0] != '\0', in_pocl_folder);
            assert_string_equal(s.uncached[i], pocl && off ? "POCL's cache is off, every run compiles" : "");
        }
    }
    if (was)
        setenv("POCL_KERNEL_CACHE", keep, 1);
    else
        unsetenv("POCL_KERNEL_CACHE");
}

/* No callback, $CLRT_LOG on: the lines go to stderr. */
static void env_switch_prints(void **state)
{
    (void)state;
    tu_capture_stderr();
    setenv("CLRT_LOG", "1", 1);
    builds();
    unsetenv("CLRT_LOG");
    char text[8192];
    tu_captured_stderr(text, sizeof text);
    assert_non_null(strstr(text, "clrt: built elementwise float32"));
    assert_non_null(strstr(text, "clrt: built matmul float32"));
    assert_non_null(strstr(text, "clrt: built user for"));
}

int main(void)
{
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(every_build_reported_once, tu_teardown_no_live),
        cmocka_unit_test_teardown(cached_builds_say_so, tu_teardown_no_live),
        cmocka_unit_test_teardown(env_switch_prints, tu_teardown_no_live),
        cmocka_unit_test_teardown(where_builds_are_kept, tu_teardown_no_live),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
