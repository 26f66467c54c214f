/* 16-bit operands widened to float32 and a float32 result narrowed (math/widen.h). */
#include <math.h>

#include "base/error.h"
#include "math/convert.h"
#include "math/widen.h"
#include "runtime/scratch.h"

/* The scratch slots the temporaries take, in order (runtime/scratch.h). */
static const int widen_slots[] = {CLRT__SCRATCH_COLS, CLRT__SCRATCH_PLANES, CLRT__SCRATCH_SMALL};
enum { WIDEN_SLOTS = sizeof widen_slots / sizeof widen_slots[0] };

/* A float32 rows x cols temporary: a scratch window while slots are left,
 * else a new buffer (zeroed under an emulator, as scratch is). */
static int temporary(clrt_queue *q, clrt__widening *w, size_t rows, size_t cols, const char *func, clrt_buffer **out)
{
    if (w->n < WIDEN_SLOTS) { /* a failed temporary ends the call: the first n are all windows */
        if (!w->q) {
            clrt__scratch_begin(q);
            w->q = q;
        }
        return clrt__scratch_matrix(q, widen_slots[w->n], CLRT_FLOAT32, rows, cols, func, out);
    }
    int st = clrt__buffer_new(out, q->ctx, CLRT_FLOAT32, rows, cols, func);
    if (st != CLRT_OK)
        return st;
    /* Oclgrind keeps a released buffer's shadow for a new one of its id: a host
     * write sizes it anew (clrt__zero_on_emulator) */
    const cl_int cle = clrt__zero_on_emulator(q, (*out)->cl, rows * cols * sizeof(float));
    return cle == CL_SUCCESS ? CLRT_OK : clrt__context_fail_late(q->ctx, func, cle, "clEnqueueWriteBuffer");
}

int clrt__widen(clrt_queue *q, clrt__widening *w, const clrt_buffer *src, int load, const char *func,
                const clrt_buffer **out)
{
    *out = src;
    if (!src || !clrt__is_16bit(src->dtype))
        return CLRT_OK;
    if (w->n >= (int)(sizeof w->tmp / sizeof w->tmp[0]))
        return clrt__fail(CLRT_EINVAL, func, "too many 16-bit operands"); /* not reached: callers have <= 6 */
    clrt_buffer *t = NULL;
    int st = temporary(q, w, src->rows, src->cols, func, &t);
    if (t)
        w->tmp[w->n++] = t;
    if (st != CLRT_OK)
        return st;
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
    for (int i = WIDEN_SLOTS; i < w->n; i++)
        clrt_buffer_destroy(w->tmp[i]);
    if (w->q)
        clrt__scratch_end(w->q);
    w->n = 0;
    w->q = NULL;
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
