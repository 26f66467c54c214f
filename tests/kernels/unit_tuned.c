/* The tuned-parameter file (src/kernels/tuned.c), no device needed: what is accepted,
 * and that corrupt, foreign, invalid and untrusted (base/trust.h) files are refused as a whole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fake_device.h"
#include "common/test_util.h"

#include "base/debug.h"
#include "base/disk.h"
#include "kernels/params.h"
#include "kernels/tuned.h"

static clrt_device_info info;
static clrt__device_facts facts;

/* A CPU device like POCL's on this machine. */
static void fake_device(void) { tu_fake_cpu_device(&info, &facts); }

static int setup(void **state)
{
    (void)state;
    fake_device();
    return 0;
}

/* A set with a matmul float32 and an elementwise float64 entry. */
static void sample_set(clrt__tuned_set *set)
{
    memset(set, 0, sizeof *set);
    clrt__tuned_entry *mm = &set->e[CLRT__K_MATMUL][0], *add = &set->e[CLRT__K_ELEMENTWISE][1];
    clrt__k_matmul.defaults(&facts, 4, &mm->p);
    clrt__matmul_params m = clrt__mm(&mm->p);
    m.tm = 4;
    m.tk = 128;
    clrt__mm_put(&mm->p, &m);
    mm->have = 1;
    clrt__k_elementwise.defaults(&facts, 8, &add->p);
    clrt__ew_params a = clrt__ew(&add->p);
    a.items = 4;
    a.wg = 256;
    memcpy(add->p.v, &a, sizeof a);
    add->have = 1;
    snprintf(mm->comment, sizeof mm->comment, "a comment");
}

/* text + its check line */
static char *with_check(const char *body)
{
    size_t n = strlen(body);
    char *t = malloc(n + 32);
    assert_non_null(t);
    memcpy(t, body, n);
    snprintf(t + n, 32, "check %016llx\n", (unsigned long long)clrt__hash(CLRT_HASH_INIT, body, n));
    return t;
}

/* The header for the fake device, then extra lines. */
static char *file_with(const char *entries)
{
    char body[4096];
    snprintf(body, sizeof body, "CLRT-TUNED 1\nclrt %s\nplatform %s\ndevice %s\ndriver %s\n%s", clrt_version(),
             info.platform, info.name, info.driver, entries);
    return with_check(body);
}

static int parse(const char *text, clrt__tuned_set *out, char *why)
{
    return clrt__tuned_parse(text, strlen(text), &info, &facts, out, why, 300);
}

static void round_trip(void **state)
{
    (void)state;
    clrt__tuned_set set, back;
    sample_set(&set);
    char *text = clrt__tuned_format(&info, &set);
    assert_non_null(text);
    assert_non_null(strstr(text, "# a comment\nmatmul float32 use_local=0 tm=4 "));
    char why[300] = "";
    assert_int_equal(parse(text, &back, why), 0);
    assert_true(back.e[CLRT__K_MATMUL][0].have);
    assert_false(back.e[CLRT__K_MATMUL][1].have);
    assert_false(back.e[CLRT__K_ELEMENTWISE][0].have);
    assert_true(back.e[CLRT__K_ELEMENTWISE][1].have);
    assert_memory_equal(&back.e[CLRT__K_MATMUL][0].p, &set.e[CLRT__K_MATMUL][0].p, sizeof(clrt__pvals));
    assert_memory_equal(&back.e[CLRT__K_ELEMENTWISE][1].p, &set.e[CLRT__K_ELEMENTWISE][1].p, sizeof(clrt__pvals));
    free(text);
}

/* Files written when the elementwise kernel was called "add" are read as its
 * entries, and written back under its name. */
static void old_add_entries(void **state)
{
    (void)state;
    char *text = file_with("add float64 vw=2 items=4 wg=64\n");
    clrt__tuned_set set;
    char why[300] = "";
    assert_int_equal(parse(text, &set, why), 0);
    free(text);
    assert_true(set.e[CLRT__K_ELEMENTWISE][1].have);
    const clrt__ew_params e = clrt__ew(&set.e[CLRT__K_ELEMENTWISE][1].p);
    assert_true(e.vw == 2 && e.items == 4 && e.wg == 64);
    text = clrt__tuned_format(&info, &set);
    assert_non_null(text);
    assert_non_null(strstr(text, "\nelementwise float64 vw=2 items=4 wg=64 ops=1\n")); /* ops: the CPU's default */
    assert_null(strstr(text, "\nadd "));
    free(text);
    assert_int_equal(clrt__kernel_find("add"), CLRT__K_ELEMENTWISE);
    assert_int_equal(clrt__kernel_find("elementwise"), CLRT__K_ELEMENTWISE);
    assert_int_equal(clrt__kernel_find("addition"), -1);
}

static void missing_fields_keep_defaults(void **state)
{
    (void)state;
    char *text = file_with("# only two values\n\nmatmul float32 tm=4 tk=64\n");
    clrt__tuned_set set;
    char why[300] = "";
    assert_int_equal(parse(text, &set, why), 0);
    clrt__pvals dp;
    clrt__k_matmul.defaults(&facts, 4, &dp);
    clrt__matmul_params def = clrt__mm(&dp);
    def.tm = 4;
    def.tk = 64;
    const clrt__matmul_params got = clrt__mm(&set.e[CLRT__K_MATMUL][0].p);
    assert_memory_equal(&got, &def, sizeof def);
    free(text);
}

static void expect_refused(const char *text, int rc, const char *phrase)
{
    clrt__tuned_set set;
    memset(&set, 0xab, sizeof set);
    char why[300] = "";
    int got = clrt__tuned_parse(text, strlen(text), &info, &facts, &set, why, sizeof why);
    if (got != rc)
        fail_msg("parse returned %d (%s), expected %d, for:\n%s", got, why, rc, text);
    if (phrase && !strstr(why, phrase))
        fail_msg("reason \"%s\" does not mention \"%s\"", why, phrase);
    /* nothing half-filled is left behind */
    assert_false(set.e[CLRT__K_MATMUL][0].have || set.e[CLRT__K_MATMUL][1].have || set.e[CLRT__K_ELEMENTWISE][0].have ||
                 set.e[CLRT__K_ELEMENTWISE][1].have);
}

static void corrupt_files(void **state)
{
    (void)state;
    clrt__tuned_set set;
    sample_set(&set);
    char *good = clrt__tuned_format(&info, &set);
    assert_non_null(good);
    size_t n = strlen(good);

    char *t = strdup(good);
    char *p = strstr(t, "tm=4");
    p[3] = '6'; /* edited: tm=6, checksum of tm=4 */
    expect_refused(t, -1, "checksum");
    free(t);

    t = strdup(good);
    t[n / 2] = '\0'; /* truncated */
    expect_refused(t, -1, "checksum line");
    free(t);

    t = strdup(good);
    p = strstr(t, "\ncheck ");
    p[9] = 'z';
    expect_refused(t, -1, "malformed checksum");
    free(t);

    expect_refused("", -1, NULL);
    expect_refused("\n\n\n", -1, NULL);
    expect_refused("check 0000000000000000\n", -1, NULL);
    expect_refused("\x7f" "ELF\x02\x01\x01 garbage", -1, NULL);

    /* a NUL inside */
    char bin[64];
    memcpy(bin, good, 32);
    bin[10] = '\0';
    clrt__tuned_set out;
    char why[300];
    assert_int_equal(clrt__tuned_parse(bin, 32, &info, &facts, &out, why, sizeof why), -1);

    /* too big */
    size_t big = CLRT__TUNED_MAX_FILE + 10;
    char *huge = malloc(big + 1);
    memset(huge, '#', big);
    huge[big] = '\0';
    assert_int_equal(clrt__tuned_parse(huge, big, &info, &facts, &out, why, sizeof why), -1);
    free(huge);

    /* a checksum that matches but no magic line */
    t = with_check("hello\n");
    expect_refused(t, -1, "CLRT-TUNED");
    free(t);
    free(good);
}

static void foreign_files(void **state)
{
    (void)state;
    clrt__tuned_set set;
    sample_set(&set);
    for (int i = 0; i < 4; i++) {
        clrt_device_info other = info;
        if (i == 0)
            snprintf(other.name, sizeof other.name, "another device");
        else if (i == 1)
            snprintf(other.driver, sizeof other.driver, "4.0");
        else if (i == 2)
            snprintf(other.platform, sizeof other.platform, "rusticl");
        char *text = clrt__tuned_format(&other, &set);
        assert_non_null(text);
        if (i == 3) {
            /* another clrt version */
            char *p = strstr(text, "\nclrt ");
            p[6] = '9';
            char *body = strdup(text);
            strstr(body, "\ncheck ")[1] = '\0';
            free(text);
            text = with_check(body);
            free(body);
        }
        expect_refused(text, -2, "another");
        free(text);
    }
}

static void invalid_values(void **state)
{
    (void)state;
    static const struct {
        const char *entry, *phrase;
    } cases[] = {
        {"matmul float32 vw=3\n", "vw must be"},
        {"matmul float32 tn=40 vw=16\n", "multiple of vw"},
        {"matmul float32 tm=0\n", "tm must be"},
        {"matmul float32 tm=65\n", "tm must be"},
        {"matmul float32 tm=64 tn=64 vw=16\n", "accumulators"},
        {"matmul float32 tm=4 tn=16 vw=16 dot_tm=64 dot_nv=2\n", "the dot form's tile, 64 x 2 vectors of 16"},
        {"matmul float32 tm=64 tn=16 vw=16 dot_tm=0 dot_nv=2\n", "the dot form's tile, 64 x 2 vectors of 16"},
        {"matmul float32 dot_tm=65\n", "dot_tm must be"},
        {"matmul float32 dot_nv=65\n", "dot_nv must be"},
        {"matmul float32 tk=0\n", "tk must be"},
        {"matmul float32 wgx=4096 wgy=2\n", "exceeds"},
        {"matmul float32 wgx=0\n", "wgx must be"},
        {"matmul float32 use_local=2\n", "use_local"},
        {"matmul float32 use_local=1 tm=8 tn=64 tk=256 wgx=16 wgy=16 vw=16\n", "local memory"},
        {"matmul float32 use_local=1 tk=20 vw=16 tn=16\n", "multiple of vw"},
        {"matmul float32 tm=9999999\n", "not a number"},
        {"matmul float32 tm=99999\n", "above"},
        {"matmul float32 tm=-1\n", "not a number"},
        {"matmul float32 tm=0x10\n", "not a number"},
        {"matmul float32 tm=\n", "not a number"},
        {"matmul float32 tm=4 tm=4\n", "twice"},
        {"matmul float32 colour=4\n", "unknown matmul parameter"},
        {"matmul float32 tm 4\n", "key=value"},
        {"matmul float32\n", "<op> <dtype>"},
        {"matmul float32 \n", "no parameters"},
        {"matmul float16 tm=4\n", "unknown operation or dtype"},
        {"conv float32 tm=4\n", "unknown operation or dtype"},
        {"matmul float32 tm=4\nmatmul float32 tm=2\n", "twice"},
        {"elementwise float32 vw=32\n", "vw must be"},
        {"elementwise float32 items=0\n", "items must be"},
        {"elementwise float32 wg=8192\n", "exceeds"},
        {"elementwise float32 tm=4\n", "unknown elementwise parameter"},
        /* the kernel's earlier name is the same kernel */
        {"add float32 vw=32\n", "vw must be"},
        {"add float32 vw=4\nelementwise float32 vw=8\n", "twice"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *text = file_with(cases[i].entry);
        expect_refused(text, -1, cases[i].phrase);
        free(text);
    }
    /* an fp64 entry for a device without fp64 */
    info.has_fp64 = 0;
    char *text = file_with("matmul float64 tm=4\n");
    expect_refused(text, -1, "fp64");
    free(text);
    info.has_fp64 = 1;
    /* header lines out of order, or missing */
    char body[2048];
    snprintf(body, sizeof body, "CLRT-TUNED 1\nplatform %s\nclrt %s\n", info.platform, clrt_version());
    text = with_check(body);
    expect_refused(text, -1, "expected the 'clrt' line");
    free(text);
    snprintf(body, sizeof body, "CLRT-TUNED 1\nclrt %s\n", clrt_version());
    text = with_check(body);
    expect_refused(text, -1, "incomplete");
    free(text);
}

static int check(const clrt__kernel_def *def, const clrt__device_facts *dev, size_t elem, const clrt__pvals *p,
                 char *why)
{
    return clrt__params_check(def, dev, elem, p, why, 200);
}

static void the_kernel_constraints(void **state)
{
    (void)state;
    /* every default is valid on the device it is made for */
    clrt__pvals p;
    char why[200];
    for (size_t elem = 4; elem <= 8; elem += 4) {
        clrt__k_matmul.defaults(&facts, elem, &p);
        assert_int_equal(check(&clrt__k_matmul, &facts, elem, &p, why), 0);
        clrt__k_elementwise.defaults(&facts, elem, &p);
        assert_int_equal(check(&clrt__k_elementwise, &facts, elem, &p, why), 0);
    }
    /* a GPU-like device: 32 KiB local memory, 256 work-items */
    clrt__device_facts gpu = facts;
    gpu.type = CLRT_DEVICE_GPU;
    gpu.local_mem = 32768;
    gpu.local_mem_is_global = 0;
    gpu.max_work_group = 256;
    gpu.max_work_item[0] = gpu.max_work_item[1] = 256;
    for (size_t elem = 4; elem <= 8; elem += 4) {
        clrt__k_matmul.defaults(&gpu, elem, &p);
        if (check(&clrt__k_matmul, &gpu, elem, &p, why) != 0)
            fail_msg("GPU default refused: %s", why);
    }
    clrt__matmul_params m = clrt__mm(&p);
    m.use_local = 1;
    m.tm = m.tn = 8;
    m.tk = 64;
    m.wgx = m.wgy = 16;
    m.vw = 4;
    clrt__mm_put(&p, &m);
    assert_int_equal(check(&clrt__k_matmul, &gpu, 4, &p, why), -1); /* 3 x 64 KiB of tiles (both kernels) */
    assert_non_null(strstr(why, "local memory"));
}

/* What a CPU driver is known to run bounds the register-tile variant: 8 x 48
 * tiles in work-groups of 2048 (within the 4096 work-items POCL reports) made
 * POCL overflow its stack and kill the process; they are refused, while every
 * group the tuner searches with the largest tiles it searches is accepted. */
static void register_tile_groups_are_bounded(void **state)
{
    (void)state;
    clrt__device_facts cpu = facts;
    cpu.max_work_group = 4096;
    cpu.max_work_item[0] = cpu.max_work_item[1] = 4096;
    char why[200];
    clrt__pvals p;
    clrt__k_matmul.defaults(&cpu, 4, &p);
    assert_int_equal(clrt__params_parse(&clrt__k_matmul, "use_local=0 tm=8 tn=48 vw=16 wgx=1 wgy=2048", &p, why,
                                        sizeof why),
                     0);
    assert_int_equal(check(&clrt__k_matmul, &cpu, 4, &p, why), -1);
    assert_non_null(strstr(why, "known to run"));
    assert_int_equal(clrt__params_parse(&clrt__k_matmul, "tm=16 tn=64 vw=16 wgx=1 wgy=64", &p, why, sizeof why), 0);
    if (check(&clrt__k_matmul, &cpu, 8, &p, why) != 0)
        fail_msg("the tuner's largest tile and group refused: %s", why);
}

/* One definition per parameter: every parameter of every kernel's X-macro
 * list reaches the text, the parser, the build options, the range check and
 * the tuner's search values with nothing else written for it, so adding a
 * parameter is its one line (and its use in the .cl file). */
static void every_parameter_everywhere(void **state)
{
    (void)state;
    for (int k = 0; k < CLRT__K_COUNT; k++) {
        const clrt__kernel_def *def = clrt__kernel_at(k);
        assert_non_null(def);
        assert_int_equal(clrt__kernel_find(def->name), k);
        for (size_t i = 0; i < def->nparams; i++) {
            const clrt__param_def *pd = &def->params[i];
            clrt__pvals p;
            def->defaults(&facts, 4, &p);
            char text[256], set[64], opts[1024], why[200];
            /* set through the parser, seen in the text */
            unsigned v = pd->min + (pd->max > pd->min ? 1 : 0);
            snprintf(set, sizeof set, "%s=%u", pd->name, v);
            assert_int_equal(clrt__params_parse(def, set, &p, why, sizeof why), 0);
            assert_int_equal(p.v[i], v);
            assert_int_equal(clrt__params_text(def, &p, text, sizeof text), 0);
            assert_non_null(strstr(text, set));
            /* in the build options when the kernel reads it */
            assert_int_equal(clrt__params_options(def, &p, CLRT__ELEM_F32, 0, opts, sizeof opts), 0);
            if (pd->define) {
                snprintf(set, sizeof set, " -D%s=%u", pd->define, v);
                assert_non_null(strstr(opts, set));
            }
            /* the range is checked */
            def->defaults(&facts, 4, &p);
            p.v[i] = pd->max + 1;
            assert_int_equal(check(def, &facts, 4, &p, why), -1);
            assert_non_null(strstr(why, pd->name));
            /* the tuner's values are in range */
            for (unsigned variant = 0; variant < 2; variant++) {
                unsigned values[32];
                clrt__pvals start;
                def->defaults(&facts, 4, &start);
                if (def->variant_param)
                    start.v[clrt__param_index(def, def->variant_param, strlen(def->variant_param))] = variant;
                size_t n = clrt__param_search(def, &start, i, values, 32);
                for (size_t j = 0; j < n; j++)
                    if (values[j] < pd->min || values[j] > pd->max)
                        fail_msg("%s %s: search value %u outside %u..%u", def->name, pd->name, values[j], pd->min,
                                 pd->max);
            }
        }
    }
}

static void paths_and_switches(void **state)
{
    (void)state;
    char dir[] = "/tmp/clrt-unit-tuned-XXXXXX";
    assert_non_null(mkdtemp(dir));
    setenv("CLRT_CACHE_DIR", dir, 1);
    unsetenv("CLRT_TUNED_FILE");
    unsetenv("CLRT_TUNED");
    char path[4400];
    assert_int_equal(clrt__tuned_path(&info, 0, path, sizeof path), 0);
    char expect[4400];
    snprintf(expect, sizeof expect, "%s/tuned/pthread-fake-avx512-", dir);
    assert_memory_equal(path, expect, strlen(expect));
    assert_non_null(strstr(path, ".tuned"));
    /* looking does not create the folder */
    snprintf(expect, sizeof expect, "%s/tuned", dir);
    assert_int_not_equal(access(expect, F_OK), 0);
    clrt__tuned_set set, got;
    assert_int_equal(clrt__tuned_load(NULL, &info, &facts, &got), 0); /* no file: silently nothing */

    /* another device gets another file */
    clrt_device_info other = info;
    snprintf(other.driver, sizeof other.driver, "3.2");
    char path2[4400];
    assert_int_equal(clrt__tuned_path(&other, 0, path2, sizeof path2), 0);
    assert_string_not_equal(path, path2);

    /* written, then loaded */
    assert_int_equal(clrt__tuned_path(&info, 1, path, sizeof path), 0);
    sample_set(&set);
    assert_int_equal(clrt__tuned_write(path, &info, &set, NULL, 0), 0);
    assert_int_equal(clrt__tuned_load(NULL, &info, &facts, &got), 1);
    assert_memory_equal(&got.e[CLRT__K_MATMUL][0].p, &set.e[CLRT__K_MATMUL][0].p, sizeof(clrt__pvals));
    setenv("CLRT_TUNED", "0", 1);
    assert_int_equal(clrt__tuned_load(NULL, &info, &facts, &got), 0);
    setenv("CLRT_TUNED", "off", 1);
    assert_int_equal(clrt__tuned_load(NULL, &info, &facts, &got), 0);
    unsetenv("CLRT_TUNED");

    /* a damaged file: ignored and counted */
    unsigned long ignored0, ignored1;
    clrt__debug_tuned_stats(NULL, &ignored0, NULL);
    FILE *f = fopen(path, "r+");
    assert_non_null(f);
    fseek(f, 40, SEEK_SET);
    fputc('~', f);
    fclose(f);
    assert_int_equal(clrt__tuned_load(NULL, &info, &facts, &got), -1);
    clrt__debug_tuned_stats(NULL, &ignored1, NULL);
    assert_int_equal(ignored1, ignored0 + 1);

    /* CLRT_TUNED_FILE: that file instead */
    char one[4400];
    snprintf(one, sizeof one, "%s/one.tuned", dir);
    assert_int_equal(clrt__tuned_write(one, &info, &set, NULL, 0), 0);
    setenv("CLRT_TUNED_FILE", one, 1);
    assert_int_equal(clrt__tuned_path(&info, 0, path2, sizeof path2), 0);
    assert_string_equal(path2, one);
    assert_int_equal(clrt__tuned_load(NULL, &info, &facts, &got), 1);
    /* a file for another device there: ignored */
    assert_int_equal(clrt__tuned_write(one, &other, &set, NULL, 0), 0);
    assert_int_equal(clrt__tuned_load(NULL, &info, &facts, &got), -1);
    /* a folder where the file should be: ignored, no crash */
    unlink(one);
    assert_int_equal(mkdir(one, 0700), 0);
    assert_int_equal(clrt__tuned_load(NULL, &info, &facts, &got), -1);
    rmdir(one);
    unsetenv("CLRT_TUNED_FILE");

    unlink(path);
    rmdir(expect);
    rmdir(dir);
    unsetenv("CLRT_CACHE_DIR");
}

/* A tuned file, or its folder, that another user owns or may write, or a
 * symbolic link where the file should be: never read nor written
 * (base/trust.h), whichever way it is named. */
static void untrusted_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/clrt-unit-tuned-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char one[4400], link[4400], why[600];
    snprintf(one, sizeof one, "%s/one.tuned", dir);
    snprintf(link, sizeof link, "%s/link.tuned", dir);
    clrt__tuned_set set, got;
    sample_set(&set);
    assert_int_equal(clrt__tuned_write(one, &info, &set, why, sizeof why), 0);
    assert_int_equal(clrt__tuned_load(one, &info, &facts, &got), 1);
    assert_int_equal(chmod(one, 0666), 0);
    assert_int_equal(clrt__tuned_load(one, &info, &facts, &got), -1);
    assert_int_equal(clrt__tuned_write(one, &info, &set, why, sizeof why), -1);
    assert_non_null(strstr(why, "writable by others"));
    assert_int_equal(chmod(one, 0600), 0);
    assert_int_equal(chmod(dir, 0777), 0);
    assert_int_equal(clrt__tuned_load(one, &info, &facts, &got), -1);
    assert_int_equal(clrt__tuned_write(one, &info, &set, why, sizeof why), -1);
    assert_non_null(strstr(why, "writable by others"));
    assert_int_equal(chmod(dir, 0700), 0);
    assert_int_equal(symlink(one, link), 0);
    setenv("CLRT_TUNED_FILE", link, 1);
    assert_int_equal(clrt__tuned_load(NULL, &info, &facts, &got), -1);
    unsetenv("CLRT_TUNED_FILE");
    assert_int_equal(clrt__tuned_write(link, &info, &set, why, sizeof why), -1);
    assert_non_null(strstr(why, "symbolic link"));
    if (geteuid() == 0) {
        assert_int_equal(chown(one, 65534, 65534), 0);
        assert_int_equal(clrt__tuned_load(one, &info, &facts, &got), -1);
        assert_int_equal(chown(one, 0, 0), 0);
    } else {
        print_message("skipped: a tuned file of another user needs root to make\n");
    }
    assert_int_equal(clrt__tuned_load(one, &info, &facts, &got), 1);
    unlink(link);
    unlink(one);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(round_trip, setup),
        cmocka_unit_test_setup(old_add_entries, setup),
        cmocka_unit_test_setup(missing_fields_keep_defaults, setup),
        cmocka_unit_test_setup(corrupt_files, setup),
        cmocka_unit_test_setup(foreign_files, setup),
        cmocka_unit_test_setup(invalid_values, setup),
        cmocka_unit_test_setup(the_kernel_constraints, setup),
        cmocka_unit_test_setup(register_tile_groups_are_bounded, setup),
        cmocka_unit_test_setup(every_parameter_everywhere, setup),
        cmocka_unit_test_setup(paths_and_switches, setup),
        cmocka_unit_test_setup(untrusted_files, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
