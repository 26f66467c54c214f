/* Argument checks the neural-network calls (nn_*.c) share: each reports
 * through clrt__fail for func and names the operand. */
#ifndef CLRT_NN_CHECK_H
#define CLRT_NN_CHECK_H

#include "runtime/context.h"

/* b is a live float32/float64 buffer of q's context with ref's dtype (ref NULL: any). */
int clrt__nn_operand(const clrt_queue *q, const clrt_buffer *b, const clrt_buffer *ref, const char *func,
                     const char *what);
/* b is rows x cols (else CLRT_ESHAPE). */
int clrt__nn_shape(const clrt_buffer *b, size_t rows, size_t cols, const char *func, const char *what);
/* out (NULL: nothing to check) shares no memory with in (else CLRT_EINVAL). */
int clrt__nn_apart(const clrt_buffer *out, const clrt_buffer *in, const char *func, const char *o, const char *i);
/* The operands of a layer's backward pass (linear, conv2d): dy, x and w live
 * and of one float dtype, and dx, dw, db (each may be NULL, not all three) too. */
int clrt__nn_grad_operands(const clrt_queue *q, const clrt_buffer *dx, const clrt_buffer *dw, const clrt_buffer *db,
                           const clrt_buffer *dy, const clrt_buffer *x, const clrt_buffer *w, const char *func);
/* No gradient (dx, dw, db) shares memory with an input (dy, x, w) or with another. */
int clrt__nn_grads_apart(const clrt_buffer *dx, const clrt_buffer *dw, const clrt_buffer *db, const clrt_buffer *dy,
                         const clrt_buffer *x, const clrt_buffer *w, const char *func);

#endif
