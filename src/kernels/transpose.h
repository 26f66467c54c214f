/* The transpose kernel's parameters and launch rules: c (cols x rows) = a^T,
 * both with offsets and row strides (clrt_transpose). Two kernel variants,
 * one source each:
 *   use_local = 1  cl/transpose.cl: TILE x TILE tiles staged in local memory,
 *                  both sides coalesced (GPUs)
 *   use_local = 0  cl/transpose_plain.cl: each work-item moves TILE elements of
 *                  one column of a to one run of c, no local memory (CPUs)
 * Elements move as words of their size, so the float32 kernel also transposes
 * int32 buffers (one set of parameters, tuned and stored as float32's). */
#ifndef CLRT_KERNELS_TRANSPOSE_H
#define CLRT_KERNELS_TRANSPOSE_H

#include <string.h>

#include "kernels/params.h"

/* X(name, -D define, min, max, tuner values for variant 0 | variant 1, meaning). */
#define CLRT__TRANSPOSE_PARAMS(X)                                                                          \
    X(use_local, NULL, 0, 1, "", "",                                                                       \
      "kernel variant: 0 plain (transpose_plain.cl, CPUs), 1 local-memory tiles (transpose.cl, GPUs)")   \
    X(tile, "TILE", 1, 128, "4 8 16 32 64", "8 16 32 64",                                                  \
      "variant 1: side of the square tile; variant 0: rows of a each work-item moves")                     \
    X(wgx, "WGX", 1, 4096, "4 16 64 256", "8 16 32", "work-group width (at most tile in variant 1)")      \
    X(wgy, "WGY", 1, 1024, "", "1 2 4 8 16", "variant 1: work-group height, at most tile")

typedef struct clrt__transpose_params {
    CLRT__TRANSPOSE_PARAMS(CLRT__PARAM_FIELD)
} clrt__transpose_params;

extern const clrt__kernel_def clrt__k_transpose;

static inline clrt__transpose_params clrt__tp(const clrt__pvals *p)
{
    clrt__transpose_params t;
    memcpy(&t, p->v, sizeof t);
    return t;
}

/* NDRange for a rows x cols (the input's shape); returns the dimensions (1 or 2). */
unsigned clrt__transpose_geometry(const clrt__transpose_params *p, size_t rows, size_t cols, size_t global[2],
                                  size_t local[2]);

#endif
