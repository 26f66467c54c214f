/* The test process's stderr caught in a temporary file (see capture.h). */
#include "common/capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/test_util.h"

static int file_fd = -1, saved_fd = -1;

void tu_capture_stderr(void)
{
    char path[] = "/tmp/clrt-test-stderr-XXXXXX";
    file_fd = mkstemp(path);
    assert_true(file_fd >= 0);
    unlink(path);
    fflush(stderr);
    saved_fd = dup(STDERR_FILENO);
    assert_true(saved_fd >= 0 && dup2(file_fd, STDERR_FILENO) >= 0);
}

void tu_captured_stderr(char *out, size_t cap)
{
    fflush(stderr);
    dup2(saved_fd, STDERR_FILENO);
    close(saved_fd);
    ssize_t n = pread(file_fd, out, cap - 1, 0);
    out[n > 0 ? n : 0] = '\0';
    close(file_fd);
    file_fd = saved_fd = -1;
}
