/* clrt-train stopped by a signal (docs/train.md, "Save, resume, stop"): it
 * stops after the mini-batch in flight, not after the ones queued behind it;
 * SIGINT or SIGTERM during training, then the same signal again and again
 * every few milliseconds until it exits (a double Ctrl-C, a supervisor that repeats
 * itself) must still end with the state saved whole: exit 130 or 143, the
 * --save file complete and no temporary file; resuming it gives the losses and
 * the final state file of the run that was never interrupted, byte for byte.
 * On POCL, on a small dataset of its own. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/temp_files.h"
#include "common/test_util.h"
#include "train_files.h"

/* 64 images, batches of 4, 8 epochs: 128 mini-batches, a loss line each. */
#define RUN_ARGS "--no-progress --data d --epochs 8 --batch 4 --print-every 1 --test-limit 16 --seed 7"

/* The loss lines of text ("[e, i] loss: x"), in order, into out. */
static void loss_lines(const char *text, char *out, size_t cap)
{
    out[0] = '\0';
    size_t used = 0;
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        size_t n = strcspn(l, "\n");
        if (l[0] == '[' && strstr(l, "] loss: ") && used + n + 1 < cap) {
            memcpy(out + used, l, n + 1);
            used += n + 1;
        }
    }
    out[used] = '\0';
}

/* clrt-train RUN_ARGS extra, its stdout into out (static, cap 64 KiB): exit status. */
static int train(const char *extra, char **out)
{
    static char buf[1 << 16];
    char cmd[4096], file[512];
    tf_path(file, sizeof file, "stdout.txt");
    snprintf(cmd, sizeof cmd, "'%s' " RUN_ARGS " %s > stdout.txt", CLRT_TRAIN_PATH, extra);
    const char *err;
    int rc = tf_run(cmd, &err);
    FILE *f = fopen(file, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    if (rc != 0)
        fail_msg("clrt-train %s: exit %d; stderr: %s", extra, rc, err);
    *out = buf;
    return rc;
}

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* clrt-train args started in tf_dir, its stdout a pipe whose reading end is
 * *from: its process id. */
static pid_t start_train(const char *args, int *from)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "exec '%s' %s", CLRT_TRAIN_PATH, args);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        if (chdir(tf_dir) != 0)
            _exit(126);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    *from = fds[0];
    return pid;
}

/* clrt-train RUN_ARGS --save part.state, sent sig once its third loss line is
 * out, then again every 2 ms until it exits; its stdout into out, its exit
 * status returned. */
static int interrupted_run(int sig, char *out, size_t cap)
{
    int from;
    const pid_t pid = start_train(RUN_ARGS " --save part.state", &from);
    size_t used = 0;
    int lines = 0, sent = 0, status = 0;
    for (;;) {
        ssize_t got = read(from, out + used, cap - 1 - used);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        for (ssize_t i = 0; i < got; i++)
            lines += out[used + (size_t)i] == '\n';
        used += (size_t)got;
        if (lines >= 3 && !sent) {
            kill(pid, sig);
            sent = 1;
            /* and again, until it is gone: none may cut the stop short */
            while (waitpid(pid, &status, WNOHANG) == 0) {
                kill(pid, sig);
                sleep_ms(2);
            }
        }
    }
    out[used] = '\0';
    close(from);
    if (!sent)
        assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(sent); /* the run must not have ended before the signal */
    if (WIFSIGNALED(status))
        fail_msg("clrt-train died of signal %d: the repeated signal cut the stop short", WTERMSIG(status));
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void count_temp(const char *p, void *n)
{
    if (strstr(p, ".tmp"))
        ++*(int *)n;
}

static void stopped_by(int sig)
{
    char *whole;
    static char whole_losses[1 << 16], part[1 << 16], both[1 << 16], resumed_losses[1 << 16];
    train("--save whole.state", &whole);
    loss_lines(whole, whole_losses, sizeof whole_losses);
    int rc = interrupted_run(sig, part, sizeof part);
    assert_int_equal(rc, 128 + sig);
    int temps = 0;
    tu_each_entry(tf_dir, count_temp, &temps);
    assert_int_equal(temps, 0);
    char *rest;
    train("--resume part.state --save end.state", &rest);
    snprintf(both, sizeof both, "%s%s", part, rest);
    loss_lines(both, resumed_losses, sizeof resumed_losses);
    assert_string_equal(resumed_losses, whole_losses);
    size_t a, b;
    unsigned char *x = tf_read("whole.state", &a), *y = tf_read("end.state", &b);
    assert_true(x && y);
    if (a != b || memcmp(x, y, a) != 0)
        fail_msg("the resumed run's state differs from the uninterrupted run's");
    free(x);
    free(y);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "after the mini-batch in flight" (clrt-train --help): 16,384 images in
 * batches of 2 (8192 mini-batches an epoch), a loss line every 4000, so
 * that between two lines nothing makes the host wait for the device. SIGINT 0.3 s after the
 * first line must end the run within 1 s: the host may run one mini-batch
 * ahead of the device, not thousands (a free-running host had queued up to
 * the next line's 4000, seconds of work, all run before it stopped). */
static void stops_after_the_batch_in_flight(void **state)
{
    (void)state;
    tf_dataset("big", 16384);
    int from;
    const pid_t pid =
        start_train("--no-progress --data big --epochs 1 --batch 2 --print-every 4000 --test-limit 16", &from);
    char out[4096] = "";
    size_t used = 0;
    while (!strstr(out, "] loss: ")) {
        ssize_t got = read(from, out + used, sizeof out - 1 - used);
        if (got < 0 && errno == EINTR)
            continue;
        assert_true(got > 0); /* the first loss line comes before the end */
        used += (size_t)got;
        out[used] = '\0';
    }
    sleep_ms(300);
    const double t0 = now_s();
    kill(pid, SIGINT);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    const double took = now_s() - t0;
    close(from);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 130);
    if (took > 1.0)
        fail_msg("clrt-train ran %.2f s after SIGINT: more than the mini-batch in flight", took);
}

static void repeated_sigint(void **state)
{
    (void)state;
    stopped_by(SIGINT);
}

static void repeated_sigterm(void **state)
{
    (void)state;
    stopped_by(SIGTERM);
}

int main(void)
{
    tu_require_device();
    if (tf_init("train-signals") != 0)
        return 1;
    tf_dataset("d", 64);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(repeated_sigint),
        cmocka_unit_test(repeated_sigterm),
        cmocka_unit_test(stops_after_the_batch_in_flight),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    tf_done();
    return failed;
}
