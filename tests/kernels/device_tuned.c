/* Tuned parameters from disk, on a real device: a valid file is used by
 * every new context without a rebuild; a corrupt, foreign or out-of-range
 * file is ignored with a warning; tuned parameters that fail to build fall
 * back to the defaults. Every case checks the results against the host. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/test_util.h"

#include "base/debug.h"
#include "base/disk.h"
#include "base/error.h"
#include "kernels/params.h"
#include "kernels/table.h"
#include "kernels/tuned.h"
#include "runtime/handles.h"

static char dir[] = "/tmp/clrt-device-tuned-XXXXXX";
static char file[256];
static clrt_device_info info;
static clrt__device_facts facts;

static int group_setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    snprintf(file, sizeof file, "%s/params.tuned", dir);
    setenv("CLRT_TUNED_FILE", file, 1);
    setenv("CLRT_TUNED", "1", 1);
    setenv("CLRT_CACHE", "off", 1); /* builds go through clBuildProgram, where faults are injected */
    clrt_context *ctx = NULL;
    if (clrt_context_create(&ctx, NULL) != CLRT_OK) {
        fprintf(stderr, "setup: %s\n", clrt_error_message());
        return -1;
    }
    info = ctx->info;
    facts = ctx->facts;
    clrt_context_destroy(ctx);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    unlink(file);
    rmdir(dir);
    unsetenv("CLRT_TUNED_FILE");
    unsetenv("CLRT_TUNED");
    unsetenv("CLRT_CACHE");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(file);
    clrt__debug_fault_clear();
    tu_assert_no_live_handles();
    return 0;
}

/* Valid parameters unlike the defaults: smaller register tiles, a shallower k block. */
static void tuned_matmul(size_t elem, clrt__pvals *out)
{
    clrt__k_matmul.defaults(&facts, elem, out);
    clrt__matmul_params p = clrt__mm(out);
    const clrt__matmul_params def = p;
    if (p.tm >= 2)
        p.tm /= 2;
    else
        p.tm = 2;
    if (p.tk >= 2 * p.vw && p.tk >= 2)
        p.tk /= 2;
    clrt__mm_put(out, &p);
    char why[200];
    if (clrt__params_check(&clrt__k_matmul, &facts, elem, out, why, sizeof why) != 0)
        fail_msg("test parameters refused: %s", why);
    assert_memory_not_equal(&p, &def, sizeof def);
}

static void tuned_add(size_t elem, clrt__pvals *out)
{
    clrt__k_elementwise.defaults(&facts, elem, out);
    clrt__ew_params p = clrt__ew(out);
    p.items = p.items == 2 ? 4 : 2;
    p.vw = p.vw >= 4 ? p.vw / 2 : 4;
    memcpy(out->v, &p, sizeof p);
    char why[200];
    if (clrt__params_check(&clrt__k_elementwise, &facts, elem, out, why, sizeof why) != 0)
        fail_msg("test parameters refused: %s", why);
}

static clrt__matmul_params mm_of(const clrt__tuned_set *set, int dt) { return clrt__mm(&set->e[CLRT__K_MATMUL][dt].p); }
static clrt__ew_params add_of(const clrt__tuned_set *set, int dt) { return clrt__ew(&set->e[CLRT__K_ELEMENTWISE][dt].p); }

static void full_set(clrt__tuned_set *set)
{
    memset(set, 0, sizeof *set);
    for (int dt = 0; dt < (info.has_fp64 ? 2 : 1); dt++) {
        tuned_matmul(dt ? 8 : 4, &set->e[CLRT__K_MATMUL][dt].p);
        tuned_add(dt ? 8 : 4, &set->e[CLRT__K_ELEMENTWISE][dt].p);
        set->e[CLRT__K_MATMUL][dt].have = set->e[CLRT__K_ELEMENTWISE][dt].have = 1;
    }
}

static void write_text(const char *text)
{
    FILE *f = fopen(file, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    fclose(f);
}

/* Run matmul (odd shape) and add in a fresh context, check both against the
 * host; *tuned_mm / *tuned_add say whether the kernels ran with tuned
 * parameters, and mm / ad (when not NULL, 256 bytes) the parameters they ran with. */
static void run_checked(clrt_dtype dtype, int *tuned_mm, int *tuned_add, char *mm, char *ad)
{
    const size_t M = 67, N = 45, K = 33, es = tu_dtype_size(dtype);
    clrt_context *ctx = tu_context_on(&info);
    clrt_queue *q;
    TU_OK(clrt_queue_create(&q, ctx));
    void *a = malloc(M * K * es), *b = malloc(K * N * es), *c = malloc(M * N * es);
    assert_true(a && b && c);
    clrt__ref_fill(a, dtype, M * K, 1);
    clrt__ref_fill(b, dtype, K * N, 2);
    tu_device_matmul(ctx, q, dtype, c, a, b, M, N, K);
    tu_assert_matmul(c, a, b, dtype, M, N, K);

    /* add over an odd length: c = a + b exactly */
    const size_t n = 1001;
    tu_device_add(ctx, q, dtype, c, a, b, n);
    for (size_t i = 0; i < n; i++) {
        if (dtype == CLRT_FLOAT64)
            assert_true(((double *)c)[i] == ((double *)a)[i] + ((double *)b)[i]);
        else
            assert_true(((float *)c)[i] == ((float *)a)[i] + ((float *)b)[i]);
    }

    char text[256];
    clrt_params_origin om, oa;
    TU_OK(clrt_tune_current(ctx, "matmul", dtype, mm ? mm : text, 256, &om));
    TU_OK(clrt_tune_current(ctx, "add", dtype, ad ? ad : text, 256, &oa));
    *tuned_mm = om == CLRT_PARAMS_TUNED;
    *tuned_add = oa == CLRT_PARAMS_TUNED;
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    free(a);
    free(b);
    free(c);
}

static void valid_file_is_used(void **state)
{
    (void)state;
    clrt__tuned_set set;
    full_set(&set);
    assert_int_equal(clrt__tuned_write(file, &info, &set, NULL, 0), 0);
    unsigned long used0, used1;
    clrt__debug_tuned_stats(&used0, NULL, NULL);
    for (int dt = 0; dt < (info.has_fp64 ? 2 : 1); dt++) {
        int tm, ta;
        char mm[256], ad[256];
        run_checked(dt ? CLRT_FLOAT64 : CLRT_FLOAT32, &tm, &ta, mm, ad);
        assert_true(tm);
        assert_true(ta);
        /* as written (a driver may only have shrunk the work-group to fit) */
        assert_int_equal(tu_param(mm, "tm"), mm_of(&set, dt).tm);
        assert_int_equal(tu_param(mm, "tk"), mm_of(&set, dt).tk);
        assert_int_equal(tu_param(mm, "use_local"), mm_of(&set, dt).use_local);
        assert_int_equal(tu_param(ad, "items"), add_of(&set, dt).items);
        assert_int_equal(tu_param(ad, "vw"), add_of(&set, dt).vw);
    }
    clrt__debug_tuned_stats(&used1, NULL, NULL);
    assert_true(used1 >= used0 + 2);

    /* CLRT_TUNED=0: the defaults */
    setenv("CLRT_TUNED", "0", 1);
    int tm, ta;
    run_checked(CLRT_FLOAT32, &tm, &ta, NULL, NULL);
    assert_false(tm);
    assert_false(ta);
    setenv("CLRT_TUNED", "1", 1);
}

/* Text of a valid file, with one substitution made and the checksum redone
 * (so that only the value is wrong), or left as it is (a damaged file). */
static char *variant(const char *from, const char *to, int fix_checksum)
{
    clrt__tuned_set set;
    full_set(&set);
    char *text = clrt__tuned_format(&info, &set);
    assert_non_null(text);
    char *at = strstr(text, from);
    assert_non_null(at);
    size_t n = strlen(text), fl = strlen(from), tl = strlen(to);
    char *out = malloc(n + tl + 64);
    assert_non_null(out);
    memcpy(out, text, (size_t)(at - text));
    memcpy(out + (at - text), to, tl);
    strcpy(out + (at - text) + tl, at + fl);
    free(text);
    if (fix_checksum) {
        char *check = strstr(out, "\ncheck ");
        assert_non_null(check);
        *++check = '\0';
        size_t body = strlen(out);
        snprintf(check, 32, "check %016llx\n", (unsigned long long)clrt__hash(CLRT_HASH_INIT, out, body));
    }
    return out;
}

static void expect_ignored(const char *text)
{
    write_text(text);
    unsigned long ign0, ign1;
    clrt__debug_tuned_stats(NULL, &ign0, NULL);
    for (int dt = 0; dt < (info.has_fp64 ? 2 : 1); dt++) {
        int tm, ta;
        run_checked(dt ? CLRT_FLOAT64 : CLRT_FLOAT32, &tm, &ta, NULL, NULL);
        assert_false(tm);
        assert_false(ta);
    }
    clrt__debug_tuned_stats(NULL, &ign1, NULL);
    assert_true(ign1 > ign0);
}

static void corrupt_file_is_ignored(void **state)
{
    (void)state;
    char tm[32];
    clrt__tuned_set set;
    full_set(&set);
    snprintf(tm, sizeof tm, " tm=%u ", mm_of(&set, 0).tm);
    char *text = variant(tm, " tm=7 ", 0); /* edited without a new checksum */
    expect_ignored(text);
    free(text);
    text = variant("CLRT-TUNED 1", "CLRT-TUNED 1", 0);
    text[strlen(text) / 2] = '\0'; /* truncated */
    expect_ignored(text);
    free(text);
    expect_ignored("\x01\x02\x03 not a tuned file at all \xff\xfe\n");
}

static void foreign_file_is_ignored(void **state)
{
    (void)state;
    clrt_device_info other = info;
    snprintf(other.name, sizeof other.name, "another %.200s", info.name);
    clrt__tuned_set set;
    full_set(&set);
    assert_int_equal(clrt__tuned_write(file, &other, &set, NULL, 0), 0);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(clrt__file_read(file, 1 << 16, &text, &len), 0);
    expect_ignored(text);
    free(text);
    other = info;
    snprintf(other.driver, sizeof other.driver, "%.200s.1", info.driver);
    assert_int_equal(clrt__tuned_write(file, &other, &set, NULL, 0), 0);
    assert_int_equal(clrt__file_read(file, 1 << 16, &text, &len), 0);
    expect_ignored(text);
    free(text);
}

static void out_of_range_file_is_ignored(void **state)
{
    (void)state;
    clrt__tuned_set set;
    full_set(&set);
    char from[32], to[64];
    snprintf(from, sizeof from, " vw=%u\n", mm_of(&set, 0).vw);
    char *text = variant(from, " vw=3\n", 1);
    expect_ignored(text);
    free(text);
    snprintf(from, sizeof from, " wgx=%u ", mm_of(&set, 0).wgx);
    snprintf(to, sizeof to, " wgx=%zu ", facts.max_work_group * 2);
    text = variant(from, to, 1);
    expect_ignored(text);
    free(text);
    snprintf(from, sizeof from, " tm=%u ", mm_of(&set, 0).tm);
    text = variant(from, " tm=4294967297 ", 1);
    expect_ignored(text);
    free(text);
    snprintf(from, sizeof from, " items=%u ", add_of(&set, 0).items);
    text = variant(from, " items=0 ", 1);
    expect_ignored(text);
    free(text);
}

/* Parameters within every limit the device reports that it is known not to
 * run: 8 x 48 register tiles in work-groups of 2048 (POCL reports 4096) made
 * POCL overflow its stack and kill the process. Such an entry is ignored
 * before anything is built (like any out-of-range entry, it voids the whole
 * file), and the product runs, correct, with the defaults. */
static void unrunnable_entry_falls_back(void **state)
{
    (void)state;
    clrt__tuned_set set;
    full_set(&set);
    char why[200];
    assert_int_equal(clrt__params_parse(&clrt__k_matmul, "use_local=0 tm=8 tn=48 vw=16 wgx=1 wgy=2048",
                                        &set.e[CLRT__K_MATMUL][0].p, why, sizeof why),
                     0);
    assert_int_equal(clrt__tuned_write(file, &info, &set, NULL, 0), 0);
    unsigned long ign0, ign1;
    clrt__debug_tuned_stats(NULL, &ign0, NULL);
    int tm, ta;
    char mm[256];
    run_checked(CLRT_FLOAT32, &tm, &ta, mm, NULL);
    assert_false(tm);
    assert_false(ta);
    clrt__pvals def;
    clrt__k_matmul.defaults(&facts, 4, &def);
    assert_int_equal(tu_param(mm, "tm"), clrt__mm(&def).tm);
    clrt__debug_tuned_stats(NULL, &ign1, NULL);
    assert_true(ign1 > ign0);
}

/* Tuned parameters that do not build: the defaults, with correct results. */
static void failed_build_falls_back(void **state)
{
    (void)state;
    clrt__tuned_set set;
    full_set(&set);
    assert_int_equal(clrt__tuned_write(file, &info, &set, NULL, 0), 0);
    unsigned long fb0, fb1;
    clrt__debug_tuned_stats(NULL, NULL, &fb0);
    /* the first build of the new context is the tuned matmul's */
    clrt__debug_fault_arm(CLRT__FAULT_BUILD, 1, CL_BUILD_PROGRAM_FAILURE);
    int tm, ta;
    char mm[256];
    run_checked(CLRT_FLOAT32, &tm, &ta, mm, NULL);
    clrt__debug_fault_clear();
    assert_false(tm);
    assert_true(ta);
    clrt__pvals def;
    clrt__k_matmul.defaults(&facts, 4, &def);
    assert_int_equal(tu_param(mm, "tm"), clrt__mm(&def).tm);
    assert_int_equal(tu_param(mm, "tk"), clrt__mm(&def).tk);
    clrt__debug_tuned_stats(NULL, NULL, &fb1);
    assert_int_equal(fb1, fb0 + 1);
}

int main(void)
{
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(valid_file_is_used, teardown),
        cmocka_unit_test_teardown(corrupt_file_is_ignored, teardown),
        cmocka_unit_test_teardown(foreign_file_is_ignored, teardown),
        cmocka_unit_test_teardown(out_of_range_file_is_ignored, teardown),
        cmocka_unit_test_teardown(unrunnable_entry_falls_back, teardown),
        cmocka_unit_test_teardown(failed_build_falls_back, teardown),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
