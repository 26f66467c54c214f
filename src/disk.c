/* File helpers for the on-disk caches (see disk.h). POSIX. */
#include "disk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint64_t clrt__hash(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint64_t clrt__hash_str(uint64_t h, const char *s) { return clrt__hash(h, s, strlen(s) + 1); }

/* mkdir -p for the last components of path (the base is made too). */
static int make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int err = mkdir(path, 0700) != 0 && errno != EEXIST;
        *p = '/';
        if (err)
            return -1;
    }
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
        return -1;
    struct stat st;
    return (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) ? 0 : -1;
}

int clrt__cache_dir(const char *sub, int create, char *out, size_t cap)
{
    const char *base = getenv("CLRT_CACHE_DIR");
    int n;
    if (base && *base) {
        n = snprintf(out, cap, "%s/%s", base, sub);
    } else if ((base = getenv("XDG_CACHE_HOME")) && *base == '/') {
        n = snprintf(out, cap, "%s/clrt/%s", base, sub);
    } else if ((base = getenv("HOME")) && *base) {
        n = snprintf(out, cap, "%s/.cache/clrt/%s", base, sub);
    } else {
        return -1;
    }
    if (n < 0 || (size_t)n >= cap)
        return -1;
    return create ? make_dirs(out) : 0;
}

int clrt__file_read(const char *path, size_t max, char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
     * writer, forever; fstat then admits only a regular file. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    char *buf = NULL;
    size_t size = 0, cap = 0;
    int rc = 0;
    for (;;) {
        if (size == cap) {
            if (cap >= max + 1) { /* larger than allowed */
                rc = -1;
                break;
            }
            cap = cap ? cap * 2 : 4096;
            if (cap > max + 1)
                cap = max + 1;
            char *grown = realloc(buf, cap + 1);
            if (!grown) {
                rc = -1;
                break;
            }
            buf = grown;
        }
        ssize_t got = read(fd, buf + size, cap - size);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            rc = got < 0 ? -1 : 0;
            break;
        }
        size += (size_t)got;
    }
    close(fd);
    if (rc != 0 || size > max) {
        free(buf);
        return -1;
    }
    if (!buf && !(buf = malloc(1)))
        return -1;
    buf[size] = '\0';
    *data = buf;
    *len = size;
    return 0;
}

int clrt__file_is_other(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

int clrt__file_write_atomic(const char *path, const void *data, size_t len)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp)
        return -1;
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", 12);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(tmp);
        return -1;
    }
    const char *p = data;
    size_t left = len;
    int rc = 0;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = -1;
            break;
        }
        p += w;
        left -= (size_t)w;
    }
    if (close(fd) != 0)
        rc = -1;
    if (rc == 0 && rename(tmp, path) != 0)
        rc = -1;
    if (rc != 0)
        unlink(tmp);
    free(tmp);
    return rc;
}
