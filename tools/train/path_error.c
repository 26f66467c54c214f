/* "PATH: problem" (see train/path_error.h). */
#include "path_error.h"

#include <stdarg.h>
#include <stdio.h>

int train_path_error(char *err, size_t cap, const char *path, const char *fmt, ...)
{
    char why[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    snprintf(err, cap, "%s: %s", path, why);
    return 2;
}
