/* Argument checks the neural-network calls (nn_*.c) share: each reports
 * through clrt__fail for func and names the operand. */
#ifndef CLRT_NN_CHECK_H
#define CLRT_NN_CHECK_H

#include "runtime/context.h"

/* b is a live float32/float64 buffer of q's context with ref's dtype (ref NULL: any). */
int clrt__nn_operand(const clrt_queue *q, const clrt_buffer *b, const clrt_buffer *ref, const char *func,
                     const char *what);
/* An operand of a call, with the name its refusals give it. */
typedef struct clrt__nn_arg {
    const clrt_buffer *b;
    const char *name;
} clrt__nn_arg;
/* q is a live queue and each of the count operands a live float buffer of
 * its context with the first one's dtype: checked in order, the first
 * refusal returned. */
int clrt__nn_operands(const clrt_queue *q, const clrt__nn_arg *ops, size_t count, const char *func);
/* b is rows x cols (else CLRT_ESHAPE). */
int clrt__nn_shape(const clrt_buffer *b, size_t rows, size_t cols, const char *func, const char *what);
/* The shape an operand must have, with the name its refusal gives it. */
typedef struct clrt__nn_want {
    const clrt_buffer *b; /* NULL: an operand the call was given without (not checked) */
    size_t rows, cols;
    const char *name;
} clrt__nn_want;
/* Each of the count operands has its shape (clrt__nn_shape), checked in order. */
int clrt__nn_shapes(const clrt__nn_want *want, size_t count, const char *func);
/* out (NULL: nothing to check) shares no memory with in (else CLRT_EINVAL). */
int clrt__nn_apart(const clrt_buffer *out, const clrt_buffer *in, const char *func, const char *o, const char *i);
/* The operands of a layer's forward pass (linear, conv2d): x, w and y live
 * and of one float dtype, and b (may be NULL) too. */
int clrt__nn_forward_operands(const clrt_queue *q, const clrt_buffer *y, const clrt_buffer *x, const clrt_buffer *w,
                              const clrt_buffer *b, const char *func);
/* y shares no memory with x, w or b (b may be NULL). */
int clrt__nn_forward_apart(const clrt_buffer *y, const clrt_buffer *x, const clrt_buffer *w, const clrt_buffer *b,
                           const char *func);
/* The operands of a layer's backward pass (linear, conv2d): dy, x and w live
 * and of one float dtype, and dx, dw, db (each may be NULL, not all three) too. */
int clrt__nn_grad_operands(const clrt_queue *q, const clrt_buffer *dx, const clrt_buffer *dw, const clrt_buffer *db,
                           const clrt_buffer *dy, const clrt_buffer *x, const clrt_buffer *w, const char *func);
/* No gradient (dx, dw, db) shares memory with an input (dy, x, w) or with another. */
int clrt__nn_grads_apart(const clrt_buffer *dx, const clrt_buffer *dw, const clrt_buffer *db, const clrt_buffer *dy,
                         const clrt_buffer *x, const clrt_buffer *w, const char *func);

#endif
