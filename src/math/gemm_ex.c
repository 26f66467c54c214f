/* clrt_gemm_ex: clrt_gemm with an epilogue (a bias by row or column, an
 * activation) applied by the product's kernels as they store c (cl/common.cl's
 * CLRT_ACT, cl/matmul_*.cl), one pass over c. Here: the epilogue's checks, after
 * clrt_gemm's own, and the one checked entry of clrt_gemm, clrt_matmul and
 * clrt_gemm_ex (clrt__gemm, no epilogue for the first two). */
#include "base/error.h"
#include "base/util.h"
#include "kernels/table.h"
#include "math/gemm.h"

/* The epilogue's checks: act known; bias live, of q's context and c's dtype, 1 x N
 * or M x 1, apart from c. *per_row: bias is M x 1 (not 1 x N). */
static int check_epilogue(const clrt_queue *q, const clrt_epilogue *ep, const clrt_buffer *c, int *per_row,
                          const char *func)
{
    if ((int)ep->act < (int)CLRT_ACT_NONE || (int)ep->act > (int)CLRT_ACT_TANH)
        return clrt__fail(CLRT_EINVAL, func, "unknown activation %d: use a clrt_activation", (int)ep->act);
    *per_row = 0;
    const clrt_buffer *bias = ep->bias;
    if (!bias)
        return CLRT_OK;
    int st = clrt__check_buffer(bias, func, "bias");
    if (st != CLRT_OK)
        return st;
    if (bias->ctx != q->ctx)
        return clrt__fail(CLRT_EINVAL, func, "bias and queue belong to different contexts");
    if (clrt__overlap(bias, c))
        return clrt__fail(CLRT_EINVAL, func, "the bias shares memory with c");
    if (bias->dtype != c->dtype)
        return clrt__fail(CLRT_ESHAPE, func, "bias is %s, c %s: the bias has c's dtype",
                          clrt__dtype_word((int)bias->dtype), clrt__dtype_word((int)c->dtype));
    if (bias->rows == 1 && bias->cols == c->cols)
        return CLRT_OK;
    if (bias->rows == c->rows && bias->cols == 1) {
        *per_row = 1;
        return CLRT_OK;
    }
    return clrt__fail(CLRT_ESHAPE, func, "bias is %zux%zu; with c %zux%zu it must be 1x%zu or %zux1", bias->rows,
                      bias->cols, c->rows, c->cols, c->cols, c->rows);
}

int clrt__gemm(clrt_queue *q, clrt_trans ta, clrt_trans tb, double alpha, const clrt_buffer *a,
               const clrt_buffer *b, double beta, clrt_buffer *c, const clrt_epilogue *ep, const char *func)
{
    int per_row = 0;
    int st = clrt__gemm_check(q, ta, tb, a, b, c, func);
    if (st == CLRT_OK && ep)
        st = check_epilogue(q, ep, c, &per_row, func);
    if (st == CLRT_OK)
        st = clrt__check_usable(q->ctx, func);
    if (st != CLRT_OK)
        return st;
    const clrt__gemm_op op = {.M = c->rows, .N = c->cols, .K = ta ? a->rows : a->cols, .alpha = alpha,
                              .beta = beta, .a = a, .b = b, .c = c, .count = 1, .bias = ep ? ep->bias : NULL,
                              .bias_per_row = per_row, .act = ep ? (int)ep->act : 0};
    return clrt__gemm_run(q, ta, tb, &op, func);
}

int clrt_gemm_ex(clrt_queue *q, clrt_trans ta, clrt_trans tb, double alpha, const clrt_buffer *a,
                 const clrt_buffer *b, double beta, clrt_buffer *c, const clrt_epilogue *ep)
{
    return clrt__gemm(q, ta, tb, alpha, a, b, beta, c, ep, "clrt_gemm_ex");
}
