/* A child process's end in words (see common/wait_status.h). */
#include "common/wait_status.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>

void tool_wait_status_text(int status, char *buf, size_t cap)
{
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        snprintf(buf, cap, "exited normally");
    else if (WIFEXITED(status))
        snprintf(buf, cap, "exited with status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(buf, cap, "was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(buf, cap, "ended with wait status 0x%x", (unsigned)status);
}

int tool_wait_child(int pid, int *status)
{
    for (;;) {
        if (waitpid((pid_t)pid, status, 0) == (pid_t)pid)
            return 0;
        if (errno != EINTR)
            return -1;
    }
}
