/* support/outfile/: every output file clrt and its tools write is whole or not
 * there, and each kind of path gets its rule (outfile/outfile.h): a regular
 * or missing file is replaced through a temporary and rename, keeping its
 * permissions; a symbolic link has its target written and stays a link; a
 * character device or FIFO is written where it is; a folder is refused. A
 * failed write (a file size limit, /dev/full, a full tmpfs as root) leaves the
 * earlier file as it was and no temporary file, and says the OS's reason. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/temp_files.h"
#include "common/test_util.h"

#include "outfile/outfile.h"

static char dir[128];
static char mounted[256]; /* a tmpfs still mounted when a test failed: unmounted at the end */

static void at(char *out, size_t cap, const char *name) { snprintf(out, cap, "%s/%s", dir, name); }

/* The file's bytes as a string ("" when missing). */
static const char *contents(const char *path)
{
    static char buf[4096];
    buf[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (f) {
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        fclose(f);
    }
    return buf;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void count_temp(const char *path, void *n)
{
    if (strstr(path, ".tmp."))
        ++*(int *)n;
}

/* No "<name>.tmp.XXXXXX" left in folder d. */
static void assert_no_temp(const char *d)
{
    int n = 0;
    tu_each_entry(d, count_temp, &n);
    assert_int_equal(n, 0);
}

static int write_text(const char *path, int flags, const char *text, char *why, size_t cap)
{
    return clrt__outfile_write_all(path, text, strlen(text), flags, why, cap);
}

static void regular_and_missing(void **state)
{
    (void)state;
    char p[256], why[400];
    at(p, sizeof p, "new.txt");
    mode_t old = umask(022);
    assert_int_equal(write_text(p, 0, "one\n", why, sizeof why), 0);
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644); /* 0666 less the umask, as fopen makes it */
    assert_int_equal(write_text(p, CLRT__OUT_PRIVATE, "x", why, sizeof why), 0);
    assert_int_equal(chmod(p, 0640), 0);
    assert_int_equal(write_text(p, 0, "two\n", why, sizeof why), 0);
    assert_string_equal(contents(p), "two\n");
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640); /* a replaced file keeps its permissions */
    at(p, sizeof p, "private.txt");
    assert_int_equal(write_text(p, CLRT__OUT_PRIVATE, "x", why, sizeof why), 0);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    umask(old);
    /* an empty file is a file too */
    at(p, sizeof p, "empty.txt");
    assert_int_equal(write_text(p, 0, "", why, sizeof why), 0);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_size, 0);
    assert_no_temp(dir);
}

static void abandoned_and_refused(void **state)
{
    (void)state;
    char p[256], why[400];
    at(p, sizeof p, "kept.txt");
    put(p, "old\n");
    clrt__outfile o;
    assert_int_equal(clrt__outfile_open(&o, p, 0), 0);
    fputs("half of a new fi", o.f);
    assert_string_equal(contents(p), "old\n"); /* nothing is seen before the commit */
    clrt__outfile_abandon(&o);
    assert_string_equal(contents(p), "old\n");
    assert_no_temp(dir);
    /* a folder: refused; a missing folder: the OS's reason, naming the file */
    assert_int_equal(write_text(dir, CLRT__OUT_FOLLOW, "x", why, sizeof why), -1);
    assert_non_null(strstr(why, "Is a directory"));
    at(p, sizeof p, "no-such-folder/x.txt");
    assert_int_equal(write_text(p, CLRT__OUT_FOLLOW, "x", why, sizeof why), -1);
    assert_non_null(strstr(why, "no-such-folder/x.txt"));
    assert_non_null(strstr(why, "No such file or directory"));
    /* a device, for a writer of regular files only */
    assert_int_equal(write_text("/dev/null", CLRT__OUT_REGULAR_ONLY, "x", why, sizeof why), -1);
    assert_non_null(strstr(why, "not a regular file"));
    assert_int_equal(write_text("", 0, "x", why, sizeof why), -1);
}

/* A write past RLIMIT_FSIZE fails with EFBIG (SIGXFSZ ignored): what a full
 * disk or a quota does, without root. In a child, which the limit dies with. */
static void failed_write_keeps_old_file(void **state)
{
    (void)state;
    char p[256];
    at(p, sizeof p, "big.txt");
    put(p, "old\n");
    static char big[64 * 1024];
    memset(big, 'x', sizeof big);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit lim = {16 * 1024, 16 * 1024};
        setrlimit(RLIMIT_FSIZE, &lim);
        char why[400] = "";
        int rc = clrt__outfile_write_all(p, big, sizeof big, CLRT__OUT_FOLLOW, why, sizeof why);
        _exit(rc == -1 && strstr(why, "File too large") && strstr(why, "big.txt") ? 0 : 1);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_string_equal(contents(p), "old\n");
    assert_no_temp(dir);
}

/* A real ENOSPC: a 64 KiB tmpfs (root only: mount). */
static void full_filesystem(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        print_message("skipped: mounting a small tmpfs to fill needs root\n");
        return;
    }
    char mnt[256], p[300], why[400];
    at(mnt, sizeof mnt, "tmpfs");
    assert_int_equal(mkdir(mnt, 0700), 0);
    if (mount("tmpfs", mnt, "tmpfs", 0, "size=64k") != 0) {
        print_message("skipped: cannot mount a tmpfs here (%s)\n", strerror(errno));
        return;
    }
    snprintf(mounted, sizeof mounted, "%s", mnt);
    snprintf(p, sizeof p, "%s/out.json", mnt);
    put(p, "old\n");
    static char big[256 * 1024];
    memset(big, 'y', sizeof big);
    assert_int_equal(clrt__outfile_write_all(p, big, sizeof big, CLRT__OUT_FOLLOW, why, sizeof why), -1);
    assert_non_null(strstr(why, "No space left on device"));
    assert_string_equal(contents(p), "old\n");
    assert_no_temp(mnt);
    assert_int_equal(umount(mnt), 0);
    mounted[0] = '\0';
}

static void symbolic_links(void **state)
{
    (void)state;
    char sub[256], target[300], link[256], why[400];
    at(sub, sizeof sub, "real");
    mkdir(sub, 0700);
    snprintf(target, sizeof target, "%s/target.json", sub);
    at(link, sizeof link, "link.json");
    put(target, "old\n");
    assert_int_equal(symlink("real/target.json", link), 0); /* relative to the link's folder */
    assert_int_equal(write_text(link, CLRT__OUT_FOLLOW, "new\n", why, sizeof why), 0);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode)); /* the link stays */
    assert_string_equal(contents(target), "new\n");
    assert_no_temp(dir);
    assert_no_temp(sub);
    /* a link to a link to a file not there yet: made */
    char link2[256], made[300];
    at(link2, sizeof link2, "link2.json");
    snprintf(made, sizeof made, "%s/made.json", sub);
    assert_int_equal(unlink(link), 0);
    assert_int_equal(symlink(made, link), 0);
    assert_int_equal(symlink("link.json", link2), 0);
    assert_int_equal(write_text(link2, CLRT__OUT_FOLLOW, "made\n", why, sizeof why), 0);
    assert_string_equal(contents(made), "made\n");
    assert_int_equal(lstat(link2, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    /* without CLRT__OUT_FOLLOW (the caches) the link itself is replaced */
    assert_int_equal(write_text(link2, 0, "own\n", why, sizeof why), 0);
    assert_int_equal(lstat(link2, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_string_equal(contents(made), "made\n");
    /* a loop */
    char loop[256];
    at(loop, sizeof loop, "loop");
    assert_int_equal(symlink("loop", loop), 0);
    assert_int_equal(write_text(loop, CLRT__OUT_FOLLOW, "x", why, sizeof why), -1);
    assert_non_null(strstr(why, "symbolic link"));
}

/* Character devices are written where they are: /dev/null stays the
 * device (as root a rename could replace it), /dev/full says ENOSPC. */
static void character_devices(void **state)
{
    (void)state;
    char why[400];
    assert_int_equal(write_text("/dev/null", CLRT__OUT_FOLLOW, "x\n", why, sizeof why), 0);
    struct stat st;
    assert_int_equal(lstat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(write_text("/dev/full", CLRT__OUT_FOLLOW, "x\n", why, sizeof why), -1);
    assert_non_null(strstr(why, "No space left on device"));
    assert_int_equal(lstat("/dev/full", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
}

static void fifo_written_in_place(void **state)
{
    (void)state;
    char fifo[256], why[400];
    at(fifo, sizeof fifo, "fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) { /* the reader */
        FILE *f = fopen(fifo, "r");
        char got[64] = "";
        size_t n = f ? fread(got, 1, sizeof got - 1, f) : 0;
        got[n] = '\0';
        _exit(strcmp(got, "through\n") == 0 ? 0 : 1);
    }
    assert_int_equal(write_text(fifo, CLRT__OUT_FOLLOW, "through\n", why, sizeof why), 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct stat st;
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
}

static volatile sig_atomic_t got_term;
static void on_term(int sig) { got_term = sig; }

/* A signal while a file is replaced waits for the commit, then is acted on. */
static void signals_wait_for_the_file(void **state)
{
    (void)state;
    char p[256];
    at(p, sizeof p, "signalled.txt");
    signal(SIGTERM, on_term);
    got_term = 0;
    clrt__outfile o;
    assert_int_equal(clrt__outfile_open(&o, p, CLRT__OUT_DEFER_SIGNALS), 0);
    fputs("whole\n", o.f);
    raise(SIGTERM);
    raise(SIGTERM);
    assert_int_equal(got_term, 0);
    assert_int_equal(clrt__outfile_commit(&o), 0);
    assert_int_equal(got_term, SIGTERM);
    assert_string_equal(contents(p), "whole\n");
    signal(SIGTERM, SIG_DFL);
}

/* stdout to a full device: the close says so, with the first failed write's
 * reason (in a child: it closes stdout). */
static void stdout_checked(void **state)
{
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (!freopen("/dev/full", "w", stdout))
            _exit(3);
        clrt__stdout_watch();
        /* more than a buffer: the first failed write's reason must last */
        for (int i = 0; i < 10000; i++)
            printf("a report nobody will read\n");
        char why[400] = "";
        int rc = clrt__stdout_close(why, sizeof why);
        _exit(rc == -1 && strstr(why, "No space left on device") ? 0 : 1);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void)
{
    if (tu_temp_dir(dir, sizeof dir, "outfile") != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(regular_and_missing),
        cmocka_unit_test(abandoned_and_refused),
        cmocka_unit_test(failed_write_keeps_old_file),
        cmocka_unit_test(full_filesystem),
        cmocka_unit_test(symbolic_links),
        cmocka_unit_test(character_devices),
        cmocka_unit_test(fifo_written_in_place),
        cmocka_unit_test(signals_wait_for_the_file),
        cmocka_unit_test(stdout_checked),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (mounted[0])
        umount2(mounted, MNT_DETACH);
    tu_remove_tree(dir);
    return failed;
}
