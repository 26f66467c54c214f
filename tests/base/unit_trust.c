/* src/base/trust.c: clrt reads and writes a cache file (a program binary, a
 * tuned file) only when the file and its folder belong to the effective user
 * and no one else may write them, follows no symbolic link there, and in its
 * own cache layout (<root>/programs/) checks the root too. Ownership by
 * another user needs root to set up: those cases skip, saying so, otherwise. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/temp_files.h"
#include "common/test_util.h"

#include "base/trust.h"

static char root[128], programs[256], entry[300];

static int setup(void **state)
{
    (void)state;
    if (tu_temp_dir(root, sizeof root, "trust") != 0)
        return -1;
    snprintf(programs, sizeof programs, "%s/programs", root);
    snprintf(entry, sizeof entry, "%s/0123456789abcdef.bin", programs);
    setenv("CLRT_CACHE_DIR", root, 1);
    return mkdir(programs, 0700);
}

static int teardown(void **state)
{
    (void)state;
    chmod(root, 0700);
    unsetenv("CLRT_CACHE_DIR");
    return tu_remove_tree(root) == 0 ? 0 : -1;
}

/* 0, 1 or -1 as clrt__trusted_read says, and why in *why. */
static int try_read(const char *path, char *why, size_t cap)
{
    char *data = NULL;
    size_t len = 0;
    why[0] = '\0';
    int rc = clrt__trusted_read(path, 1 << 20, &data, &len, why, cap);
    if (rc == 0)
        assert_string_equal(data, "binary");
    free(data);
    return rc;
}

static void expect_refused(const char *path, const char *because)
{
    char why[600];
    assert_int_equal(try_read(path, why, sizeof why), -1);
    if (!strstr(why, because))
        fail_msg("reading %s: \"%s\" does not say \"%s\"", path, why, because);
    assert_int_equal(clrt__trusted_write(path, "binary", 6, why, sizeof why), -2);
    if (!strstr(why, because))
        fail_msg("writing %s: \"%s\" does not say \"%s\"", path, why, because);
}

static void own_cache_used(void **state)
{
    (void)state;
    char why[600];
    unlink(entry);
    assert_int_equal(try_read(entry, why, sizeof why), 1); /* no entry: a miss */
    assert_int_equal(clrt__trusted_write(entry, "binary", 6, why, sizeof why), 0);
    assert_int_equal(try_read(entry, why, sizeof why), 0);
    struct stat st;
    assert_int_equal(stat(entry, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
}

static void writable_by_others_refused(void **state)
{
    (void)state;
    char why[600];
    assert_int_equal(clrt__trusted_write(entry, "binary", 6, why, sizeof why), 0);
    /* the root, the folder, the file: each writable by others or the group */
    assert_int_equal(chmod(root, 0777), 0);
    expect_refused(entry, "writable by others");
    assert_int_equal(chmod(root, 0700), 0);
    assert_int_equal(chmod(programs, 0770), 0);
    expect_refused(entry, "writable by its group");
    assert_int_equal(chmod(programs, 0700), 0);
    assert_int_equal(chmod(entry, 0666), 0);
    expect_refused(entry, "writable by others");
    assert_int_equal(chmod(entry, 0600), 0);
    assert_int_equal(try_read(entry, why, sizeof why), 0);
}

static void symbolic_links_refused(void **state)
{
    (void)state;
    char why[600], real[300], link[300];
    assert_int_equal(clrt__trusted_write(entry, "binary", 6, why, sizeof why), 0);
    /* the entry a link to a file of the user's own */
    snprintf(real, sizeof real, "%s/real.bin", root);
    assert_int_equal(rename(entry, real), 0);
    assert_int_equal(symlink(real, entry), 0);
    expect_refused(entry, "symbolic link");
    assert_int_equal(unlink(entry), 0);
    /* programs/ a link to another folder (the root stays trusted) */
    snprintf(real, sizeof real, "%s/elsewhere", root);
    assert_int_equal(mkdir(real, 0700), 0);
    snprintf(link, sizeof link, "%s/elsewhere/0123456789abcdef.bin", root);
    assert_int_equal(clrt__trusted_write(link, "binary", 6, why, sizeof why), 0); /* not the cache layout */
    assert_int_equal(tu_remove_tree(programs), 0);
    assert_int_equal(symlink(real, programs), 0);
    expect_refused(entry, "symbolic link");
    assert_int_equal(unlink(programs), 0);
    assert_int_equal(mkdir(programs, 0700), 0);
}

/* Only regular files: a FIFO is refused without waiting for a writer. */
static void fifo_refused(void **state)
{
    (void)state;
    unlink(entry);
    assert_int_equal(mkfifo(entry, 0600), 0);
    expect_refused(entry, "not a regular file");
    assert_int_equal(unlink(entry), 0);
}

/* A file outside the cache layout ($CLRT_TUNED_FILE): its folder is
 * checked, not the folder above. */
static void named_file_checks_its_folder(void **state)
{
    (void)state;
    char other[128], sub[300], file[400], why[600];
    assert_int_equal(tu_temp_dir(other, sizeof other, "trust-named"), 0);
    snprintf(sub, sizeof sub, "%s/mine", other);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(file, sizeof file, "%s/x.tuned", sub);
    assert_int_equal(chmod(other, 0777), 0); /* above it: not the file's business */
    assert_int_equal(clrt__trusted_write(file, "binary", 6, why, sizeof why), 0);
    assert_int_equal(try_read(file, why, sizeof why), 0);
    assert_int_equal(chmod(sub, 0757), 0);
    expect_refused(file, "writable by others");
    assert_int_equal(tu_remove_tree(other), 0);
}

/* Another user's file or folder (as root: chown to nobody). */
static void another_users_refused(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        print_message("skipped: files of another user need root to make\n");
        return;
    }
    char why[600];
    assert_int_equal(clrt__trusted_write(entry, "binary", 6, why, sizeof why), 0);
    assert_int_equal(chown(entry, 65534, 65534), 0);
    expect_refused(entry, "belongs to uid 65534");
    assert_int_equal(chown(entry, 0, 0), 0);
    assert_int_equal(chown(root, 65534, 65534), 0);
    expect_refused(entry, "belongs to uid 65534");
    assert_int_equal(chown(root, 0, 0), 0);
    assert_int_equal(try_read(entry, why, sizeof why), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(own_cache_used),
        cmocka_unit_test(writable_by_others_refused),
        cmocka_unit_test(symbolic_links_refused),
        cmocka_unit_test(fifo_refused),
        cmocka_unit_test(named_file_checks_its_folder),
        cmocka_unit_test(another_users_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
