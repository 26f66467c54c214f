/* The test process's stderr caught in a temporary file, for suites that
 * check what clrt says there (the build log, the notices about caches). */
#ifndef CLRT_TESTS_COMMON_CAPTURE_H
#define CLRT_TESTS_COMMON_CAPTURE_H

#include <stddef.h>

/* From now on stderr goes to a temporary file; fails the test when it
 * cannot. Not nested. */
void tu_capture_stderr(void);

/* Back to the real stderr; what was written meanwhile in out (cut at cap,
 * NUL-terminated). */
void tu_captured_stderr(char *out, size_t cap);

#endif
