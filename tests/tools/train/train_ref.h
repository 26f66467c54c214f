/* A plain host reference of clrt-train's whole network in double precision
 * (tests/tools/train/device_train.c): every layer's forward and backward pass written
 * the obvious way, loops over every index, nothing shared with the library. */
#ifndef CLRT_TOOLS___TRAIN_REF_H
#define CLRT_TOOLS___TRAIN_REF_H

#include <stddef.h>
#include <stdint.h>

/* y (n x k*oh*ow) = conv(x (n x c*h*w), w (k x c*kh*kw)) + b (k). */
void ref_conv_forward(double *y, const double *x, const double *w, const double *b, size_t n, size_t c, size_t h,
                      size_t wd, size_t k, size_t kh, size_t kw, size_t stride, size_t pad);
/* dx (or NULL), dw, db from dy, x, w; overwritten. */
void ref_conv_backward(double *dx, double *dw, double *db, const double *dy, const double *x, const double *w,
                       size_t n, size_t c, size_t h, size_t wd, size_t k, size_t kh, size_t kw, size_t stride,
                       size_t pad);
/* y and am (position row * wd + col within the plane, first on ties). */
void ref_pool_forward(double *y, int32_t *am, const double *x, size_t n, size_t c, size_t h, size_t wd, size_t size,
                      size_t stride);
void ref_pool_backward(double *dx, const double *dy, const int32_t *am, size_t n, size_t c, size_t h, size_t wd,
                       size_t size, size_t stride);

/* The network's tensors (clrt-train's order and shapes, tools/train/net.h). */
enum { REF_TENSORS = 8 };
extern const size_t ref_tensor_size[REF_TENSORS];

/* logits (n x 10) of n images x (n x 784) with the tensors p. */
void ref_net_logits(double *logits, const double *const p[REF_TENSORS], const double *x, size_t n);

/* One training step's loss and gradients for n images x (n x 784) with
 * labels; p[i] the 8 tensors, g[i] receives their gradients. */
double ref_net_grads(double *const g[REF_TENSORS], const double *const p[REF_TENSORS], const double *x,
                     const int32_t *labels, size_t n);

#endif
