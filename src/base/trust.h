/* Which cache files clrt may read and write: its program cache entries (native
 * code that a driver loads into the process) and tuned-parameter files. As
 * OpenSSH's StrictModes does, a file is used only when it and its folder
 * belong to the effective user and no one else may write them, so that no
 * other user (a shared CI cache mount, a folder in /tmp) can put code or
 * parameters into this process:
 *
 *   the file     a regular file (not a symbolic link: opened O_NOFOLLOW),
 *                owned by the effective user, not writable by group or others
 *   its folder   a folder owned by the effective user, not writable by group
 *                or others
 *   in clrt's cache layout (<root>/programs/, <root>/tuned/, <root> as
 *   clrt__cache_dir names it): the folder is not a symbolic link either, and
 *   <root> follows the folder's rule too (whoever can write it can replace
 *   the folder)
 *
 * Anything else is not used: a read is a miss, a write is not made, and the
 * caller says why once (clrt__untrusted_warn). */
#ifndef CLRT_BASE_TRUST_H
#define CLRT_BASE_TRUST_H

#include <stddef.h>

/* Read path (at most max bytes, NUL-terminated, malloc'd) when the rules
 * above allow: 0; 1 when there is no such file (or folder): a plain miss; -1
 * with why set when it is not trusted or cannot be read. */
int clrt__trusted_read(const char *path, size_t max, char **data, size_t *len, char *why, size_t cap);

/* Replace path with data (outfile/outfile.h: temporary file, rename; no
 * symbolic link followed) when the rules above allow, for the folder and any
 * file already there: 0; -2 with why set when they do not; -1 with why set
 * when the write failed (a full disk, no folder). */
int clrt__trusted_write(const char *path, const void *data, size_t len, char *why, size_t cap);

/* "clrt: not using <path>: <why>; ..." on stderr, once per process for each
 * path and reason. */
void clrt__untrusted_warn(const char *path, const char *why);

#endif
