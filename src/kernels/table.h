/* The built-in kernels: one clrt__kernel_def each (k_<kernel>.c), in a table
 * the kernel cache, the tuned files and the tuner walk. A new kernel adds its
 * k_<kernel>.h/.c, its cl/ source, and one line to the table (kernels/table.c) and
 * to the enum below. */
#ifndef CLRT_KERNELS_TABLE_H
#define CLRT_KERNELS_TABLE_H

#include <stddef.h>

#include "kernels/elementwise.h"
#include "kernels/matmul.h"
#include "kernels/nn.h"
#include "kernels/params.h"
#include "kernels/reduce.h"
#include "kernels/transpose.h"

/* Positions in the table: the kernel cache's slots. */
enum clrt__kernel_id {
    CLRT__K_ELEMENTWISE,
    CLRT__K_MATMUL,
    CLRT__K_REDUCE,
    CLRT__K_TRANSPOSE,
    CLRT__K_NN_IM2COL,
    CLRT__K_NN_LAYOUT,
    CLRT__K_NN_POOL,
    CLRT__K_NN_ACT,
    CLRT__K_COUNT
};

const clrt__kernel_def *clrt__kernel_at(int id);
/* The id of the kernel called name (or an earlier name of it: "add" is the
 * elementwise kernel), or -1. */
int clrt__kernel_find(const char *name);

/* clrt_dtype -> element type and size (0 when not a dtype); dtypes a kernel takes. */
clrt__elem clrt__elem_of(int dtype);
size_t clrt__dtype_size(int dtype);
/* "float32", "float64": the word tuned files and messages use; "?" for others. */
const char *clrt__dtype_word(int dtype);
int clrt__kernel_takes(const clrt__kernel_def *def, int dtype);

#endif
