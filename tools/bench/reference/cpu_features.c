/* The CPU's instruction-set features from cpuid (see bench/reference/cpu_features.h).
 * Read by hand rather than with __builtin_cpu_supports: GCC 12 and the
 * clang versions we meet do not all know the names of the newest features
 * (avx512_bf16, avx512_fp16, amx), and OpenBLAS's choice hangs on them. */
#include "reference/cpu_features.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* The register state the OS saves (XCR0): a feature whose registers it does
 * not save cannot be used, whatever cpuid says. */
static uint64_t os_saved_state(unsigned leaf1_ecx)
{
    if (!(leaf1_ecx & (1u << 27))) /* OSXSAVE: no xgetbv */
        return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

/* Where each feature's bit is: cpuid leaf 1, 7.0 or 7.1, register (0-3:
 * eax, ebx, ecx, edx), bit, and the register state the OS must save for it. */
enum { LEAF1, LEAF7_0, LEAF7_1, LEAVES };
enum { EAX, EBX, ECX, EDX };
enum { ANY, YMM, ZMM, TILES };
static const struct feature_bit {
    unsigned char leaf, reg, bit, state;
    unsigned feature;
} feature_bits[] = {
    {LEAF1, EDX, 26, ANY, BENCH_CPU_SSE2},          {LEAF1, ECX, 0, ANY, BENCH_CPU_SSE3},
    {LEAF1, ECX, 9, ANY, BENCH_CPU_SSSE3},          {LEAF1, ECX, 20, ANY, BENCH_CPU_SSE4_2},
    {LEAF1, ECX, 28, YMM, BENCH_CPU_AVX},           {LEAF1, ECX, 12, YMM, BENCH_CPU_FMA},
    {LEAF7_0, EBX, 5, YMM, BENCH_CPU_AVX2},         {LEAF7_0, EBX, 16, ZMM, BENCH_CPU_AVX512F},
    {LEAF7_0, EBX, 17, ZMM, BENCH_CPU_AVX512DQ},    {LEAF7_0, EBX, 28, ZMM, BENCH_CPU_AVX512CD},
    {LEAF7_0, EBX, 30, ZMM, BENCH_CPU_AVX512BW},    {LEAF7_0, EBX, 31, ZMM, BENCH_CPU_AVX512VL},
    {LEAF7_0, ECX, 11, ZMM, BENCH_CPU_AVX512_VNNI}, {LEAF7_0, EDX, 23, ZMM, BENCH_CPU_AVX512_FP16},
    {LEAF7_0, EDX, 24, TILES, BENCH_CPU_AMX_TILE},  {LEAF7_0, EDX, 22, TILES, BENCH_CPU_AMX_BF16},
    {LEAF7_1, EAX, 5, ZMM, BENCH_CPU_AVX512_BF16},
};

/* The features whose bit is set and whose registers the OS saves. */
static unsigned x86_features(void)
{
    unsigned r[LEAVES][4] = {{0}};
    if (!__get_cpuid(1, &r[LEAF1][EAX], &r[LEAF1][EBX], &r[LEAF1][ECX], &r[LEAF1][EDX]))
        return 0;
    if (__get_cpuid_max(0, NULL) >= 7) {
        __get_cpuid_count(7, 0, &r[LEAF7_0][EAX], &r[LEAF7_0][EBX], &r[LEAF7_0][ECX], &r[LEAF7_0][EDX]);
        if (r[LEAF7_0][EAX] >= 1) /* leaf 7's highest subleaf */
            __get_cpuid_count(7, 1, &r[LEAF7_1][EAX], &r[LEAF7_1][EBX], &r[LEAF7_1][ECX], &r[LEAF7_1][EDX]);
    }
    const uint64_t xcr0 = os_saved_state(r[LEAF1][ECX]);
    int saved[4];
    saved[ANY] = 1;
    saved[YMM] = (xcr0 & 0x6) == 0x6;                      /* SSE and AVX state */
    saved[ZMM] = saved[YMM] && (xcr0 & 0xe0) == 0xe0;      /* opmask, ZMM_Hi256, Hi16_ZMM */
    saved[TILES] = (xcr0 & 0x60000) == 0x60000;            /* XTILECFG, XTILEDATA */
    unsigned f = 0;
    for (size_t i = 0; i < sizeof feature_bits / sizeof *feature_bits; i++) {
        const struct feature_bit *b = &feature_bits[i];
        if (saved[b->state] && (r[b->leaf][b->reg] >> b->bit & 1u))
            f |= b->feature;
    }
    return f;
}

static int x86_amd(void)
{
    unsigned a, b, c, d;
    char vendor[13];
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return 0;
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    vendor[12] = '\0';
    return strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0;
}
#endif

bench_cpu bench_cpu_detect(void)
{
    static int done;
    static bench_cpu cpu;
    if (!done) {
#if defined(__x86_64__) || defined(__i386__)
        cpu.features = x86_features();
        cpu.amd = x86_amd();
#endif
        done = 1;
    }
    return cpu;
}
