/* Launching the neural-network kernels (kernels/nn.h) from the nn/ calls: the
 * context's built kernel of a dtype, and a 1-D or 2-D launch of its main or
 * auxiliary entry with arguments collected in a clrt__args (runtime/args.h).
 * Intermediates come from the queue's scratch (runtime/scratch.h). */
#ifndef CLRT_NN_LAUNCH_H
#define CLRT_NN_LAUNCH_H

#include "runtime/args.h"
#include "runtime/context.h"
#include "runtime/kcache.h"
#include "runtime/scratch.h"

/* The context's kernel (kernels/nn.h's kernel id) of dtype, built now if needed;
 * fails as func when the context failed late. */
int clrt__nn_kernel(clrt_queue *q, int kernel, clrt_dtype dtype, const char *func, clrt__built **out);
/* Launch the main entry (aux < 0) or auxiliary entry aux over items work-items (1-D). */
int clrt__nn_launch(clrt_queue *q, clrt__built *k, int aux, const char *func, const clrt__args *a, size_t items);
/* The same with groups of wg work-items instead of the parameters' wg (an entry
 * with its own group-size parameter). */
int clrt__nn_launch_wg(clrt_queue *q, clrt__built *k, int aux, const char *func, const clrt__args *a, size_t items,
                       unsigned wg);
/* Launch the main entry (aux < 0) or auxiliary entry aux over cols x rows
 * work-items (2-D, groups one row high). */
int clrt__nn_launch_2d(clrt_queue *q, clrt__built *k, int aux, const char *func, const clrt__args *a, size_t cols,
                       size_t rows);

#endif
