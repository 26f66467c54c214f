/* Small file helpers for the on-disk caches: where they live, a 64-bit
 * hash for keys and checksums, whole-file reads, and atomic writes. */
#ifndef CLRT_BASE_DISK_H
#define CLRT_BASE_DISK_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a, 64 bits: start with CLRT_HASH_INIT, feed pieces in order. */
#define CLRT_HASH_INIT 0xcbf29ce484222325ULL
uint64_t clrt__hash(uint64_t h, const void *data, size_t len);
uint64_t clrt__hash_str(uint64_t h, const char *s); /* includes the terminating NUL */

/* The cache's root folder, $CLRT_CACHE_DIR, else $XDG_CACHE_HOME/clrt, else
 * $HOME/.cache/clrt, into out: 0, or -1 when none can be named. */
int clrt__cache_root(char *out, size_t cap);

/* The folder <base>/<sub>, where <base> is $CLRT_CACHE_DIR, else
 * $XDG_CACHE_HOME/clrt, else $HOME/.cache/clrt; created (mode 0700) if
 * missing when create is nonzero. Returns 0, or -1 when no folder can be
 * named (or, with create, made). */
int clrt__cache_dir(const char *sub, int create, char *out, size_t cap);

/* Read a whole file (at most max bytes) into a malloc'd buffer with a NUL
 * after the data. 0 on success, -1 otherwise (missing, unreadable, too big,
 * or not a regular file: a FIFO or a device is refused without blocking). */
int clrt__file_read(const char *path, size_t max, char **data, size_t *len);

/* The rest of fd's bytes (at most max) as clrt__file_read returns them; fd
 * is closed. 0 or -1. */
int clrt__file_read_fd(int fd, size_t max, char **data, size_t *len);

/* clrt__file_read for a cache file: only one that base/trust.h trusts (else
 * one warning on stderr per file and reason, and -1 like a missing file). */
int clrt__cache_file_read(const char *path, size_t max, char **data, size_t *len);

/* 1 when path exists and is not a regular file (a folder, FIFO, device):
 * what clrt will neither read nor replace as a file of its own. */
int clrt__file_is_other(const char *path);

/* Write a cache file atomically (base/trust.h's clrt__trusted_write: a
 * temporary file "<path>.tmp.XXXXXX" in the same folder, then rename, so a
 * reader sees the old file or the new one, never half of one), only where
 * base/trust.h trusts the folder and any file there (else one warning on
 * stderr per file and reason). After a write, temporary files of the same
 * path older than CLRT__STALE_TMP_SECONDS (a process killed while writing
 * left them) are removed. Returns 0 or -1. */
int clrt__file_write_atomic(const char *path, const void *data, size_t len);
/* The same, saying why it failed instead of warning: 0; -2 not trusted, -1
 * the write failed (why set either way). */
int clrt__cache_write(const char *path, const void *data, size_t len, char *why, size_t cap);

/* A write takes milliseconds: a temporary file this old was abandoned. */
enum { CLRT__STALE_TMP_SECONDS = 600 };

/* For a folder that only clrt writes: remove every stale temporary file of
 * clrt__file_write_atomic, then, while the regular files whose names end in
 * suffix total more than max_bytes, delete the oldest of them (by
 * modification time), never the one named keep (may be NULL). */
void clrt__dir_trim(const char *dir, const char *suffix, uint64_t max_bytes, const char *keep);

/* Set path's modification time to now (a cache entry just used), so that
 * clrt__dir_trim deletes the least recently used entries first. */
void clrt__file_touch(const char *path);

#endif
