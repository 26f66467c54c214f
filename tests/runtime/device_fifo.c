/* Files clrt reads that are not regular files: a FIFO as the tuned file
 * ($CLRT_TUNED_FILE or the per-device path) or as a program cache entry must
 * not block the first operation (nobody ever writes to the FIFO), and the
 * results stay right. An alarm turns a hang into a failure. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/temp_files.h"
#include "common/test_util.h"

#include <clrt/clrt_kernel.h>

static char dir[64];
static char programs[128];

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "device_fifo: blocked on a FIFO (alarm)\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(1);
}

static int setup(void **state)
{
    (void)state;
    if (tu_temp_dir(dir, sizeof dir, "fifo-test") != 0)
        return -1;
    snprintf(programs, sizeof programs, "%s/programs", dir);
    setenv("CLRT_CACHE_DIR", dir, 1);
    setenv("CLRT_TUNED", "on", 1);
    signal(SIGALRM, on_alarm);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tu_remove_tree(dir);
    unsetenv("CLRT_CACHE_DIR");
    unsetenv("CLRT_TUNED_FILE");
    unsetenv("CLRT_CACHE");
    tu_assert_no_live_handles();
    return 0;
}

/* A new context: one add and one matmul (both read the tuned file when
 * built), checked against the host. */
static void run_ops(void)
{
    clrt_context *ctx;
    clrt_queue *q;
    clrt_buffer *a, *b, *c;
    enum { M = 7, K = 17, N = 5 };
    alarm(120);
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_queue_create(&q, ctx));
    TU_OK(clrt_buffer_create(&a, ctx, CLRT_FLOAT32, M, K));
    TU_OK(clrt_buffer_create(&b, ctx, CLRT_FLOAT32, K, N));
    TU_OK(clrt_buffer_create(&c, ctx, CLRT_FLOAT32, M, N));
    float x[M * K], y[K * N], z[M * N];
    clrt__ref_fill(x, CLRT_FLOAT32, M * K, 1);
    clrt__ref_fill(y, CLRT_FLOAT32, K * N, 2);
    TU_OK(clrt_buffer_write(q, a, x, M * K));
    TU_OK(clrt_buffer_write(q, b, y, K * N));
    TU_OK(clrt_matmul(q, c, a, b));
    TU_OK(clrt_buffer_read(q, c, z, M * N));
    tu_assert_matmul(z, x, y, CLRT_FLOAT32, M, N, K);
    TU_OK(clrt_add(q, a, a, a)); /* in place */
    float w[M * K];
    TU_OK(clrt_buffer_read(q, a, w, M * K));
    for (int i = 0; i < M * K; i++)
        assert_true(w[i] == 2 * x[i]);
    TU_DESTROY_BUFFERS(a, b, c);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    alarm(0);
}

static void tuned_file_env_is_fifo(void **state)
{
    (void)state;
    char fifo[128];
    snprintf(fifo, sizeof fifo, "%s/tuned.fifo", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    setenv("CLRT_TUNED_FILE", fifo, 1);
    setenv("CLRT_CACHE", "off", 1);
    run_ops();

    /* storing there is refused rather than blocking or replacing the FIFO */
    clrt_context *ctx;
    TU_OK(clrt_context_create(&ctx, NULL));
    alarm(120);
    assert_int_equal(clrt_tune_file_store(ctx, NULL, "add", CLRT_FLOAT32, "vw=1", NULL), CLRT_EINVAL);
    assert_non_null(strstr(clrt_error_message(), "not a regular file"));
    alarm(0);
    clrt_context_destroy(ctx);
    struct stat st;
    assert_int_equal(stat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    unsetenv("CLRT_TUNED_FILE");
}

static void tuned_file_per_device_is_fifo(void **state)
{
    (void)state;
    clrt_context *ctx;
    TU_OK(clrt_context_create(&ctx, NULL));
    char path[4300], tuned[128];
    TU_OK(clrt_tune_file_path(ctx, path, sizeof path));
    clrt_context_destroy(ctx);
    snprintf(tuned, sizeof tuned, "%s/tuned", dir);
    mkdir(tuned, 0700);
    assert_int_equal(strncmp(path, tuned, strlen(tuned)), 0);
    assert_int_equal(mkfifo(path, 0600), 0);
    setenv("CLRT_CACHE", "off", 1);
    run_ops();
}

/* A program cache entry made a FIFO of the same name. */
static void replace_with_fifo(const char *path, void *arg)
{
    (void)arg;
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkfifo(path, 0600), 0);
}

static void program_cache_entry_is_fifo(void **state)
{
    (void)state;
    setenv("CLRT_CACHE", "on", 1);
    setenv("CLRT_TUNED", "off", 1);
    run_ops(); /* writes the entries */
    assert_true(tu_each_entry(programs, replace_with_fifo, NULL) >= 2);
    run_ops(); /* every entry a FIFO: misses, rebuilt */
    setenv("CLRT_TUNED", "on", 1);
}

int main(void)
{
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(tuned_file_env_is_fifo, tu_teardown_no_live),
        cmocka_unit_test_teardown(tuned_file_per_device_is_fifo, tu_teardown_no_live),
        cmocka_unit_test_teardown(program_cache_entry_is_fifo, tu_teardown_no_live),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
