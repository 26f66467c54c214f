/* The progress line (see train/progress.h). */
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static struct {
    int on, shown;
    size_t total;
    double start, last;
} p;

double train_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void train_progress_start(int on, size_t total, size_t batch)
{
    (void)batch;
    p.on = on && isatty(fileno(stderr));
    p.shown = 0;
    p.total = total;
    p.start = p.last = train_now();
}

void train_progress_step(unsigned epoch, size_t done, size_t images)
{
    if (!p.on)
        return;
    double now = train_now();
    if (now - p.last < 0.25 && done < p.total)
        return;
    p.last = now;
    double el = now - p.start, rate = el > 0 ? (double)images / el : 0;
    double eta = done ? el * (double)(p.total - done) / (double)done : 0;
    unsigned m = (unsigned)(eta / 60), s = (unsigned)eta % 60;
    fprintf(stderr, "\r\033[Kepoch %u  mini-batch %zu/%zu  %.0f images/s  ETA %u:%02u", epoch, done, p.total, rate,
            m, s);
    fflush(stderr);
    p.shown = 1;
}

void train_progress_clear(void)
{
    if (p.on && p.shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p.shown = 0;
    }
}
