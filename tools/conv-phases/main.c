/* nn-conv-phases: where the time of clrt's 2-D convolution goes, at the
 * article's two layers (conv1 1->20 5x5 on 28x28, conv2 20->50 5x5 on
 * 12x12) and a batch size, on the default device (CLRT_DEVICE selects).
 *
 * Through the public API only, each timed with a finish, interleaved round
 * by round (the machine may be shared: the phases are compared within one
 * run), the fastest round of each printed (the least disturbed):
 *   forward, backward (dx, dw, db together and each alone: a first layer
 *   needs no dx), and the GEMMs they contain; the layout moves as the
 *   differences (forward - its GEMM = im2col + conv_rows, and so on).
 *
 *   nn-conv-phases [batch [rounds [params]]]   (defaults 64, 15, the device's)
 *
 * params ("wg=256") overrides the parameters of every nn_* kernel
 * (clrt_tune_override), to compare choices run by run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <clrt/clrt.h>
#include <clrt/clrt_tune.h>

#include "common/tool_args.h"
#include "common/output.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void die(int st, const char *what)
{
    if (st != CLRT_OK) {
        fprintf(stderr, "nn-conv-phases: %s: %s\n", what, clrt_error_message());
        exit(1);
    }
}

static clrt_buffer *mk(clrt_context *ctx, clrt_queue *q, size_t rows, size_t cols)
{
    clrt_buffer *b;
    die(clrt_buffer_create(&b, ctx, CLRT_FLOAT32, rows, cols), "buffer");
    die(clrt_fill(q, b, 0.01), "fill");
    return b;
}

enum { OPS = 8, MAX_ROUNDS = 200 };
static const char *const names[OPS] = {
    "forward",           "  its gemm W cols",  "backward dx dw db", "  gemm dW = dyc cols^T",
    "  gemm dcols = W^T dyc", "backward db alone", "backward dw alone", "backward dx alone",
};

static void layer(clrt_context *ctx, clrt_queue *q, const clrt_conv2d_shape *s, size_t n, int rounds, const char *label)
{
    size_t oh, ow;
    die(clrt_nn_conv2d_output(s, &oh, &ow), "shape");
    const size_t in = s->channels * s->height * s->width, ckk = s->channels * s->kernel_h * s->kernel_w;
    const size_t kk = s->out_channels, np = n * oh * ow;
    clrt_buffer *x = mk(ctx, q, n, in), *w = mk(ctx, q, kk, ckk), *b = mk(ctx, q, 1, kk),
                *y = mk(ctx, q, n, kk * oh * ow), *dy = mk(ctx, q, n, kk * oh * ow), *dx = mk(ctx, q, n, in),
                *dw = mk(ctx, q, kk, ckk), *db = mk(ctx, q, 1, kk), *cols = mk(ctx, q, ckk, np),
                *yc = mk(ctx, q, kk, np);
    double t[OPS][MAX_ROUNDS];
    for (int r = -2; r < rounds; r++) /* two rounds to build and warm up */
        for (int op = 0; op < OPS; op++) {
            const double t0 = now();
            int st = CLRT_OK;
            switch (op) {
            case 0: st = clrt_nn_conv2d_forward(q, y, x, w, b, s); break;
            case 1: st = clrt_gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.0, w, cols, 0.0, yc); break;
            case 2: st = clrt_nn_conv2d_backward(q, dx, dw, db, dy, x, w, s); break;
            case 3: st = clrt_gemm(q, CLRT_NO_TRANS, CLRT_TRANS, 1.0, yc, cols, 0.0, dw); break;
            case 4: st = clrt_gemm(q, CLRT_TRANS, CLRT_NO_TRANS, 1.0, w, yc, 0.0, cols); break;
            case 5: st = clrt_nn_conv2d_backward(q, NULL, NULL, db, dy, x, w, s); break;
            case 6: st = clrt_nn_conv2d_backward(q, NULL, dw, NULL, dy, x, w, s); break;
            default: st = clrt_nn_conv2d_backward(q, dx, NULL, NULL, dy, x, w, s); break;
            }
            die(st, names[op]);
            die(clrt_queue_finish(q), "finish");
            if (r >= 0)
                t[op][r] = now() - t0;
        }
    /* the fastest round of each: on a shared machine the least disturbed */
    double med[OPS];
    for (int op = 0; op < OPS; op++) {
        qsort(t[op], (size_t)rounds, sizeof **t, cmp);
        med[op] = t[op][0];
    }
    printf("%s: N=%zu %zux%zux%zu -> %zux%zux%zu, gemm %zu x %zu x %zu (fastest of %d rounds, ms)\n", label, n,
           s->channels, s->height, s->width, kk, oh, ow, kk, np, ckk, rounds);
    for (int op = 0; op < OPS; op++)
        printf("  %-32s %8.3f\n", names[op], 1e3 * med[op]);
    printf("  %-32s %8.3f  (forward - its gemm)\n", "= im2col + conv_rows", 1e3 * (med[0] - med[1]));
    printf("  %-32s %8.3f  (backward dw alone - its gemm)\n", "= conv_cols + im2col", 1e3 * (med[6] - med[3]));
    printf("  %-32s %8.3f  (backward dx alone - its gemm)\n", "= conv_cols + col2im", 1e3 * (med[7] - med[4]));
    clrt_buffer *all[] = {x, w, b, y, dy, dx, dw, db, cols, yc};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        clrt_buffer_destroy(all[i]);
}

int main(int argc, char **argv)
{
    /* the batch and the rounds, range-checked where they enter: a batch whose
     * images a size_t counts many times over, rounds the medians' array holds */
    unsigned long long n = 64, rounds = 15;
    char why[96];
    const char *bad = NULL;
    if (argc > 1 && tool_parse_count(argv[1], 1, 1u << 20, &n, why, sizeof why) != 0)
        bad = argv[1];
    else if (argc > 2 && tool_parse_count(argv[2], 1, MAX_ROUNDS, &rounds, why, sizeof why) != 0)
        bad = argv[2];
    if (bad) {
        fprintf(stderr, "nn-conv-phases: %s: %s\nusage: nn-conv-phases [batch 1..%u [rounds 1..%d [params]]]\n", bad,
                why, 1u << 20, MAX_ROUNDS);
        return 2;
    }
    clrt_context *ctx;
    clrt_queue *q;
    die(clrt_context_create(&ctx, NULL), "context");
    die(clrt_queue_create(&q, ctx), "queue");
    clrt_device_info dev;
    die(clrt_context_device(ctx, &dev), "device");
    printf("device: %s\n", dev.name);
    if (argc > 3) {
        static const char *const kernels[] = {"nn_im2col", "nn_layout", "nn_pool", "nn_act"};
        for (int i = 0; i < 4; i++)
            die(clrt_tune_override(ctx, kernels[i], CLRT_FLOAT32, argv[3]), "params");
        printf("nn kernels' parameters: %s\n", argv[3]);
    }
    const clrt_conv2d_shape conv1 = {1, 28, 28, 20, 5, 5, 1, 0}, conv2 = {20, 12, 12, 50, 5, 5, 1, 0};
    layer(ctx, q, &conv1, (size_t)n, (int)rounds, "conv1");
    layer(ctx, q, &conv2, (size_t)n, (int)rounds, "conv2");
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    return tool_stdout_close("nn-conv-phases"); /* the timings printed, checked */
}
