/* clrt_nn_conv2d_output, _forward and _backward: 2-D convolution as im2col +
 * GEMM (docs/nn.md says why). For N images, K filters of C x KH x KW and
 * output planes of OH x OW, NP = N * OH * OW:
 *   forward   cols (C*KH*KW x NP) = im2col(x)           nn_im2col: im2col
 *             yc (K x NP) = W cols + b                  clrt_gemm_ex (b in its epilogue)
 *             y = yc's planes in NCHW rows              nn_layout: conv_rows
 *   backward  dyc (K x NP) = dy's planes as yc's        nn_layout: conv_cols
 *             db = row sums of dyc (into db's K values)  clrt_reduce
 *             dW = dyc cols^T (cols made again)         im2col, clrt_gemm
 *             dcols = W^T dyc; dx = col2im(dcols)       clrt_gemm, nn_im2col: col2im
 * The whole batch is one GEMM, K x NP x C*KH*KW: long and thin, the shapes
 * the matmul kernel handles well. The other algorithm: nn_im2col's
 * conv_direct, the same product without cols, for the forward pass (parameter
 * conv=1, the CPU default: where it pays; 2 always) and also, at stride 1, the
 * data gradient (conv=3); docs/nn.md has them measured. im2col + GEMM runs over
 * the batch's images in slices whose cols fit the parameter slice (KiB; on CPUs
 * a slice stays in cache from the kernel that writes it to the one that reads
 * it), the weight gradient summed over the slices. The intermediates live
 * in the queue's nn slots (nn/launch.h: kept between calls); the queue is in
 * order, so dcols reuses cols' memory. Where the parameter loops limits a
 * work-item's loop passes (llvmpipe), im2col, col2im and the layout kernels
 * run in slices of rows, columns or positions, a launch each. */
#include <stdint.h>

#include "base/error.h"
#include "kernels/nn.h"
#include "kernels/table.h"
#include "nn/check.h"
#include "nn/launch.h"

/* *out = a * b, 0 on overflow. */
static int mul(size_t a, size_t b, size_t *out)
{
    if (a && b > SIZE_MAX / a)
        return 0;
    *out = a * b;
    return 1;
}

/* How the refusals of both passes name the images and the filters. */
#define X_SHAPE "x (N x channels*height*width)"
#define W_SHAPE "w (out_channels x channels*kernel_h*kernel_w)"

/* The sizes a convolution works with. */
typedef struct dims {
    size_t oh, ow;
    size_t in;   /* C*H*W: a row of x */
    size_t ckk;  /* C*KH*KW: a row of w, a column of cols */
    size_t out;  /* K*OH*OW: a row of y */
    size_t plane; /* OH*OW */
} dims;

static int geometry(const clrt_conv2d_shape *s, size_t *out_h, size_t *out_w, const char *func)
{
    if (!s)
        return clrt__fail(CLRT_EINVAL, func, "the shape s is NULL");
    const struct {
        size_t v;
        const char *name;
    } fields[] = {{s->channels, "channels"}, {s->height, "height"},     {s->width, "width"},
                  {s->out_channels, "out_channels"}, {s->kernel_h, "kernel_h"}, {s->kernel_w, "kernel_w"},
                  {s->stride, "stride"}};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        if (fields[i].v == 0)
            return clrt__fail(CLRT_EINVAL, func, "s->%s is 0", fields[i].name);
    /* an image side over SIZE_MAX / 4 would underflow the padding bound below */
    if (s->height > SIZE_MAX / 4 || s->width > SIZE_MAX / 4)
        return clrt__fail(CLRT_ESHAPE, func, "a %zu x %zu image is too large", s->height, s->width);
    if (s->padding > (SIZE_MAX / 4 - s->height) / 2 || s->padding > (SIZE_MAX / 4 - s->width) / 2)
        return clrt__fail(CLRT_ESHAPE, func, "s->padding %zu is too large", s->padding);
    const size_t ph = s->height + 2 * s->padding, pw = s->width + 2 * s->padding;
    if (s->kernel_h > ph || s->kernel_w > pw)
        return clrt__fail(CLRT_ESHAPE, func, "a %zu x %zu filter is larger than the padded %zu x %zu image",
                          s->kernel_h, s->kernel_w, ph, pw);
    *out_h = (ph - s->kernel_h) / s->stride + 1;
    *out_w = (pw - s->kernel_w) / s->stride + 1;
    return CLRT_OK;
}

int clrt_nn_conv2d_output(const clrt_conv2d_shape *s, size_t *out_h, size_t *out_w)
{
    static const char func[] = "clrt_nn_conv2d_output";
    if (!out_h || !out_w)
        return clrt__fail(CLRT_EINVAL, func, "%s is NULL", out_h ? "out_w" : "out_h");
    return geometry(s, out_h, out_w, func);
}

/* The geometry and every size it implies for n images, or a refusal. */
static int sizes(const clrt_conv2d_shape *s, size_t n, dims *d, const char *func)
{
    int st = geometry(s, &d->oh, &d->ow, func);
    if (st != CLRT_OK)
        return st;
    size_t t, np;
    if (!mul(s->channels, s->height, &t) || !mul(t, s->width, &d->in) || !mul(s->channels, s->kernel_h, &t) ||
        !mul(t, s->kernel_w, &d->ckk) || !mul(d->oh, d->ow, &d->plane) || !mul(s->out_channels, d->plane, &d->out) ||
        !mul(n, d->plane, &np) || !mul(np, d->ckk, &t) || !mul(np, s->out_channels, &t))
        return clrt__fail(CLRT_ESHAPE, func, "the convolution's sizes overflow");
    return CLRT_OK;
}

/* Whether every index the im2col kernels form (of cols, of the image matrix m
 * with its view's offset and stride, and of the work-items, a group more than
 * needed) fits the kernels' 32-bit path, unless the parameters ask for 64 bits. */
static int small_indices(const clrt__built *k, const dims *d, size_t n, const clrt_buffer *m, size_t items)
{
    if (clrt__nnp(&k->p).idx64)
        return 0;
    const size_t lim = (size_t)1 << 30; /* margin below int's range for the signed taps */
    const size_t extent = m->offset + m->rows * m->ld;
    return d->ckk * n * d->plane < lim && extent < lim && items < lim && d->in < lim;
}

/* How many images one pass through cols takes: as many as keep cols (C*KH*KW x
 * images*OH*OW) within the parameter slice (KiB; 0: the whole batch), at least
 * one. On a CPU a slice that stays in its caches is written by im2col and read
 * back by the GEMM (or written by the GEMM and read by col2im) without a round
 * trip to memory: conv2 of the article at batch 256 has 33 MB of cols
 * (docs/nn.md has it measured). */
static size_t slice_images(const clrt__built *k, const dims *d, size_t elem, size_t n)
{
    const size_t kib = clrt__nnp(&k->p).slice;
    if (kib == 0)
        return n;
    const size_t m = kib * (1024 / elem) / (d->ckk * d->plane); /* ckk * plane fits: sizes() */
    return m == 0 ? 1 : m < n ? m : n;
}

/* How many images the slice from n0 holds: nc, or the n - n0 left. */
static size_t slice_len(size_t n, size_t n0, size_t nc) { return n - n0 < nc ? n - n0 : nc; }

/* A rows x cols window at element `at` of b's memory with row stride ld: the
 * same memory, a handle on the stack for the calls that take buffers. */
static clrt_buffer window(const clrt_buffer *b, size_t at, size_t rows, size_t cols, size_t ld)
{
    clrt_buffer v = *b;
    v.offset = b->offset + at;
    v.rows = rows;
    v.cols = cols;
    v.ld = ld;
    return v;
}

/* im2col (aux < 0: the image x as a matrix, then cols) or col2im (aux
 * CLRT__NN_AUX: cols, then the image dx as a matrix) over items work-items,
 * one launch per slice of `step` of the `total` output rows (im2col) or input
 * columns (col2im) each work-item walks. */
static int layout_slices(clrt_queue *q, clrt__built *k, int aux, const clrt_conv2d_shape *s, const dims *d,
                         const clrt_buffer *image, const clrt_buffer *cols, size_t items, size_t step, size_t total,
                         const char *func)
{
    const size_t n = image->rows;
    const int small = small_indices(k, d, n, image, items);
    int st = CLRT_OK;
    for (size_t lo = 0; st == CLRT_OK && lo < total; lo += step) {
        clrt__args a = {0};
        const size_t v[] = {n,          s->channels, s->height, s->width, s->kernel_h, s->kernel_w, s->stride,
                            s->padding, d->oh,       d->ow,     lo,       total - lo > step ? lo + step : total};
        for (size_t i = 0; i < sizeof v / sizeof *v; i++)
            clrt__arg_ulong(&a, v[i]);
        if (aux < 0) {
            clrt__arg_matrix(&a, image);
            clrt__arg_mem(&a, cols->cl);
        } else {
            clrt__arg_mem(&a, cols->cl);
            clrt__arg_matrix(&a, image);
        }
        clrt__arg_int(&a, small);
        st = clrt__nn_launch(q, k, aux, func, &a, items);
    }
    return st;
}

/* cols (ckk x N*plane, contiguous) = im2col(x), in slices of output rows
 * where the parameter loops asks (each row: OW passes and the row's own). */
static int im2col(clrt_queue *q, clrt__built *k, const clrt_conv2d_shape *s, const dims *d, const clrt_buffer *x,
                  clrt_buffer *cols, const char *func)
{
    const clrt__nn_params p = clrt__nnp(&k->p);
    return layout_slices(q, k, -1, s, d, x, cols, d->ckk * x->rows, clrt__nn_slice(&p, d->ow + 1, 0, d->oh), d->oh,
                         func);
}

/* dx = col2im(cols), in slices of input columns where the parameter loops
 * asks (each column: at most KH x KW + KH passes and its own; the taps' loops
 * KH x KW + KH more per launch). */
static int col2im(clrt_queue *q, clrt__built *k, const clrt_conv2d_shape *s, const dims *d, const clrt_buffer *cols,
                  clrt_buffer *dx, const char *func)
{
    const clrt__nn_params p = clrt__nnp(&k->p);
    const size_t taps = s->kernel_h * s->kernel_w + s->kernel_h;
    return layout_slices(q, k, CLRT__NN_AUX, s, d, dx, cols, dx->rows * s->channels * s->height,
                         clrt__nn_slice(&p, taps + 1, taps, s->width), s->width, func);
}

/* Between the GEMM's form of an output, planes (K x N*plane, contiguous: yc
 * or dyc), and its NCHW rows (N x K*plane: y or dy): conv_rows (to_rows: rows
 * = planes + b, b NULL: no bias) or conv_cols (planes = rows), one launch per
 * slice of positions where the parameter loops asks. */
static int relayout(clrt_queue *q, clrt__built *kl, const dims *d, size_t kk, int to_rows, const clrt_buffer *planes,
                    const clrt_buffer *rows, const clrt_buffer *b, const char *func)
{
    const clrt__nn_params p = clrt__nnp(&kl->p);
    const size_t n = rows->rows, run = clrt__nn_slice(&p, 1, 0, d->plane); /* positions per launch */
    int st = CLRT_OK;
    for (size_t p0 = 0; st == CLRT_OK && p0 < d->plane; p0 += run) {
        clrt__args a = {0};
        const size_t v[] = {n, kk, d->plane, p0, d->plane - p0 > run ? p0 + run : d->plane};
        for (size_t i = 0; i < sizeof v / sizeof *v; i++)
            clrt__arg_ulong(&a, v[i]);
        if (to_rows) {
            clrt__arg_mem(&a, planes->cl);
            clrt__arg_matrix(&a, rows);
            clrt__arg_mem(&a, (b ? b : planes)->cl); /* not read without a bias */
            clrt__arg_ulong(&a, b ? b->offset : 0);
            clrt__arg_int(&a, b != NULL);
        } else {
            clrt__arg_matrix(&a, rows);
            clrt__arg_mem(&a, planes->cl);
        }
        st = clrt__nn_launch(q, kl, to_rows ? -1 : CLRT__NN_AUX, func, &a, n * kk);
    }
    return st;
}

/* The convolution conv_direct computes (cl/nn_im2col.cl): in (N x ci*h*w) into
 * out (N x ko*oh*ow), filters kh x kw, stride s, padding ph, pw. */
typedef struct direct_geom {
    size_t ci, h, w, ko, kh, kw, s, ph, pw, oh, ow;
} direct_geom;

static size_t extent(const clrt_buffer *m) { return m->offset + m->rows * m->ld; }

/* Whether k's parameters ask for the direct kernel here and every index it forms
 * fits its 32-bit arithmetic (otherwise im2col + GEMM, which has a 64-bit path).
 * conv=1 takes it only where it measured faster (POCL, AVX-512, blocks of 64
 * channels; docs/nn.md): when the output channels fill over half of the padded
 * block of cnv * vw channels a work-item computes, the rest being work on zeros
 * (the article's conv2, 50 channels, forward 2-2.5x faster at batch 64 and 256;
 * its conv1, 20 channels, 1.3-1.5x slower at batch 64), and when the batch has
 * at least 1024 output positions, enough work to hide conv_wt's extra launch
 * (conv2 at batch 4, 256 positions: 1.1-1.3x slower; batch 8: even; 16: faster). */
static int direct_fits(const clrt__built *k, const direct_geom *g, const clrt_buffer *in, const clrt_buffer *out)
{
    const clrt__nn_params p = clrt__nnp(&k->p);
    if (!p.conv || p.idx64)
        return 0;
    const size_t lim = (size_t)1 << 30, cb = (size_t)p.cnv * p.vw, n = in->rows;
    const size_t kp = (g->ko + cb - 1) / cb * cb, np = n * g->oh * g->ow;
    if (p.conv == 1 && (2 * g->ko <= kp || np < 1024))
        return 0;
    return extent(in) < lim && extent(out) < lim && np < lim && (np / p.ctm + 1) * (kp / cb) < lim &&
           g->ci * g->kh * g->kw * kp < lim && (g->h + 2 * g->ph) * (g->w + 2 * g->pw) * g->ci < lim &&
           g->ko * g->oh * g->ow < lim;
}

/* out = the convolution g of in with w (flip 0, + b when b is not NULL) or with
 * w's flipped transpose (flip 1: the data gradient, in = dy); conv_wt first lays the
 * filters out as conv_direct reads them, in the cols slot. */
static int direct(clrt_queue *q, clrt__built *k, const direct_geom *g, const clrt_buffer *in, const clrt_buffer *w,
                  int flip, const clrt_buffer *b, clrt_buffer *out, const char *func)
{
    const clrt__nn_params p = clrt__nnp(&k->p);
    const size_t cb = (size_t)p.cnv * p.vw, kp = (g->ko + cb - 1) / cb * cb, rows = g->ci * g->kh * g->kw;
    const size_t np = in->rows * g->oh * g->ow;
    clrt_buffer *wt = NULL;
    int st = clrt__scratch_matrix(q, CLRT__SCRATCH_COLS, in->dtype, rows, kp, func, &wt);
    if (st == CLRT_OK) {
        clrt__args a = {0};
        const size_t v[] = {w->rows, flip ? g->ko : g->ci, g->kh, g->kw, kp};
        for (size_t i = 0; i < sizeof v / sizeof *v; i++)
            clrt__arg_uint(&a, v[i]);
        clrt__arg_int(&a, flip);
        clrt__arg_matrix(&a, w);
        clrt__arg_mem(&a, wt->cl);
        st = clrt__nn_launch(q, k, CLRT__NN_AUX_WT, func, &a, rows * kp);
    }
    if (st == CLRT_OK) {
        clrt__args a = {0};
        const size_t v[] = {in->rows, g->ci, g->h, g->w, g->ko, g->kh, g->kw, g->s, g->ph, g->pw, g->oh, g->ow, kp};
        for (size_t i = 0; i < sizeof v / sizeof *v; i++)
            clrt__arg_uint(&a, v[i]);
        clrt__arg_matrix(&a, in);
        clrt__arg_mem(&a, wt->cl);
        clrt__arg_matrix(&a, out);
        clrt__arg_mem(&a, (b ? b : wt)->cl); /* not read without a bias */
        clrt__arg_ulong(&a, b ? b->offset : 0);
        clrt__arg_int(&a, b != NULL);
        st = clrt__nn_launch_wg(q, k, CLRT__NN_AUX_DIRECT, func, &a, (np + p.ctm - 1) / p.ctm * (kp / cb), p.cwg);
    }
    return st;
}

int clrt_nn_conv2d_forward(clrt_queue *q, clrt_buffer *y, const clrt_buffer *x, const clrt_buffer *w,
                           const clrt_buffer *b, const clrt_conv2d_shape *s)
{
    static const char func[] = "clrt_nn_conv2d_forward";
    dims d = {0};
    int st = clrt__nn_forward_operands(q, y, x, w, b, func);
    if (st == CLRT_OK)
        st = sizes(s, x->rows, &d, func);
    if (st != CLRT_OK)
        return st;
    const size_t n = x->rows, kk = s->out_channels;
    const clrt__nn_want want[] = {{x, n, d.in, X_SHAPE}, {w, kk, d.ckk, W_SHAPE},
                                  {y, n, d.out, "y (N x out_channels*out_h*out_w)"}, {b, 1, kk, "b"}};
    if ((st = clrt__nn_shapes(want, sizeof want / sizeof *want, func)) != CLRT_OK ||
        (st = clrt__nn_forward_apart(y, x, w, b, func)) != CLRT_OK)
        return st;
    clrt__built *ki, *kl;
    if ((st = clrt__nn_kernel(q, CLRT__K_NN_IM2COL, x->dtype, func, &ki)) != CLRT_OK ||
        (st = clrt__nn_kernel(q, CLRT__K_NN_LAYOUT, x->dtype, func, &kl)) != CLRT_OK)
        return st;
    clrt_buffer *cols = NULL, *yc = NULL;
    const direct_geom g = {s->channels, s->height, s->width, kk, s->kernel_h, s->kernel_w,
                           s->stride, s->padding, s->padding, d.oh, d.ow};
    if (direct_fits(ki, &g, x, y)) {
        clrt__scratch_begin(q);
        st = direct(q, ki, &g, x, w, 0, b, y, func);
        clrt__scratch_end(q);
        return st;
    }
    const size_t nc = slice_images(ki, &d, x->elem, n);
    clrt__scratch_begin(q);
    st = clrt__scratch_matrix(q, CLRT__SCRATCH_COLS, x->dtype, d.ckk, nc * d.plane, func, &cols);
    if (st == CLRT_OK)
        st = clrt__scratch_matrix(q, CLRT__SCRATCH_PLANES, x->dtype, kk, nc * d.plane, func, &yc);
    for (size_t n0 = 0; st == CLRT_OK && n0 < n; n0 += nc) {
        /* the slice of images n0.. (their columns of cols and yc, contiguous) */
        const size_t m = slice_len(n, n0, nc), cw = m * d.plane;
        const clrt_buffer xs = window(x, n0 * x->ld, m, x->cols, x->ld), ys = window(y, n0 * y->ld, m, y->cols, y->ld);
        clrt_buffer cs = window(cols, 0, d.ckk, cw, cw), ycs = window(yc, 0, kk, cw, cw);
        st = im2col(q, ki, s, &d, &xs, &cs, func);
        /* the bias, one value per output channel (a row of yc): b's K values as a
         * K x 1 column, added as the product is stored */
        const clrt_buffer bcol = b ? window(b, 0, kk, 1, 1) : (clrt_buffer){0};
        const clrt_epilogue ep = {b ? &bcol : NULL, CLRT_ACT_NONE};
        if (st == CLRT_OK)
            st = clrt_gemm_ex(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.0, w, &cs, 0.0, &ycs, &ep);
        if (st == CLRT_OK)
            st = relayout(q, kl, &d, kk, 1, &ycs, &ys, NULL, func);
    }
    clrt__scratch_end(q);
    return st;
}

/* The weight and data gradients of the slice of m images from n0 (dw or dx NULL:
 * not that one): im2col of their x into cols (C*KH*KW x m*OH*OW), dW = their
 * columns of dyc times cols^T (added to the earlier slices': n0 > 0), then
 * dcols = W^T times those columns into the same cols (the queue is in order)
 * and col2im into their rows of dx. */
static int backward_slice(clrt_queue *q, clrt__built *ki, const clrt_conv2d_shape *s, const dims *d, size_t n0,
                          size_t m, const clrt_buffer *x, const clrt_buffer *w, const clrt_buffer *dyc,
                          const clrt_buffer *cols, clrt_buffer *dw, clrt_buffer *dx, const char *func)
{
    const size_t cw = m * d->plane;
    const clrt_buffer dys = window(dyc, n0 * d->plane, dyc->rows, cw, dyc->ld);
    clrt_buffer cs = window(cols, 0, d->ckk, cw, cw);
    int st = CLRT_OK;
    if (dw) {
        const clrt_buffer xs = window(x, n0 * x->ld, m, x->cols, x->ld);
        st = im2col(q, ki, s, d, &xs, &cs, func);
        if (st == CLRT_OK)
            st = clrt_gemm(q, CLRT_NO_TRANS, CLRT_TRANS, 1.0, &dys, &cs, n0 ? 1.0 : 0.0, dw);
    }
    if (st == CLRT_OK && dx) {
        clrt_buffer dxs = window(dx, n0 * dx->ld, m, dx->cols, dx->ld);
        st = clrt_gemm(q, CLRT_TRANS, CLRT_NO_TRANS, 1.0, w, &dys, 0.0, &cs);
        if (st == CLRT_OK)
            st = col2im(q, ki, s, d, &cs, &dxs, func);
    }
    return st;
}

int clrt_nn_conv2d_backward(clrt_queue *q, clrt_buffer *dx, clrt_buffer *dw, clrt_buffer *db, const clrt_buffer *dy,
                            const clrt_buffer *x, const clrt_buffer *w, const clrt_conv2d_shape *s)
{
    static const char func[] = "clrt_nn_conv2d_backward";
    dims d = {0};
    int st = clrt__nn_grad_operands(q, dx, dw, db, dy, x, w, func);
    if (st == CLRT_OK)
        st = sizes(s, dy->rows, &d, func);
    if (st != CLRT_OK)
        return st;
    const size_t n = dy->rows, kk = s->out_channels;
    const clrt__nn_want want[] = {{dy, n, d.out, "dy (N x out_channels*out_h*out_w)"},
                                  {x, n, d.in, X_SHAPE}, {w, kk, d.ckk, W_SHAPE},
                                  {dx, n, d.in, "dx"}, {dw, kk, d.ckk, "dw"}, {db, 1, kk, "db"}};
    if ((st = clrt__nn_shapes(want, sizeof want / sizeof *want, func)) != CLRT_OK ||
        (st = clrt__nn_grads_apart(dx, dw, db, dy, x, w, func)) != CLRT_OK)
        return st;
    clrt__built *ki, *kl;
    if ((st = clrt__nn_kernel(q, CLRT__K_NN_IM2COL, dy->dtype, func, &ki)) != CLRT_OK ||
        (st = clrt__nn_kernel(q, CLRT__K_NN_LAYOUT, dy->dtype, func, &kl)) != CLRT_OK)
        return st;
    const size_t np = n * d.plane;
    clrt_buffer *dyc = NULL, *cols = NULL;
    /* dx as a direct convolution of dy at stride 1: dy padded by KH-1-P, KW-1-P with
     * the flipped filters, channels K -> C, planes OH x OW -> H x W */
    const direct_geom g = {kk, d.oh, d.ow, s->channels, s->kernel_h, s->kernel_w,
                           1, s->kernel_h - 1 - s->padding, s->kernel_w - 1 - s->padding, s->height, s->width};
    const int dx_direct = dx && clrt__nnp(&ki->p).conv == 3 && s->stride == 1 && s->padding < s->kernel_h &&
                          s->padding < s->kernel_w && direct_fits(ki, &g, dy, dx);
    const int gemm_dx = dx && !dx_direct;
    const size_t nc = dw || gemm_dx ? slice_images(ki, &d, dy->elem, n) : n;
    clrt__scratch_begin(q);
    if (dw || db || gemm_dx)
        st = clrt__scratch_matrix(q, CLRT__SCRATCH_PLANES, dy->dtype, kk, np, func, &dyc);
    if (st == CLRT_OK && (dw || gemm_dx))
        st = clrt__scratch_matrix(q, CLRT__SCRATCH_COLS, dy->dtype, d.ckk, nc * d.plane, func, &cols);
    if (st == CLRT_OK && dyc)
        st = relayout(q, kl, &d, kk, 0, dyc, dy, NULL, func);
    if (st == CLRT_OK && db) {
        /* db (1 x K) is K consecutive values: the row sums (K x 1) go straight into
         * them, with no transpose launch (nor its program to build) after */
        clrt_buffer sums = window(db, 0, kk, 1, 1);
        st = clrt_reduce(q, CLRT_REDUCE_SUM, CLRT_EACH_ROW, &sums, dyc);
    }
    for (size_t n0 = 0; st == CLRT_OK && (dw || gemm_dx) && n0 < n; n0 += nc)
        st = backward_slice(q, ki, s, &d, n0, slice_len(n, n0, nc), x, w, dyc, cols, dw, gemm_dx ? dx : NULL, func);
    if (st == CLRT_OK && dx_direct) /* after dw's use of the cols slot: the queue is in order */
        st = direct(q, ki, &g, dy, w, 1, NULL, dx, func);
    clrt__scratch_end(q);
    return st;
}
