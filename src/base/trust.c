/* Trusted cache files (see base/trust.h). POSIX. */
#include "base/trust.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/disk.h"
#include "base/util.h"
#include "outfile/outfile.h"

enum { DIR_CAP = 4096 };

/* st (of `kind` path) belongs to the effective user and no one else may write it. */
static int owned(const struct stat *st, const char *kind, const char *path, char *why, size_t cap)
{
    const unsigned me = (unsigned)geteuid();
    if ((unsigned)st->st_uid != me) {
        snprintf(why, cap, "the %s %s belongs to uid %u, not to this user (uid %u)", kind, path,
                 (unsigned)st->st_uid, me);
        return -1;
    }
    if (st->st_mode & (S_IWGRP | S_IWOTH)) {
        snprintf(why, cap, "the %s %s is writable by %s (mode %03o)", kind, path,
                 (st->st_mode & S_IWOTH) ? "others" : "its group", (unsigned)(st->st_mode & 0777));
        return -1;
    }
    return 0;
}

/* A trusted folder; no_link: a symbolic link there is not expected. 0, 1
 * when missing, -1 with why. */
static int check_folder(const char *dir, int no_link, char *why, size_t cap)
{
    struct stat st;
    if ((no_link ? lstat(dir, &st) : stat(dir, &st)) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return 1;
        snprintf(why, cap, "cannot look at the folder %s: %s", dir, strerror(errno));
        return -1;
    }
    if (S_ISLNK(st.st_mode)) {
        snprintf(why, cap, "the folder %s is a symbolic link, where clrt makes a folder of its own", dir);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, cap, "%s is not a folder", dir);
        return -1;
    }
    return owned(&st, "folder", dir, why, cap);
}

/* The folder part of path ("." when none) into dir. */
static void folder_of(const char *path, char *dir, size_t cap)
{
    const char *slash = strrchr(path, '/');
    size_t n = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
    if (n == 0 || n >= cap)
        snprintf(dir, cap, "%s", n == 0 ? "." : "/");
    else {
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
}

/* path without the slashes it ends with ("/" stays). */
static void trim_slashes(char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        path[--n] = '\0';
}

/* path's folder, and when that folder is one of clrt's cache layout
 * (<root>/<sub>), the root as well. 0, 1 (a folder is missing), -1. */
static int check_folders(const char *path, char *why, size_t cap)
{
    char dir[DIR_CAP], parent[DIR_CAP], root[DIR_CAP];
    folder_of(path, dir, sizeof dir);
    trim_slashes(dir);
    folder_of(dir, parent, sizeof parent);
    trim_slashes(parent);
    int layout = 0;
    if (clrt__cache_root(root, sizeof root) == 0) {
        trim_slashes(root);
        layout = strcmp(root, parent) == 0;
    }
    int rc = check_folder(dir, layout, why, cap);
    if (rc == 0 && layout)
        rc = check_folder(parent, 0, why, cap);
    return rc;
}

int clrt__trusted_read(const char *path, size_t max, char **data, size_t *len, char *why, size_t cap)
{
    *data = NULL;
    *len = 0;
    int rc = check_folders(path, why, cap);
    if (rc != 0)
        return rc;
    /* O_NONBLOCK: a FIFO is refused below, not waited on. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return 1;
        if (errno == ELOOP)
            snprintf(why, cap, "%s is a symbolic link (clrt follows none in its caches)", path);
        else
            snprintf(why, cap, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, cap, "%s is not a regular file (only regular files are read)", path);
        close(fd);
        return -1;
    }
    if (owned(&st, "file", path, why, cap) != 0) {
        close(fd);
        return -1;
    }
    if (clrt__file_read_fd(fd, max, data, len) != 0) {
        snprintf(why, cap, "cannot read %s, or it is larger than %zu bytes", path, max);
        return -1;
    }
    return 0;
}

int clrt__trusted_write(const char *path, const void *data, size_t len, char *why, size_t cap)
{
    int rc = check_folders(path, why, cap);
    if (rc == 1) {
        snprintf(why, cap, "no folder for %s", path);
        return -1;
    }
    if (rc != 0)
        return -2;
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (S_ISLNK(st.st_mode) || !S_ISREG(st.st_mode)) {
            snprintf(why, cap, "%s is %s", path,
                     S_ISLNK(st.st_mode) ? "a symbolic link (clrt follows none in its caches)"
                                         : "not a regular file (only regular files are replaced)");
            return -2;
        }
        if (owned(&st, "file", path, why, cap) != 0)
            return -2;
    }
    /* No fsync: every cache file carries a checksum, and a damaged one is
     * rebuilt (a program) or ignored (tuned parameters), never used. */
    return clrt__outfile_write_all(path, data, len, CLRT__OUT_PRIVATE | CLRT__OUT_NO_SYNC | CLRT__OUT_REGULAR_ONLY,
                                   why, cap);
}

void clrt__untrusted_warn(const char *path, const char *why)
{
    if (clrt__first_time(path, why))
        fprintf(stderr,
                "clrt: not using %s: %s; running without it (docs/tuning.md, \"Sharing a cache\", says which "
                "folders clrt trusts)\n",
                path, why);
}
