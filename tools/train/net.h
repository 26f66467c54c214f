/* The source article's network on clrt_nn.h, on one device:
 *   conv(1->20, 5x5) relu maxpool 2 conv(20->50, 5x5) relu maxpool 2
 *   fc(800->500) relu fc(500->10), softmax cross-entropy,
 *   SGD with momentum (PyTorch's rule).
 * Weights, their gradients, the momentum buffers and every activation live
 * on the device; a step enqueues its work and waits for nothing. */
#ifndef CLRT_TOOLS_TRAIN_NET_H
#define CLRT_TOOLS_TRAIN_NET_H

#include <stddef.h>
#include <stdint.h>

#include <clrt/clrt.h>

/* The learnable tensors, in PyTorch's order (net.parameters()). */
enum {
    TRAIN_CONV1_W, TRAIN_CONV1_B, TRAIN_CONV2_W, TRAIN_CONV2_B,
    TRAIN_FC1_W, TRAIN_FC1_B, TRAIN_FC2_W, TRAIN_FC2_B,
    TRAIN_TENSORS
};

/* Activations and their gradients, one buffer each (see train/net.c). */
enum {
    TA_C1, TA_AM1, TA_P1, TA_C2, TA_AM2, TA_P2, TA_H, TA_LOGITS,
    TA_DLOGITS, TA_DH, TA_DP2, TA_DC2, TA_DP1, TA_DC1,
    TA_COUNT
};

/* The parts of a step train_net_mark names (--profile, train/profile.h):
 * a layer's forward and backward work, the loss, the optimizer. The relus
 * after the convolutions go with their pools. */
enum {
    TRAIN_PART_CONV1, TRAIN_PART_POOL1, TRAIN_PART_CONV2, TRAIN_PART_POOL2,
    TRAIN_PART_FC1, TRAIN_PART_RELU, TRAIN_PART_FC2, TRAIN_PART_LOSS, TRAIN_PART_SGD,
    TRAIN_PARTS
};

/* Called after each part's work is enqueued (part, backward: 0 forward, 1
 * backward); a clrt status, which ends the pass when not CLRT_OK. */
typedef int (*train_net_mark)(void *arg, int part, int backward);

/* Rows of every forward pass that classifies (train_net_classify): fixed,
 * so that a prediction does not depend on --batch or on the other images. */
#define TRAIN_EVAL_ROWS 256

/* What a saved file must match: the layers and the dtype. */
#define TRAIN_NET_SIGNATURE                                                                                          \
    "conv 1->20 5x5, relu, maxpool 2, conv 20->50 5x5, relu, maxpool 2, fc 800->500, relu, fc 500->10"

typedef struct train_net {
    clrt_context *ctx;
    clrt_queue *q;
    clrt_dtype dt;
    size_t cap;                           /* rows every activation buffer holds */
    clrt_buffer *param[TRAIN_TENSORS];
    clrt_buffer *grad[TRAIN_TENSORS];
    clrt_buffer *mom[TRAIN_TENSORS];
    clrt_buffer *full[TA_COUNT];          /* cap rows */
    clrt_buffer *act[TA_COUNT];           /* views of the first `rows` rows of full */
    size_t rows;                          /* the current mini-batch's size */
    clrt_conv2d_shape conv1, conv2;
    clrt_pool2d_shape pool1, pool2;
    train_net_mark mark;                  /* NULL (the default), or called after each part */
    void *mark_arg;
} train_net;

/* The shape of tensor i (rows x cols, PyTorch's layout flattened) and its name. */
void train_net_tensor_shape(int i, size_t *rows, size_t *cols);
const char *train_net_tensor_name(int i);
/* The number of input columns (1 x 28 x 28) and classes. */
size_t train_net_inputs(void);

/* A network for mini-batches of up to max_batch images on ctx/q, dtype
 * CLRT_FLOAT32 or CLRT_FLOAT64, weights from clrt_nn_init_kaiming_uniform
 * (layer l seeded from seed and l), momentum zero. A clrt status. */
int train_net_create(train_net **out, clrt_context *ctx, clrt_queue *q, clrt_dtype dt, size_t max_batch,
                     uint64_t seed);
void train_net_destroy(train_net *n);

/* Forward pass of x (rows x 784, rows <= the net's capacity) into the
 * logits; with `train` the pools keep their argmax for the backward pass. */
int train_net_forward(train_net *n, const clrt_buffer *x, int train);
/* Loss (1 x 1, the mean over the batch) and the logits' gradient, for labels
 * (int32, rows x 1), after train_net_forward. */
int train_net_loss(train_net *n, clrt_buffer *loss, const clrt_buffer *labels);
/* Every tensor's gradient, after train_net_loss; x as given to the forward pass. */
int train_net_backward(train_net *n, const clrt_buffer *x);
/* p -= lr v after v = mu v + g, for every tensor. */
int train_net_sgd(train_net *n, double lr, double mu);
/* All four: one training step. */
int train_net_step(train_net *n, const clrt_buffer *x, const clrt_buffer *labels, clrt_buffer *loss, double lr,
                   double mu);

/* pred (int32, rows x 1) = the class of each row of x: forward passes of
 * `per_pass` images each (rows a multiple of it, the net made for at least
 * that many; clrt-train always passes TRAIN_EVAL_ROWS). */
int train_net_classify(train_net *n, clrt_buffer *pred, clrt_buffer *x, size_t per_pass);

#endif
