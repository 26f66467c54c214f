/* The elementwise kernel's parameters, op codes and launch rule
 * (cl/elementwise.cl): c = f(a, b) over a rows x cols window, for clrt_add,
 * clrt_binary, clrt_unary, clrt_axpby, clrt_scale, clrt_fill and clrt_copy. A
 * work-item handles ITEMS vectors of VW elements of one row.
 *
 * This kernel was called "add" while add was all it did: that name still
 * finds it (kernels/table.c), so tuned files and programs that say "add" keep
 * working; its parameters are the ones add had. */
#ifndef CLRT_KERNELS_ELEMENTWISE_H
#define CLRT_KERNELS_ELEMENTWISE_H

#include <string.h>

#include "kernels/params.h"

/* X(name, -D define, min, max, tuner values for variant 0 | variant 1, meaning). */
#define CLRT__EW_PARAMS(X)                                                           \
    X(vw, "VW", 1, 16, "4 8 16", "", "vector width: 1, 2, 4, 8 or 16")               \
    X(items, "ITEMS", 1, 1024, "1 2 4 16", "", "vectors per work-item")              \
    X(wg, "WG", 1, 65536, "64 256 1024 4096", "", "work-group size")                \
    X(ops, "EW_ALL", 0, 1, "", "", "1: every op in one program (kernels ew_<op>_<b>), 0: a program per op")

typedef struct clrt__ew_params {
    CLRT__EW_PARAMS(CLRT__PARAM_FIELD)
} clrt__ew_params;

extern const clrt__kernel_def clrt__k_elementwise;

static inline clrt__ew_params clrt__ew(const clrt__pvals *p)
{
    clrt__ew_params e;
    memcpy(&e, p->v, sizeof e);
    return e;
}

/* The op, a build option (EW_OP, the same numbers as in cl/elementwise.cl), or
 * with ops = 1 the kernel's name in the one program of them all. */
typedef enum clrt__ew_op {
    CLRT__EW_ADD = 0, /* the binary ops, in clrt_binary_op's order: c = a op b */
    CLRT__EW_SUB,
    CLRT__EW_MUL,
    CLRT__EW_DIV,
    CLRT__EW_MIN,
    CLRT__EW_MAX,
    CLRT__EW_NEG,     /* the unary ops, in clrt_unary_op's order: c = f(a) */
    CLRT__EW_ABS,
    CLRT__EW_EXP,
    CLRT__EW_LOG,
    CLRT__EW_SQRT,
    CLRT__EW_RELU,
    CLRT__EW_TANH,
    CLRT__EW_SIGMOID,
    CLRT__EW_AXPBY,   /* c = alpha a + beta b */
    CLRT__EW_SCALE,   /* c = alpha a */
    CLRT__EW_COPY,    /* c = a (every dtype) */
    CLRT__EW_FILL,    /* c = alpha (every dtype) */
    CLRT__EW_NOPS
} clrt__ew_op;

/* How b is read, a build option (EW_B): a row of vectors (row stride 0: one row
 * applied to every row), one value per row (row stride 0: one scalar), not at all. */
enum { CLRT__EW_B_ROW = 0, CLRT__EW_B_ONE = 1, CLRT__EW_B_NONE = 2 };

/* The kernel cache's launch variant for op and b's reading: variant 0 is add with
 * b read as rows, clrt_add's (what clrt_context_kernel_cl returns). */
static inline int clrt__ew_variant(clrt__ew_op op, int bread) { return (int)op * 3 + bread; }

/* NDRange for rows x cols (the flat path: rows = 1, cols = every element):
 * each row gets ceil(cols / (vw * items)) work-items in dimension 0, rows run
 * over dimension 1. One row: local size wg x 1. Several: the groups are made
 * as narrow as a row needs (wg halved while half still covers the row) and
 * the rest of wg goes to rows, at most the device's limit in dimension 1 and,
 * on a GPU, no more than rows needs (a CPU keeps one group shape per row width:
 * its driver compiles each shape). */
void clrt__ew_geometry(const clrt__ew_params *p, const clrt__device_facts *dev, size_t rows, size_t cols,
                       size_t global[2], size_t local[2]);

#endif
