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

#include "common/capture.h"
#include "common/test_util.h"

/* An add on a new context of the default device, checked. */
static void add_on_default_device(void)
{
    clrt_context *ctx;
    clrt_queue *q;
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_queue_create(&q, ctx));
    float x[35], y[35];
    clrt__ref_fill(x, CLRT_FLOAT32, 35, 3);
    tu_device_add(ctx, q, CLRT_FLOAT32, y, x, x, 35);
    for (int i = 0; i < 35; i++)
        assert_true(y[i] == x[i] + x[i]);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
}

static void pocl_cache_folder(void **state)
{
    (void)state;
    char err[4096];
    add_on_default_device();
    tu_captured_stderr(err, sizeof err);
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
    /* from main()'s first line: clrt speaks at its first discovery, which
     * tu_require_device makes */
    tu_capture_stderr();
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(pocl_cache_folder, tu_teardown_no_live),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
