/* The on-disk program cache: an entry written after a build, hit by the next
 * context, and every kind of damaged or foreign entry treated as a miss that
 * still gives correct results; a cache folder or entry that another user
 * owns or may write is neither read nor written, with one warning. Forced on
 * (CLRT_CACHE=on) whatever the driver. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/capture.h"
#include "common/temp_files.h"
#include "common/test_util.h"

#include "base/debug.h"

static char dir[64];
static char programs[128];

static int setup(void **state)
{
    (void)state;
    if (tu_temp_dir(dir, sizeof dir, "cache-test") != 0)
        return -1;
    snprintf(programs, sizeof programs, "%s/programs", dir);
    setenv("CLRT_CACHE", "on", 1);
    setenv("CLRT_CACHE_DIR", dir, 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tu_remove_tree(dir);
    unsetenv("CLRT_CACHE");
    unsetenv("CLRT_CACHE_DIR");
    tu_assert_no_live_handles();
    return 0;
}

static void keep_path(const char *path, void *out) { snprintf(out, 512, "%s", path); }

/* The single entry's path (512 bytes); fails the test unless exactly one exists. */
static void only_entry(char path[512])
{
    assert_int_equal(tu_each_entry(programs, keep_path, path), 1);
}

/* A new context (so nothing is cached in memory) runs one add and checks it. */
static void run_add(void)
{
    clrt_context *ctx;
    clrt_queue *q;
    clrt_buffer *a, *b;
    TU_OK(clrt_context_create(&ctx, NULL));
    /* Parameters that fit every driver's work-group limit, so that each add
     * is exactly one build (a misfit is rebuilt smaller: two entries). */
    TU_OK(clrt_tune_override(ctx, "add", CLRT_FLOAT32, "vw=4 items=1 wg=16"));
    TU_OK(clrt_queue_create(&q, ctx));
    TU_OK(clrt_buffer_create(&a, ctx, CLRT_FLOAT32, 3, 11));
    TU_OK(clrt_buffer_create(&b, ctx, CLRT_FLOAT32, 3, 11));
    float x[33], y[33], out[33];
    clrt__ref_fill(x, CLRT_FLOAT32, 33, 1);
    clrt__ref_fill(y, CLRT_FLOAT32, 33, 2);
    TU_OK(clrt_buffer_write(q, a, x, 33));
    TU_OK(clrt_buffer_write(q, b, y, 33));
    TU_OK(clrt_add(q, b, a, b));
    TU_OK(clrt_buffer_read(q, b, out, 33));
    for (int i = 0; i < 33; i++)
        assert_true(out[i] == x[i] + y[i]);
    clrt_buffer_destroy(a);
    clrt_buffer_destroy(b);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
}

typedef struct stats {
    unsigned long hits, misses, rejected;
} stats;

static stats delta(const stats *before)
{
    stats now;
    clrt__debug_cache_stats(&now.hits, &now.misses, &now.rejected);
    return (stats){now.hits - before->hits, now.misses - before->misses, now.rejected - before->rejected};
}

static stats snapshot(void)
{
    stats s;
    clrt__debug_cache_stats(&s.hits, &s.misses, &s.rejected);
    return s;
}

static void store_then_hit(void **state)
{
    (void)state;
    tu_clear_dir(programs);
    stats s = snapshot();
    run_add();
    stats d = delta(&s);
    assert_int_equal(d.hits, 0);
    assert_int_equal(d.misses, 1);
    char path[512];
    only_entry(path);

    s = snapshot();
    run_add();
    d = delta(&s);
    assert_int_equal(d.hits, 1);
    assert_int_equal(d.misses + d.rejected, 0);
}

typedef enum { TRUNCATE, FLIP_BINARY, GARBAGE, EMPTY, OTHER_VERSION } damage;

static void damage_entry(const char *path, damage how)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    assert_true(n > 100);
    switch (how) {
    case TRUNCATE:
        n = n * 2 / 3;
        break;
    case FLIP_BINARY:
        buf[n - 3] ^= 0x55;
        break;
    case GARBAGE:
        memset(buf, 'Z', n);
        break;
    case EMPTY:
        n = 0;
        break;
    case OTHER_VERSION: {
        char *v = strstr(buf, "\nclrt ");
        assert_non_null(v);
        v[6] = v[6] == '9' ? '8' : '9';
        break;
    }
    }
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, n, f), n);
    fclose(f);
}

static void damaged_entries_are_misses(void **state)
{
    (void)state;
    static const struct {
        damage how;
        int rejected; /* 1: warned about as corrupt; 0: a plain miss (foreign key) */
    } cases[] = {{TRUNCATE, 1}, {FLIP_BINARY, 1}, {GARBAGE, 0}, {EMPTY, 0}, {OTHER_VERSION, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_clear_dir(programs);
        run_add(); /* writes the entry */
        char path[512];
        only_entry(path);
        damage_entry(path, cases[i].how);

        stats s = snapshot();
        run_add(); /* must still compute correctly */
        stats d = delta(&s);
        assert_int_equal(d.hits, 0);
        assert_int_equal(d.rejected, (unsigned long)cases[i].rejected);
        assert_int_equal(d.misses, (unsigned long)!cases[i].rejected);

        s = snapshot();
        run_add(); /* the rebuilt entry replaced the damaged one */
        d = delta(&s);
        assert_int_equal(d.hits, 1);
    }
}

static void off_switch_and_unwritable_dir(void **state)
{
    (void)state;
    tu_clear_dir(programs);
    setenv("CLRT_CACHE", "off", 1);
    stats s = snapshot();
    run_add();
    stats d = delta(&s);
    assert_int_equal(d.hits + d.misses + d.rejected, 0);
    assert_int_equal(tu_each_entry(programs, NULL, NULL), 0);

    setenv("CLRT_CACHE", "on", 1);
    setenv("CLRT_CACHE_DIR", "/proc/clrt-cannot-write-here", 1);
    /* the reason the OS gives for that folder, as the test meets it too */
    errno = 0;
    assert_int_not_equal(mkdir("/proc/clrt-cannot-write-here", 0700), 0);
    char reason[200], said[4096];
    snprintf(reason, sizeof reason, "cannot write the program cache /proc/clrt-cannot-write-here/programs (%s)",
             strerror(errno));
    tu_capture_stderr();
    run_add(); /* a cache that cannot be written is not an error */
    tu_captured_stderr(said, sizeof said);
    if (!strstr(said, reason))
        fail_msg("expected \"%s\" on stderr, got: %s", reason, said);
    setenv("CLRT_CACHE_DIR", dir, 1);
}

/* CLRT_CACHE unset: the default depends on the driver. POCL and NVIDIA keep
 * their own build caches, and on POCL reading a binary back to store it costs
 * a second code generation of the whole program: nothing is stored. rusticl
 * and Oclgrind: the build is stored (it is cheap there and saves a build). */
static void default_follows_the_driver(void **state)
{
    (void)state;
    tu_clear_dir(programs);
    unsetenv("CLRT_CACHE");
    clrt_device_info dev;
    TU_OK(clrt_device_select(NULL, &dev));
    run_add();
    const int stored = tu_each_entry(programs, NULL, NULL) > 0;
    const int pocl = strstr(dev.platform, "Portable Computing Language") != NULL;
    const int nvidia = strstr(dev.platform, "NVIDIA") != NULL;
    print_message("%s: %s\n", dev.platform, stored ? "stored" : "not stored");
    assert_int_equal(stored, !(pocl || nvidia));
    /* an entry that is there (stored on request) is used by default, POCL's
     * included: loading one is cheap, only storing costs a build */
    setenv("CLRT_CACHE", "on", 1);
    run_add();
    unsetenv("CLRT_CACHE");
    stats s = snapshot();
    run_add();
    stats d = delta(&s);
    assert_int_equal(d.hits, nvidia ? 0 : 1);
    setenv("CLRT_CACHE", "on", 1);
}

/* run_add with stderr going to a file: what it said there (static). */
static const char *run_add_stderr(void)
{
    static char text[4096];
    char log[300];
    snprintf(log, sizeof log, "%s/stderr.txt", dir);
    fflush(stderr);
    int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    run_add();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    FILE *f = fopen(log, "r");
    assert_non_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    unlink(log);
    return text;
}

/* A valid entry under a root folder anyone may write, or (as root) owned by
 * another user: not loaded (the driver never sees it), nothing written, one
 * warning per folder and reason. */
static void untrusted_cache_unused(void **state)
{
    (void)state;
    tu_clear_dir(programs);
    run_add();
    char path[512];
    only_entry(path);
    assert_int_equal(chmod(dir, 0777), 0);
    stats s = snapshot();
    const char *err = run_add_stderr();
    stats d = delta(&s);
    assert_int_equal(chmod(dir, 0700), 0);
    assert_int_equal(d.hits, 0);
    if (!strstr(err, "clrt: not using") || !strstr(err, "writable by others"))
        fail_msg("no warning about the folder anyone may write; stderr: \"%s\"", err);
    assert_int_equal(tu_each_entry(programs, NULL, NULL), 1); /* no new entry either */
    assert_int_equal(chmod(dir, 0777), 0);
    err = run_add_stderr();
    assert_int_equal(chmod(dir, 0700), 0);
    assert_null(strstr(err, "clrt: not using")); /* said once */
    if (geteuid() == 0) {
        assert_int_equal(chown(path, 65534, 65534), 0);
        s = snapshot();
        err = run_add_stderr();
        d = delta(&s);
        assert_int_equal(d.hits, 0);
        assert_non_null(strstr(err, "belongs to uid 65534"));
        assert_int_equal(chown(path, 0, 0), 0);
    } else {
        print_message("skipped: an entry of another user needs root to make\n");
    }
    s = snapshot();
    run_add(); /* trusted again: used */
    d = delta(&s);
    assert_int_equal(d.hits, 1);
}

int main(void)
{
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(store_then_hit, tu_teardown_no_live),
        cmocka_unit_test_teardown(damaged_entries_are_misses, tu_teardown_no_live),
        cmocka_unit_test_teardown(off_switch_and_unwritable_dir, tu_teardown_no_live),
        cmocka_unit_test_teardown(default_follows_the_driver, tu_teardown_no_live),
        cmocka_unit_test_teardown(untrusted_cache_unused, tu_teardown_no_live),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
