/* The program cache folder stays bounded and tidy: after a store, entries
 * beyond CLRT_CACHE_MAX_MB go, least recently used first (a hit refreshes an
 * entry), and temporary files that a killed writer left behind are removed
 * once stale, in the cache folder and beside the tuned file. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/temp_files.h"
#include "common/test_util.h"

#include <clrt/clrt_kernel.h>

static char dir[64];
static char programs[128];

static int setup(void **state)
{
    (void)state;
    if (tu_temp_dir(dir, sizeof dir, "trim-test") != 0)
        return -1;
    snprintf(programs, sizeof programs, "%s/programs", dir);
    mkdir(programs, 0700);
    setenv("CLRT_CACHE", "on", 1);
    setenv("CLRT_CACHE_DIR", dir, 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    int rc = tu_remove_tree(dir);
    unsetenv("CLRT_CACHE");
    unsetenv("CLRT_CACHE_DIR");
    unsetenv("CLRT_CACHE_MAX_MB");
    tu_assert_no_live_handles();
    return rc == 0 ? 0 : -1;
}

/* A file of size bytes, last modified age seconds ago. */
static void make_file(const char *path, size_t size, long age)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    static char zeros[4096];
    for (size_t left = size; left > 0;) {
        size_t n = left < sizeof zeros ? left : sizeof zeros;
        assert_int_equal(fwrite(zeros, 1, n, f), n);
        left -= n;
    }
    assert_int_equal(fclose(f), 0);
    struct timespec t[2] = {{time(NULL) - age, 0}, {time(NULL) - age, 0}};
    assert_int_equal(utimensat(AT_FDCWD, path, t, 0), 0);
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* A JIT-style program (-DN=n), built and run in a new context. */
static void run_program(int n)
{
    clrt_context *ctx;
    clrt_queue *q;
    clrt_buffer *buf;
    clrt_program *p;
    clrt_kernel *k;
    char opts[32];
    snprintf(opts, sizeof opts, "-DN=%d", n);
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_queue_create(&q, ctx));
    TU_OK(clrt_buffer_create(&buf, ctx, CLRT_INT32, 1, 1));
    TU_OK(clrt_program_create(&p, ctx, "__kernel void k(__global int *o) { o[0] = N; }\n", opts));
    TU_OK(clrt_kernel_create(&k, p, "k"));
    TU_OK(clrt_kernel_set_buffer(k, 0, buf));
    size_t global = 1;
    int out = -1;
    TU_OK(clrt_kernel_launch(q, k, 1, &global, NULL));
    TU_OK(clrt_buffer_read(q, buf, &out, 1));
    assert_int_equal(out, n);
    clrt_kernel_destroy(k);
    clrt_program_destroy(p);
    clrt_buffer_destroy(buf);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
}

typedef struct listing {
    char names[64][256];
    time_t mtime[64];
    size_t n;
    unsigned long long bytes; /* of the .bin files */
} listing;

static void list_programs(listing *l)
{
    memset(l, 0, sizeof *l);
    DIR *d = opendir(programs);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        assert_true(l->n < 64);
        char path[512];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", programs, e->d_name);
        assert_int_equal(stat(path, &st), 0);
        snprintf(l->names[l->n], sizeof l->names[0], "%s", e->d_name);
        l->mtime[l->n++] = st.st_mtime;
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".bin") == 0)
            l->bytes += (unsigned long long)st.st_size;
    }
    closedir(d);
}

/* Five 300 KiB entries <letter>0.bin .. <letter>4.bin in the program folder,
 * the first oldest seconds old and each next one step seconds younger. */
static void old_entries(char letter, long oldest, long step)
{
    char path[512];
    for (int i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/%c%d.bin", programs, letter, i);
        make_file(path, 300 << 10, oldest - step * i);
    }
}

/* Five old 300 KiB entries (f0 the oldest) and a 1 MiB cap: the store of a
 * new program removes the oldest until the folder fits, and only those. */
static void cap_evicts_least_recently_used(void **state)
{
    (void)state;
    assert_int_equal(tu_clear_dir(programs), 0);
    setenv("CLRT_CACHE_MAX_MB", "1", 1);
    old_entries('f', 5000, 1000);
    run_program(1);
    listing l;
    list_programs(&l);
    assert_true(l.bytes <= 1u << 20);
    int kept[5] = {0}, fakes = 0;
    for (size_t i = 0; i < l.n; i++)
        if (l.names[i][0] == 'f' && l.names[i][2] == '.')
            kept[l.names[i][1] - '0'] = 1, fakes++;
    assert_true(fakes < 5);           /* some went */
    assert_true(l.n == (size_t)fakes + 1); /* and the new entry is there */
    for (int i = 1; i < 5; i++)
        assert_true(kept[i] || !kept[i - 1]); /* never a newer one before an older one */

    /* a hit refreshes the entry's time: it outlives older entries */
    char entry[512] = "";
    for (size_t i = 0; i < l.n; i++)
        if (l.names[i][0] != 'f')
            snprintf(entry, sizeof entry, "%s/%s", programs, l.names[i]);
    struct timespec t[2] = {{time(NULL) - 90000, 0}, {time(NULL) - 90000, 0}};
    assert_int_equal(utimensat(AT_FDCWD, entry, t, 0), 0);
    run_program(1); /* a hit */
    struct stat st;
    assert_int_equal(stat(entry, &st), 0);
    assert_true(st.st_mtime > time(NULL) - 600);
    old_entries('g', 3000, 0); /* fill up with old entries again */
    run_program(2); /* a store: the g files and older f files go first */
    assert_true(exists(entry));
    list_programs(&l);
    assert_true(l.bytes <= 1u << 20);
}

/* Without CLRT_CACHE_MAX_MB the limit is large: nothing is removed here. */
static void default_cap_keeps_small_cache(void **state)
{
    (void)state;
    assert_int_equal(tu_clear_dir(programs), 0);
    unsetenv("CLRT_CACHE_MAX_MB");
    old_entries('f', 5000, 1000);
    run_program(3);
    listing l;
    list_programs(&l);
    assert_int_equal(l.n, 6);
}

static void stale_temporaries_removed(void **state)
{
    (void)state;
    assert_int_equal(tu_clear_dir(programs), 0);
    char stale[512], fresh[512], tuned[4300], tuned_stale[4400], other[4400];
    snprintf(stale, sizeof stale, "%s/0123456789abcdef.bin.tmp.AbC123", programs);
    snprintf(fresh, sizeof fresh, "%s/fedcba9876543210.bin.tmp.XyZ789", programs);
    make_file(stale, 1000, 3600);
    make_file(fresh, 1000, 10); /* perhaps another process writing now */
    run_program(4);
    assert_false(exists(stale));
    assert_true(exists(fresh));

    /* beside the tuned file, only that file's own temporaries */
    clrt_context *ctx;
    TU_OK(clrt_context_create(&ctx, NULL));
    TU_OK(clrt_tune_file_path(ctx, tuned, sizeof tuned));
    char tdir[4300];
    snprintf(tdir, sizeof tdir, "%s", tuned);
    *strrchr(tdir, '/') = '\0';
    mkdir(tdir, 0700);
    snprintf(tuned_stale, sizeof tuned_stale, "%s.tmp.Q1w2E3", tuned);
    snprintf(other, sizeof other, "%s/notes.txt.tmp.Q1w2E3", tdir);
    make_file(tuned_stale, 100, 3600);
    make_file(other, 100, 3600);
    char params[256];
    TU_OK(clrt_tune_defaults(ctx, "add", CLRT_FLOAT32, params, sizeof params));
    TU_OK(clrt_tune_file_store(ctx, NULL, "add", CLRT_FLOAT32, params, NULL));
    clrt_context_destroy(ctx);
    assert_true(exists(tuned));
    assert_false(exists(tuned_stale));
    assert_true(exists(other));
}

int main(void)
{
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(cap_evicts_least_recently_used, tu_teardown_no_live),
        cmocka_unit_test_teardown(default_cap_keeps_small_cache, tu_teardown_no_live),
        cmocka_unit_test_teardown(stale_temporaries_removed, tu_teardown_no_live),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
