/* Output files written whole or not at all (see outfile/outfile.h). POSIX,
 * and glibc's fopencookie: the FILE callers write through keeps the first
 * failed write's errno, which plain stdio loses by the time it is closed. */
#define _GNU_SOURCE
#include "outfile/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { MAX_LINKS = 40, LINK_CAP = 4096, TEMP_TRIES = 100 };

/* o->why = "<what>: <the OS's reason>"; -1. errno is kept for the caller. */
static int fail(clrt__outfile *o, int err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int fail(clrt__outfile *o, int err, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(o->why, sizeof o->why, "%s: %s", what, strerror(err));
    errno = err;
    return -1;
}

static void release(clrt__outfile *o)
{
    free(o->path);
    free(o->temp);
    o->path = o->temp = NULL;
    o->f = NULL;
    o->fd = -1;
}

/* ---- signals held while a file is replaced */

static const int held[] = {SIGINT, SIGTERM, SIGHUP};
enum { NHELD = sizeof held / sizeof *held };
static struct sigaction saved[NHELD];
static int defer_depth;
static volatile sig_atomic_t pending;

static void note_signal(int sig)
{
    if (!pending)
        pending = sig;
}

void clrt__signals_defer(void)
{
    if (defer_depth++ > 0)
        return;
    pending = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = note_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; /* a write in progress goes on */
    for (int i = 0; i < NHELD; i++)
        sigaction(held[i], &sa, &saved[i]);
}

void clrt__signals_resume(void)
{
    if (defer_depth == 0 || --defer_depth > 0)
        return;
    for (int i = 0; i < NHELD; i++)
        sigaction(held[i], &saved[i], NULL);
    const int sig = pending;
    pending = 0;
    if (sig)
        raise(sig); /* what the program does with it: exit, or note a stop */
}

/* ---- where to write */

/* "dir/target" for a link's relative target, as the kernel resolves it. */
static char *join_link(const char *link, const char *target)
{
    const char *slash = strrchr(link, '/');
    size_t dlen = target[0] == '/' || !slash ? 0 : (size_t)(slash - link) + 1;
    size_t tlen = strlen(target);
    char *out = malloc(dlen + tlen + 1);
    if (out) {
        memcpy(out, link, dlen);
        memcpy(out + dlen, target, tlen + 1);
    }
    return out;
}

/* The file path names once every symbolic link is followed (the path itself
 * when it is not a link, or missing); NULL with errno (ELOOP, ENOMEM...). */
static char *final_target(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur; /* what is there, or nothing: opening it says which */
        char target[LINK_CAP];
        ssize_t n = hops < MAX_LINKS ? readlink(cur, target, sizeof target - 1) : -1;
        if (hops >= MAX_LINKS)
            errno = ELOOP;
        else if (n >= 0) {
            target[n] = '\0';
            char *next = join_link(cur, target);
            free(cur);
            cur = next;
            continue;
        }
        int err = errno;
        free(cur);
        errno = err;
        return NULL;
    }
    return NULL;
}

/* What stdio writes: all of it, or what was written before the first failure
 * (never a negative count: glibc's fopencookie takes that as a length). */
static ssize_t cookie_write(void *cookie, const char *buf, size_t n)
{
    clrt__outfile *o = cookie;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(o->fd, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!o->write_errno)
                o->write_errno = w < 0 ? errno : EIO;
            break;
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}

static int cookie_close(void *cookie)
{
    clrt__outfile *o = cookie;
    int rc = close(o->fd);
    if (rc != 0 && !o->write_errno)
        o->write_errno = errno; /* NFS reports a lost write here */
    o->fd = -1;
    return rc;
}

/* o->f over o->fd; on failure the descriptor is closed. */
static int attach_stream(clrt__outfile *o)
{
    cookie_io_functions_t io = {.read = NULL, .write = cookie_write, .seek = NULL, .close = cookie_close};
    o->f = fopencookie(o, "w", io);
    if (o->f)
        return 0;
    int err = errno;
    close(o->fd);
    o->fd = -1;
    return fail(o, err, "cannot write %s", o->path);
}

/* "<path>.tmp.XXXXXX": six characters that differ between processes and calls. */
static void temp_name(char *out, const char *path, size_t plen)
{
    static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static atomic_uint counter; /* the library's threads may write cache files at once */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 12) ^
                 atomic_fetch_add(&counter, 1u);
    memcpy(out, path, plen);
    memcpy(out + plen, ".tmp.", 5);
    for (int i = 0; i < 6; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        out[plen + 5 + i] = chars[(x >> 33) % (sizeof chars - 1)];
    }
    out[plen + 11] = '\0';
}

/* The temporary file beside o->path; keep_mode >= 0: the permissions of the
 * file it replaces. */
static int open_temp(clrt__outfile *o, int keep_mode)
{
    size_t plen = strlen(o->path);
    if (!(o->temp = malloc(plen + 12)))
        return fail(o, ENOMEM, "cannot write %s", o->path);
    if (o->flags & CLRT__OUT_DEFER_SIGNALS)
        clrt__signals_defer();
    const mode_t mode = (o->flags & CLRT__OUT_PRIVATE) ? 0600 : 0666;
    o->fd = -1;
    for (int i = 0; i < TEMP_TRIES && o->fd < 0; i++) {
        temp_name(o->temp, o->path, plen);
        o->fd = open(o->temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (o->fd < 0 && errno != EEXIST)
            break;
    }
    int rc = 0;
    if (o->fd < 0)
        rc = fail(o, errno, "cannot create a temporary file beside %s", o->path);
    else if (keep_mode >= 0 && fchmod(o->fd, (mode_t)keep_mode) != 0) {
        rc = fail(o, errno, "cannot set the permissions of %s", o->temp);
        close(o->fd);
        unlink(o->temp);
    } else if ((rc = attach_stream(o)) != 0)
        unlink(o->temp);
    if (rc != 0 && (o->flags & CLRT__OUT_DEFER_SIGNALS))
        clrt__signals_resume();
    return rc;
}

/* A character device or a FIFO: written where it is, never replaced. */
static int open_direct(clrt__outfile *o)
{
    o->fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (o->fd < 0)
        return fail(o, errno, "cannot open %s", o->path);
    return attach_stream(o);
}

static int open_by_kind(clrt__outfile *o)
{
    struct stat st;
    if (lstat(o->path, &st) != 0) {
        if (errno != ENOENT)
            return fail(o, errno, "cannot write %s", o->path);
        return open_temp(o, -1);
    }
    if (S_ISREG(st.st_mode))
        return open_temp(o, (int)(st.st_mode & 0777));
    if (S_ISLNK(st.st_mode)) /* not followed: the link is replaced */
        return open_temp(o, -1);
    if (S_ISDIR(st.st_mode))
        return fail(o, EISDIR, "cannot write %s", o->path);
    if ((S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) && !(o->flags & CLRT__OUT_REGULAR_ONLY))
        return open_direct(o);
    snprintf(o->why, sizeof o->why, "cannot write %s: %s", o->path,
             S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) ? "a device or FIFO, not a regular file"
                                                         : "neither a regular file, a character device nor a FIFO");
    errno = EINVAL;
    return -1;
}

int clrt__outfile_open(clrt__outfile *o, const char *path, int flags)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->flags = flags;
    if (!path || !*path)
        return fail(o, ENOENT, "cannot write a file without a name");
    o->path = (flags & CLRT__OUT_FOLLOW) ? final_target(path) : strdup(path);
    if (!o->path)
        return fail(o, errno, "cannot follow the symbolic link %s", path);
    int rc = open_by_kind(o);
    if (rc != 0)
        release(o);
    return rc;
}

/* The folder part of path into dir ("." when it has none). */
static void folder_of(const char *path, char *dir, size_t cap)
{
    const char *slash = strrchr(path, '/');
    size_t n = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
    snprintf(dir, cap, "%.*s", n ? (int)n : 1, n ? path : ".");
}

int clrt__outfile_check(const char *path, int flags, char *why, size_t cap)
{
    clrt__outfile o;
    memset(&o, 0, sizeof o);
    int rc = 0, direct = 0;
    struct stat st;
    if (!path || !*path)
        rc = fail(&o, ENOENT, "cannot write a file without a name");
    else if (!(o.path = (flags & CLRT__OUT_FOLLOW) ? final_target(path) : strdup(path)))
        rc = fail(&o, errno, "cannot follow the symbolic link %s", path);
    else if (lstat(o.path, &st) == 0) {
        direct = S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode);
        if (S_ISDIR(st.st_mode))
            rc = fail(&o, EISDIR, "cannot write %s", o.path);
        else if (!direct && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
            rc = fail(&o, EINVAL, "cannot write %s", o.path);
    } else if (errno != ENOENT)
        rc = fail(&o, errno, "cannot write %s", o.path);
    char dir[LINK_CAP];
    if (rc == 0 && !direct) { /* the temporary file goes beside it: the folder must take one */
        folder_of(o.path, dir, sizeof dir);
        if (access(dir, W_OK | X_OK) != 0)
            rc = fail(&o, errno, "cannot write %s", o.path);
    }
    if (rc != 0 && why && cap)
        snprintf(why, cap, "%s", o.why);
    free(o.path);
    return rc;
}

/* After the rename: the folder's entry on disk too (best effort: the file
 * is whole either way, and some file systems cannot sync a folder). */
static void sync_folder(const char *path)
{
    char dir[LINK_CAP];
    folder_of(path, dir, sizeof dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

int clrt__outfile_commit(clrt__outfile *o)
{
    const int sync = o->temp && !(o->flags & CLRT__OUT_NO_SYNC);
    int rc = 0;
    errno = 0;
    if (fflush(o->f) != 0 || ferror(o->f) || o->write_errno)
        rc = fail(o, o->write_errno ? o->write_errno : errno ? errno : EIO, "cannot write %s", o->path);
    if (rc == 0 && sync && fsync(o->fd) != 0)
        rc = fail(o, errno, "cannot write %s (fsync)", o->path);
    o->write_errno = 0;
    if (fclose(o->f) != 0 && rc == 0)
        rc = fail(o, o->write_errno ? o->write_errno : errno, "cannot write %s (close)", o->path);
    if (rc == 0 && o->temp && rename(o->temp, o->path) != 0)
        rc = fail(o, errno, "cannot rename %s onto %s", o->temp, o->path);
    if (o->temp) {
        if (rc != 0)
            unlink(o->temp);
        else if (sync)
            sync_folder(o->path);
        if (o->flags & CLRT__OUT_DEFER_SIGNALS)
            clrt__signals_resume();
    }
    const int err = errno;
    release(o);
    errno = err;
    return rc;
}

void clrt__outfile_abandon(clrt__outfile *o)
{
    if (!o->f)
        return;
    fclose(o->f);
    if (o->temp) {
        unlink(o->temp);
        if (o->flags & CLRT__OUT_DEFER_SIGNALS)
            clrt__signals_resume();
    }
    release(o);
}

int clrt__outfile_write_all(const char *path, const void *data, size_t len, int flags, char *why, size_t cap)
{
    clrt__outfile o;
    int rc = clrt__outfile_open(&o, path, flags);
    if (rc == 0) {
        if (len > 0)
            (void)fwrite(data, 1, len, o.f); /* checked by the commit */
        rc = clrt__outfile_commit(&o);
    }
    if (rc != 0 && why && cap)
        snprintf(why, cap, "%s", o.why);
    return rc;
}

/* stdout as clrt__stdout_watch makes it: each write to fd 1 checked, the first
 * failure's errno kept for clrt__stdout_close. */
static int stdout_errno;

static ssize_t stdout_write(void *cookie, const char *buf, size_t n)
{
    (void)cookie;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(1, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!stdout_errno)
                stdout_errno = w < 0 ? errno : EIO;
            break;
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}

static int stdout_close(void *cookie)
{
    (void)cookie;
    int rc = close(1);
    if (rc != 0 && !stdout_errno)
        stdout_errno = errno;
    return rc;
}

void clrt__stdout_watch(void)
{
    cookie_io_functions_t io = {.read = NULL, .write = stdout_write, .seek = NULL, .close = stdout_close};
    fflush(stdout);
    FILE *f = fopencookie(NULL, "w", io);
    if (!f)
        return; /* plain stdout: still checked at the close, its reason perhaps lost */
    setvbuf(f, NULL, isatty(1) ? _IOLBF : _IOFBF, BUFSIZ);
    stdout = f; /* glibc's streams are variables a program may set */
}

int clrt__stdout_close(char *why, size_t cap)
{
    errno = 0;
    int bad = fflush(stdout) != 0 || ferror(stdout) || stdout_errno;
    int err = stdout_errno ? stdout_errno : errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        err = stdout_errno ? stdout_errno : errno;
    }
    if (bad && why && cap)
        snprintf(why, cap, "cannot write the output (stdout): %s", strerror(err ? err : EIO));
    return bad ? -1 : 0;
}
