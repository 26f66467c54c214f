/* Which OpenBLAS core is the best for a CPU: a pure function of the CPU's
 * features (bench/reference/cpu_features.h) and of the cores an OpenBLAS build has, so
 * that a test can ask it about CPUs it does not run on. OpenBLAS picks its
 * core itself when it loads, by the CPU's family and model, and a release
 * falls back to an old core on a CPU newer than itself (0.3.21 runs Prescott,
 * SSE3, on recent Intel Xeons with AVX-512): clrt-bench then forces this one
 * (bench/reference/openblas_force.h), so that its ratios are to OpenBLAS at its best.
 * Also the words that report the core, for the table, --json and the plot. */
#ifndef CLRT_TOOLS_BENCH_OPENBLAS_CORE_H
#define CLRT_TOOLS_BENCH_OPENBLAS_CORE_H

#include <stddef.h>

#include "reference/cpu_features.h"

/* Whether the OpenBLAS build has a core (its name as OPENBLAS_CORETYPE
 * takes it); ctx is the caller's. NULL: every core counts as present. */
typedef int (*bench_openblas_has_core)(const char *core, void *ctx);

/* The newest x86-64 core that the CPU can run and the build has:
 * SapphireRapids (AVX-512 with BF16, FP16 and AMX-BF16), Cooperlake (AVX-512
 * with BF16 and VNNI), SkylakeX (AVX-512 F, CD, BW, DQ, VL), Zen (AVX2 + FMA
 * on AMD and Hygon), Haswell (AVX2 + FMA), Sandybridge (AVX), Nehalem
 * (SSE4.2), Core2 (SSSE3), Prescott (SSE3). NULL when none fits (no SSE3: a
 * CPU off x86 has no features here). The name is a static string. */
const char *bench_openblas_best_core(bench_cpu cpu, bench_openblas_has_core has, void *ctx);

/* How new a core's instructions are, to compare two cores: 1 (no SSE3:
 * Katmai ... Banias, Athlon, Opteron) to 9 (SapphireRapids); the AMD and other
 * cores of OpenBLAS's list by the instructions their kernels use (Zen and
 * Excavator with Haswell's AVX2, Bulldozer ... Steamroller with
 * Sandybridge's AVX). Any case ("SKYLAKEX", as single-target builds name
 * it). 0 for a name it does not know. */
int bench_openblas_core_rank(const char *core);

/* 1 when core runs older instructions than best (both known). */
int bench_openblas_core_is_older(const char *core, const char *best);

/* What a run knows of OpenBLAS's core: filled by bench/reference/openblas_force.c. */
typedef struct bench_openblas_state {
    int present;         /* OpenBLAS is built in and this state was filled */
    char core[64];       /* the core that runs (openblas_get_corename) */
    char best[64];       /* the newest core this build has that the CPU runs; "": not known (off x86) */
    char chosen[64];     /* forced: the core OpenBLAS chose itself; else "" */
    char env[64];        /* OPENBLAS_CORETYPE as this process got it; "" unset */
    int forced;          /* clrt-bench set OPENBLAS_CORETYPE and started itself again */
    int user_set;        /* the user set OPENBLAS_CORETYPE */
    int older;           /* core is older than best */
    int dynamic;         /* a DYNAMIC_ARCH build: its core can be chosen at all */
    char note[256];      /* why it was not forced, or the forcing did not take; "" */
} bench_openblas_state;

/* One line for the reference: "core SkylakeX, forced: it chose Prescott on
 * this CPU", "core Prescott, set by OPENBLAS_CORETYPE=Prescott: older than
 * this CPU's best, Cooperlake", "core Cooperlake, its own choice, the best
 * for this CPU", ... */
void bench_openblas_core_text(const bench_openblas_state *s, char *buf, size_t cap);

#endif
