/* The build log (clrt_set_log, $CLRT_LOG): every program build is reported
 * once, on the thread that asked for it, with the kernel, dtype, variant,
 * device, seconds, where it came from (compiled, clrt's program cache, or
 * POCL's) and where it is kept (or why nowhere); a callback may call clrt,
 * on the context that builds too;
 * NULL stops it; with no callback, $CLRT_LOG on prints each line to stderr. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
        /* CLRT_CACHE=0 in the tests: compiled, or served by POCL's cache */
        assert_true(s.source[i] == CLRT_BUILD_COMPILED || s.source[i] == CLRT_BUILD_DRIVER_CACHED);
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


/* ---- a callback that calls clrt, on the context that is building. Before
 * the reports waited for the locks to go, these waited forever: an alarm
 * turns that into a failure. */

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "device_build_log: a log callback's call into clrt never returned (alarm)\n";
    if (write(2, msg, sizeof msg - 1) < 0) {
        /* nothing more to say */
    }
    _exit(1);
}

static void watchdog(unsigned seconds)
{
    signal(SIGALRM, on_alarm);
    alarm(seconds);
}

typedef struct reentry {
    clrt_context *ctx;
    clrt_queue *q;
    clrt_buffer *b, *c;  /* the callback fills b and multiplies it into c */
    int events, acted;
    int status[4];
    char inner_message[256]; /* clrt_error_message() after the callback's refused call */
    char kernels[MAX_EVENTS][32];
} reentry;

/* The first report: fill b, multiply b by itself into c (a build of its own,
 * reported from inside this callback), and a call that fails. */
static void reenter_builtin(const clrt_build_event *ev, const char *line, void *user)
{
    (void)line;
    reentry *r = user;
    if (r->events < MAX_EVENTS)
        snprintf(r->kernels[r->events], sizeof r->kernels[0], "%s", ev->kernel);
    r->events++;
    if (r->acted++)
        return;
    r->status[0] = clrt_fill(r->q, r->b, 2.0);
    r->status[1] = clrt_matmul(r->q, r->c, r->b, r->b);
    clrt_buffer *bad = NULL;
    r->status[2] = clrt_buffer_create(&bad, r->ctx, (clrt_dtype)99, 1, 1);
    snprintf(r->inner_message, sizeof r->inner_message, "%s", clrt_error_message());
}

static void callback_calls_builtin_on_same_context(void **state)
{
    (void)state;
    reentry r = {0};
    clrt_buffer *a;
    TU_OK(clrt_context_create(&r.ctx, NULL));
    TU_OK(clrt_queue_create(&r.q, r.ctx));
    TU_OK(clrt_buffer_create(&a, r.ctx, CLRT_FLOAT32, 9, 9));
    TU_OK(clrt_buffer_create(&r.b, r.ctx, CLRT_FLOAT32, 9, 9));
    TU_OK(clrt_buffer_create(&r.c, r.ctx, CLRT_FLOAT32, 9, 9));
    /* a failure before: the callback's own failure must not replace it */
    clrt_buffer *none = NULL;
    assert_int_equal(clrt_buffer_create(&none, r.ctx, CLRT_FLOAT32, 0, 3), CLRT_EINVAL);
    char before[256];
    snprintf(before, sizeof before, "%s", clrt_error_message());
    watchdog(600);
    clrt_set_log(reenter_builtin, &r);
    const int st = clrt_fill(r.q, a, 0.5); /* builds the fill; the callback runs inside */
    clrt_set_log(NULL, NULL);
    alarm(0);
    TU_OK(st);
    assert_int_equal(r.status[0], CLRT_OK);
    assert_int_equal(r.status[1], CLRT_OK);
    assert_int_equal(r.status[2], CLRT_EINVAL);
    assert_non_null(strstr(r.inner_message, "unknown dtype 99"));
    assert_string_equal(clrt_error_message(), before);
    /* the product's build was reported too, from inside the first report */
    int matmul = 0;
    for (int i = 0; i < r.events && i < MAX_EVENTS; i++)
        matmul += strcmp(r.kernels[i], "matmul") == 0;
    assert_true(r.events >= 2 && matmul >= 1);
    float ha[81], hc[81];
    TU_OK(clrt_buffer_read(r.q, a, ha, 81));
    TU_OK(clrt_buffer_read(r.q, r.c, hc, 81));
    for (int i = 0; i < 81; i++) {
        assert_true(ha[i] == 0.5f);
        assert_true(hc[i] == 36.0f); /* 9 products of 2 x 2, exact */
    }
    clrt_buffer *bufs[] = {a, r.b, r.c};
    tu_destroy_buffers(bufs, 3);
    clrt_queue_destroy(r.q);
    clrt_context_destroy(r.ctx);
}

/* The first report of a user program's build: another program on the same
 * context (built from inside this callback), run. */
static void reenter_program(const clrt_build_event *ev, const char *line, void *user)
{
    (void)line;
    (void)ev;
    reentry *r = user;
    r->events++;
    if (r->acted++)
        return;
    clrt_program *p = NULL;
    clrt_kernel *k = NULL;
    r->status[0] = clrt_program_create(&p, r->ctx, "__kernel void twice(__global float *x) { x[get_global_id(0)] *= 2; }",
                                       "");
    if (r->status[0] == CLRT_OK)
        r->status[1] = clrt_kernel_create(&k, p, "twice");
    if (k) {
        const size_t n = 81;
        r->status[2] = clrt_kernel_set_buffer(k, 0, r->b);
        r->status[3] = clrt_kernel_launch(r->q, k, 1, &n, NULL);
    }
    clrt_kernel_destroy(k);
    clrt_program_destroy(p);
}

static void callback_creates_program_on_same_context(void **state)
{
    (void)state;
    reentry r = {0};
    TU_OK(clrt_context_create(&r.ctx, NULL));
    TU_OK(clrt_queue_create(&r.q, r.ctx));
    TU_OK(clrt_buffer_create(&r.b, r.ctx, CLRT_FLOAT32, 9, 9));
    float h[81];
    for (int i = 0; i < 81; i++)
        h[i] = (float)i;
    TU_OK(clrt_buffer_write(r.q, r.b, h, 81));
    watchdog(600);
    clrt_set_log(reenter_program, &r);
    clrt_program *p = NULL;
    const int st = clrt_program_create(&p, r.ctx, "__kernel void k(__global float *x) { x[0] = 1; }", "");
    clrt_set_log(NULL, NULL);
    alarm(0);
    TU_OK(st);
    clrt_program_destroy(p);
    for (int i = 0; i < 4; i++)
        assert_int_equal(r.status[i], CLRT_OK);
    assert_int_equal(r.events, 2); /* the outer program's build, then the inner one's */
    float got[81];
    TU_OK(clrt_buffer_read(r.q, r.b, got, 81));
    for (int i = 0; i < 81; i++)
        assert_true(got[i] == 2.0f * (float)i);
    clrt_buffer_destroy(r.b);
    clrt_queue_destroy(r.q);
    clrt_context_destroy(r.ctx);
}

/* Where a build came from, in the event and in words. A program no cache has
 * seen (its code is new to this run) is compiled; a second context's build
 * of it is served by POCL's cache when POCL keeps one, and the line says so;
 * on another driver clrt cannot tell, and the line says that. */
static void driver_cache_told_apart(void **state)
{
    (void)state;
    clrt_device_info dev;
    TU_OK(clrt_device_select(NULL, &dev));
    const int pocl = strstr(dev.platform, "Portable Computing Language") != NULL;
    const char *off = getenv("POCL_KERNEL_CACHE");
    const int pocl_cached = pocl && !(off && strcmp(off, "0") == 0);
    char src[256];
    /* in the code: POCL keys its cache on the preprocessed text, without comments */
    snprintf(src, sizeof src, "__kernel void k(__global long *x) { x[0] = %lldL; }",
             (long long)time(NULL) * 4194304 + (long long)getpid());
    seen s = {0};
    clrt_set_log(record, &s);
    for (int round = 0; round < 2; round++) {
        clrt_context *ctx;
        clrt_program *p;
        TU_OK(clrt_context_create(&ctx, NULL));
        TU_OK(clrt_program_create(&p, ctx, src, ""));
        clrt_program_destroy(p);
        clrt_context_destroy(ctx);
        nanosleep(&(struct timespec){0, 200000000}, NULL); /* file times apart from the next build's */
    }
    clrt_set_log(NULL, NULL);
    assert_int_equal(s.n, 2);
    for (int i = 0; i < 2; i++)
        print_message("%s\n", s.line[i]);
    if (pocl) {
        assert_int_equal(s.source[0], CLRT_BUILD_COMPILED);
        assert_non_null(strstr(s.line[0], "(built from source)"));
        assert_int_equal(s.source[1], pocl_cached ? CLRT_BUILD_DRIVER_CACHED : CLRT_BUILD_COMPILED);
        assert_non_null(strstr(s.line[1], pocl_cached ? "(from POCL's cache)" : "(built from source)"));
    } else {
        for (int i = 0; i < 2; i++) {
            assert_int_equal(s.source[i], CLRT_BUILD_COMPILED);
            assert_non_null(strstr(s.line[i], "(compiled by the driver; its own cache may have served it)"));
        }
    }
}

int main(void)
{
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(every_build_reported_once, tu_teardown_no_live),
        cmocka_unit_test_teardown(cached_builds_say_so, tu_teardown_no_live),
        cmocka_unit_test_teardown(env_switch_prints, tu_teardown_no_live),
        cmocka_unit_test_teardown(where_builds_are_kept, tu_teardown_no_live),
        cmocka_unit_test_teardown(callback_calls_builtin_on_same_context, tu_teardown_no_live),
        cmocka_unit_test_teardown(callback_creates_program_on_same_context, tu_teardown_no_live),
        cmocka_unit_test_teardown(driver_cache_told_apart, tu_teardown_no_live),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
