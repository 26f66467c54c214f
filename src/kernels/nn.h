/* The neural-network layers' kernels and their launch rules. Four built-in
 * kernels, one cl/ file each, embedded together as one text (so that, with the
 * same parameters, the four are one program and one build), a main entry and
 * auxiliary entries (its other direction):
 *   nn_im2col  cl/nn_im2col.cl  im2col        col2im, conv_direct, conv_wt (convolution)
 *   nn_layout  cl/nn_layout.cl  conv_rows     conv_cols         (convolution)
 *   nn_pool    cl/nn_pool.cl    maxpool_forward maxpool_backward, maxpool_backward_tiled
 *   nn_act     cl/nn_act.cl     relu_backward xent_rows, xent_stats, xent_grad (relu, loss),
 *                                              sgd_momentum (the optimizer)
 * Each work-item moves or sums one run of a row (the kernels' comments say
 * which), so the parameters are the work-group size, (im2col, col2im,
 * pooling) the index width and how long a work-item may loop (loops); one
 * list serves all four. */
#ifndef CLRT_KERNELS_NN_H
#define CLRT_KERNELS_NN_H

#include <string.h>

#include "kernels/params.h"

/* X(name, -D define, min, max, tuner values for variant 0 | variant 1, meaning). */
#define CLRT__NN_PARAMS(X)                                                                                  \
    X(wg, NULL, 1, 1024, "16 32 64 128 256", "",                                                          \
      "work-items per group, a power of two (relu_backward: the group's width along a row)")             \
    X(idx64, NULL, 0, 1, "", "",                                                                          \
      "nn_im2col, nn_pool: 1 index arithmetic in 64 bits always, 0 in 32 bits when every index fits (faster)") \
    X(conv, NULL, 0, 3, "0 1 2", "",                                                                      \
      "nn_im2col: the convolution's algorithm, 0 im2col + GEMM; the forward pass direct (conv_direct) "     \
      "1 where it pays (channels over half of its block, 1024 output positions or more), 2 always, "       \
      "3 always and the data gradient too (stride 1)")                                                    \
    X(vw, "VW", 1, 16, "", "", "nn_im2col conv_direct: vector width (1, 2, 4, 8 or 16)")                  \
    X(ctm, "CTM", 1, 32, "4 6 8 12", "", "nn_im2col conv_direct: output positions per work-item")         \
    X(cnv, "CNV", 1, 8, "1 2 4", "", "nn_im2col conv_direct: vectors of output channels per work-item")     \
    X(cwg, NULL, 1, 1024, "1 4 16 64 256", "", "nn_im2col conv_direct: work-items per group, a power of two")   \
    X(slice, NULL, 0, 1u << 22, "", "",                                                                   \
      "nn_im2col im2col + GEMM: KiB of cols per pass, a pass per slice of the batch's images that "          \
      "fits (at least one image); 0 the whole batch in one")                                               \
    X(loops, NULL, 0, 1u << 30, "", "",                                                                   \
      "loop passes a work-item of im2col, col2im, conv_rows, conv_cols and the softmax cross-entropy "     \
      "may make, 0 no limit; longer work runs in slices, a launch each (llvmpipe: half its budget)")     \
    X(sg, "SG", 0, 32, "", "",                                                                            \
      "Intel: the SIMD width (sub-group size) its compiler must build every kernel at (8, 16 or 32), "       \
      "0 its own choice")

typedef struct clrt__nn_params {
    CLRT__NN_PARAMS(CLRT__PARAM_FIELD)
} clrt__nn_params;

extern const clrt__kernel_def clrt__k_nn_im2col;
extern const clrt__kernel_def clrt__k_nn_layout;
extern const clrt__kernel_def clrt__k_nn_pool;
extern const clrt__kernel_def clrt__k_nn_act;

/* The auxiliary entries (clrt__built's aux[]): each kernel's other direction;
 * nn_pool's backward pass for windows that tile the image (stride == size). */
enum { CLRT__NN_AUX = 0, CLRT__NN_AUX_TILED = 1 };
/* nn_im2col's further entries: the direct convolution and its filter matrix. */
enum { CLRT__NN_AUX_DIRECT = 1, CLRT__NN_AUX_WT = 2 };
/* nn_act's further entries: the softmax cross-entropy in slices of columns,
 * and SGD's momentum step. */
enum { CLRT__NN_AUX_XSTATS = 1, CLRT__NN_AUX_XGRAD = 2, CLRT__NN_AUX_SGD = 3 };

static inline clrt__nn_params clrt__nnp(const clrt__pvals *p)
{
    clrt__nn_params t;
    memcpy(&t, p->v, sizeof t);
    return t;
}

/* How many of a work-item's units of work (rows, columns, positions) one
 * launch may give it when each costs `per` loop passes and the launch `fixed`
 * more, under the parameter loops (0: no limit): all `total` of them, or as
 * many as fit, at least one. */
size_t clrt__nn_slice(const clrt__nn_params *p, size_t per, size_t fixed, size_t total);

/* A 1-D launch of items work-items (items >= 1) with p's group, made no
 * larger than kernel_wg (the entry's CL_KERNEL_WORK_GROUP_SIZE; 0: unknown):
 * *global a multiple of *local, at least items. */
void clrt__nn_geometry(const clrt__nn_params *p, size_t kernel_wg, size_t items, size_t *global, size_t *local);

#endif
