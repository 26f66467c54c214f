/* The matmul kernel's tuning parameters: the X-macro list, the struct it
 * makes and its accessors; shared by the kernel's rules (kernels/matmul.c) and the
 * launch plan (kernels/matmul_plan.c). */
#ifndef CLRT_KERNELS_MATMUL_PARAMS_H
#define CLRT_KERNELS_MATMUL_PARAMS_H

#include <string.h>

#include "kernels/params.h"

/* X(name, -D define, min, max, tuner values for variant 0 | variant 1, meaning).
 * Adding a parameter is one line here and its use in the .cl file (vw stays last:
 * device_tuned edits the end of a tuned file's line). */
#define CLRT__MATMUL_PARAMS(X)                                                                                \
    X(use_local, NULL, 0, 1, "", "",                                                                          \
      "kernel variant: 0 register tiles (matmul_cpu.cl, CPUs), 1 local-memory tiles (matmul_gpu.cl, GPUs)") \
    X(tm, "TM", 1, 64, "2 4 6 8 10 12 16", "1 2 4 8", "rows of C per work-item")                              \
    X(tn, "TN", 1, 256, "16 32 48 64 8 24", "1 2 4 8", "columns of C per work-item, a multiple of vw")        \
    X(tk, "TK", 1, 4096, "64 128 256 512 1024", "8 16 32 64",                                                 \
      "k block: cache block (variant 0) or local tile depth (variant 1, a multiple of vw)")                   \
    X(tkp, "TKP", 0, 4096, "256 512 1024 2048", "", "variant 0 with B packed: k block; 0 = tk")               \
    X(wgx, "WGX", 1, 4096, "1 2 4", "4 8 16 32", "work-group width (over columns)")                          \
    X(wgy, "WGY", 1, 4096, "1 4 8 16 32 64", "4 8 16 32", "work-group height (over rows)")                    \
    X(pack, NULL, 0, 2, "0 1", "",                                                                            \
      "variant 0: copy B into column panels first: 0 never, 1 when the shape pays for it, 2 whenever it can") \
    X(pack_kib, NULL, 0, 65536, "", "",                                                                       \
      "variant 0: most KiB of packed B per launch; 0 = a quarter of the device's cache, at least 8 MiB")     \
    X(pack_a, NULL, 0, 2, "", "",                                                                             \
      "variant 0: copy op(A) into row panels first: 0 never, 1 when the shape pays for it, 2 whenever it can") \
    X(rows_first, NULL, 0, 2, "", "",                                                                         \
      "variant 0, wgx = wgy: work-groups walk row tiles first: 0 never, 1 when the shape pays, 2 always")    \
    X(dot, NULL, 0, 2, "", "",                                                                                \
      "variant 0, A B^T: tm x (tn/vw) dot products along k, nothing packed: 0 never, 1 when it pays, 2 always") \
    X(dot_tm, "DOT_TM", 0, 64, "", "",                                                                        \
      "variant 0, the dot form: rows of C per work-item; 0 = tm (fitted to C as tm is)")                     \
    X(dot_nv, "DOT_NV", 0, 64, "", "",                                                                        \
      "variant 0, the dot form: columns of C per work-item (dot products per row); 0 = tn / vw")             \
    X(fit_rows, NULL, 0, 2, "", "",                                                                           \
      "variant 0: C with few rows takes tiles of fewer rows, as many as tm makes: 0 never, 1 when it pays, 2 always") \
    X(maxreg, NULL, 0, 255, "", "",                                                                           \
      "variant 1: registers per work-item NVIDIA's compiler may use (-cl-nv-maxrregcount), 0 its own choice; "  \
      "only where the device takes cl_nv_compiler_options")                                                     \
    X(sg, NULL, 0, 32, "", "",                                                                                \
      "variant 1: the SIMD width (sub-group size) Intel's compiler must build the kernels at "                 \
      "(intel_reqd_sub_group_size: 8, 16 or 32), 0 its own choice")                                             \
    X(ksplit, NULL, 0, 64, "", "",                                                                            \
      "variant 1: a product of fewer work-groups than the device has compute units computed as k splits side "  \
      "by side, then summed: 0 never, 1 as many as fill the device (at most 64, each at least 8 k tiles), "     \
      "2-64 always that many")                                                                                 \
    X(merged, NULL, 0, 1, "", "",                                                                             \
      "variant 0: 1 the four transpose pairs' kernels in one program (one build), 0 a program each")         \
    X(vw, "VW", 1, 16, "4 8 16", "1 2 4 8", "vector width: 1, 2, 4, 8 or 16")

typedef struct clrt__matmul_params {
    CLRT__MATMUL_PARAMS(CLRT__PARAM_FIELD)
} clrt__matmul_params;

static inline clrt__matmul_params clrt__mm(const clrt__pvals *p)
{
    clrt__matmul_params m;
    memcpy(&m, p->v, sizeof m);
    return m;
}
static inline void clrt__mm_put(clrt__pvals *p, const clrt__matmul_params *m) { memcpy(p->v, m, sizeof *m); }

#endif
