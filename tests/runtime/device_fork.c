/* What clrt.h promises about fork(): a process that forks before its first
 * clrt call can use clrt in the child; after clrt was used, a child may exec
 * a program that uses clrt; the parent's context keeps working after a fork.
 * (A forked child using clrt after the parent did is not allowed, and hangs
 * on POCL and rusticl: nothing here does that.) Every child has an alarm, so
 * a hang fails instead of blocking the run. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/test_util.h"

/* One add on a new context; 0 when right, else a status or 99. */
static int use_clrt(clrt_context *ctx)
{
    clrt_context *own = NULL;
    int st = ctx ? CLRT_OK : clrt_context_create(&own, NULL);
    if (st != CLRT_OK)
        return st;
    if (!ctx)
        ctx = own;
    clrt_queue *q;
    clrt_buffer *b;
    float x[5] = {1, 2, 3, 4, 5}, y[5] = {0};
    if ((st = clrt_queue_create(&q, ctx)) == CLRT_OK) {
        if ((st = clrt_buffer_create(&b, ctx, CLRT_FLOAT32, 1, 5)) == CLRT_OK) {
            if ((st = clrt_buffer_write(q, b, x, 5)) == CLRT_OK && (st = clrt_add(q, b, b, b)) == CLRT_OK &&
                (st = clrt_buffer_read(q, b, y, 5)) == CLRT_OK)
                for (int i = 0; i < 5; i++)
                    if (y[i] != 2 * x[i])
                        st = 99;
            clrt_buffer_destroy(b);
        }
        clrt_queue_destroy(q);
    }
    clrt_context_destroy(own);
    return st;
}

/* exit code of a child, or 200 + signal */
static int wait_child(pid_t pid)
{
    int st = 0;
    if (waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFSIGNALED(st) ? 200 + WTERMSIG(st) : WEXITSTATUS(st);
}

static int early_child; /* the result of the child forked before any clrt call */

static void fork_before_first_call(void **state)
{
    (void)state;
    assert_int_equal(early_child, 0);
}

static void exec_after_use_and_parent_keeps_working(void **state)
{
    (void)state;
    clrt_context *ctx;
    TU_OK(clrt_context_create(&ctx, NULL));
    assert_int_equal(use_clrt(ctx), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(120);
        char self[] = "/proc/self/exe", arg[] = "use";
        char *argv[] = {self, arg, NULL};
        execv(self, argv);
        _exit(127);
    }
    assert_int_equal(wait_child(pid), 0);

    /* the parent after the fork, and after a child that just exits */
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(0);
    assert_int_equal(wait_child(pid), 0);
    assert_int_equal(use_clrt(ctx), 0);
    clrt_context_destroy(ctx);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "use") == 0)
        return use_clrt(NULL) == CLRT_OK ? 0 : 1;
    /* before anything of clrt or OpenCL in this process */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(120);
        _exit(use_clrt(NULL) == CLRT_OK ? 0 : 1);
    }
    early_child = pid < 0 ? -1 : wait_child(pid);

    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(fork_before_first_call, tu_teardown_no_live),
        cmocka_unit_test_teardown(exec_after_use_and_parent_keeps_working, tu_teardown_no_live),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
