/* An output file written whole or not at all, every write checked to the
 * end. Plain POSIX that knows nothing of clrt: the library writes its program
 * cache and tuned files through it, and every tool (through tools/common/
 * output.h) its --save, --json, --out, --plot files and stdout, so that one
 * set of rules holds everywhere:
 *
 *   path is                      what happens
 *   missing or a regular file    a temporary "<path>.tmp.XXXXXX" in its folder,
 *                                written, flushed, fsync'ed (unless
 *                                CLRT__OUT_NO_SYNC), closed, renamed onto path;
 *                                a file already there keeps its permissions
 *   a symbolic link              with CLRT__OUT_FOLLOW the link's final target
 *                                (made when missing) is written as above, in
 *                                the target's folder, and the link stays;
 *                                without it the link itself is replaced
 *   a character device, a FIFO   written directly (opened, never created,
 *                                truncated or replaced); refused with
 *                                CLRT__OUT_REGULAR_ONLY
 *   a folder, anything else      refused (EISDIR, EINVAL)
 *
 * On any failure (a write, the flush, fsync, close or rename: ENOSPC, EIO,
 * EDQUOT, EFBIG, a missing folder, permissions) the temporary file is removed,
 * a file of that name already there is left as it was, and `why` holds what
 * failed with the OS's reason. */
#ifndef CLRT_OUTFILE_OUTFILE_H
#define CLRT_OUTFILE_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

enum {
    CLRT__OUT_FOLLOW = 1,          /* a symbolic link: write its target, keep the link (the tools) */
    CLRT__OUT_NO_SYNC = 2,         /* no fsync: files that carry their own checksum (the caches) */
    CLRT__OUT_PRIVATE = 4,         /* a new file is mode 0600, not 0666 less the umask */
    CLRT__OUT_REGULAR_ONLY = 8,    /* refuse devices and FIFOs too (a cache holds files only) */
    CLRT__OUT_DEFER_SIGNALS = 16,  /* SIGINT, SIGTERM, SIGHUP wait until the file is committed or
                                      abandoned (clrt__signals_defer): no stray temporary file */
};

typedef struct clrt__outfile {
    FILE *f;        /* write here (fwrite, fprintf...) between open and commit */
    char *path;     /* the file written: the path named, or a link's final target */
    char *temp;     /* the temporary file renamed onto path; NULL when written directly */
    int fd;         /* under f: every write to it is checked, its first failure kept */
    int write_errno;
    int flags;
    char why[320];  /* after a failure: what failed, and the OS's reason */
} clrt__outfile;

/* Open path for writing by the rules above. 0, or -1 with o->why set (and
 * errno the OS's reason); o holds nothing to release after a failure. */
int clrt__outfile_open(clrt__outfile *o, const char *path, int flags);

/* Whether path could be opened for writing by the rules above, found out
 * without writing or opening anything (a FIFO is not waited on): a folder
 * there, a missing folder, a folder that takes no new file. 0, or -1 with why
 * set. For a tool to refuse an output before hours of work, not after. */
int clrt__outfile_check(const char *path, int flags, char *why, size_t cap);

/* Finish the file: flush and check every write, fsync, close, rename. 0, or
 * -1 with o->why set and the temporary file removed. Releases o either way. */
int clrt__outfile_commit(clrt__outfile *o);

/* Give up a file being written: the temporary file removed, nothing renamed.
 * Releases o. */
void clrt__outfile_abandon(clrt__outfile *o);

/* open, one write of len bytes, commit: 0, or -1 with why (cap bytes) set. */
int clrt__outfile_write_all(const char *path, const void *data, size_t len, int flags, char *why, size_t cap);

/* From now on every write to stdout is checked and the first failure's
 * reason kept (stdout becomes a stream over fd 1 that does so; buffered as
 * before: by lines on a terminal, else in blocks). Call first in main(). */
void clrt__stdout_watch(void);

/* stdout flushed and closed, every write to it checked (a full disk behind a
 * redirection, a closed pipe's EPIPE): 0, or -1 with why set (the OS's reason
 * when clrt__stdout_watch ran first). Call once, at the end: nothing may be
 * written to stdout afterwards. */
int clrt__stdout_close(char *why, size_t cap);

/* Hold SIGINT, SIGTERM and SIGHUP while a file is being replaced: each is
 * noted, not acted on, until the matching clrt__signals_resume, which puts the
 * program's own handling back and then raises the first one noted (a
 * program that dies on it dies then, with the file whole). Calls nest.
 * Process-wide (sigaction), for single-threaded writers: the tools. */
void clrt__signals_defer(void);
void clrt__signals_resume(void);

#endif
