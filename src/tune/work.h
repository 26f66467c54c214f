/* What the tuner runs for each built-in kernel: the operation through the
 * public API, its operands, the work it does, a host check of its result, and
 * the shapes that take every path of the kernel. A new kernel that wants
 * tuning adds a case here. */
#ifndef CLRT_TUNE_WORK_H
#define CLRT_TUNE_WORK_H

#include <stddef.h>

#include "clrt/clrt.h"
#include "kernels/params.h"

/* A shape: m x n x k for products (a m x k, b k x n, c m x n); m x n (k = 0)
 * for the elementwise kernel (a, b and c m x n), reduce and transpose. */
typedef struct clrt__shape {
    size_t m, n, k;
} clrt__shape;

/* Operands on the device and the run on them. */
typedef struct clrt__work {
    int kernel;
    clrt_queue *q;
    clrt_buffer *a, *b, *c;
    clrt_buffer *brow; /* elementwise: b's first row, a view (the broadcast operand) */
    clrt_buffer *d; /* reduce: the all-elements sum (b each row's, c each column's) */
    clrt_buffer *e; /* reduce: each row's argmax (int32), so that arg_items is timed too */
} clrt__work;

/* Whether the tuner has an operation for the kernel (the neural-network
 * kernels have none yet: their parameters are set with clrt_tune_override). */
int clrt__work_known(int kernel);

/* The shape timed at size (n x n x n, or about n elements). */
clrt__shape clrt__work_shape(int kernel, size_t size);
/* FLOP or bytes of one run at s, and the unit of work per second. */
double clrt__work_amount(int kernel, int dtype, clrt__shape s);
const char *clrt__work_unit(int kernel);
/* The timing size when the caller gives none. */
size_t clrt__work_default_size(int kernel);

/* Operands of shape s on ctx, written from the host arrays ha and hb (each
 * at least as large as an operand). CLRT_OK, or a status with nothing left. */
int clrt__work_make(clrt__work *w, int kernel, int dtype, clrt_context *ctx, clrt_queue *q, clrt__shape s,
                    const void *ha, const void *hb);
void clrt__work_free(clrt__work *w);
/* One run and the finish: a clrt__run_fn. */
int clrt__work_run(void *w);

/* Shapes that take every path of the kernel (edge tiles, thin matrices, odd
 * lengths); returns how many were written (at most cap). */
size_t clrt__work_check_shapes(int kernel, clrt__shape *out, size_t cap);
/* Shapes that take a path only some parameters have (matmul: one that packs
 * B with p, when p packs at all); how many were written. */
size_t clrt__work_param_shapes(int kernel, int dtype, const clrt__device_facts *dev, const clrt__pvals *p,
                               clrt__shape *out, size_t cap);
/* Run once at s on fresh operands and compare `rows` rows of the result
 * (spread from first to last) with the host: 0 right, else why is set. */
int clrt__work_verify(int kernel, int dtype, clrt_context *ctx, clrt_queue *q, clrt__shape s, size_t rows,
                      char *why, size_t cap);

#endif
