/* A child process's end in words, for the tools that start one (clrt-bench's
 * children, clrt-info --warm's helpers, gnuplot for --plot): every child's
 * exit status is reported, never dropped. */
#ifndef CLRT_TOOLS_COMMON_WAIT_STATUS_H
#define CLRT_TOOLS_COMMON_WAIT_STATUS_H

#include <stddef.h>

/* status, as waitpid() gives it, into buf: "exited with status 1", "was
 * killed by signal 11 (Segmentation fault)", "exited normally" for 0. */
void tool_wait_status_text(int status, char *buf, size_t cap);

/* waitpid(pid, status, 0) again while a signal interrupts it: 0, or -1 with
 * errno (no such child). */
int tool_wait_child(int pid, int *status);

#endif
