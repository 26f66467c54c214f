/* The "PATH: problem" messages of clrt-train's file readers and writers
 * (IDX files, the state file): one form for every file it names. */
#ifndef CLRT_TOOLS_TRAIN_PATH_ERROR_H
#define CLRT_TOOLS_TRAIN_PATH_ERROR_H

#include <stddef.h>

/* "PATH: " and the printf-style problem into err (cap bytes); returns 2,
 * the exit status of bad input. */
int train_path_error(char *err, size_t cap, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
