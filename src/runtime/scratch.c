/* A queue's scratch (see scratch.h). */
#include "runtime/scratch.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/debug.h"
#include "base/error.h"
#include "kernels/table.h"
#include "runtime/build_log.h"

struct clrt__scratch {
    cl_mem mem[CLRT__SCRATCH_SLOTS];
    size_t bytes[CLRT__SCRATCH_SLOTS];
    clrt_buffer window[CLRT__SCRATCH_SLOTS]; /* the shape a call asked for, over mem */
};

/* Builds run under it (a convolution's product): their reports wait for it
 * to go (runtime/build_log.h). */
void clrt__scratch_begin(clrt_queue *q)
{
    clrt__log_hold();
    clrt_mutex_lock(&q->scratch_lock);
}

void clrt__scratch_end(clrt_queue *q)
{
    clrt_mutex_unlock(&q->scratch_lock);
    clrt__log_release();
}

static void release(struct clrt__scratch *s, int slot)
{
    if (s->mem[slot]) {
        clReleaseMemObject(s->mem[slot]);
        clrt__live(CLRT__LIVE_SCRATCH, -1);
    }
    s->mem[slot] = NULL;
    s->bytes[slot] = 0;
}

void clrt__scratch_free(clrt_queue *q)
{
    if (!q->scratch)
        return;
    for (int i = 0; i < CLRT__SCRATCH_SLOTS; i++)
        release(q->scratch, i);
    free(q->scratch);
    q->scratch = NULL;
}

int clrt__scratch_mem(clrt_queue *q, int slot, size_t bytes, size_t least, const char *func, cl_mem *mem)
{
    *mem = NULL;
    /* a size no buffer can have: refused before anything is allocated or released */
    const uint64_t max_alloc = q->ctx->info.max_alloc;
    if (max_alloc && (uint64_t)bytes > max_alloc)
        return clrt__fail(CLRT_ENOMEM, func, "an intermediate of %zu bytes is above the largest buffer device '%s' allows",
                          bytes, q->ctx->info.name);
    if (!q->scratch && !(q->scratch = calloc(1, sizeof *q->scratch)))
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    struct clrt__scratch *s = q->scratch;
    if (s->bytes[slot] >= bytes) {
        *mem = s->mem[slot];
        return CLRT_OK;
    }
    /* the old one first, so that the two never need the device's memory at once */
    release(s, slot);
    if (bytes < least)
        bytes = max_alloc && (uint64_t)least > max_alloc ? (size_t)max_alloc : least;
    cl_int err = clrt__fault(CLRT__FAULT_CREATE_BUFFER);
    cl_mem m = NULL;
    if (err == CL_SUCCESS)
        m = clCreateBuffer(q->ctx->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS || !m)
        return clrt__fail_cl(CLRT_ENOMEM, func, err, "clCreateBuffer", &q->ctx->info,
                             "cannot allocate an intermediate of %zu bytes", bytes);
    clrt__live(CLRT__LIVE_SCRATCH, +1);
    s->mem[slot] = m;
    s->bytes[slot] = bytes;
    err = clrt__zero_on_emulator(q, m, bytes);
    if (err != CL_SUCCESS) {
        release(s, slot);
        return clrt__context_fail_late(q->ctx, func, err, "clEnqueueWriteBuffer");
    }
    *mem = m;
    return CLRT_OK;
}

int clrt__scratch_matrix(clrt_queue *q, int slot, clrt_dtype dtype, size_t rows, size_t cols, const char *func,
                         clrt_buffer **out)
{
    *out = NULL;
    size_t bytes;
    if (clrt__matrix_bytes(rows, cols, clrt__dtype_size((int)dtype), &bytes) != 0)
        return clrt__fail(CLRT_ESHAPE, func, "a %zu x %zu intermediate overflows", rows, cols);
    cl_mem m;
    int st = clrt__scratch_mem(q, slot, bytes, 0, func, &m);
    if (st != CLRT_OK)
        return st;
    /* a handle over the slot for the calls that take buffers (never given out) */
    clrt_buffer *w = &q->scratch->window[slot];
    memset(w, 0, sizeof *w);
    w->tag = CLRT__TAG_BUFFER;
    w->ctx = q->ctx;
    w->cl = m;
    w->dtype = dtype;
    w->rows = rows;
    w->cols = cols;
    w->ld = cols;
    w->elem = clrt__dtype_size((int)dtype);
    w->is_view = 1; /* it owns nothing */
    *out = w;
    return CLRT_OK;
}
