/* clrt-train's progress (tools/train/progress.c) on a made-up clock, written
 * to a file: the mini-batch counted within its epoch as the loss lines count
 * it; speed and time left from the mini-batches after the first (a first one
 * of 100 s, the kernels' compilation on a cold cache, once made the first ETA
 * read 1036:58), and none until a few have passed; hours past an hour; on a
 * terminal one line rewritten and cleared; elsewhere a plain line every
 * TRAIN_PROGRESS_PLAIN_S seconds and nothing to clear; off, nothing; and
 * when the caller is told to finish its queue before a step (due). */
#include <stdio.h>
#include <string.h>

#include "common/test_util.h"

#include "progress.h"

/* Everything written to f since it was made, into out. */
static void contents(FILE *f, char *out, size_t cap)
{
    fflush(f);
    rewind(f);
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = '\0';
}

/* The text after the last "\r\033[K" of a terminal's output: what shows. */
static const char *last_tty_line(const char *s)
{
    const char *last = s, *at;
    while ((at = strstr(last, "\r\033[K")) != NULL)
        last = at + 4;
    return last;
}

/* total 500 mini-batches of 4 images, 250 an epoch, 2 epochs: the first
 * mini-batch ends at t = 100 s, each after it 0.4 s later. */
static void step_to(size_t done)
{
    const double t = 100.0 + 0.4 * (double)(done - 1);
    train_progress_step_at(t, (unsigned)((done - 1) / 250 + 1), (done - 1) % 250 + 1, done, done * 4);
}

static void eta_ignores_the_first_mini_batch(void **state)
{
    FILE *f = *state;
    char out[65536];
    train_progress_start_at(f, TRAIN_PROGRESS_TTY, 500, 250, 2, 0.0);
    step_to(1);
    contents(f, out, sizeof out);
    /* after the first mini-batch alone: where, but no speed yet (the old
     * rule, 100 s a mini-batch, said ETA 831:40) */
    assert_string_equal(last_tty_line(out), "epoch 1/2, mini-batch 1/250");
    step_to(2);
    step_to(3);
    contents(f, out, sizeof out);
    assert_string_equal(last_tty_line(out), "epoch 1/2, mini-batch 3/250"); /* 2 steps in 0.8 s: too few */
    step_to(4);
    contents(f, out, sizeof out);
    /* 3 steps in 1.2 s after the first: 10 images/s; 496 left at 0.4 s: 198 s */
    assert_string_equal(last_tty_line(out), "epoch 1/2, mini-batch 4/250, 10 images/s, ETA 3:18");
    for (size_t d = 5; d <= 253; d++)
        step_to(d);
    contents(f, out, sizeof out);
    /* counted within the second epoch, as "[2,     3] loss:" would be; 247 left */
    assert_string_equal(last_tty_line(out), "epoch 2/2, mini-batch 3/250, 10 images/s, ETA 1:39");
    train_progress_clear();
    contents(f, out, sizeof out);
    assert_string_equal(last_tty_line(out), ""); /* the line erased */
}

static void hours_and_the_last_step(void **state)
{
    FILE *f = *state;
    char out[4096];
    train_progress_start_at(f, TRAIN_PROGRESS_TTY, 10000, 5000, 2, 0.0);
    for (size_t d = 1; d <= 3; d++) /* 2 s a step */
        train_progress_step_at(2.0 * (double)d, 1, d, d, d * 64);
    contents(f, out, sizeof out);
    assert_string_equal(last_tty_line(out), "epoch 1/2, mini-batch 3/5000"); /* 4 s, but 2 steps: too few */
    for (size_t d = 4; d <= 5; d++) /* 9995 left is 19990 s */
        train_progress_step_at(2.0 * (double)d, 1, d, d, d * 64);
    contents(f, out, sizeof out);
    assert_string_equal(last_tty_line(out), "epoch 1/2, mini-batch 5/5000, 32 images/s, ETA 5:33:10");
    /* 3 steps after the first, but in 0.9 s: too soon */
    train_progress_start_at(f, TRAIN_PROGRESS_TTY, 100, 100, 1, 0.0);
    for (size_t d = 1; d <= 4; d++)
        train_progress_step_at(50.0 + 0.3 * (double)(d - 1), 1, d, d, d * 4);
    contents(f, out, sizeof out);
    assert_string_equal(last_tty_line(out), "epoch 1/1, mini-batch 4/100");
    /* the last mini-batch is always shown, however soon after the one before */
    train_progress_start_at(f, TRAIN_PROGRESS_TTY, 3, 3, 1, 0.0);
    train_progress_step_at(0.01, 1, 1, 1, 4);
    train_progress_step_at(0.02, 1, 2, 2, 8);
    train_progress_step_at(0.03, 1, 3, 3, 12);
    contents(f, out, sizeof out);
    assert_string_equal(last_tty_line(out), "epoch 1/1, mini-batch 3/3");
}

static void plain_lines_every_few_seconds(void **state)
{
    FILE *f = *state;
    char out[16384];
    train_progress_start_at(f, TRAIN_PROGRESS_PLAIN, 100, 50, 2, 0.0);
    for (size_t d = 1; d <= 100; d++) /* one step a second for 100 s: a line every 5 s */
        train_progress_step_at((double)d, (unsigned)((d - 1) / 50 + 1), (d - 1) % 50 + 1, d, d * 4);
    train_progress_clear();
    contents(f, out, sizeof out);
    assert_null(strchr(out, '\r'));
    assert_null(strchr(out, '\033'));
    size_t lines = 0;
    for (const char *c = out; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 20);
    /* the first at 5 s (4 steps after the first, 4 s: a rate), the last at 100 s */
    assert_non_null(strstr(out, "clrt-train: epoch 1/2, mini-batch 5/50, 4 images/s, ETA 1:35\n"));
    const char *last = "clrt-train: epoch 2/2, mini-batch 50/50, 4 images/s, ETA 0:00\n";
    assert_string_equal(out + strlen(out) - strlen(last), last);
}

/* When the caller must finish its queue: at the first mini-batch (the rate's
 * origin), then only when a line is written. */
static void due_when_a_line_is(void **state)
{
    FILE *f = *state;
    train_progress_start_at(f, TRAIN_PROGRESS_PLAIN, 100, 100, 1, 0.0);
    assert_true(train_progress_due_at(0.01, 1));
    train_progress_step_at(0.01, 1, 1, 1, 4);
    assert_false(train_progress_due_at(4.9, 2));
    assert_false(train_progress_due_at(4.9, 100)); /* the last step: no plain line for it */
    assert_true(train_progress_due_at(5.0, 2));
    train_progress_start_at(f, TRAIN_PROGRESS_TTY, 100, 100, 1, 0.0);
    train_progress_step_at(0.01, 1, 1, 1, 4);
    assert_false(train_progress_due_at(0.2, 2));
    assert_true(train_progress_due_at(0.25, 2));
    assert_true(train_progress_due_at(0.02, 100)); /* the last step is always shown */
    train_progress_start_at(f, TRAIN_PROGRESS_OFF, 100, 100, 1, 0.0);
    assert_false(train_progress_due_at(0.0, 1));
    assert_false(train_progress_due_at(99.0, 100));
}

static void off_writes_nothing(void **state)
{
    FILE *f = *state;
    char out[256];
    train_progress_start_at(f, TRAIN_PROGRESS_OFF, 10, 10, 1, 0.0);
    for (size_t d = 1; d <= 10; d++)
        train_progress_step_at(10.0 * (double)d, 1, d, d, d);
    train_progress_clear();
    contents(f, out, sizeof out);
    assert_string_equal(out, "");
}

/* Each test writes to a file of its own. */
static int open_file(void **state)
{
    *state = tmpfile();
    return *state ? 0 : -1;
}

static int close_file(void **state)
{
    return fclose(*state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(eta_ignores_the_first_mini_batch, open_file, close_file),
        cmocka_unit_test_setup_teardown(hours_and_the_last_step, open_file, close_file),
        cmocka_unit_test_setup_teardown(plain_lines_every_few_seconds, open_file, close_file),
        cmocka_unit_test_setup_teardown(due_when_a_line_is, open_file, close_file),
        cmocka_unit_test_setup_teardown(off_writes_nothing, open_file, close_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
