/* clrt-bench's choice of OpenBLAS's best core (tools/bench/reference/openblas_core.c)
 * on made-up CPUs and builds: the Intel Xeons OpenBLAS 0.3.21 does not know
 * (where it runs Prescott and the bench must force Cooperlake), AMD Zen 4,
 * older AVX-512 parts short of BF16 or of BW/VL, AVX2 on Intel and AMD, the
 * SSE generations, and CPUs with nothing it can force; the age of every core
 * name OpenBLAS reports; and the words the report prints for each case. */
#include <string.h>
#include <strings.h>

#include "common/test_util.h"

#include "reference/openblas_core.h"

enum {
    SSE3 = BENCH_CPU_SSE2 | BENCH_CPU_SSE3,
    SSE42 = SSE3 | BENCH_CPU_SSSE3 | BENCH_CPU_SSE4_2,
    AVX = SSE42 | BENCH_CPU_AVX,
    AVX2 = AVX | BENCH_CPU_AVX2 | BENCH_CPU_FMA,
    SKX = AVX2 | BENCH_CPU_AVX512F | BENCH_CPU_AVX512CD | BENCH_CPU_AVX512BW | BENCH_CPU_AVX512DQ |
          BENCH_CPU_AVX512VL,
    CASCADE = SKX | BENCH_CPU_AVX512_VNNI,
    COOPER = CASCADE | BENCH_CPU_AVX512_BF16,
    SPR = COOPER | BENCH_CPU_AVX512_FP16 | BENCH_CPU_AMX_TILE | BENCH_CPU_AMX_BF16,
};

/* OpenBLAS 0.3.21's x86-64 DYNAMIC_ARCH cores (Debian 12's), and a later
 * release's with SapphireRapids: ctx of has_listed */
static const char *const v0321[] = {"Prescott", "Core2",   "Penryn", "Dunnington", "Nehalem", "Sandybridge",
                                    "Haswell",  "Zen",     "SkylakeX", "Cooperlake", NULL};
static const char *const v0328[] = {"Prescott", "Core2",    "Nehalem",    "Sandybridge",    "Haswell",
                                    "Zen",      "SkylakeX", "Cooperlake", "SapphireRapids", NULL};
/* a build whose compiler had no AVX-512 BF16: no Cooperlake, and no Zen */
static const char *const no_bf16[] = {"Prescott", "Nehalem", "Sandybridge", "Haswell", "SkylakeX", NULL};

static int has_listed(const char *core, void *ctx)
{
    for (const char *const *p = ctx; *p; p++)
        if (strcasecmp(*p, core) == 0)
            return 1;
    return 0;
}

static const char *best(unsigned features, int amd, const char *const *build)
{
    bench_cpu cpu = {features, amd};
    return bench_openblas_best_core(cpu, build ? has_listed : NULL, (void *)build);
}

static void expect_core(const char *got, const char *want)
{
    if (!want) {
        assert_null(got);
        return;
    }
    assert_non_null(got);
    assert_string_equal(got, want);
}

/* The machine: an Intel Xeon with AVX-512 that 0.3.21 does not know. */
static void test_intel_avx512(void **state)
{
    (void)state;
    expect_core(best(SPR, 0, v0321), "Cooperlake"); /* Sapphire Rapids on 0.3.21: no core of its own */
    expect_core(best(SPR, 0, v0328), "SapphireRapids");
    expect_core(best(SPR, 0, NULL), "SapphireRapids");
    expect_core(best(SPR, 0, no_bf16), "SkylakeX");
    expect_core(best(COOPER, 0, v0328), "Cooperlake");
    expect_core(best(CASCADE, 0, v0321), "SkylakeX"); /* VNNI without BF16: Cascade Lake */
    expect_core(best(SKX, 0, v0321), "SkylakeX");
    /* AMX without the OS's consent (no tile state saved): not SapphireRapids */
    expect_core(best(SPR & ~BENCH_CPU_AMX_TILE & ~BENCH_CPU_AMX_BF16, 0, v0328), "Cooperlake");
    /* Knights Landing: AVX-512 F and CD, no BW, DQ or VL; SkylakeX's kernels would fault */
    expect_core(best(AVX2 | BENCH_CPU_AVX512F | BENCH_CPU_AVX512CD, 0, v0321), "Haswell");
}

/* This project's machine: AMD Zen 4 with AVX-512 and BF16, no FP16 or AMX. */
static void test_amd(void **state)
{
    (void)state;
    expect_core(best(COOPER, 1, v0321), "Cooperlake");
    expect_core(best(COOPER, 1, v0328), "Cooperlake");
    expect_core(best(COOPER, 1, no_bf16), "SkylakeX");
    expect_core(best(AVX2, 1, v0321), "Zen");       /* Zen 1-3 */
    expect_core(best(AVX2, 1, no_bf16), "Haswell"); /* the same kernels, where the build has no Zen */
    expect_core(best(AVX2, 0, v0321), "Haswell");   /* Zen only for AMD and Hygon */
}

static void test_older_cpus(void **state)
{
    (void)state;
    expect_core(best(AVX2 & ~BENCH_CPU_FMA, 0, v0321), "Sandybridge"); /* a VM that hides FMA */
    expect_core(best(AVX, 0, v0321), "Sandybridge");
    expect_core(best(SSE42, 0, v0321), "Nehalem");
    expect_core(best(SSE3 | BENCH_CPU_SSSE3, 0, v0321), "Core2");
    expect_core(best(SSE3, 0, v0321), "Prescott");
    expect_core(best(BENCH_CPU_SSE2, 0, v0321), NULL);
    expect_core(best(0, 0, NULL), NULL); /* off x86: nothing to force */
    static const char *const none[] = {NULL};
    expect_core(best(SPR, 0, none), NULL); /* a build with none of them */
}

static void test_rank(void **state)
{
    (void)state;
    assert_int_equal(bench_openblas_core_rank("Prescott"), 2);
    assert_int_equal(bench_openblas_core_rank("SKYLAKEX"), 7); /* single-target builds' spelling */
    assert_int_equal(bench_openblas_core_rank("cooperlake"), 8);
    assert_int_equal(bench_openblas_core_rank("Zen"), bench_openblas_core_rank("Haswell"));
    assert_int_equal(bench_openblas_core_rank("Excavator"), bench_openblas_core_rank("Haswell"));
    assert_int_equal(bench_openblas_core_rank("NEOVERSEN1"), 0);
    assert_int_equal(bench_openblas_core_rank(NULL), 0);
    assert_true(bench_openblas_core_is_older("Prescott", "SkylakeX"));
    assert_true(bench_openblas_core_is_older("Haswell", "Cooperlake"));
    assert_false(bench_openblas_core_is_older("Zen", "Haswell"));
    assert_false(bench_openblas_core_is_older("Cooperlake", "Cooperlake"));
    assert_false(bench_openblas_core_is_older("Cooperlake", "SkylakeX"));
    assert_false(bench_openblas_core_is_older("ARMV8", "")); /* nothing known: never flagged */
    assert_false(bench_openblas_core_is_older("Prescott", ""));
    /* every core the bench may force is known to the ranking, newest first */
    const char *order[] = {"SapphireRapids", "Cooperlake", "SkylakeX", "Haswell", "Sandybridge", "Nehalem",
                           "Core2", "Prescott"};
    for (size_t i = 1; i < sizeof order / sizeof *order; i++)
        assert_true(bench_openblas_core_is_older(order[i], order[i - 1]));
}

static void expect_text(const bench_openblas_state *s, const char *want)
{
    char buf[512];
    bench_openblas_core_text(s, buf, sizeof buf);
    assert_string_equal(buf, want);
}

static void test_text(void **state)
{
    (void)state;
    bench_openblas_state s = {.present = 1, .core = "SkylakeX", .best = "SkylakeX", .chosen = "Prescott",
                              .env = "SkylakeX", .forced = 1, .dynamic = 1};
    expect_text(&s, "core SkylakeX, forced: it chose Prescott on this CPU");
    /* the forcing did not take: its note, and the core's age */
    snprintf(s.core, sizeof s.core, "Prescott");
    snprintf(s.note, sizeof s.note, "clrt-bench's OPENBLAS_CORETYPE=SkylakeX did not take: OpenBLAS runs Prescott");
    s.older = 1;
    expect_text(&s, "core Prescott, its own choice: older than this CPU's best, SkylakeX; "
                    "clrt-bench's OPENBLAS_CORETYPE=SkylakeX did not take: OpenBLAS runs Prescott");
    bench_openblas_state u = {.present = 1, .core = "Prescott", .best = "Cooperlake", .env = "Prescott",
                              .user_set = 1, .older = 1, .dynamic = 1};
    expect_text(&u, "core Prescott, set by OPENBLAS_CORETYPE=Prescott: older than this CPU's best, Cooperlake");
    bench_openblas_state own = {.present = 1, .core = "Cooperlake", .best = "Cooperlake", .dynamic = 1};
    expect_text(&own, "core Cooperlake, its own choice, the best for this CPU");
    bench_openblas_state arm = {.present = 1, .core = "NEOVERSEN1", .dynamic = 1};
    expect_text(&arm, "core NEOVERSEN1, its own choice");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intel_avx512), cmocka_unit_test(test_amd), cmocka_unit_test(test_older_cpus),
        cmocka_unit_test(test_rank),         cmocka_unit_test(test_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
