/*
 * clrt — neural-network operations built on the math family (clrt_math.h):
 * relu, linear (fully connected) layers, 2-D convolution and max-pooling,
 * softmax cross-entropy, SGD with momentum and weight decay, and PyTorch's
 * default initialisation.
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
 *  done), except the convolution and the loss: they keep theirs with the
 *  queue, reused by later calls and grown to the largest asked (the
 *  convolution's: (channels*kernel_h*kernel_w + out_channels) x
 *  N*out_h*out_w elements), freed by clrt_queue_destroy().
 *  @{ */

/** y = max(x, 0) elementwise (clrt_unary with CLRT_OP_RELU); y and x of one
 *  shape; y may be x (in place). */
CLRT_API int clrt_nn_relu_forward(clrt_queue *q, clrt_buffer *y, const clrt_buffer *x);

/** The gradient of relu: dx = dy where x > 0, else 0 (whatever dy holds
 *  there, infinite or NaN, as PyTorch), with x the forward pass's input; a
 *  NaN in x gives NaN there. dx, dy and x of one shape; dx may be dy or x
 *  (in place), not a part of either. One kernel launch. */
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

/** The geometry of a 2-D convolution (PyTorch's Conv2d, a cross-correlation,
 *  groups = 1, dilation = 1). An image of channels x height x width is one
 *  row of x, channel by channel (NCHW); the output image of out_channels x
 *  out_h x out_w is one row of y, with out_h = (height + 2 padding - kernel_h)
 *  / stride + 1 (rounded down), out_w likewise. */
typedef struct clrt_conv2d_shape {
    size_t channels;       /**< input channels C */
    size_t height;         /**< input height H */
    size_t width;          /**< input width W */
    size_t out_channels;   /**< output channels K (filters) */
    size_t kernel_h;       /**< filter height */
    size_t kernel_w;       /**< filter width */
    size_t stride;         /**< step between windows, both directions, >= 1 */
    size_t padding;        /**< zeros added on every side, both directions */
} clrt_conv2d_shape;

/** The output size of a convolution: *out_h and *out_w as clrt_conv2d_shape
 *  says. A zero channels, height, width, out_channels, kernel or stride, or
 *  NULL argument: CLRT_EINVAL; a filter larger than the padded image:
 *  CLRT_ESHAPE. Needs no device. */
CLRT_API int clrt_nn_conv2d_output(const clrt_conv2d_shape *s, size_t *out_h, size_t *out_w);

/** y (N x out_channels*out_h*out_w) = conv(x (N x channels*height*width),
 *  w (out_channels x channels*kernel_h*kernel_w: PyTorch's weight tensor,
 *  flattened)) + b (1 x out_channels, or NULL for no bias). Computed as
 *  im2col + one GEMM for the whole batch (docs/nn.md). */
CLRT_API int clrt_nn_conv2d_forward(clrt_queue *q, clrt_buffer *y, const clrt_buffer *x, const clrt_buffer *w,
                                    const clrt_buffer *b, const clrt_conv2d_shape *s);

/** The gradients of clrt_nn_conv2d_forward() given dy (its y's shape), the
 *  layer's input x and weights w: dx (x's shape), dw (w's shape), db (1 x
 *  out_channels). Each output is overwritten (not accumulated into); any of
 *  dx, dw, db may be NULL (not computed), not all three. x is read only for
 *  dw, w only for dx (both are checked either way). */
CLRT_API int clrt_nn_conv2d_backward(clrt_queue *q, clrt_buffer *dx, clrt_buffer *dw, clrt_buffer *db,
                                     const clrt_buffer *dy, const clrt_buffer *x, const clrt_buffer *w,
                                     const clrt_conv2d_shape *s);

/** The geometry of a 2-D max-pooling (PyTorch's MaxPool2d, no padding, no
 *  dilation, floor mode): windows of size x size, stride apart; out_h =
 *  (height - size) / stride + 1, out_w likewise. Images as in
 *  clrt_conv2d_shape. */
typedef struct clrt_pool2d_shape {
    size_t channels;   /**< channels C */
    size_t height;     /**< input height H */
    size_t width;      /**< input width W */
    size_t size;       /**< window height and width, >= 1 */
    size_t stride;     /**< step between windows, >= 1 (PyTorch's default is size) */
} clrt_pool2d_shape;

/** The output size of a max-pooling: a zero field or NULL argument:
 *  CLRT_EINVAL; a window larger than the image: CLRT_ESHAPE. Needs no device. */
CLRT_API int clrt_nn_pool2d_output(const clrt_pool2d_shape *s, size_t *out_h, size_t *out_w);

/** y (N x channels*out_h*out_w) = the largest value of each window of x (N x
 *  channels*height*width); a window holding NaN gives NaN. argmax (int32, y's
 *  shape, or NULL when no backward pass follows) receives, for each output,
 *  the position within its channel's height x width plane (row * width +
 *  column) of the value chosen, the first in row-major order on ties. */
CLRT_API int clrt_nn_maxpool_forward(clrt_queue *q, clrt_buffer *y, clrt_buffer *argmax, const clrt_buffer *x,
                                     const clrt_pool2d_shape *s);

/** The gradient of clrt_nn_maxpool_forward(): dx (N x channels*height*width)
 *  = each dy value added at the position argmax names, zero elsewhere
 *  (overlapping windows add up). dx is overwritten. */
CLRT_API int clrt_nn_maxpool_backward(clrt_queue *q, clrt_buffer *dx, const clrt_buffer *dy,
                                      const clrt_buffer *argmax, const clrt_pool2d_shape *s);

/** Softmax cross-entropy, mean over the batch: for logits (N x C) and labels
 *  (int32, N x 1, each in 0..C-1), loss (1 x 1) = -(1/N) sum_i
 *  log softmax(logits_i)[label_i], and dlogits (N x C, or NULL for none) =
 *  (softmax(logits) - onehot(labels)) / N, its gradient. Numerically stable:
 *  each row's maximum is subtracted before exp. loss and dlogits have
 *  logits' dtype. Nothing waits for the device: the labels are checked
 *  there, and a label outside 0..C-1, or a NaN or infinite logit, makes its
 *  row's gradient NaN and the loss NaN (the other rows' gradients are
 *  right); a caller that wants an error checks the loss with isnan. */
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
