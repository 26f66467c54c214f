/* clrt-bench's operations: what each one times, its name on the command line
 * and in reports, the kernel that runs it, and its shape. */
#ifndef CLRT_TOOLS_BENCH_OPS_H
#define CLRT_TOOLS_BENCH_OPS_H

#include <stddef.h>

/* The values of BENCH_ADD and BENCH_MATMUL are kept: reports and tuning lines
 * were written with them before the others came. */
enum bench_op {
    BENCH_ADD,       /* clrt_add, 1 x n */
    BENCH_MATMUL,    /* clrt_matmul / clrt_gemm */
    BENCH_MUL,       /* clrt_binary MUL, 1 x n */
    BENCH_BIAS,      /* clrt_binary ADD of a 1 x cols row to every row */
    BENCH_RELU,      /* clrt_unary RELU, 1 x n */
    BENCH_SIGMOID,   /* clrt_unary SIGMOID, 1 x n */
    BENCH_AXPBY,     /* clrt_axpby, y = 2 x + 0.5 y in place, 1 x n */
    BENCH_SUM,       /* clrt_reduce SUM over all, 1 x n */
    BENCH_ROWSUM,    /* clrt_reduce SUM per row */
    BENCH_COLSUM,    /* clrt_reduce SUM per column */
    BENCH_ARGMAX,    /* clrt_argmax_rows */
    BENCH_TRANSPOSE, /* clrt_transpose */
    BENCH_OPS
};

/* What an operation is, for the targets: each family has its own. */
enum bench_family { FAM_ADD, FAM_MATMUL, FAM_BINARY, FAM_UNARY, FAM_AXPBY, FAM_REDUCE, FAM_TRANSPOSE };

/* axpby's scalars: powers of two, so that alpha x + beta y is rounded once
 * whether or not the device fuses it, and its result can be checked exactly;
 * y stays bounded however often it runs in place (it tends to 4 x). */
#define BENCH_AXPBY_ALPHA 2.0
#define BENCH_AXPBY_BETA 0.5

const char *bench_op_name(int op);     /* "add", "matmul", "mul", ... */
int bench_op_by_name(const char *name); /* enum bench_op, or -1 */
/* The built-in kernel that runs op, as <clrt/clrt_tune.h> names it. */
const char *bench_op_kernel(int op);
int bench_op_family(int op);           /* enum bench_family */
/* 1 for the ops of the math family that clrt-bench added beside add and
 * matmul (what --op math selects). */
int bench_op_is_math(int op);
/* 1 when op runs on a rows x cols matrix made near-square from an element
 * count (bias, rowsum, colsum, argmax, transpose); else on 1 x count. */
int bench_op_matrix(int op);
/* 1 when op is also timed against clrt_copy of its input (the device's copy
 * bandwidth in the same run): the reductions and the transpose. */
int bench_op_copy_ref(int op);

/* The near-square rows x cols of about count elements for a matrix op:
 * rows = round(sqrt(count)), cols = round(count / rows) (3162 x 3163 for
 * 1e7, 1000 x 1000 for 1e6). */
void bench_matrix_shape(size_t count, size_t *rows, size_t *cols);

#endif
