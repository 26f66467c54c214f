/* The progress line (see train/progress.h). */
#include "progress.h"

#include <time.h>
#include <unistd.h>

/* Mini-batches after the first, and seconds, before a rate is trusted: a
 * rate from one or two steps swings with every pause of a shared machine. */
#define RATE_MIN_STEPS 3
#define RATE_MIN_S 1.0
/* Seconds between two rewrites of the terminal's line. */
#define TTY_EVERY_S 0.25

static struct {
    FILE *f;
    train_progress_mode mode;
    int shown;                /* a terminal line is on screen */
    size_t total, per_epoch;
    unsigned epochs;
    double last;              /* when a line was last written (or the start) */
    int have_first;           /* the first mini-batch is done: the rate's origin below */
    double first_t;
    size_t first_done, first_images;
} p;

double train_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void train_progress_start_at(FILE *f, train_progress_mode mode, size_t total, size_t per_epoch, unsigned epochs,
                             double now)
{
    p.f = f;
    p.mode = mode;
    p.shown = 0;
    p.total = total;
    p.per_epoch = per_epoch;
    p.epochs = epochs;
    p.last = now;
    p.have_first = 0;
}

void train_progress_start(int on, size_t total, size_t per_epoch, unsigned epochs)
{
    train_progress_mode mode = !on ? TRAIN_PROGRESS_OFF
                               : isatty(fileno(stderr)) ? TRAIN_PROGRESS_TTY
                                                        : TRAIN_PROGRESS_PLAIN;
    train_progress_start_at(stderr, mode, total, per_epoch, epochs, train_now());
}

/* ", N images/s, ETA m:ss" (h:mm:ss past an hour) into buf, or "" while
 * too little has been seen since the first mini-batch. */
static void rate_text(char *buf, size_t cap, double now, size_t done, size_t images)
{
    buf[0] = '\0';
    const double el = now - p.first_t;
    const size_t steps = done - p.first_done;
    if (!p.have_first || steps < RATE_MIN_STEPS || el < RATE_MIN_S)
        return;
    const double rate = (double)(images - p.first_images) / el;
    const unsigned long eta = (unsigned long)(el / (double)steps * (double)(p.total - done) + 0.5);
    const unsigned long h = eta / 3600, m = eta / 60 % 60, s = eta % 60;
    if (h)
        snprintf(buf, cap, ", %.0f images/s, ETA %lu:%02lu:%02lu", rate, h, m, s);
    else
        snprintf(buf, cap, ", %.0f images/s, ETA %lu:%02lu", rate, m, s);
}

/* A line is due: its interval has passed, or (on a terminal) the run's last mini-batch is done. */
static int line_due(double now, size_t done)
{
    const int tty = p.mode == TRAIN_PROGRESS_TTY;
    return now - p.last >= (tty ? TTY_EVERY_S : TRAIN_PROGRESS_PLAIN_S) || (tty && done == p.total);
}

int train_progress_due_at(double now, size_t done)
{
    return p.mode != TRAIN_PROGRESS_OFF && (!p.have_first || line_due(now, done));
}

int train_progress_due(size_t done)
{
    return train_progress_due_at(train_now(), done);
}

void train_progress_step_at(double now, unsigned epoch, size_t batch, size_t done, size_t images)
{
    if (!train_progress_due_at(now, done))
        return;
    if (!p.have_first) {
        /* the run's first mini-batch built the kernels: the rate starts after it */
        p.have_first = 1;
        p.first_t = now;
        p.first_done = done;
        p.first_images = images;
        if (!line_due(now, done))
            return; /* its time taken, nothing to show yet */
    }
    const int tty = p.mode == TRAIN_PROGRESS_TTY;
    p.last = now;
    char rate[96];
    rate_text(rate, sizeof rate, now, done, images);
    fprintf(p.f, "%sepoch %u/%u, mini-batch %zu/%zu%s%s", tty ? "\r\033[K" : "clrt-train: ", epoch, p.epochs, batch,
            p.per_epoch, rate, tty ? "" : "\n");
    fflush(p.f);
    p.shown = tty;
}

void train_progress_step(unsigned epoch, size_t batch, size_t done, size_t images)
{
    train_progress_step_at(train_now(), epoch, batch, done, images);
}

void train_progress_clear(void)
{
    if (p.mode == TRAIN_PROGRESS_TTY && p.shown) {
        fputs("\r\033[K", p.f);
        fflush(p.f);
        p.shown = 0;
    }
}
