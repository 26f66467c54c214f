/* The table of built-in kernels (see kernels/table.h). */
#include "kernels/table.h"

#include <string.h>

#include "clrt/clrt.h"

static const clrt__kernel_def *const table[CLRT__K_COUNT] = {
    [CLRT__K_ELEMENTWISE] = &clrt__k_elementwise,
    [CLRT__K_MATMUL] = &clrt__k_matmul,
    [CLRT__K_REDUCE] = &clrt__k_reduce,
    [CLRT__K_TRANSPOSE] = &clrt__k_transpose,
    [CLRT__K_NN_IM2COL] = &clrt__k_nn_im2col,
    [CLRT__K_NN_LAYOUT] = &clrt__k_nn_layout,
    [CLRT__K_NN_POOL] = &clrt__k_nn_pool,
    [CLRT__K_NN_ACT] = &clrt__k_nn_act,
};

const clrt__kernel_def *clrt__kernel_at(int id) { return id >= 0 && id < CLRT__K_COUNT ? table[id] : NULL; }

/* Names a kernel had before: tuned files and programs written with them keep
 * working. The elementwise kernel was "add" while add was all it ran. */
static const struct {
    const char *name;
    int id;
} old_names[] = {{"add", CLRT__K_ELEMENTWISE}};

int clrt__kernel_find(const char *name)
{
    for (int i = 0; name && i < CLRT__K_COUNT; i++)
        if (strcmp(table[i]->name, name) == 0)
            return i;
    for (size_t i = 0; name && i < sizeof old_names / sizeof *old_names; i++)
        if (strcmp(old_names[i].name, name) == 0)
            return old_names[i].id;
    return -1;
}

clrt__elem clrt__elem_of(int dtype)
{
    switch (dtype) {
    case CLRT_FLOAT64:
        return CLRT__ELEM_F64;
    case CLRT_INT32:
        return CLRT__ELEM_I32;
    case CLRT_FLOAT16:
        return CLRT__ELEM_F16;
    case CLRT_BFLOAT16:
        return CLRT__ELEM_BF16;
    }
    return CLRT__ELEM_F32;
}

size_t clrt__dtype_size(int dtype)
{
    switch (dtype) {
    case CLRT_FLOAT32:
        return 4;
    case CLRT_FLOAT64:
        return 8;
    case CLRT_INT32:
        return 4;
    case CLRT_FLOAT16:
    case CLRT_BFLOAT16:
        return 2;
    }
    return 0;
}

const char *clrt__dtype_word(int dtype)
{
    switch (dtype) {
    case CLRT_FLOAT32:
        return "float32";
    case CLRT_FLOAT64:
        return "float64";
    case CLRT_INT32:
        return "int32";
    case CLRT_FLOAT16:
        return "float16";
    case CLRT_BFLOAT16:
        return "bfloat16";
    }
    return "?";
}

int clrt__kernel_takes(const clrt__kernel_def *def, int dtype)
{
    return dtype >= CLRT_FLOAT32 && dtype <= CLRT_BFLOAT16 && (def->dtypes & (1u << dtype)) != 0;
}
