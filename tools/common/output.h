/* Every file a tool writes (clrt-train's --save, --json and --out,
 * clrt-bench's --plot, the reports on stdout of clrt-bench, clrt-info and
 * clrt-train), through the one output module the library uses too (support/outfile/outfile.h),
 * so that each is whole or not there and every write is checked:
 *
 *   a regular file or none yet   written beside it, then renamed over it
 *   a symbolic link              its target written that way; the link stays
 *   a character device, a FIFO   written directly (/dev/stdout, a pipe), never
 *                                replaced
 *   a folder                     refused
 *
 * A failure (a full disk, a quota, permissions, a missing folder) is one line
 * naming the file and the OS's reason, and exit status 2; the earlier file of
 * that name is left as it was, and no temporary file. SIGINT, SIGTERM and
 * SIGHUP wait while a file is replaced, so an interrupted tool leaves the old
 * file or the new one whole. */
#ifndef CLRT_TOOLS_COMMON_OUTPUT_H
#define CLRT_TOOLS_COMMON_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "outfile/outfile.h"

typedef clrt__outfile tool_out;

/* Before the work that makes an output: 0 when path can be written by the
 * rules above (nothing is written or opened), else 2 with err set (a folder
 * there, a missing folder, one that takes no new file). */
int tool_out_check(const char *path, char *err, size_t errcap);
/* Open path by the rules above; write to o->f. 0, or 2 with "problem" (naming
 * the file) in err. */
int tool_out_open(tool_out *o, const char *path, char *err, size_t errcap);
/* Every write checked, the file in place: 0, or 2 with err set. */
int tool_out_close(tool_out *o, char *err, size_t errcap);
/* The whole file at once: 0, or 2 with err set. */
int tool_out_write(const char *path, const void *data, size_t len, char *err, size_t errcap);

/* First in a tool's main(): every write to stdout checked from then on. */
void tool_stdout_watch(void);
/* At the end of a tool's main(): stdout flushed and closed, every write to it
 * checked. 0, or 2 after "prog: ..." (with the OS's reason) on stderr.
 * Nothing may be printed to stdout after it. */
int tool_stdout_close(const char *prog);

#endif
