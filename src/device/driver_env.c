/* What drivers need from the environment (see driver_env.h). */
#define _XOPEN_SOURCE 700 /* nftw (XSI), on top of the build's POSIX 2008 */
#include "device/driver_env.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

int clrt__pocl_cache_off(void)
{
    const char *kc = getenv("POCL_KERNEL_CACHE"); /* POCL's own switch: "0" turns its cache off */
    return kc && strcmp(kc, "0") == 0;
}

void clrt__pocl_cache_dir(char *out, size_t cap)
{
    const char *env = getenv("POCL_CACHE_DIR");
    const char *sub = clrt__pocl_cache_off() ? "pocl/uncached" : "pocl/kcache";
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (env && *env)
        snprintf(out, cap, "%s", env);
    else if (xdg && *xdg)
        snprintf(out, cap, "%s/%s", xdg, sub);
    else if (home)
        snprintf(out, cap, "%s/.cache/%s", home, sub);
    else
        snprintf(out, cap, "/tmp/%s", sub);
}

/* A file's modification time in seconds since the epoch; -1 when it has none. */
static double modified(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    return (double)st.st_mtim.tv_sec + (double)st.st_mtim.tv_nsec * 1e-9;
}

/* One bucket of POCL's cache (a folder of program folders): *compiled when a
 * program.bc in it was written since `since`, *served when a last_accessed
 * was; spends one of *budget per file looked at. */
static void probe_bucket(const char *bucket, double since, int *compiled, int *served, size_t *budget)
{
    DIR *d = opendir(bucket);
    if (!d)
        return;
    for (struct dirent *e; !*compiled && *budget >= 2 && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        *budget -= 2;
        if ((size_t)snprintf(path, sizeof path, "%s/%s/program.bc", bucket, e->d_name) < sizeof path &&
            modified(path) >= since)
            *compiled = 1;
        if ((size_t)snprintf(path, sizeof path, "%s/%s/last_accessed", bucket, e->d_name) < sizeof path &&
            modified(path) >= since)
            *served = 1;
    }
    closedir(d);
}

clrt__pocl_probe clrt__pocl_cache_probe(const char *dir, double since)
{
    DIR *top = opendir(dir);
    if (!top)
        return CLRT__POCL_PROBE_UNKNOWN;
    int compiled = 0, served = 0;
    size_t budget = 20000; /* files looked at: a few ms; a larger cache is not judged */
    for (struct dirent *e; !compiled && budget > 0 && (e = readdir(top));) {
        char path[1024];
        struct stat st;
        budget--;
        if (e->d_name[0] == '.' || (size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path ||
            stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        probe_bucket(path, since, &compiled, &served, &budget);
    }
    closedir(top);
    if (compiled)
        return CLRT__POCL_PROBE_COMPILED;
    return served && budget > 0 ? CLRT__POCL_PROBE_SERVED : CLRT__POCL_PROBE_UNKNOWN;
}

/* The folder of .icd files the loader reads: $OCL_ICD_VENDORS when it names
 * a folder, else /etc/OpenCL/vendors. */
static const char *icd_dir(void)
{
    const char *v = getenv("OCL_ICD_VENDORS");
    struct stat st;
    if (v && *v && stat(v, &st) == 0 && S_ISDIR(st.st_mode))
        return v;
    return "/etc/OpenCL/vendors";
}

size_t clrt__icd_count(char *first, size_t cap)
{
    if (cap)
        first[0] = '\0';
    DIR *d = opendir(icd_dir());
    if (!d)
        return 0;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".icd") == 0) {
            if (n++ == 0 && cap)
                snprintf(first, cap, "%s", e->d_name);
        }
    }
    closedir(d);
    return n;
}

/* 1 when the loader would load POCL: named in OCL_ICD_FILENAMES (which both
 * ICD loaders honour), or an .icd file whose name or text names it. */
static int pocl_registered(void)
{
    const char *files = getenv("OCL_ICD_FILENAMES");
    if (files && clrt__icontains(files, "pocl", 4))
        return 1;
    const char *dir = icd_dir();
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int found = 0;
    for (struct dirent *e; !found && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len <= 4 || strcmp(e->d_name + len - 4, ".icd") != 0)
            continue;
        char path[1024], line[512] = "";
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        if (f) {
            if (!fgets(line, sizeof line, f))
                line[0] = '\0';
            fclose(f);
        }
        found = clrt__icontains(e->d_name, "pocl", 4) || clrt__icontains(line, "pocl", 4);
    }
    closedir(d);
    return found;
}

/* Make dir and its parents (0700 for new ones); 0 or -1 with errno. */
static int make_dirs(char *dir)
{
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int rc = mkdir(dir, 0700);
        *p = '/';
        if (rc != 0 && errno != EEXIST)
            return -1;
    }
    return mkdir(dir, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

/* 0 when a file can be created in dir (made first if missing), else -1 with
 * errno. A real probe: permission bits say nothing to root, and a folder on a
 * read-only file system, or one like /proc, refuses anyway. */
static int writable(const char *dir)
{
    char d[1024], probe[1100];
    snprintf(d, sizeof d, "%s", dir);
    if (make_dirs(d) != 0)
        return -1;
    snprintf(probe, sizeof probe, "%s/.clrt-probe-XXXXXX", dir);
    int fd = mkstemp(probe);
    if (fd < 0)
        return -1;
    close(fd);
    unlink(probe);
    return 0;
}

/* The private folder made for POCL, removed at exit with whatever POCL left
 * in it (with its cache off POCL removes a build's folder only when the
 * program is released, and a process may exit with programs alive). Depth
 * first, never through a symbolic link: the folder is ours (mkdtemp). */
static char private_dir[1024];

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (type == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0; /* go on whatever fails: nothing else is to be done about it at exit */
}

static void remove_private_dir(void) { nftw(private_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

void clrt__driver_env_prepare(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    if (!pocl_registered())
        return;
    char dir[1024];
    clrt__pocl_cache_dir(dir, sizeof dir);
    if (writable(dir) == 0)
        return;
    const int why = errno;
    const char *tmp = getenv("TMPDIR");
    char alt[1024];
    snprintf(alt, sizeof alt, "%s/clrt-pocl-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(alt)) {
        fprintf(stderr, "clrt: POCL cannot write its kernel cache %s (%s), nor can clrt make a temporary one; "
                        "POCL may not start: set POCL_CACHE_DIR to a writable folder\n", dir, strerror(why));
        return;
    }
    /* The one time clrt changes the environment: before any driver has read
     * it. A private new folder (nobody else can plant code in it), with POCL's
     * cache off so that POCL removes each build from it when done. */
    setenv("POCL_CACHE_DIR", alt, 1);
    setenv("POCL_KERNEL_CACHE", "0", 1);
    snprintf(private_dir, sizeof private_dir, "%s", alt);
    atexit(remove_private_dir);
    fprintf(stderr, "clrt: POCL cannot write its kernel cache %s (%s); it compiles in %s without a cache for "
                    "this process (set POCL_CACHE_DIR to a writable folder to keep its builds)\n", dir, strerror(why),
            alt);
}
