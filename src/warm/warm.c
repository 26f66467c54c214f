/* clrt_warm: every built-in kernel and launch variant the library uses,
 * built and run once at small shapes, so that later processes find them in
 * the caches. Written on the public API alone: it runs what a program runs
 * (the math family, the products' variants, the reductions, the transpose,
 * the neural-network layers at the article's CNN shapes), so the kernels and
 * work-group sizes it leaves in the caches are the ones real calls ask for;
 * on POCL, which generates code for each work-group size at a kernel's first
 * launch, a build alone would not be enough.
 *
 * Each step is counted first (a dry pass), then run, so that progress knows
 * the total. clrt_warm_share runs every shares-th step of the same plan from
 * step `share`, so that several processes fill the caches together: the
 * plan's steps are numbered the same way in each (the dry pass and the run
 * walk the same calls). Processes, not threads: POCL 3.1 can abort when
 * launches of one kernel from several queues of a process overlap
 * (docs/drivers.md). */
#include <stdio.h>
#include <stdlib.h>

#include "base/error.h"
#include "clrt/clrt.h"
#include "kernels/matmul.h"
#include "kernels/matmul_plan.h"
#include "kernels/table.h"
#include "runtime/handles.h"
#include "runtime/kcache.h"

typedef struct warm {
    clrt_context *ctx;
    clrt_queue *q;
    clrt_progress_fn progress;
    void *user;
    int counting; /* the dry pass: count, run nothing */
    size_t share, shares; /* this run's steps: those whose index % shares == share */
    size_t index;         /* the next step's index in the whole plan */
    size_t done, total;
    int status; /* the first failure */
    char what[96];
} warm;

/* Whether the plan's next step is this run's (its share), counting it. */
static int mine(warm *w) { return w->index++ % w->shares == w->share; }

/* One step of this run's share: counted in the dry pass, else run (the call
 * is only evaluated then) and reported. */
#define STEP(w, call, ...)                                                                                         \
    do {                                                                                                           \
        if (!mine(w)) {                                                                                            \
        } else if ((w)->counting) {                                                                                \
            (w)->total++;                                                                                          \
        } else {                                                                                                   \
            snprintf((w)->what, sizeof (w)->what, __VA_ARGS__);                                                    \
            report((w), (call));                                                                                   \
        }                                                                                                          \
    } while (0)

static void report(warm *w, int status)
{
    if (status != CLRT_OK && w->status == CLRT_OK) {
        w->status = status;
        fprintf(stderr, "clrt_warm: %s: %s\n", w->what, clrt_error_message());
    }
    w->done++;
    if (w->progress)
        w->progress(w->done, w->total, w->what, w->user);
}

static const char *dtype_word(clrt_dtype t) { return t == CLRT_FLOAT64 ? "float64" : "float32"; }

/* A buffer of rows x cols filled with small values (NULL in the dry pass,
 * or when it cannot be made: the steps using it then fail and say so). */
static clrt_buffer *matrix(warm *w, clrt_dtype t, size_t rows, size_t cols, double value)
{
    clrt_buffer *b = NULL;
    if (w->counting)
        return NULL;
    int st = clrt_buffer_create(&b, w->ctx, t, rows, cols);
    if (st == CLRT_OK)
        st = clrt_fill(w->q, b, value);
    if (st != CLRT_OK && w->status == CLRT_OK) {
        w->status = st;
        fprintf(stderr, "clrt_warm: a %zu x %zu buffer: %s\n", rows, cols, clrt_error_message());
    }
    return st == CLRT_OK ? b : NULL;
}

static void release(clrt_buffer **b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (b[i])
            clrt_buffer_destroy(b[i]);
}

/* Every binary op with every form of b, every unary op, axpby, scale, fill and copy. */
static void elementwise(warm *w, clrt_dtype t)
{
    enum { R = 33, C = 65 };
    clrt_buffer *b[6] = {matrix(w, t, R, C, 0.5), matrix(w, t, R, C, 0.25), matrix(w, t, 1, C, 0.5),
                         matrix(w, t, R, 1, 0.5), matrix(w, t, 1, 1, 0.5), matrix(w, t, R, C, 0)};
    static const char *const forms[] = {"same", "row", "column", "scalar"};
    for (int op = CLRT_OP_ADD; op <= CLRT_OP_MAX; op++)
        for (int f = 0; f < 4; f++)
            STEP(w, clrt_binary(w->q, (clrt_binary_op)op, b[5], b[0], b[1 + f]), "binary %d (%s) %s", op,
                 forms[f], dtype_word(t));
    for (int op = CLRT_OP_NEG; op <= CLRT_OP_SIGMOID; op++)
        STEP(w, clrt_unary(w->q, (clrt_unary_op)op, b[5], b[0]), "unary %d %s", op, dtype_word(t));
    STEP(w, clrt_axpby(w->q, 2.0, b[0], 0.5, b[5]), "axpby %s", dtype_word(t));
    STEP(w, clrt_scale(w->q, b[5], 2.0, b[0]), "scale %s", dtype_word(t));
    STEP(w, clrt_copy(w->q, b[5], b[0]), "copy %s", dtype_word(t));
    release(b, 6);
}

/* Plain int32 buffers: fill and copy, and their transpose. */
static void int32_ops(warm *w)
{
    clrt_buffer *b[3] = {matrix(w, CLRT_INT32, 33, 65, 3), matrix(w, CLRT_INT32, 33, 65, 0),
                         matrix(w, CLRT_INT32, 65, 33, 0)};
    STEP(w, clrt_copy(w->q, b[1], b[0]), "copy int32");
    STEP(w, clrt_transpose(w->q, b[2], b[0]), "transpose int32");
    release(b, 3);
}

/* c (m x n) = op(a) op(b) with k, every transpose pair. */
static void products(warm *w, clrt_dtype t, size_t m, size_t n, size_t k)
{
    static const char *const tr[] = {"NN", "NT", "TN", "TT"};
    for (int p = 0; p < 4; p++) {
        const int ta = p & 2, tb = p & 1;
        clrt_buffer *b[3] = {matrix(w, t, ta ? k : m, ta ? m : k, 0.5), matrix(w, t, tb ? n : k, tb ? k : n, 0.5),
                             matrix(w, t, m, n, 0)};
        STEP(w, clrt_gemm(w->q, ta ? CLRT_TRANS : CLRT_NO_TRANS, tb ? CLRT_TRANS : CLRT_NO_TRANS, 1.0, b[0], b[1], 0.0, b[2]),
             "gemm %s %s %zux%zux%zu", dtype_word(t), tr[p], m, n, k);
        release(b, 3);
    }
}

/* The product's variants: packed panels (square), plain tiles, C thinner
 * than a tile, C with few rows (each count of rows a tile can be fitted to,
 * each with k just long enough for the multiply-adds from which a CPU fits a
 * tile to them, kernels/matmul_plan.h), one k. */
static void gemm(warm *w, clrt_dtype t)
{
    products(w, t, 256, 256, 256);
    products(w, t, 67, 67, 67);
    products(w, t, 64, 10, 500);
    /* no fitted tiles (GPUs, emulators: fit_rows 0 or local tiles): no products
     * of that size, minutes on an emulator for nothing */
    clrt__pvals pv;
    clrt__kcache_params(w->ctx, CLRT__K_MATMUL, t, &pv);
    const clrt__matmul_params mp = clrt__mm(&pv);
    unsigned long seen = 0; /* the fitted row counts built: one product (each transpose) for each */
    for (size_t m = 1; m <= 16 && !mp.use_local && mp.fit_rows; m++) {
        const size_t k = mp.fit_rows == 1 ? CLRT__MATMUL_FIT_MIN_MACS / (m * 300) + 1 : 16;
        const unsigned rows = clrt__matmul_fit_rows(&mp, m, 300, k);
        if (rows == 0 || rows >= 8 * sizeof seen || (seen >> rows & 1))
            continue;
        seen |= 1ul << rows;
        products(w, t, m, 300, k);
    }
    products(w, t, 1000, 1000, 1);
}

/* clrt_gemm_ex with an activation (a program of its own: the activations compiled
 * in) for a layer's forward product, x w^T + b, at the two sizes whose variants
 * differ (packed panels; C thinner than a tile); and clrt_convert between float32
 * and the 16-bit dtypes, each way (a program per pair). */
static void epilogues_and_conversions(warm *w, clrt_dtype t)
{
    static const size_t shapes[2][3] = {{256, 256, 256}, {64, 10, 500}};
    for (int i = 0; i < 2; i++) {
        const size_t m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];
        clrt_buffer *b[4] = {matrix(w, t, m, k, 0.5), matrix(w, t, n, k, 0.5), matrix(w, t, m, n, 0),
                             matrix(w, t, 1, n, 0.5)};
        const clrt_epilogue ep = {b[3], CLRT_ACT_RELU};
        STEP(w, clrt_gemm_ex(w->q, CLRT_NO_TRANS, CLRT_TRANS, 1.0, b[0], b[1], 0.0, b[2], &ep),
             "gemm_ex relu %s NT %zux%zux%zu", dtype_word(t), m, n, k);
        release(b, 4);
    }
    if (t != CLRT_FLOAT32)
        return;
    static const clrt_dtype halves[2] = {CLRT_FLOAT16, CLRT_BFLOAT16};
    static const char *const names[2] = {"float16", "bfloat16"};
    for (int i = 0; i < 2; i++) {
        /* the 16-bit buffer filled by the first conversion (clrt_fill does not take it) */
        clrt_buffer *b[2] = {matrix(w, t, 8, 8, 0.5), NULL};
        const int st = w->counting ? CLRT_OK : clrt_buffer_create(&b[1], w->ctx, halves[i], 8, 8);
        if (st != CLRT_OK && w->status == CLRT_OK)
            w->status = st;
        STEP(w, clrt_convert(w->q, b[1], b[0]), "convert float32 to %s", names[i]);
        STEP(w, clrt_convert(w->q, b[0], b[1]), "convert %s to float32", names[i]);
        release(b, 2);
    }
}

/* Every reduction over every axis, the argmax of rows, and the transpose. */
static void reductions(warm *w, clrt_dtype t)
{
    enum { R = 65, C = 1031 };
    clrt_buffer *b[6] = {matrix(w, t, R, C, 0.5), matrix(w, t, 1, 1, 0), matrix(w, t, R, 1, 0),
                         matrix(w, t, 1, C, 0), matrix(w, CLRT_INT32, R, 1, 0), matrix(w, t, C, R, 0)};
    static const char *const axes[] = {"all", "rows", "columns"};
    for (int op = CLRT_REDUCE_SUM; op <= CLRT_REDUCE_MIN; op++)
        for (int ax = 0; ax < 3; ax++)
            STEP(w, clrt_reduce(w->q, (clrt_reduce_op)op, (clrt_axis)ax, b[1 + ax], b[0]), "reduce %d over %s %s",
                 op, axes[ax], dtype_word(t));
    STEP(w, clrt_argmax_rows(w->q, b[4], b[0]), "argmax %s", dtype_word(t));
    STEP(w, clrt_transpose(w->q, b[5], b[0]), "transpose %s", dtype_word(t));
    release(b, 6);
}

/* One convolution layer forward and backward, then its 2 x 2 max-pooling. */
static void conv_layer(warm *w, clrt_dtype t, size_t batch, const clrt_conv2d_shape *s)
{
    size_t oh = 0, ow = 0, ph = 0, pw = 0;
    clrt_nn_conv2d_output(s, &oh, &ow);
    const clrt_pool2d_shape ps = {s->out_channels, oh, ow, 2, 2};
    clrt_nn_pool2d_output(&ps, &ph, &pw);
    const size_t in = s->channels * s->height * s->width, out = s->out_channels * oh * ow;
    const size_t taps = s->channels * s->kernel_h * s->kernel_w, pooled = s->out_channels * ph * pw;
    clrt_buffer *b[10] = {matrix(w, t, batch, in, 0.5), matrix(w, t, s->out_channels, taps, 0.1),
                          matrix(w, t, 1, s->out_channels, 0.1), matrix(w, t, batch, out, 0),
                          matrix(w, t, batch, in, 0), matrix(w, t, s->out_channels, taps, 0),
                          matrix(w, t, 1, s->out_channels, 0), matrix(w, t, batch, pooled, 0),
                          matrix(w, CLRT_INT32, batch, pooled, 0), matrix(w, t, batch, out, 0)};
    STEP(w, clrt_nn_conv2d_forward(w->q, b[3], b[0], b[1], b[2], s), "conv2d forward %s batch %zu %zu->%zu",
         dtype_word(t), batch, s->channels, s->out_channels);
    STEP(w, clrt_nn_relu_forward(w->q, b[3], b[3]), "relu %s", dtype_word(t));
    STEP(w, clrt_nn_maxpool_forward(w->q, b[7], b[8], b[3], &ps), "maxpool forward %s", dtype_word(t));
    STEP(w, clrt_nn_maxpool_backward(w->q, b[9], b[7], b[8], &ps), "maxpool backward %s", dtype_word(t));
    STEP(w, clrt_nn_relu_backward(w->q, b[9], b[9], b[3]), "relu backward %s", dtype_word(t));
    STEP(w, clrt_nn_conv2d_backward(w->q, b[4], b[5], b[6], b[9], b[0], b[1], s),
         "conv2d backward %s batch %zu %zu->%zu", dtype_word(t), batch, s->channels, s->out_channels);
    STEP(w, clrt_nn_sgd_step(w->q, b[1], b[5], NULL, 0.001, 0.0, 0.0), "sgd %s", dtype_word(t));
    release(b, 10);
}

/* The fully connected end of the network, the loss, and the optimizer. */
static void dense_layers(warm *w, clrt_dtype t, size_t batch)
{
    clrt_buffer *b[14] = {matrix(w, t, batch, 800, 0.5), matrix(w, t, 500, 800, 0.01), matrix(w, t, 1, 500, 0),
                          matrix(w, t, batch, 500, 0), matrix(w, t, 10, 500, 0.01), matrix(w, t, 1, 10, 0),
                          matrix(w, t, batch, 10, 0), matrix(w, t, 1, 1, 0), matrix(w, CLRT_INT32, batch, 1, 3),
                          matrix(w, t, batch, 500, 0), matrix(w, t, 10, 500, 0), matrix(w, t, 500, 800, 0),
                          matrix(w, t, batch, 10, 0), matrix(w, t, 500, 800, 0)};
    /* b: x, w1, b1, h, w2, b2, logits, loss, labels, dh, dw2, dw1, dlogits, velocity */
    STEP(w, clrt_nn_init_kaiming_uniform(w->q, b[4], b[5], 1), "init %s", dtype_word(t));
    STEP(w, clrt_nn_linear_forward(w->q, b[3], b[0], b[1], b[2]), "linear forward %s batch %zu", dtype_word(t), batch);
    STEP(w, clrt_nn_linear_forward(w->q, b[6], b[3], b[4], b[5]), "linear forward %s batch %zu", dtype_word(t), batch);
    STEP(w, clrt_nn_softmax_xent(w->q, b[7], b[12], b[6], b[8]), "softmax cross-entropy %s", dtype_word(t));
    STEP(w, clrt_nn_linear_backward(w->q, b[9], b[10], b[5], b[12], b[3], b[4]), "linear backward %s batch %zu",
         dtype_word(t), batch);
    STEP(w, clrt_nn_linear_backward(w->q, NULL, b[11], b[2], b[9], b[0], b[1]), "linear backward %s batch %zu",
         dtype_word(t), batch);
    STEP(w, clrt_nn_sgd_step(w->q, b[1], b[11], b[13], 0.001, 0.9, 0.0), "sgd with momentum %s", dtype_word(t));
    release(b, 14);
}

/* The article's CNN (conv 1->20 5x5, pool, conv 20->50 5x5, pool, 800 -> 500
 * -> 10) at its batch 4 and at 64, whose products take other variants. */
static void network(warm *w, clrt_dtype t)
{
    static const clrt_conv2d_shape conv1 = {1, 28, 28, 20, 5, 5, 1, 0}, conv2 = {20, 12, 12, 50, 5, 5, 1, 0};
    static const size_t batches[] = {4, 64};
    for (size_t i = 0; i < 2; i++) {
        conv_layer(w, t, batches[i], &conv1);
        conv_layer(w, t, batches[i], &conv2);
        dense_layers(w, t, batches[i]);
    }
}

static void plan(warm *w, int fp64)
{
    const clrt_dtype types[2] = {CLRT_FLOAT32, CLRT_FLOAT64};
    for (int i = 0; i < (fp64 ? 2 : 1); i++) {
        elementwise(w, types[i]);
        gemm(w, types[i]);
        epilogues_and_conversions(w, types[i]);
        reductions(w, types[i]);
        network(w, types[i]);
    }
    int32_ops(w);
    if (!w->counting && w->status == CLRT_OK) {
        int st = clrt_queue_finish(w->q);
        w->status = st;
    }
}

/* The plan's steps of one share, named func in errors. */
static int warm_run(clrt_context *ctx, size_t share, size_t shares, clrt_progress_fn progress, void *user,
                    const char *func)
{
    int st = clrt__check_context(ctx, func);
    if (st == CLRT_OK)
        st = clrt__check_usable(ctx, func);
    if (st != CLRT_OK)
        return st;
    if (shares == 0 || share >= shares)
        return clrt__fail(CLRT_EINVAL, func, "share %zu of %zu: shares must be at least 1 and share below it", share,
                          shares);
    clrt_device_info dev;
    warm w = {.ctx = ctx, .progress = progress, .user = user, .counting = 1, .share = share, .shares = shares};
    if ((st = clrt_context_device(ctx, &dev)) != CLRT_OK)
        return st;
    if ((st = clrt_queue_create(&w.q, ctx)) != CLRT_OK)
        return st;
    plan(&w, dev.has_fp64);
    w.counting = 0;
    w.index = 0;
    /* store programs even where that costs a build; a count, as warms may overlap */
    atomic_fetch_add(&ctx->warming, 1);
    plan(&w, dev.has_fp64);
    atomic_fetch_sub(&ctx->warming, 1);
    clrt_queue_destroy(w.q);
    return w.status;
}

int clrt_warm(clrt_context *ctx, clrt_progress_fn progress, void *user)
{
    return warm_run(ctx, 0, 1, progress, user, "clrt_warm");
}

int clrt_warm_share(clrt_context *ctx, size_t share, size_t shares, clrt_progress_fn progress, void *user)
{
    return warm_run(ctx, share, shares, progress, user, "clrt_warm_share");
}
