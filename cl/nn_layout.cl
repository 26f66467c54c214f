/* The 2-D convolution's output layout (src/nn/conv.c; src/kernels/nn.h lists the
 * parameters). OpenCL C 1.2.
 *
 * The convolution's GEMM gives yc, K x (N * PL) (PL = OH * OW, one output
 * plane): row k holds filter k's planes of every image in turn. The layer's y
 * is N x (K * PL): image n's K planes in one row (NCHW). These two kernels
 * move planes between the two, each plane a contiguous run on both sides.
 *
 * Launch: 1-D, any work-group size, one work-item per (n, k) plane, N * K of
 * them in the order g = n * K + k (extra work-items return), each moving the
 * plane's positions p0..p1-1: the host slices planes where a work-item may
 * loop only so far (parameter loops).
 *
 * Each run moves eight elements at a time as vectors, then one by one: copied
 * element by element, POCL vectorised the runs across work-items, each element
 * a gather and a scatter (nn-conv-phases at batch 256, 2 cores, AVX-512,
 * medians of 5 alternated runs: conv1's forward pass 1.10x faster this way,
 * conv2's backward pass 1.12x). */

/* y (at y_off, row stride ldy) = yc + b[k] on every element of plane k (b at
 * b_off; has_bias 0: no bias, b is not read). */
__kernel REQD_SG
void conv_rows(const ulong N, const ulong K, const ulong PL, const ulong p0, const ulong p1,
               __global const REAL *yc, __global REAL *y, const ulong y_off, const ulong ldy,
               __global const REAL *b, const ulong b_off, const int has_bias)
{
    const ulong g = get_global_id(0);
    const ulong n = g / K, k = g - n * K;
    if (n >= N)
        return;
    const REAL bias = has_bias ? b[b_off + k] : (REAL)0;
    __global const REAL *src = yc + k * (N * PL) + n * PL;
    __global REAL *dst = y + y_off + n * ldy + k * PL;
    ulong p = p0;
    for (; p + 8 <= p1; p += 8)
        vstore8(vload8(0, src + p) + bias, 0, dst + p);
    for (; p < p1; ++p)
        dst[p] = src[p] + bias;
}

/* The way back, for the backward pass: dyc (K x N*PL, contiguous) from dy
 * (N x K*PL at dy_off, row stride lddy). */
__kernel REQD_SG
void conv_cols(const ulong N, const ulong K, const ulong PL, const ulong p0, const ulong p1,
               __global const REAL *dy, const ulong dy_off, const ulong lddy, __global REAL *dyc)
{
    const ulong g = get_global_id(0);
    const ulong n = g / K, k = g - n * K;
    if (n >= N)
        return;
    __global const REAL *src = dy + dy_off + n * lddy + k * PL;
    __global REAL *dst = dyc + k * (N * PL) + n * PL;
    clrt_copy_run(src + p0, dst + p0, p1 - p0);
}
