/* The gradient of relu, the SGD step and the softmax cross-entropy's rows
 * (src/nn/layers.c, src/nn/optim.c, src/nn/loss.c; src/kernels/nn.h lists the
 * parameters). OpenCL C 1.2. Every matrix has its start offset and row stride
 * (views). */

/* dx = dy where x > 0, 0 where x <= 0 (whatever dy holds there, as PyTorch's
 * threshold_backward), NaN where x is NaN. Elementwise, so dx may be dy or x.
 * Launch: 2-D, global[0] >= cols (any work-group width), global[1] = rows. */
__kernel REQD_SG
void relu_backward(const ulong rows, const ulong cols, __global const REAL *dy, const ulong dy_off,
                   const ulong lddy, __global const REAL *x, const ulong x_off, const ulong ldx,
                   __global REAL *dx, const ulong dx_off, const ulong lddx)
{
    const ulong j = get_global_id(0), i = get_global_id(1);
    if (j >= cols || i >= rows)
        return;
    const REAL v = x[x_off + i * ldx + j];
    const REAL g = dy[dy_off + i * lddy + j];
    dx[dx_off + i * lddx + j] = isnan(v) ? v : v > (REAL)0 ? g : (REAL)0;
}

/* One step of SGD with momentum on one tensor (PyTorch's SGD, no dampening, not
 * Nesterov): v = mu v + g + wd p, then p = p - lr v, both in one pass where two or
 * three axpby launches would read and write v twice (src/nn/optim.c). p, g and v
 * are the same shape and do not overlap. Launch: 2-D, global[0] >= cols (any
 * work-group width), global[1] = rows. */
__kernel REQD_SG
void sgd_momentum(const ulong rows, const ulong cols, __global REAL *p, const ulong p_off, const ulong ldp,
                  __global const REAL *g, const ulong g_off, const ulong ldg, __global REAL *v,
                  const ulong v_off, const ulong ldv, const REAL lr, const REAL mu, const REAL wd)
{
    const ulong j = get_global_id(0), i = get_global_id(1);
    if (j >= cols || i >= rows)
        return;
    const ulong pi = p_off + i * ldp + j, vi = v_off + i * ldv + j;
    const REAL w = p[pi];
    const REAL u = mu * v[vi] + g[g_off + i * ldg + j] + wd * w;
    v[vi] = u;
    p[pi] = w - lr * u;
}

/* Softmax cross-entropy of each row i of logits (N x C): rowloss[i] =
 * (log sum_j exp(z_j - m) - (z_label - m)) / N with m the row's maximum (so
 * exp never overflows), and, when has_dl, the row of dlogits =
 * (softmax(z) - onehot(label)) / N. A label outside 0..C-1, or a NaN or
 * infinite logit, makes the row's loss and gradient NaN (the batch's loss,
 * their sum, is then NaN). rowloss is contiguous (N x 1). inv_n = 1 / N.
 * Launch: 1-D, one work-item per row (extra work-items return). */
__kernel REQD_SG
void xent_rows(const ulong N, const ulong C, __global const REAL *z, const ulong z_off, const ulong ldz,
               __global const int *lab, const ulong lab_off, const ulong ldlab, __global REAL *rowloss,
               __global REAL *dl, const ulong dl_off, const ulong lddl, const int has_dl, const REAL inv_n)
{
    const ulong i = get_global_id(0);
    if (i >= N)
        return;
    __global const REAL *row = z + z_off + i * ldz;
    const int label = lab[lab_off + i * ldlab];
    int bad = label < 0 || (ulong)label >= C;
    REAL m = row[0];
    for (ulong j = 0; j < C; ++j) {
        const REAL v = row[j];
        bad |= !isfinite(v);
        m = v > m ? v : m;
    }
    REAL s = (REAL)0;
    for (ulong j = 0; j < C; ++j)
        s += exp(row[j] - m);
    const REAL nan_value = (REAL)NAN;
    const ulong li = bad ? 0 : (ulong)label; /* never read outside the row */
    rowloss[i] = bad ? nan_value : (log(s) - (row[li] - m)) * inv_n;
    if (!has_dl)
        return;
    __global REAL *d = dl + dl_off + i * lddl;
    const REAL inv_s = (REAL)1 / s;
    for (ulong j = 0; j < C; ++j) {
        const REAL p = exp(row[j] - m) * inv_s - (j == li ? (REAL)1 : (REAL)0);
        d[j] = bad ? nan_value : p * inv_n;
    }
}

/* The same softmax cross-entropy in slices of columns [c0, c1), one launch
 * per slice, for rows longer than one work-item may loop over (Mesa's
 * llvmpipe ends a work-item's loops after 65535 passes in all; docs/drivers.md).
 * st (N x 3, contiguous) carries each row's running maximum m, the sum of
 * exp(z_j - m) over the columns seen, and 1 when the row is bad; the slice
 * with c0 == 0 starts it. The slice with c1 == C writes rowloss as xent_rows
 * does. Launch: 1-D, one work-item per row. */
__kernel REQD_SG
void xent_stats(const ulong N, const ulong C, const ulong c0, const ulong c1, __global const REAL *z,
                const ulong z_off, const ulong ldz, __global const int *lab, const ulong lab_off,
                const ulong ldlab, __global REAL *st, __global REAL *rowloss, const REAL inv_n)
{
    const ulong i = get_global_id(0);
    if (i >= N)
        return;
    __global const REAL *row = z + z_off + i * ldz;
    const int label = lab[lab_off + i * ldlab];
    int bad;
    REAL m, s;
    if (c0 == 0) {
        bad = label < 0 || (ulong)label >= C;
        m = row[0];
        s = (REAL)0;
    } else {
        m = st[3 * i];
        s = st[3 * i + 1];
        bad = st[3 * i + 2] != (REAL)0;
    }
    REAL mm = m;
    for (ulong j = c0; j < c1; ++j) {
        const REAL v = row[j];
        bad |= !isfinite(v);
        mm = v > mm ? v : mm;
    }
    s *= exp(m - mm); /* the sum so far, rescaled to the new maximum */
    for (ulong j = c0; j < c1; ++j)
        s += exp(row[j] - mm);
    st[3 * i] = mm;
    st[3 * i + 1] = s;
    st[3 * i + 2] = bad ? (REAL)1 : (REAL)0;
    if (c1 == C) {
        const REAL nan_value = (REAL)NAN;
        const ulong li = bad ? 0 : (ulong)label; /* never read outside the row */
        rowloss[i] = bad ? nan_value : (log(s) - (row[li] - mm)) * inv_n;
    }
}

/* The gradient's columns [c0, c1) from the statistics xent_stats left in st
 * after its last slice. Launch: 1-D, one work-item per row. */
__kernel REQD_SG
void xent_grad(const ulong N, const ulong c0, const ulong c1, __global const REAL *z, const ulong z_off,
               const ulong ldz, __global const int *lab, const ulong lab_off, const ulong ldlab,
               __global const REAL *st, __global REAL *dl, const ulong dl_off, const ulong lddl,
               const REAL inv_n)
{
    const ulong i = get_global_id(0);
    if (i >= N)
        return;
    __global const REAL *row = z + z_off + i * ldz;
    const REAL m = st[3 * i], inv_s = (REAL)1 / st[3 * i + 1];
    const int bad = st[3 * i + 2] != (REAL)0;
    const ulong li = bad ? 0 : (ulong)lab[lab_off + i * ldlab];
    __global REAL *d = dl + dl_off + i * lddl;
    const REAL nan_value = (REAL)NAN;
    for (ulong j = c0; j < c1; ++j) {
        const REAL p = exp(row[j] - m) * inv_s - (j == li ? (REAL)1 : (REAL)0);
        d[j] = bad ? nan_value : p * inv_n;
    }
}
