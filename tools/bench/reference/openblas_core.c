/* The best OpenBLAS core for a CPU, and the age of a core (see
 * bench/reference/openblas_core.h). Two tables: the cores worth forcing, newest first,
 * with the features their kernels need (OpenBLAS builds them with
 * -march=cooperlake and the like, so a CPU short of any of them can fault);
 * and every x86 core name OpenBLAS reports, by the instructions it uses. */
#include "reference/openblas_core.h"

#include <stddef.h>
#include <stdio.h>
#include <strings.h>

enum {
    NEED_AVX512 = BENCH_CPU_AVX2 | BENCH_CPU_FMA | BENCH_CPU_AVX512F | BENCH_CPU_AVX512CD | BENCH_CPU_AVX512BW |
                  BENCH_CPU_AVX512DQ | BENCH_CPU_AVX512VL,
    NEED_BF16 = NEED_AVX512 | BENCH_CPU_AVX512_VNNI | BENCH_CPU_AVX512_BF16,
    NEED_AMX = NEED_BF16 | BENCH_CPU_AVX512_FP16 | BENCH_CPU_AMX_TILE | BENCH_CPU_AMX_BF16,
    NEED_SSE3 = BENCH_CPU_SSE2 | BENCH_CPU_SSE3,
    NEED_SSSE3 = NEED_SSE3 | BENCH_CPU_SSSE3,
};

static const struct candidate {
    const char *name;
    unsigned need;
    int amd_only;
} candidates[] = {
    {"SapphireRapids", NEED_AMX, 0},
    {"Cooperlake", NEED_BF16, 0},
    {"SkylakeX", NEED_AVX512, 0},
    {"Zen", BENCH_CPU_AVX2 | BENCH_CPU_FMA, 1}, /* Haswell's kernels, OpenBLAS's name for AMD */
    {"Haswell", BENCH_CPU_AVX2 | BENCH_CPU_FMA, 0},
    {"Sandybridge", BENCH_CPU_AVX, 0},
    {"Nehalem", NEED_SSSE3 | BENCH_CPU_SSE4_2, 0},
    {"Core2", NEED_SSSE3, 0},
    {"Prescott", NEED_SSE3, 0},
};

const char *bench_openblas_best_core(bench_cpu cpu, bench_openblas_has_core has, void *ctx)
{
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        const struct candidate *c = &candidates[i];
        if ((cpu.features & c->need) != c->need || (c->amd_only && !cpu.amd))
            continue;
        if (!has || has(c->name, ctx))
            return c->name;
    }
    return NULL;
}

static const struct rank {
    const char *name;
    int rank;
} ranks[] = {
    {"Katmai", 1},      {"Coppermine", 1},  {"Northwood", 1},    {"Banias", 1},      {"Athlon", 1},
    {"Opteron", 1},     {"Prescott", 2},    {"Opteron_SSE3", 2}, {"Barcelona", 2},   {"Nano", 2},
    {"Core2", 3},       {"Penryn", 3},      {"Dunnington", 3},   {"Atom", 3},        {"Bobcat", 3},
    {"Nehalem", 4},     {"Sandybridge", 5}, {"Bulldozer", 5},    {"Piledriver", 5},  {"Steamroller", 5},
    {"Haswell", 6},     {"Zen", 6},         {"Excavator", 6},    {"SkylakeX", 7},    {"Cooperlake", 8},
    {"SapphireRapids", 9},
};

int bench_openblas_core_rank(const char *core)
{
    for (size_t i = 0; core && i < sizeof ranks / sizeof *ranks; i++)
        if (strcasecmp(core, ranks[i].name) == 0)
            return ranks[i].rank;
    return 0;
}

int bench_openblas_core_is_older(const char *core, const char *best)
{
    const int a = bench_openblas_core_rank(core), b = bench_openblas_core_rank(best);
    return a > 0 && b > 0 && a < b;
}

void bench_openblas_core_text(const bench_openblas_state *s, char *buf, size_t cap)
{
    char who[160], best[128] = "";
    if (s->forced && !s->note[0])
        snprintf(who, sizeof who, ", forced: it chose %s on this CPU", s->chosen);
    else if (s->user_set)
        snprintf(who, sizeof who, ", set by OPENBLAS_CORETYPE=%s", s->env);
    else
        snprintf(who, sizeof who, ", its own choice");
    if (s->best[0] && s->older)
        snprintf(best, sizeof best, ": older than this CPU's best, %s", s->best);
    else if (s->best[0] && strcasecmp(s->core, s->best) == 0 && !s->forced) /* forced: the best, by definition */
        snprintf(best, sizeof best, ", the best for this CPU");
    snprintf(buf, cap, "core %s%s%s%s%s", s->core, who, best, s->note[0] ? "; " : "", s->note);
}
