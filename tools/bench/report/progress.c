/* clrt-bench progress line on stderr (see bench/report/progress.h). */
#include "report/progress.h"

#include <stdarg.h>
#include <stdio.h>

static int progress_on;
static size_t progress_done, progress_total;

void bench_progress(const char *fmt, ...)
{
    if (!progress_on)
        return;
    char text[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (progress_total)
        fprintf(stderr, "\r\033[K[%zu/%zu] %s", progress_done, progress_total, text);
    else
        fprintf(stderr, "\r\033[K%s", text);
    fflush(stderr);
}

void bench_progress_end(void)
{
    if (progress_on) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
}

void bench_progress_start(int on, size_t total)
{
    progress_on = on;
    progress_total = total;
    progress_done = 0;
}

void bench_progress_step(void)
{
    progress_done++;
}
