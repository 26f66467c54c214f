/* The on-disk program cache and user programs that #include headers: a
 * changed, added or shadowing header is never answered with the program built
 * from the old one, and a program whose includes clrt cannot follow is not
 * cached at all. Each run is a new context, so only the disk cache can carry a
 * program from one run to the next (as it would into a new process). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/temp_files.h"
#include "common/test_util.h"

#include <clrt/clrt_kernel.h>

#include "base/debug.h"

static char dir[160];
static char programs[200];
static int lock_fd = -1;

/* Write text to <dir>/<name>, making <dir>/<sub> when needed. */
static void put(const char *name, const char *text) { tu_write_file(dir, name, text); }

/* The folder is the same in every run (per user and driver), not a random
 * one: the paths reach the driver's compiler, and POCL leaks memory inside
 * LLVM when it first builds the binary of a program its own kernel cache has
 * not seen, which the sanitizer run would report. A lock keeps two runs of
 * the same driver (other build trees) apart. */
static int setup(void **state)
{
    (void)state;
    clrt_device_info dev;
    size_t n = 0;
    if (clrt_device_list(&dev, 1, &n) != CLRT_OK || n == 0)
        return -1;
    char slug[32];
    size_t j = 0;
    for (const char *c = dev.platform; *c && j + 1 < sizeof slug; c++)
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9'))
            slug[j++] = *c;
    slug[j] = '\0';
    snprintf(dir, sizeof dir, "/tmp/clrt-include-test-%ld-%s", (long)getuid(), slug);
    char lock[200];
    snprintf(lock, sizeof lock, "%s.lock", dir);
    lock_fd = open(lock, O_CREAT | O_RDWR, 0600);
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (lock_fd < 0 || fcntl(lock_fd, F_SETLKW, &fl) != 0)
        return -1;
    tu_remove_tree(dir); /* what an interrupted run left */
    if (mkdir(dir, 0700) != 0)
        return -1;
    snprintf(programs, sizeof programs, "%s/cache/programs", dir);
    char cache[200];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    setenv("CLRT_CACHE", "on", 1);
    setenv("CLRT_CACHE_DIR", cache, 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tu_remove_tree(dir);
    close(lock_fd); /* releases the lock */
    unsetenv("CLRT_CACHE");
    unsetenv("CLRT_CACHE_DIR");
    tu_assert_no_live_handles();
    return 0;
}

typedef struct stats {
    unsigned long hits, misses, rejected;
} stats;

static stats snapshot(void)
{
    stats s;
    clrt__debug_cache_stats(&s.hits, &s.misses, &s.rejected);
    return s;
}

/* Build source with options in a new context, run its kernel k (which writes
 * two ints) and return them; *hit says whether the disk cache answered. */
static void run(const char *source, const char *options, int out[2], int *hit, int *cached)
{
    clrt_context *ctx;
    clrt_queue *q;
    clrt_buffer *buf;
    clrt_program *p;
    clrt_kernel *k;
    stats before = snapshot();
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_queue_create(&q, ctx));
    TU_OK(clrt_buffer_create(&buf, ctx, CLRT_INT32, 1, 2));
    TU_OK(clrt_program_create(&p, ctx, source, options));
    TU_OK(clrt_kernel_create(&k, p, "k"));
    TU_OK(clrt_kernel_set_buffer(k, 0, buf));
    size_t global = 1;
    TU_OK(clrt_kernel_launch(q, k, 1, &global, NULL));
    TU_OK(clrt_buffer_read(q, buf, out, 2));
    clrt_kernel_destroy(k);
    clrt_program_destroy(p);
    clrt_buffer_destroy(buf);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    stats after = snapshot();
    *hit = after.hits > before.hits;
    *cached = after.hits + after.misses + after.rejected > before.hits + before.misses + before.rejected;
}

/* Run and expect the values, and whether the disk cache answered. */
static void expect(const char *source, const char *options, int v0, int v1, int want_hit)
{
    int out[2] = {-1, -1}, hit, cached;
    run(source, options, out, &hit, &cached);
    assert_int_equal(out[0], v0);
    assert_int_equal(out[1], v1);
    assert_true(cached);
    assert_int_equal(hit, want_hit);
}

static const char quoted[] = "#include \"val.h\"\n"
                             "__kernel void k(__global int *o) { o[0] = VAL; o[1] = NESTED; }\n";
static const char angled[] = "  #  include <val.h> /* angle brackets, spaces */\n"
                             "__kernel void k(__global int *o) { o[0] = VAL; o[1] = NESTED; }\n";

/* A header and the header it includes, each changed in turn. */
static void changed_header_is_rebuilt(const char *source, const char *opt_before_dir)
{
    char opts[400];
    snprintf(opts, sizeof opts, "%s%s/inc", opt_before_dir, dir);
    put("inc/val.h", "#include \"nested.h\"\n#define VAL 5\n");
    put("inc/nested.h", "#define NESTED 1\n");
    expect(source, opts, 5, 1, 0);
    expect(source, opts, 5, 1, 1); /* unchanged: the cache is really in use */
    put("inc/val.h", "#include \"nested.h\"\n#define VAL 7\n");
    expect(source, opts, 7, 1, 0);
    put("inc/nested.h", "#define NESTED 2\n");
    expect(source, opts, 7, 2, 0);
    expect(source, opts, 7, 2, 1);
}

static void header_change_quoted(void **state)
{
    (void)state;
    changed_header_is_rebuilt(quoted, "-I ");
}

static void header_change_angled_joined(void **state)
{
    (void)state;
    changed_header_is_rebuilt(angled, "-cl-mad-enable -I");
}

/* -I a -I b with the header only in b: adding a/val.h changes the program. */
static void shadowing_header(void **state)
{
    (void)state;
    char opts[400];
    snprintf(opts, sizeof opts, "-I %s/a -I %s/b", dir, dir);
    put("a/other.h", "\n");
    put("b/val.h", "#define VAL 3\n#define NESTED 4\n");
    expect(quoted, opts, 3, 4, 0);
    expect(quoted, opts, 3, 4, 1);
    put("a/val.h", "#define VAL 8\n#define NESTED 9\n");
    expect(quoted, opts, 8, 9, 0);
}

/* An include clrt cannot follow (a macro, here): built every time, never
 * stored, and always right. */
static void unfollowable_include_not_cached(void **state)
{
    (void)state;
    static const char source[] = "#define HEADER \"val.h\"\n#include HEADER\n"
                                 "__kernel void k(__global int *o) { o[0] = VAL; o[1] = NESTED; }\n";
    char opts[400];
    snprintf(opts, sizeof opts, "-I %s/m", dir);
    put("m/val.h", "#define VAL 11\n#define NESTED 12\n");
    size_t before = tu_each_entry(programs, NULL, NULL);
    for (int v = 0; v < 2; v++) {
        if (v)
            put("m/val.h", "#define VAL 13\n#define NESTED 14\n");
        int out[2] = {-1, -1}, hit, cached;
        run(source, opts, out, &hit, &cached);
        assert_int_equal(out[0], v ? 13 : 11);
        assert_int_equal(out[1], v ? 14 : 12);
        assert_false(cached);
    }
    assert_int_equal(tu_each_entry(programs, NULL, NULL), before);
}

/* A header found in the working folder (the drivers search it). */
static void header_in_working_folder(void **state)
{
    (void)state;
    char cwd[4096], here[256];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(here, sizeof here, "%s/wd", dir);
    put("wd/val.h", "#define VAL 21\n#define NESTED 22\n");
    assert_int_equal(chdir(here), 0);
    expect(quoted, "", 21, 22, 0);
    expect(quoted, "", 21, 22, 1);
    put("wd/val.h", "#define VAL 23\n#define NESTED 24\n");
    expect(quoted, "", 23, 24, 0);
    assert_int_equal(chdir(cwd), 0);
}

/* With clrt's cache off, the driver's own cache (if any) must not return the
 * program of an old header either: a header in the working folder and no -I,
 * the case where Mesa's rusticl kept the old build. */
static void driver_cache_sees_header_change(void **state)
{
    (void)state;
    char cwd[4096], here[256];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(here, sizeof here, "%s/off", dir);
    setenv("CLRT_CACHE", "off", 1);
    assert_int_equal(chdir(dir), 0);
    for (int v = 0; v < 3; v++) {
        char text[64];
        snprintf(text, sizeof text, "#define VAL %d\n#define NESTED %d\n", 30 + v, 40 + v);
        put("off/val.h", text);
        assert_int_equal(chdir(here), 0);
        int out[2] = {-1, -1}, hit, cached;
        run(quoted, "", out, &hit, &cached);
        assert_int_equal(out[0], 30 + v);
        assert_int_equal(out[1], 40 + v);
        assert_false(cached);
    }
    assert_int_equal(chdir(cwd), 0);
    setenv("CLRT_CACHE", "on", 1);
}

int main(void)
{
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(header_change_quoted, tu_teardown_no_live),
        cmocka_unit_test_teardown(header_change_angled_joined, tu_teardown_no_live),
        cmocka_unit_test_teardown(shadowing_header, tu_teardown_no_live),
        cmocka_unit_test_teardown(unfollowable_include_not_cached, tu_teardown_no_live),
        cmocka_unit_test_teardown(header_in_working_folder, tu_teardown_no_live),
        cmocka_unit_test_teardown(driver_cache_sees_header_change, tu_teardown_no_live),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
