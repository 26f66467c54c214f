/* Launching the neural-network kernels (k_nn.h) from the nn_*.c calls: the
 * context's built kernel of a dtype, its arguments collected in order, a 1-D
 * or 2-D launch of the main or auxiliary entry. Layer 10. */
#ifndef CLRT_NN_LAUNCH_H
#define CLRT_NN_LAUNCH_H

#include "context.h"
#include "kcache.h"

enum { CLRT__NN_MAX_ARGS = 24 };

/* A kernel's arguments in order; the values live in the struct (no copies
 * outlive it), so it must stay in place until the launch. */
typedef struct clrt__nn_args {
    unsigned n;
    size_t sizes[CLRT__NN_MAX_ARGS];
    const void *values[CLRT__NN_MAX_ARGS];
    cl_ulong u[CLRT__NN_MAX_ARGS];
    cl_int i[CLRT__NN_MAX_ARGS];
    cl_float f[CLRT__NN_MAX_ARGS];
    cl_double d[CLRT__NN_MAX_ARGS];
} clrt__nn_args;

void clrt__nn_ulong(clrt__nn_args *a, size_t v);
void clrt__nn_int(clrt__nn_args *a, int v);
/* A uint argument; the caller has checked that v fits. */
void clrt__nn_uint(clrt__nn_args *a, size_t v);
/* A REAL argument: float or double as dtype says. */
void clrt__nn_real(clrt__nn_args *a, clrt_dtype dtype, double v);
/* A buffer's memory (a __global pointer; its offset and stride are separate arguments). */
void clrt__nn_mem(clrt__nn_args *a, const clrt_buffer *b);
/* A buffer's memory, its offset and its row stride: three arguments. */
void clrt__nn_matrix(clrt__nn_args *a, const clrt_buffer *b);

/* The context's kernel (k_nn.h's kernel id) of dtype, built now if needed;
 * fails as func when the context failed late. */
int clrt__nn_kernel(clrt_queue *q, int kernel, clrt_dtype dtype, const char *func, clrt__built **out);
/* Launch the main entry (aux < 0) or auxiliary entry aux over items work-items (1-D). */
int clrt__nn_launch(clrt_queue *q, clrt__built *k, int aux, const char *func, const clrt__nn_args *a, size_t items);
/* The same with groups of wg work-items instead of the parameters' wg (an entry
 * with its own group-size parameter). */
int clrt__nn_launch_wg(clrt_queue *q, clrt__built *k, int aux, const char *func, const clrt__nn_args *a, size_t items,
                       unsigned wg);
/* Launch the main entry over cols x rows work-items (2-D, groups one row high). */
int clrt__nn_launch_2d(clrt_queue *q, clrt__built *k, const char *func, const clrt__nn_args *a, size_t cols,
                       size_t rows);

/* Intermediates: each nn call that needs them holds q's nn lock from its
 * first use to its last enqueue (clrt__nn_begin / clrt__nn_end) and takes
 * them from the queue's slots, which keep their memory between calls (a fresh
 * buffer costs its first-touch page faults on every call; measured in
 * docs/nn.md) and grow to the largest size asked; the queue is in order, so a
 * later call's use comes after every earlier call's. */
enum { CLRT__NN_SLOT_COLS, CLRT__NN_SLOT_PLANES, CLRT__NN_SLOT_SMALL, CLRT__NN_SLOTS };
void clrt__nn_begin(clrt_queue *q);
void clrt__nn_end(clrt_queue *q);
/* A contiguous rows x cols matrix of dtype in slot (its contents undefined),
 * valid until clrt__nn_end; not to be destroyed. */
int clrt__nn_temp(clrt_queue *q, int slot, clrt_dtype dtype, size_t rows, size_t cols, const char *func,
                  clrt_buffer **out);
/* At the queue's destruction (its work done). */
void clrt__nn_scratch_free(clrt_queue *q);

#endif
