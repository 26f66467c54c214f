/* 16-bit operands widened to float32 and a float32 result narrowed (math/widen.h). */
#include <math.h>

#include "base/error.h"
#include "math/convert.h"
#include "math/widen.h"

int clrt__widen(clrt_queue *q, clrt__widening *w, const clrt_buffer *src, int load, const char *func,
                const clrt_buffer **out)
{
    *out = src;
    if (!src || !clrt__is_16bit(src->dtype))
        return CLRT_OK;
    if (w->n >= (int)(sizeof w->tmp / sizeof w->tmp[0]))
        return clrt__fail(CLRT_EINVAL, func, "too many 16-bit operands"); /* not reached: callers have <= 6 */
    clrt_buffer *t = NULL;
    int st = clrt__buffer_new(&t, q->ctx, CLRT_FLOAT32, src->rows, src->cols, func);
    if (st != CLRT_OK)
        return st;
    w->tmp[w->n++] = t;
    /* Oclgrind keeps a released buffer's shadow for a new one of its id: a host
     * write sizes it anew (clrt__zero_on_emulator) */
    const cl_int cle = clrt__zero_on_emulator(q, t->cl, src->rows * src->cols * sizeof(float));
    if (cle != CL_SUCCESS)
        return clrt__context_fail_late(q->ctx, func, cle, "clEnqueueWriteBuffer");
    if (load)
        st = clrt__convert(q, t, src, 0, func);
    if (st == CLRT_OK)
        *out = t;
    return st;
}

int clrt__narrow(clrt_queue *q, clrt_buffer *dst, const clrt_buffer *wide, int status, const char *func)
{
    if (status != CLRT_OK || wide == dst)
        return status;
    return clrt__convert(q, dst, wide, 0, func);
}

void clrt__widen_done(clrt__widening *w)
{
    for (int i = 0; i < w->n; i++)
        clrt_buffer_destroy(w->tmp[i]);
    w->n = 0;
}

double clrt__round_16bit(clrt_dtype dtype, double value)
{
    if (!clrt__is_16bit(dtype) || isnan(value) || isinf(value) || value == 0.0)
        return value;
    /* precision p bits, smallest normal exponent emin, largest finite value */
    const int p = dtype == CLRT_FLOAT16 ? 11 : 8;
    const int emin = dtype == CLRT_FLOAT16 ? -14 : -126;
    const double most = dtype == CLRT_FLOAT16 ? 65504.0 : ldexp(2.0 - ldexp(1.0, -7), 127);
    int x;
    const double a = fabs(value);
    (void)frexp(a, &x); /* a = m 2^x, m in [0.5, 1): leading bit 2^(x-1) */
    const int e = x - 1 < emin ? emin : x - 1;
    const double quantum = ldexp(1.0, e - (p - 1));
    /* a / quantum is exact (a power of two); nearbyint rounds half to even */
    const double r = nearbyint(a / quantum) * quantum;
    return copysign(r > most ? INFINITY : r, value);
}
