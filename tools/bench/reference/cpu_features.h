/* The instruction-set features of the CPU clrt-bench runs on, as far as its
 * references care: which OpenBLAS core the CPU can run (bench/reference/openblas_core.h)
 * and which vector FMA the peak probe uses (bench/reference/peak.h). On x86 from cpuid,
 * with the OS's consent for the AVX and AVX-512 registers (xgetbv); elsewhere
 * none. */
#ifndef CLRT_TOOLS_BENCH_CPU_FEATURES_H
#define CLRT_TOOLS_BENCH_CPU_FEATURES_H

enum bench_cpu_feature {
    BENCH_CPU_SSE2 = 1u << 0,
    BENCH_CPU_SSE3 = 1u << 1,
    BENCH_CPU_SSSE3 = 1u << 2,
    BENCH_CPU_SSE4_2 = 1u << 3,
    BENCH_CPU_AVX = 1u << 4,
    BENCH_CPU_AVX2 = 1u << 5,
    BENCH_CPU_FMA = 1u << 6,
    BENCH_CPU_AVX512F = 1u << 7,
    BENCH_CPU_AVX512CD = 1u << 8,
    BENCH_CPU_AVX512BW = 1u << 9,
    BENCH_CPU_AVX512DQ = 1u << 10,
    BENCH_CPU_AVX512VL = 1u << 11,
    BENCH_CPU_AVX512_VNNI = 1u << 12,
    BENCH_CPU_AVX512_BF16 = 1u << 13,
    BENCH_CPU_AVX512_FP16 = 1u << 14,
    BENCH_CPU_AMX_TILE = 1u << 15,
    BENCH_CPU_AMX_BF16 = 1u << 16,
};

typedef struct bench_cpu {
    unsigned features; /* enum bench_cpu_feature bits */
    int amd;           /* AMD or Hygon: OpenBLAS has Zen cores for them */
} bench_cpu;

/* This CPU's features; {0, 0} off x86. Cached after the first call. */
bench_cpu bench_cpu_detect(void);

#endif
