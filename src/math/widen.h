/* 16-bit operands (CLRT_FLOAT16, CLRT_BFLOAT16) through float32: an operand is
 * converted into a float32 temporary of its shape, the float32 operation runs,
 * and a 16-bit output gets the float32 result converted into it (one rounding,
 * to nearest even). docs/half.md says what runs how, its bounds and its cost. */
#ifndef CLRT_MATH_WIDEN_H
#define CLRT_MATH_WIDEN_H

#include "runtime/handles.h"

/* The temporaries of one call. The first three are windows over the queue's
 * scratch slots that no operation taking 16-bit operands uses itself (the
 * neural-network ones, which refuse 16-bit operands), kept between calls: a
 * new buffer costs its first-touch page faults on every call (about 20 ms of
 * a 2048 x 2048 x 2048 float16 product's 150 ms on POCL), and the scratch lock
 * is held until clrt__widen_done. Any more are new buffers, destroyed by
 * clrt__widen_done; destroying one while queued commands still use it is
 * safe: OpenCL keeps the memory until they complete (clrt_buffer_destroy). */
typedef struct clrt__widening {
    clrt_buffer *tmp[6];
    int n;         /* tmp[0 .. min(n, 3)) are scratch windows, the rest new buffers */
    clrt_queue *q; /* the queue whose scratch lock is held; NULL: none */
} clrt__widening;

/* *out = src when src is not 16-bit (or NULL); else a new float32 matrix of
 * src's shape, holding src's values when load (else undefined). */
int clrt__widen(clrt_queue *q, clrt__widening *w, const clrt_buffer *src, int load, const char *func,
                const clrt_buffer **out);

/* status CLRT_OK and wide not dst: dst = wide, rounded once; returns the
 * status of the two. */
int clrt__narrow(clrt_queue *q, clrt_buffer *dst, const clrt_buffer *wide, int status, const char *func);

void clrt__widen_done(clrt__widening *w);

/* value rounded to nearest even in dtype (a 16-bit one; any other: value):
 * overflow to infinity, NaN and infinity kept, subnormals kept. Exact in
 * float32. */
double clrt__round_16bit(clrt_dtype dtype, double value);

#endif
