/* The article's network on clrt_nn.h (see train/net.h).
 *
 * Activations, one buffer each, a row per image:
 *   x (784) -conv1-> c1 (20x24x24) -pool1-> p1 (20x12x12, argmax am1) -relu (in place)->
 *   -conv2-> c2 (50x8x8) -pool2-> p2 (800, am2) -relu-> -fc1-> h (500) -relu->
 *   -fc2-> logits (10)
 * Each relu runs after its pooling, on a quarter of the values: relu is
 * monotonic, so the max of relu'd values is the relu of the max, and the
 * gradient that reaches a window's argmax is zeroed exactly where that max
 * is not positive, either way (the article's relu-then-pool, bit for bit;
 * measured with --profile, POCL on 2 cores, batch 256, the vector pooling
 * kernels: the two poolings with their relus 4.9 -> 4.0 ms of a 45 ms step).
 * The relus run in place: relu's gradient needs x > 0, and relu(x) > 0
 * exactly where x > 0, so the output serves as the input. Backward, the
 * relus' gradients in place too:
 *   dlogits -fc2-> dh -relu'-> dh -fc1-> dp2 -relu'-> dp2 -pool2'-> dc2
 *   -conv2-> dp1 -relu'-> dp1 -pool1'-> dc1 -conv1-> (weights only) */
#include "net.h"

#include <stdlib.h>
#include <string.h>

/* After a part's calls: tell the mark hook, if any (--profile). */
#define MARK(part, backward)                                                                                         \
    do {                                                                                                             \
        if (st == CLRT_OK && n->mark)                                                                                \
            st = n->mark(n->mark_arg, (part), (backward));                                                           \
    } while (0)

static const struct {
    const char *name;
    size_t rows, cols;
} tensors[TRAIN_TENSORS] = {
    {"conv1.weight", 20, 1 * 5 * 5}, {"conv1.bias", 1, 20},  {"conv2.weight", 50, 20 * 5 * 5},
    {"conv2.bias", 1, 50},           {"fc1.weight", 500, 800}, {"fc1.bias", 1, 500},
    {"fc2.weight", 10, 500},         {"fc2.bias", 1, 10},
};

/* Columns of each activation buffer, and whether it holds int32 indices. */
static const struct {
    size_t cols;
    int int32;
} acts[TA_COUNT] = {
    [TA_C1] = {20 * 24 * 24, 0}, [TA_AM1] = {20 * 12 * 12, 1}, [TA_P1] = {20 * 12 * 12, 0},
    [TA_C2] = {50 * 8 * 8, 0},   [TA_AM2] = {50 * 4 * 4, 1},   [TA_P2] = {800, 0},
    [TA_H] = {500, 0},           [TA_LOGITS] = {10, 0},        [TA_DLOGITS] = {10, 0},
    [TA_DH] = {500, 0},          [TA_DP2] = {800, 0},          [TA_DC2] = {50 * 8 * 8, 0},
    [TA_DP1] = {20 * 12 * 12, 0}, [TA_DC1] = {20 * 24 * 24, 0},
};

void train_net_tensor_shape(int i, size_t *rows, size_t *cols)
{
    *rows = tensors[i].rows;
    *cols = tensors[i].cols;
}

const char *train_net_tensor_name(int i)
{
    return tensors[i].name;
}

size_t train_net_inputs(void)
{
    return 28 * 28;
}

/* splitmix64's output function: layer seeds far apart from one --seed. */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void drop_views(train_net *n)
{
    for (int a = 0; a < TA_COUNT; a++) {
        if (n->act[a])
            clrt_buffer_destroy(n->act[a]);
        n->act[a] = NULL;
    }
    n->rows = 0;
}

/* Point the activation views at the first `rows` rows. */
static int set_rows(train_net *n, size_t rows)
{
    if (rows == n->rows)
        return CLRT_OK;
    drop_views(n);
    for (int a = 0; a < TA_COUNT; a++) {
        int st = clrt_buffer_view(&n->act[a], n->full[a], 0, 0, rows, acts[a].cols);
        if (st != CLRT_OK) {
            drop_views(n);
            return st;
        }
    }
    n->rows = rows;
    return CLRT_OK;
}

int train_net_create(train_net **out, clrt_context *ctx, clrt_queue *q, clrt_dtype dt, size_t max_batch,
                     uint64_t seed)
{
    train_net *n = calloc(1, sizeof *n);
    if (!n)
        return CLRT_ENOMEM;
    n->ctx = ctx;
    n->q = q;
    n->dt = dt;
    n->cap = max_batch;
    n->conv1 = (clrt_conv2d_shape){.channels = 1, .height = 28, .width = 28, .out_channels = 20,
                                   .kernel_h = 5, .kernel_w = 5, .stride = 1, .padding = 0};
    n->pool1 = (clrt_pool2d_shape){.channels = 20, .height = 24, .width = 24, .size = 2, .stride = 2};
    n->conv2 = (clrt_conv2d_shape){.channels = 20, .height = 12, .width = 12, .out_channels = 50,
                                   .kernel_h = 5, .kernel_w = 5, .stride = 1, .padding = 0};
    n->pool2 = (clrt_pool2d_shape){.channels = 50, .height = 8, .width = 8, .size = 2, .stride = 2};
    int st = CLRT_OK;
    for (int i = 0; st == CLRT_OK && i < TRAIN_TENSORS; i++) {
        st = clrt_buffer_create(&n->param[i], ctx, dt, tensors[i].rows, tensors[i].cols);
        if (st == CLRT_OK)
            st = clrt_buffer_create(&n->grad[i], ctx, dt, tensors[i].rows, tensors[i].cols);
        if (st == CLRT_OK)
            st = clrt_buffer_create(&n->mom[i], ctx, dt, tensors[i].rows, tensors[i].cols);
        if (st == CLRT_OK)
            st = clrt_fill(q, n->mom[i], 0.0);
    }
    for (int a = 0; st == CLRT_OK && a < TA_COUNT; a++)
        st = clrt_buffer_create(&n->full[a], ctx, acts[a].int32 ? CLRT_INT32 : dt, max_batch, acts[a].cols);
    /* Weight and bias of layer l from one seed each (the init call makes w's
     * values, then b's, from its seed). */
    for (int l = 0; st == CLRT_OK && l < TRAIN_TENSORS / 2; l++)
        st = clrt_nn_init_kaiming_uniform(q, n->param[2 * l], n->param[2 * l + 1], mix(seed + (uint64_t)l));
    if (st != CLRT_OK) {
        train_net_destroy(n);
        return st;
    }
    *out = n;
    return CLRT_OK;
}

void train_net_destroy(train_net *n)
{
    if (!n)
        return;
    drop_views(n);
    for (int a = 0; a < TA_COUNT; a++)
        if (n->full[a])
            clrt_buffer_destroy(n->full[a]);
    for (int i = 0; i < TRAIN_TENSORS; i++) {
        if (n->param[i])
            clrt_buffer_destroy(n->param[i]);
        if (n->grad[i])
            clrt_buffer_destroy(n->grad[i]);
        if (n->mom[i])
            clrt_buffer_destroy(n->mom[i]);
    }
    free(n);
}

int train_net_forward(train_net *n, const clrt_buffer *x, int train)
{
    clrt_queue *q = n->q;
    clrt_buffer **a = n->act, **p = n->param;
    int st = set_rows(n, clrt_buffer_rows(x));
    if (st == CLRT_OK)
        st = clrt_nn_conv2d_forward(q, a[TA_C1], x, p[TRAIN_CONV1_W], p[TRAIN_CONV1_B], &n->conv1);
    MARK(TRAIN_PART_CONV1, 0);
    if (st == CLRT_OK)
        st = clrt_nn_maxpool_forward(q, a[TA_P1], train ? a[TA_AM1] : NULL, a[TA_C1], &n->pool1);
    if (st == CLRT_OK)
        st = clrt_nn_relu_forward(q, a[TA_P1], a[TA_P1]);
    MARK(TRAIN_PART_POOL1, 0);
    if (st == CLRT_OK)
        st = clrt_nn_conv2d_forward(q, a[TA_C2], a[TA_P1], p[TRAIN_CONV2_W], p[TRAIN_CONV2_B], &n->conv2);
    MARK(TRAIN_PART_CONV2, 0);
    if (st == CLRT_OK)
        st = clrt_nn_maxpool_forward(q, a[TA_P2], train ? a[TA_AM2] : NULL, a[TA_C2], &n->pool2);
    if (st == CLRT_OK)
        st = clrt_nn_relu_forward(q, a[TA_P2], a[TA_P2]);
    MARK(TRAIN_PART_POOL2, 0);
    if (st == CLRT_OK)
        st = clrt_nn_linear_forward(q, a[TA_H], a[TA_P2], p[TRAIN_FC1_W], p[TRAIN_FC1_B]);
    MARK(TRAIN_PART_FC1, 0);
    if (st == CLRT_OK)
        st = clrt_nn_relu_forward(q, a[TA_H], a[TA_H]);
    MARK(TRAIN_PART_RELU, 0);
    if (st == CLRT_OK)
        st = clrt_nn_linear_forward(q, a[TA_LOGITS], a[TA_H], p[TRAIN_FC2_W], p[TRAIN_FC2_B]);
    MARK(TRAIN_PART_FC2, 0);
    return st;
}

int train_net_loss(train_net *n, clrt_buffer *loss, const clrt_buffer *labels)
{
    int st = clrt_nn_softmax_xent(n->q, loss, n->act[TA_DLOGITS], n->act[TA_LOGITS], labels);
    MARK(TRAIN_PART_LOSS, 0);
    return st;
}

int train_net_backward(train_net *n, const clrt_buffer *x)
{
    clrt_queue *q = n->q;
    clrt_buffer **a = n->act, **p = n->param, **g = n->grad;
    int st = clrt_nn_linear_backward(q, a[TA_DH], g[TRAIN_FC2_W], g[TRAIN_FC2_B], a[TA_DLOGITS], a[TA_H],
                                     p[TRAIN_FC2_W]);
    MARK(TRAIN_PART_FC2, 1);
    if (st == CLRT_OK)
        st = clrt_nn_relu_backward(q, a[TA_DH], a[TA_DH], a[TA_H]);
    MARK(TRAIN_PART_RELU, 1);
    if (st == CLRT_OK)
        st = clrt_nn_linear_backward(q, a[TA_DP2], g[TRAIN_FC1_W], g[TRAIN_FC1_B], a[TA_DH], a[TA_P2],
                                     p[TRAIN_FC1_W]);
    MARK(TRAIN_PART_FC1, 1);
    if (st == CLRT_OK)
        st = clrt_nn_relu_backward(q, a[TA_DP2], a[TA_DP2], a[TA_P2]);
    if (st == CLRT_OK)
        st = clrt_nn_maxpool_backward(q, a[TA_DC2], a[TA_DP2], a[TA_AM2], &n->pool2);
    MARK(TRAIN_PART_POOL2, 1);
    if (st == CLRT_OK)
        st = clrt_nn_conv2d_backward(q, a[TA_DP1], g[TRAIN_CONV2_W], g[TRAIN_CONV2_B], a[TA_DC2], a[TA_P1],
                                     p[TRAIN_CONV2_W], &n->conv2);
    MARK(TRAIN_PART_CONV2, 1);
    if (st == CLRT_OK)
        st = clrt_nn_relu_backward(q, a[TA_DP1], a[TA_DP1], a[TA_P1]);
    if (st == CLRT_OK)
        st = clrt_nn_maxpool_backward(q, a[TA_DC1], a[TA_DP1], a[TA_AM1], &n->pool1);
    MARK(TRAIN_PART_POOL1, 1);
    if (st == CLRT_OK)
        st = clrt_nn_conv2d_backward(q, NULL, g[TRAIN_CONV1_W], g[TRAIN_CONV1_B], a[TA_DC1], x, p[TRAIN_CONV1_W],
                                     &n->conv1);
    MARK(TRAIN_PART_CONV1, 1);
    return st;
}

int train_net_sgd(train_net *n, double lr, double mu)
{
    int st = CLRT_OK;
    for (int i = 0; st == CLRT_OK && i < TRAIN_TENSORS; i++)
        st = clrt_nn_sgd_step(n->q, n->param[i], n->grad[i], n->mom[i], lr, mu, 0.0);
    MARK(TRAIN_PART_SGD, 0);
    return st;
}

int train_net_step(train_net *n, const clrt_buffer *x, const clrt_buffer *labels, clrt_buffer *loss, double lr,
                   double mu)
{
    int st = train_net_forward(n, x, 1);
    if (st == CLRT_OK)
        st = train_net_loss(n, loss, labels);
    if (st == CLRT_OK)
        st = train_net_backward(n, x);
    if (st == CLRT_OK)
        st = train_net_sgd(n, lr, mu);
    return st;
}

int train_net_classify(train_net *n, clrt_buffer *pred, clrt_buffer *x, size_t per_pass)
{
    const size_t rows = clrt_buffer_rows(x);
    int st = CLRT_OK;
    for (size_t r = 0; st == CLRT_OK && r < rows; r += per_pass) {
        clrt_buffer *xv = NULL, *pv = NULL;
        st = clrt_buffer_view(&xv, x, r, 0, per_pass, clrt_buffer_cols(x));
        if (st == CLRT_OK)
            st = clrt_buffer_view(&pv, pred, r, 0, per_pass, 1);
        if (st == CLRT_OK)
            st = train_net_forward(n, xv, 0);
        if (st == CLRT_OK)
            st = clrt_argmax_rows(n->q, pv, n->act[TA_LOGITS]);
        if (pv)
            clrt_buffer_destroy(pv);
        if (xv)
            clrt_buffer_destroy(xv);
    }
    return st;
}
