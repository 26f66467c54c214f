/* Selector grammar and default ranking, on made-up device lists: no device needed. */
#include <stdio.h>
#include <string.h>

#include "common/test_util.h"

#include "device/selector.h"

static clrt__device_entry dev(size_t index, unsigned p, unsigned d, int type, const char *name,
                             const char *platform, const char *vendor, unsigned cu, unsigned mhz)
{
    clrt__device_entry e;
    memset(&e, 0, sizeof e);
    e.info.index = index;
    e.info.platform_index = p;
    e.info.device_index = d;
    e.info.type = type;
    snprintf(e.info.name, sizeof e.info.name, "%s", name);
    snprintf(e.info.platform, sizeof e.info.platform, "%s", platform);
    snprintf(e.info.vendor, sizeof e.info.vendor, "%s", vendor);
    e.info.compute_units = cu;
    e.clock_mhz = mhz;
    return e;
}

/* A machine like a developer's: POCL CPU, Oclgrind (claims everything), an
 * llvmpipe with an inflated compute-unit count, and two real GPUs on platform 3
 * (platform 2, Clover, has no devices and so no entries). */
static clrt__device_entry machine[5];

static int setup(void **state)
{
    (void)state;
    machine[0] = dev(0, 0, 0, CLRT_DEVICE_CPU, "pthread-skylake-avx512-AMD EPYC", "Portable Computing Language",
                     "AuthenticAMD", 2, 2600);
    /* the word "pocl" is only in POCL's platform vendor */
    snprintf(machine[0].platform_vendor, sizeof machine[0].platform_vendor, "The pocl project");
    machine[1] = dev(1, 1, 0, CLRT_DEVICE_GPU, "Oclgrind Simulator", "Oclgrind", "University of Bristol", 1, 1);
    machine[2] = dev(2, 2, 0, CLRT_DEVICE_GPU, "llvmpipe (LLVM 15.0.6, 256 bits)", "rusticl", "Mesa", 8, 1000);
    machine[3] = dev(3, 4, 0, CLRT_DEVICE_GPU, "NVIDIA H200", "NVIDIA CUDA", "NVIDIA Corporation", 132, 1980);
    machine[4] = dev(4, 4, 1, CLRT_DEVICE_GPU, "NVIDIA T400", "NVIDIA CUDA", "NVIDIA Corporation", 6, 1400);
    return 0;
}

static long pick(const char *text, size_t n)
{
    clrt_selector sel;
    clrt__selector_parse(text, &sel);
    return clrt__selector_pick(&sel, machine, n);
}

static void parse_kinds(void **state)
{
    (void)state;
    /* the kind, and what it carries: the index; the platform and device; the
     * type; the text's length (-1: not checked) */
    static const struct {
        const char *text;
        clrt_selector_kind kind;
        long a, b;
    } cases[] = {
        {NULL, CLRT_SEL_DEFAULT, 0, 0},
        {"", CLRT_SEL_DEFAULT, 0, 0},
        {"  \t", CLRT_SEL_DEFAULT, 0, 0},
        {"12", CLRT_SEL_INDEX, 12, 0},
        {" 3:1 ", CLRT_SEL_PD, 3, 1},
        {"GPU", CLRT_SEL_TYPE, CLRT_DEVICE_GPU, 0},
        {"cpu", CLRT_SEL_TYPE, CLRT_DEVICE_CPU, 0},
        {"Accelerator", CLRT_SEL_TYPE, CLRT_DEVICE_ACCELERATOR, 0},
        {"nvidia", CLRT_SEL_TEXT, 6, 0},
        {"gpus", CLRT_SEL_TEXT, -1, 0}, /* not a type word: a name fragment */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        clrt_selector s;
        clrt__selector_parse(cases[i].text, &s);
        if (s.kind != cases[i].kind)
            fail_msg("\"%s\" parsed as kind %d, not %d", cases[i].text ? cases[i].text : "(NULL)", (int)s.kind,
                     (int)cases[i].kind);
        switch (s.kind) {
        case CLRT_SEL_INDEX:
            assert_int_equal(s.index, cases[i].a);
            break;
        case CLRT_SEL_PD:
            assert_int_equal(s.platform, cases[i].a);
            assert_int_equal(s.device, cases[i].b);
            break;
        case CLRT_SEL_TYPE:
            assert_int_equal(s.type, cases[i].a);
            break;
        case CLRT_SEL_TEXT:
            if (cases[i].a >= 0)
                assert_int_equal(s.text_len, cases[i].a);
            break;
        default:
            break;
        }
    }
}

static void parse_malformed(void **state)
{
    (void)state;
    static const char *const bad[] = {"1:", ":", ":1", "-1", "+3", "1:2:3", "1::2", "0:-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        clrt_selector s;
        clrt__selector_parse(bad[i], &s);
        if (s.kind != CLRT_SEL_MALFORMED)
            fail_msg("\"%s\" parsed as kind %d, not malformed", bad[i], (int)s.kind);
        assert_int_equal(pick(bad[i], 5), -1);
    }
}

static void parse_huge_numbers_match_nothing(void **state)
{
    (void)state;
    assert_int_equal(pick("99", 5), -1);
    assert_int_equal(pick("99999999999999999999999999", 5), -1);
    assert_int_equal(pick("0:99", 5), -1);
    assert_int_equal(pick("4294967296:0", 5), -1); /* 2^32 must not wrap to 0:0 */
    assert_int_equal(pick("18446744073709551616", 5), -1); /* 2^64 must not wrap to 0 */
}

static void default_ranking(void **state)
{
    (void)state;
    /* the big native GPU, whatever llvmpipe or Oclgrind claim */
    assert_int_equal(pick(NULL, 5), 3);
    assert_int_equal(pick("gpu", 5), 3);
    /* without native GPUs, the native CPU beats both emulators */
    assert_int_equal(pick(NULL, 3), 0);
    /* among emulators only, the GPU-typed one with more throughput */
    assert_int_equal(pick("gpu", 3), 2);
    /* Oclgrind alone is still pickable */
    assert_int_equal(pick("oclgrind", 5), 1);
    assert_int_equal(pick("accelerator", 5), -1);
}

static void index_and_platform_device(void **state)
{
    (void)state;
    assert_int_equal(pick("0", 5), 0);
    assert_int_equal(pick("4", 5), 4);
    assert_int_equal(pick("4:1", 5), 4);
    assert_int_equal(pick("4:0", 5), 3);
    assert_int_equal(pick("2:0", 5), 2);
    assert_int_equal(pick("3:0", 5), -1); /* a platform without devices */
    assert_int_equal(pick("5", 5), -1);
}

static void substring_matches_name_platform_vendor(void **state)
{
    (void)state;
    assert_int_equal(pick("t400", 5), 4);              /* device name, case-insensitive */
    assert_int_equal(pick("portable computing", 5), 0); /* platform */
    assert_int_equal(pick("authenticamd", 5), 0);      /* vendor */
    assert_int_equal(pick("pocl", 5), 0);              /* platform vendor */
    assert_int_equal(pick("NVIDIA", 5), 3);            /* several match: best ranked */
    assert_int_equal(pick("rusticl", 5), 2);
    assert_int_equal(pick("no such device", 5), -1);
    assert_int_equal(pick("\xc3\xa9t\xc3\xa9", 5), -1); /* non-ASCII: no match, no crash */
    char longsel[5000];
    memset(longsel, 'x', sizeof longsel - 1);
    longsel[sizeof longsel - 1] = '\0';
    assert_int_equal(pick(longsel, 5), -1);
}

static void emulators_detected(void **state)
{
    (void)state;
    assert_true(clrt__device_is_emulator(&machine[1].info));
    assert_true(clrt__device_is_emulator(&machine[2].info));
    assert_false(clrt__device_is_emulator(&machine[0].info));
    assert_false(clrt__device_is_emulator(&machine[3].info));
    assert_true(clrt__device_rank(&machine[0]) > clrt__device_rank(&machine[2]));
    assert_true(clrt__device_rank(&machine[0]) > clrt__device_rank(&machine[1]));
}

/* The CPUs of this project's own machine as the drivers list them: rusticl's
 * llvmpipe says CPU with 8 compute units, POCL 2 (clinfo); Oclgrind last, a
 * CPU too here. "cpu" and the default take POCL, whatever llvmpipe's
 * throughput; llvmpipe is taken when asked for, or when it is the only CPU,
 * and is marked a checking device in its public info. */
static void cpu_type_prefers_native_driver(void **state)
{
    (void)state;
    clrt__device_entry cpus[3];
    cpus[0] = dev(0, 0, 0, CLRT_DEVICE_CPU, "pthread-skylake-avx512-Intel(R) Xeon(R) Processor",
                  "Portable Computing Language", "GenuineIntel", 2, 2599);
    cpus[1] = dev(1, 1, 0, CLRT_DEVICE_CPU, "llvmpipe (LLVM 15.0.6, 256 bits)", "rusticl", "Mesa", 8, 2599);
    cpus[2] = dev(2, 2, 0, CLRT_DEVICE_CPU, "Oclgrind Simulator", "Oclgrind", "University of Bristol", 1, 1);
    /* listed first or last, the native CPU wins */
    for (int order = 0; order < 2; order++) {
        clrt__device_entry list[3] = {cpus[order ? 1 : 0], cpus[order ? 2 : 1], cpus[order ? 0 : 2]};
        const long native = order ? 2 : 0;
        clrt_selector sel;
        clrt__selector_parse("cpu", &sel);
        assert_int_equal(clrt__selector_pick(&sel, list, 3), native);
        clrt__selector_parse(NULL, &sel);
        assert_int_equal(clrt__selector_pick(&sel, list, 3), native);
    }
    clrt_selector sel;
    clrt__selector_parse("cpu", &sel);
    assert_int_equal(clrt__selector_pick(&sel, cpus + 1, 2), 0); /* llvmpipe above Oclgrind */
    clrt__selector_parse("llvmpipe", &sel);
    assert_int_equal(clrt__selector_pick(&sel, cpus, 3), 1);
    assert_true(clrt_device_is_emulator(&cpus[1].info));
    assert_true(clrt_device_is_emulator(&cpus[2].info));
    assert_false(clrt_device_is_emulator(&cpus[0].info));
    assert_false(clrt_device_is_emulator(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(parse_kinds, tu_teardown_no_live),
        cmocka_unit_test_teardown(parse_malformed, tu_teardown_no_live),
        cmocka_unit_test_teardown(parse_huge_numbers_match_nothing, tu_teardown_no_live),
        cmocka_unit_test_teardown(default_ranking, tu_teardown_no_live),
        cmocka_unit_test_teardown(index_and_platform_device, tu_teardown_no_live),
        cmocka_unit_test_teardown(substring_matches_name_platform_vendor, tu_teardown_no_live),
        cmocka_unit_test_teardown(emulators_detected, tu_teardown_no_live),
        cmocka_unit_test_teardown(cpu_type_prefers_native_driver, tu_teardown_no_live),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
