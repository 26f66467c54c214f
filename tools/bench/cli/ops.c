/* clrt-bench's operations (see bench/cli/ops.h). */
#include "cli/ops.h"

#include <math.h>
#include <string.h>

static const struct {
    const char *name, *kernel;
    int family, matrix, copy_ref;
} ops[BENCH_OPS] = {
    [BENCH_ADD] = {"add", "elementwise", FAM_ADD, 0, 0},
    [BENCH_MATMUL] = {"matmul", "matmul", FAM_MATMUL, 0, 0},
    [BENCH_MUL] = {"mul", "elementwise", FAM_BINARY, 0, 0},
    [BENCH_BIAS] = {"bias", "elementwise", FAM_BINARY, 1, 0},
    [BENCH_RELU] = {"relu", "elementwise", FAM_UNARY, 0, 0},
    [BENCH_SIGMOID] = {"sigmoid", "elementwise", FAM_UNARY, 0, 0},
    [BENCH_AXPBY] = {"axpby", "elementwise", FAM_AXPBY, 0, 0},
    [BENCH_SUM] = {"sum", "reduce", FAM_REDUCE, 0, 1},
    [BENCH_ROWSUM] = {"rowsum", "reduce", FAM_REDUCE, 1, 1},
    [BENCH_COLSUM] = {"colsum", "reduce", FAM_REDUCE, 1, 1},
    [BENCH_ARGMAX] = {"argmax", "reduce", FAM_REDUCE, 1, 1},
    [BENCH_TRANSPOSE] = {"transpose", "transpose", FAM_TRANSPOSE, 1, 1},
};

static int valid(int op) { return op >= 0 && op < BENCH_OPS; }

const char *bench_op_name(int op) { return valid(op) ? ops[op].name : "?"; }
const char *bench_op_kernel(int op) { return valid(op) ? ops[op].kernel : "?"; }
int bench_op_family(int op) { return valid(op) ? ops[op].family : -1; }
int bench_op_is_math(int op) { return valid(op) && op != BENCH_ADD && op != BENCH_MATMUL; }
int bench_op_matrix(int op) { return valid(op) && ops[op].matrix; }
int bench_op_copy_ref(int op) { return valid(op) && ops[op].copy_ref; }

int bench_op_by_name(const char *name)
{
    for (int op = 0; op < BENCH_OPS; op++)
        if (strcmp(name, ops[op].name) == 0)
            return op;
    return -1;
}

void bench_matrix_shape(size_t count, size_t *rows, size_t *cols)
{
    size_t r = (size_t)floor(sqrt((double)count) + 0.5);
    if (r < 1)
        r = 1;
    size_t c = (count + r / 2) / r;
    *rows = r;
    *cols = c ? c : 1;
}
