/* File helpers for the on-disk caches (see base/disk.h). POSIX. */
#include "base/disk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/trust.h"

static void remove_stale_temps(const char *path);

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
    if (stat(path, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR; /* not mkdir's EEXIST: something else has the name */
        return -1;
    }
    return 0;
}

int clrt__cache_root(char *out, size_t cap)
{
    const char *base = getenv("CLRT_CACHE_DIR");
    int n;
    if (base && *base) {
        n = snprintf(out, cap, "%s", base);
    } else if ((base = getenv("XDG_CACHE_HOME")) && *base == '/') {
        n = snprintf(out, cap, "%s/clrt", base);
    } else if ((base = getenv("HOME")) && *base) {
        n = snprintf(out, cap, "%s/.cache/clrt", base);
    } else {
        return -1;
    }
    return (n < 0 || (size_t)n >= cap) ? -1 : 0;
}

int clrt__cache_dir(const char *sub, int create, char *out, size_t cap)
{
    char root[4096];
    if (clrt__cache_root(root, sizeof root) != 0)
        return -1;
    int n = snprintf(out, cap, "%s/%s", root, sub);
    if (n < 0 || (size_t)n >= cap)
        return -1;
    return create ? make_dirs(out) : 0;
}

int clrt__file_read_fd(int fd, size_t max, char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
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
    return clrt__file_read_fd(fd, max, data, len);
}

int clrt__cache_file_read(const char *path, size_t max, char **data, size_t *len)
{
    char why[600];
    int rc = clrt__trusted_read(path, max, data, len, why, sizeof why);
    if (rc < 0)
        clrt__untrusted_warn(path, why);
    return rc == 0 ? 0 : -1;
}

int clrt__file_is_other(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

int clrt__cache_write(const char *path, const void *data, size_t len, char *why, size_t cap)
{
    int rc = clrt__trusted_write(path, data, len, why, cap);
    if (rc == 0)
        remove_stale_temps(path);
    return rc;
}

int clrt__file_write_atomic(const char *path, const void *data, size_t len)
{
    char why[600];
    int rc = clrt__cache_write(path, data, len, why, sizeof why);
    if (rc == -2)
        clrt__untrusted_warn(path, why);
    return rc == 0 ? 0 : -1;
}

/* ---- keeping a cache folder tidy */

/* "<target>.tmp.XXXXXX", the temporary name above; target NULL: any target. */
static int is_temp(const char *name, const char *target)
{
    size_t n = strlen(name), t = target ? strlen(target) : 0;
    if (n < 11 || memcmp(name + n - 11, ".tmp.", 5) != 0)
        return 0;
    return !target || (n == t + 11 && memcmp(name, target, t) == 0);
}

static int is_stale(const struct stat *st, time_t now)
{
    return S_ISREG(st->st_mode) && now - st->st_mtime > CLRT__STALE_TMP_SECONDS;
}

/* The folder part of path into dir ("." when it has none); the rest is returned. */
static const char *split_path(const char *path, char *dir, size_t cap)
{
    const char *slash = strrchr(path, '/');
    size_t n = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
    if (n == 0 || n >= cap)
        snprintf(dir, cap, ".");
    else {
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
    return slash ? slash + 1 : path;
}

/* Temporary files of path (only of path: its folder may be the user's) that
 * a process killed while writing left behind. */
static void remove_stale_temps(const char *path)
{
    char dir[4096], sub[4400];
    const char *base = split_path(path, dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!d)
        return;
    time_t now = time(NULL);
    for (struct dirent *e; (e = readdir(d));) {
        struct stat st;
        if (!is_temp(e->d_name, base) || snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= (int)sizeof sub)
            continue;
        if (lstat(sub, &st) == 0 && is_stale(&st, now))
            unlink(sub);
    }
    closedir(d);
}

typedef struct entry {
    char *name;
    uint64_t size;
    struct timespec mtime;
} entry;

static int older_first(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->mtime.tv_sec != y->mtime.tv_sec)
        return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
    if (x->mtime.tv_nsec != y->mtime.tv_nsec)
        return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
    return strcmp(x->name, y->name);
}

void clrt__dir_trim(const char *dir, const char *suffix, uint64_t max_bytes, const char *keep)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    entry *list = NULL;
    size_t n = 0, cap = 0, slen = strlen(suffix);
    uint64_t total = 0;
    time_t now = time(NULL);
    char sub[4400];
    for (struct dirent *e; (e = readdir(d));) {
        struct stat st;
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= (int)sizeof sub ||
            lstat(sub, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (is_temp(e->d_name, NULL)) {
            if (is_stale(&st, now))
                unlink(sub);
            continue;
        }
        if (len < slen || strcmp(e->d_name + len - slen, suffix) != 0)
            continue;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            entry *grown = realloc(list, ncap * sizeof *list);
            if (!grown)
                break;
            list = grown;
            cap = ncap;
        }
        if (!(list[n].name = malloc(len + 1)))
            break;
        memcpy(list[n].name, e->d_name, len + 1);
        list[n].size = (uint64_t)st.st_size;
        list[n].mtime = st.st_mtim;
        total += list[n].size;
        n++;
    }
    closedir(d);
    if (total > max_bytes) {
        qsort(list, n, sizeof *list, older_first);
        for (size_t i = 0; i < n && total > max_bytes; i++) {
            if (keep && strcmp(list[i].name, keep) == 0)
                continue;
            snprintf(sub, sizeof sub, "%s/%s", dir, list[i].name);
            if (unlink(sub) == 0 || errno == ENOENT) /* ENOENT: another process was first */
                total -= list[i].size;
        }
    }
    for (size_t i = 0; i < n; i++)
        free(list[i].name);
    free(list);
}

void clrt__file_touch(const char *path) { (void)utimensat(AT_FDCWD, path, NULL, 0); }
