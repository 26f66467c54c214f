/* The GEMM engine the math family's products share (math/gemm.c): the checks of
 * one product's operands, and its launch, or a strided batch's, with or without
 * an epilogue (clrt_gemm, clrt_gemm_ex in math/gemm_ex.c, the batched calls in
 * math/gemm_batched.c). */
#ifndef CLRT_MATH_GEMM_H
#define CLRT_MATH_GEMM_H

#include "runtime/handles.h"

/* c_i = act(alpha op(a_i) op(b_i) + beta c_i + bias) for i < count, op(a_i) M x K,
 * op(b_i) K x N, c_i M x N: a, b and c are matrix 0 (their offsets and row strides
 * used; their rows and columns not), matrix i starts i * sa (sb, sc) elements after
 * it. bias NULL: none; else 1 x N (one value per column) or, bias_per_row, M x 1
 * (one per row), of c's dtype. act: a clrt_activation (0: none). */
typedef struct clrt__gemm_op {
    size_t M, N, K;
    double alpha, beta;
    const clrt_buffer *a, *b, *c;
    size_t count, sa, sb, sc;
    const clrt_buffer *bias;
    int bias_per_row;
    int act;
} clrt__gemm_op;

/* The first of clrt__gemm_check's checks, those the batched calls make of every
 * product before its shapes: q, c, a and b live handles, in that order, then ta and
 * tb each CLRT_NO_TRANS or CLRT_TRANS. CLRT_OK or the refusal, under func. */
int clrt__gemm_live(const clrt_queue *q, clrt_trans ta, clrt_trans tb, const clrt_buffer *a, const clrt_buffer *b,
                    const clrt_buffer *c, const char *func);

/* clrt_gemm's checks of q, ta, tb, a, b and c, in its order (math/gemm.c says it);
 * CLRT_OK or the status, reported for func. */
int clrt__gemm_check(const clrt_queue *q, clrt_trans ta, clrt_trans tb, const clrt_buffer *a,
                     const clrt_buffer *b, const clrt_buffer *c, const char *func);

/* clrt_gemm (ep NULL) or clrt_gemm_ex under func: clrt__gemm_check, the
 * epilogue's checks (math/gemm_ex.c), the context usable, then clrt__gemm_run of
 * the one product. */
int clrt__gemm(clrt_queue *q, clrt_trans ta, clrt_trans tb, double alpha, const clrt_buffer *a,
               const clrt_buffer *b, double beta, clrt_buffer *c, const clrt_epilogue *ep, const char *func);

/* Enqueue op on q: every argument checked, the context usable, count >= 1, M, N, K
 * and the row strides within the 32 bits clrt__gemm_check allows (the batch's
 * strides may be any size_t). */
int clrt__gemm_run(clrt_queue *q, clrt_trans ta, clrt_trans tb, const clrt__gemm_op *op, const char *func);

/* The operands of a product agree: one context (the queue's), a and b one dtype, c that
 * dtype or float32 for 16-bit a and b, no int32. CLRT_OK or the refusal, under func. */
int clrt__gemm_same_kind(const clrt_queue *q, const clrt_buffer *a, const clrt_buffer *b, const clrt_buffer *c,
                         const char *func);

#endif
