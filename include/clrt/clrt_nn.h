/*
 * clrt — neural-network operations built on the math family (clrt_math.h):
 * relu, linear (fully connected) layers, softmax cross-entropy, SGD with
 * momentum and weight decay, and PyTorch's default initialisation.
 *
 * Activations are matrices of N rows (the batch) x features columns; an
 * image's C x H x W values lie in one row, channel by channel (NCHW).
 *
 * Part of the clrt API; <clrt/clrt.h> includes it, so include that.
 */
#ifndef CLRT_CLRT_NN_H
#define CLRT_CLRT_NN_H

#include <stdint.h>

#include "clrt/clrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup nn Neural-network operations
 *  The math family's conventions (clrt_math.h): destination first; enqueued
 *  on q and not waited for unless a function says so; a NULL (where not
 *  allowed), foreign or destroyed handle, or operands of another context than
 *  q's, is CLRT_EINVAL; a wrong shape, or operands of different float dtypes,
 *  is CLRT_ESHAPE; float32 and float64 (int32 data: CLRT_EUNSUPPORTED).
 *  Every argument is checked before anything is enqueued, so a refused call
 *  writes nothing. Views are accepted wherever buffers are. Outputs must not
 *  share memory with inputs unless a function says so (CLRT_EINVAL).
 *  Functions that need intermediate matrices create them and destroy them
 *  before they return (OpenCL keeps their memory until the enqueued work is
 *  done).
 *  @{ */

/** y = max(x, 0) elementwise (clrt_unary with CLRT_OP_RELU); y and x of one
 *  shape; y may be x (in place). */
CLRT_API int clrt_nn_relu_forward(clrt_queue *q, clrt_buffer *y, const clrt_buffer *x);

/** The gradient of relu: dx = dy where x > 0, else 0, with x the forward
 *  pass's input; dx, dy and x of one shape. A NaN in x gives NaN there. dx
 *  must not share memory with dy or x (it holds an intermediate). Computed
 *  with the math family: step(x) = min(relu(x) * 2^a * 2^b, 1), exact for
 *  every positive x (subnormals too, unless the device flushes them to zero),
 *  then dx = dy * step(x); so an infinite dy where x <= 0 gives NaN. */
CLRT_API int clrt_nn_relu_backward(clrt_queue *q, clrt_buffer *dx, const clrt_buffer *dy, const clrt_buffer *x);

/** A fully connected layer: y (N x out) = x (N x in) W^T + b, with W out x in
 *  (PyTorch's layout) and b 1 x out, or NULL for no bias. */
CLRT_API int clrt_nn_linear_forward(clrt_queue *q, clrt_buffer *y, const clrt_buffer *x, const clrt_buffer *w,
                                    const clrt_buffer *b);

/** The gradients of clrt_nn_linear_forward() given dy (N x out), the layer's
 *  input x (N x in) and weights w (out x in): dx (N x in) = dy W,
 *  dw (out x in) = dy^T x, db (1 x out) = the sum of dy's rows. Each output
 *  is overwritten (not accumulated into); any of dx, dw, db may be NULL (not
 *  computed), not all three. */
CLRT_API int clrt_nn_linear_backward(clrt_queue *q, clrt_buffer *dx, clrt_buffer *dw, clrt_buffer *db,
                                     const clrt_buffer *dy, const clrt_buffer *x, const clrt_buffer *w);

/** Softmax cross-entropy, mean over the batch: for logits (N x C) and labels
 *  (int32, N x 1, each in 0..C-1), loss (1 x 1) = -(1/N) sum_i
 *  log softmax(logits_i)[label_i], and dlogits (N x C, or NULL for none) =
 *  (softmax(logits) - onehot(labels)) / N, its gradient. Numerically stable:
 *  each row's maximum is subtracted before exp. loss and dlogits have
 *  logits' dtype. The labels are read to the host first (this call waits for
 *  q); a label outside 0..C-1 is CLRT_EINVAL and nothing is written. A NaN or
 *  infinite logit makes its row's results NaN. */
CLRT_API int clrt_nn_softmax_xent(clrt_queue *q, clrt_buffer *loss, clrt_buffer *dlogits, const clrt_buffer *logits,
                                  const clrt_buffer *labels);

/** One step of SGD with momentum and weight decay, PyTorch's rule (no
 *  dampening, no Nesterov): g' = g + wd p; v = mu v + g'; p -= lr v. v
 *  (p's shape) must start at zero (PyTorch's first step, v = g', is then the
 *  same). With mu == 0, v may be NULL and p -= lr g'. p, g, v of one shape and
 *  dtype; p is updated in place, g is not changed. mu != 0 with a NULL v, or
 *  lr, mu or wd not finite: CLRT_EINVAL. */
CLRT_API int clrt_nn_sgd_step(clrt_queue *q, clrt_buffer *p, const clrt_buffer *g, clrt_buffer *v, double lr,
                              double mu, double wd);

/** PyTorch's default initialisation of a linear or convolution layer:
 *  w (out x fan_in; a convolution's weights are out x in*kh*kw) uniform in
 *  [-1/sqrt(fan_in), 1/sqrt(fan_in)) (kaiming-uniform with a = sqrt(5)), and
 *  b (1 x out, or NULL) uniform in the same range. The numbers are made on
 *  the host from seed, deterministically (the same seed gives the same
 *  values on every device and platform; they are not PyTorch's stream):
 *  splitmix64 from seed, each value u = (next >> 11) * 2^-53 mapped to
 *  bound * (2u - 1), w's elements row by row, then b's. Then written (this
 *  call waits for the writes). */
CLRT_API int clrt_nn_init_kaiming_uniform(clrt_queue *q, clrt_buffer *w, clrt_buffer *b, uint64_t seed);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLRT_CLRT_NN_H */
