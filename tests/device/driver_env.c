/* POCL's cache folder as the process finds it (ctest runs this once per
 * case, each a new process, since POCL reads its environment once):
 * a writable one is left alone; one that cannot be made ($HOME unwritable)
 * or written (POCL_CACHE_DIR=/proc) makes clrt point POCL at a private
 * temporary folder, say so once on stderr naming the folder and the reason,
 * and the run goes on with right results, instead of "no OpenCL platform" or
 * builds that fail with an empty log.
 *   CLRT_TEST_EXPECT_POCL_DIR  the folder the message must name; unset: no message */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/test_util.h"

/* The process's stderr goes to a temporary file from main()'s first line:
 * clrt speaks at its first discovery, which tu_require_device makes. */
static int capture_fd = -1, saved_fd = -1;

static void capture_start(void)
{
    char path[] = "/tmp/clrt-driver-env-XXXXXX";
    capture_fd = mkstemp(path);
    if (capture_fd < 0)
        return;
    unlink(path);
    fflush(stderr);
    saved_fd = dup(STDERR_FILENO);
    dup2(capture_fd, STDERR_FILENO);
}

/* Back to the real stderr; what was written meanwhile in out. */
static void capture_end(char *out, size_t cap)
{
    fflush(stderr);
    dup2(saved_fd, STDERR_FILENO);
    close(saved_fd);
    ssize_t n = pread(capture_fd, out, cap - 1, 0);
    out[n > 0 ? n : 0] = '\0';
    close(capture_fd);
}

static void add_on_default_device(void)
{
    clrt_context *ctx;
    clrt_queue *q;
    clrt_buffer *a, *c;
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_queue_create(&q, ctx));
    TU_OK(clrt_buffer_create(&a, ctx, CLRT_FLOAT32, 5, 7));
    TU_OK(clrt_buffer_create(&c, ctx, CLRT_FLOAT32, 5, 7));
    float x[35], y[35];
    clrt__ref_fill(x, CLRT_FLOAT32, 35, 3);
    TU_OK(clrt_buffer_write(q, a, x, 35));
    TU_OK(clrt_add(q, c, a, a));
    TU_OK(clrt_buffer_read(q, c, y, 35));
    for (int i = 0; i < 35; i++)
        assert_true(y[i] == x[i] + x[i]);
    clrt_buffer_destroy(a);
    clrt_buffer_destroy(c);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
}

static void pocl_cache_folder(void **state)
{
    (void)state;
    char err[4096];
    assert_true(capture_fd >= 0);
    add_on_default_device();
    capture_end(err, sizeof err);
    const char *want = getenv("CLRT_TEST_EXPECT_POCL_DIR");
    print_message("stderr: %s\n", err[0] ? err : "(nothing)");
    if (!want) {
        assert_null(strstr(err, "POCL cannot write"));
        return;
    }
    char line[1200];
    snprintf(line, sizeof line, "clrt: POCL cannot write its kernel cache %s (", want);
    if (!strstr(err, line))
        fail_msg("expected a line starting \"%s\" on stderr", line);
    assert_non_null(strstr(err, "without a cache for this process"));
    /* said once, however many builds ran */
    assert_null(strstr(strstr(err, line) + strlen(line), "POCL cannot write"));
}

int main(void)
{
    capture_start();
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(pocl_cache_folder, tu_teardown_no_live),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
