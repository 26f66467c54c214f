/* Scratch folders and files for the suites (see temp_files.h). */
#include "common/temp_files.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/test_util.h"

int tu_temp_dir(char *dir, size_t cap, const char *name)
{
    int n = snprintf(dir, cap, "/tmp/clrt-%s-XXXXXX", name);
    if (n < 0 || (size_t)n >= cap)
        return -1;
    return mkdtemp(dir) ? 0 : -1;
}

int tu_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode))
        return unlink(path);
    DIR *d = opendir(path);
    if (d) {
        for (struct dirent *e; (e = readdir(d));) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char sub[1024];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            tu_remove_tree(sub);
        }
        closedir(d);
    }
    return rmdir(path);
}

size_t tu_each_entry(const char *dir, void (*fn)(const char *path, void *arg), void *arg)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue; /* ".", ".." and hidden files */
        n++;
        if (fn) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            fn(path, arg);
        }
    }
    if (d)
        closedir(d);
    return n;
}

static void unlink_entry(const char *path, void *arg)
{
    (void)arg;
    unlink(path);
}

int tu_clear_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    closedir(d);
    tu_each_entry(dir, unlink_entry, NULL);
    return 0;
}

void tu_write_file(const char *dir, const char *name, const char *text)
{
    char path[1024];
    assert_true((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) < sizeof path);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    mkdir(path, 0700); /* may exist already */
    *slash = '/';
    FILE *f = fopen(path, "w");
    if (!f)
        fail_msg("cannot write %s", path);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}
