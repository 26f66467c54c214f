/* Device matrices, views of them, and host transfers. */
#include <stdint.h>
#include <stdlib.h>

#include "base/debug.h"
#include "base/error.h"
#include "base/util.h"
#include "kernels/table.h"
#include "runtime/context.h"
#include "runtime/event.h"

int clrt_buffer_create(clrt_buffer **out, clrt_context *ctx, clrt_dtype dtype, size_t rows,
                       size_t cols)
{
    static const char func[] = "clrt_buffer_create";
    if (!out)
        return clrt__fail(CLRT_EINVAL, func, "out is NULL");
    *out = NULL;
    int status = clrt__check_context(ctx, func);
    if (status != CLRT_OK)
        return status;
    return clrt__buffer_new(out, ctx, dtype, rows, cols, func);
}

int clrt__buffer_new(clrt_buffer **out, clrt_context *ctx, clrt_dtype dtype, size_t rows, size_t cols,
                     const char *func)
{
    int status;
    *out = NULL;
    size_t elem = clrt__dtype_size((int)dtype);
    if (!elem)
        return clrt__fail(CLRT_EINVAL, func, "unknown dtype %d (use CLRT_FLOAT32, CLRT_FLOAT64, CLRT_INT32, "
                                      "CLRT_FLOAT16 or CLRT_BFLOAT16)",
                          (int)dtype);
    size_t bytes;
    if (clrt__matrix_bytes(rows, cols, elem, &bytes) != 0)
        return clrt__fail(CLRT_EINVAL, func, "%zu x %zu %s: %s", rows, cols, clrt__dtype_word((int)dtype),
                          (rows == 0 || cols == 0) ? "a dimension is zero" : "the byte size overflows");
    if (dtype == CLRT_FLOAT64 && !ctx->info.has_fp64)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "device '%s' has no fp64 (cl_khr_fp64)",
                          ctx->info.name);
    if ((uint64_t)bytes > ctx->info.max_alloc)
        return clrt__fail(CLRT_ENOMEM, func,
                          "%zu x %zu needs %zu bytes, above the largest buffer device '%s' allows "
                          "(%llu bytes)",
                          rows, cols, bytes, ctx->info.name, (unsigned long long)ctx->info.max_alloc);
    if ((status = clrt__check_usable(ctx, func)) != CLRT_OK)
        return status;

    clrt_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    cl_int err = clrt__fault(CLRT__FAULT_CREATE_BUFFER);
    if (err == CL_SUCCESS)
        b->cl = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS || !b->cl) {
        free(b);
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clCreateBuffer", &ctx->info,
                             "cannot allocate %zu bytes", bytes);
    }
    b->tag = CLRT__TAG_BUFFER;
    b->ctx = ctx;
    b->dtype = dtype;
    b->rows = rows;
    b->cols = cols;
    b->offset = 0;
    b->ld = cols;
    b->elem = elem;
    clrt__context_retain(ctx);
    clrt__live(CLRT__LIVE_BUFFER, +1);
    *out = b;
    return CLRT_OK;
}

/* *out: a rows x cols window of src's memory at offset with row stride ld
 * (elements), for clrt_buffer_view and clrt_buffer_reshape. */
static int new_view(clrt_buffer **out, const clrt_buffer *src, size_t offset, size_t rows, size_t cols, size_t ld,
                    const char *func)
{
    clrt_buffer *v = calloc(1, sizeof *v);
    if (!v)
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    *v = *src;
    v->offset = offset;
    v->rows = rows;
    v->cols = cols;
    v->ld = ld;
    v->is_view = 1;
    /* the view holds the memory and the context, whatever happens to src's handle */
    clRetainMemObject(v->cl);
    clrt__context_retain(v->ctx);
    clrt__live(CLRT__LIVE_BUFFER, +1);
    *out = v;
    return CLRT_OK;
}

/* What clrt_buffer_view and clrt_buffer_reshape check first: out (emptied),
 * the source handle (named what), a rows x cols `shape` without a zero. */
static int check_view_args(clrt_buffer **out, const clrt_buffer *src, const char *what, size_t rows, size_t cols,
                           const char *shape, const char *func)
{
    if (!out)
        return clrt__fail(CLRT_EINVAL, func, "out is NULL");
    *out = NULL;
    int status = clrt__check_buffer(src, func, what);
    if (status != CLRT_OK)
        return status;
    if (rows == 0 || cols == 0)
        return clrt__fail(CLRT_EINVAL, func, "a %zu x %zu %s: a dimension is zero", rows, cols, shape);
    return CLRT_OK;
}

int clrt_buffer_view(clrt_buffer **out, clrt_buffer *parent, size_t row, size_t col, size_t rows, size_t cols)
{
    static const char func[] = "clrt_buffer_view";
    int status = check_view_args(out, parent, "parent", rows, cols, "view", func);
    if (status != CLRT_OK)
        return status;
    if (row > parent->rows || rows > parent->rows - row || col > parent->cols || cols > parent->cols - col)
        return clrt__fail(CLRT_EINVAL, func,
                          "a %zu x %zu window at (%zu, %zu) does not lie inside the %zu x %zu parent", rows, cols, row,
                          col, parent->rows, parent->cols);
    return new_view(out, parent, parent->offset + row * parent->ld + col, rows, cols, parent->ld, func);
}

int clrt_buffer_reshape(clrt_buffer **out, clrt_buffer *src, size_t rows, size_t cols)
{
    static const char func[] = "clrt_buffer_reshape";
    int status = check_view_args(out, src, "src", rows, cols, "shape", func);
    if (status != CLRT_OK)
        return status;
    if (!clrt__contiguous(src))
        return clrt__fail(CLRT_EINVAL, func,
                          "the %zu x %zu src is a strided window (its rows are %zu elements apart), not one run of "
                          "memory; copy it into a new buffer first",
                          src->rows, src->cols, src->ld);
    /* src's count fits a size_t (it exists); the new one must not wrap to it */
    if (cols > src->rows * src->cols / rows || rows * cols != src->rows * src->cols)
        return clrt__fail(CLRT_ESHAPE, func, "%zu x %zu is not the %zu elements of the %zu x %zu src", rows, cols,
                          src->rows * src->cols, src->rows, src->cols);
    /* ld = cols: dense, its rows follow one another */
    return new_view(out, src, src->offset, rows, cols, cols, func);
}

void clrt_buffer_destroy(clrt_buffer *buf)
{
    if (!buf)
        return;
    if (buf->tag != CLRT__TAG_BUFFER) {
        clrt__report("clrt_buffer_destroy", "%p is not a live clrt buffer; ignored", (void *)buf);
        return;
    }
    buf->tag = CLRT__TAG_DEAD;
    /* OpenCL keeps the memory until the commands using it have completed. */
    clReleaseMemObject(buf->cl);
    clrt__context_release(buf->ctx);
    free(buf);
    clrt__live(CLRT__LIVE_BUFFER, -1);
}

size_t clrt_buffer_rows(const clrt_buffer *buf)
{
    return (buf && buf->tag == CLRT__TAG_BUFFER) ? buf->rows : 0;
}

size_t clrt_buffer_cols(const clrt_buffer *buf)
{
    return (buf && buf->tag == CLRT__TAG_BUFFER) ? buf->cols : 0;
}

clrt_dtype clrt_buffer_dtype(const clrt_buffer *buf)
{
    return (buf && buf->tag == CLRT__TAG_BUFFER) ? buf->dtype : (clrt_dtype)0;
}

/* The checks read and write share: queue, buffer, same context, host pointer, count. */
static int check_transfer(const clrt_queue *q, const clrt_buffer *b, const char *name,
                          const void *host, size_t count, const char *func)
{
    int status = clrt__check_queue(q, func);
    if (status == CLRT_OK)
        status = clrt__check_buffer(b, func, name);
    if (status != CLRT_OK)
        return status;
    if (b->ctx != q->ctx)
        return clrt__fail(CLRT_EINVAL, func, "the buffer and the queue belong to different contexts");
    if (!host)
        return clrt__fail(CLRT_EINVAL, func, "host pointer is NULL");
    if (count != b->rows * b->cols)
        return clrt__fail(CLRT_EINVAL, func, "count is %zu but the buffer holds %zu x %zu = %zu elements",
                          count, b->rows, b->cols, b->rows * b->cols);
    return clrt__check_usable(q->ctx, func);
}

/* The host <-> device copy of b's window: one plain copy when its elements
 * are one run of memory, else a rectangle (row pitch ld). Blocking, or not
 * with its event in *ev (which may be NULL). */
static cl_int transfer(clrt_queue *q, const clrt_buffer *b, int write, void *host, cl_bool blocking, cl_event *ev)
{
    const size_t elem = b->elem;
    if (clrt__contiguous(b)) {
        const size_t off = b->offset * elem, size = b->rows * b->cols * elem;
        return write ? clEnqueueWriteBuffer(q->cl, b->cl, blocking, off, size, host, 0, NULL, ev)
                     : clEnqueueReadBuffer(q->cl, b->cl, blocking, off, size, host, 0, NULL, ev);
    }
    const size_t origin[3] = {(b->offset % b->ld) * elem, b->offset / b->ld, 0};
    const size_t host_origin[3] = {0, 0, 0};
    const size_t region[3] = {b->cols * elem, b->rows, 1};
    return write ? clEnqueueWriteBufferRect(q->cl, b->cl, blocking, origin, host_origin, region, b->ld * elem, 0,
                                            b->cols * elem, 0, host, 0, NULL, ev)
                 : clEnqueueReadBufferRect(q->cl, b->cl, blocking, origin, host_origin, region, b->ld * elem, 0,
                                           b->cols * elem, 0, host, 0, NULL, ev);
}

static const char *transfer_call(const clrt_buffer *b, int write)
{
    if (b->is_view && !clrt__contiguous(b))
        return write ? "clEnqueueWriteBufferRect" : "clEnqueueReadBufferRect";
    return write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer";
}

int clrt_buffer_write(clrt_queue *q, clrt_buffer *dst, const void *src, size_t count)
{
    static const char func[] = "clrt_buffer_write";
    int status = check_transfer(q, dst, "dst", src, count, func);
    if (status != CLRT_OK)
        return status;
    /* Blocking: the contract is that src may be reused on return, and a
     * non-blocking write would need a host copy to honour that. */
    cl_int err = clrt__fault(CLRT__FAULT_WRITE);
    if (err == CL_SUCCESS)
        err = transfer(q, dst, 1, (void *)(uintptr_t)src, CL_TRUE, NULL);
    if (err != CL_SUCCESS)
        return clrt__context_fail_late(q->ctx, func, err, transfer_call(dst, 1));
    return CLRT_OK;
}

int clrt_buffer_read(clrt_queue *q, const clrt_buffer *src, void *dst, size_t count)
{
    static const char func[] = "clrt_buffer_read";
    int status = check_transfer(q, src, "src", dst, count, func);
    if (status != CLRT_OK)
        return status;
    cl_int err = clrt__fault(CLRT__FAULT_READ);
    if (err == CL_SUCCESS)
        err = transfer(q, src, 0, dst, CL_TRUE, NULL);
    if (err != CL_SUCCESS)
        return clrt__context_fail_late(q->ctx, func, err, transfer_call(src, 0));
    return CLRT_OK;
}

/* The non-blocking copy, and its event when done is not NULL. A refused
 * enqueue is a late failure, as for the blocking copies. */
static int transfer_async(clrt_queue *q, const clrt_buffer *b, int write, void *host, size_t count,
                          clrt_event **done, const char *func)
{
    if (done)
        *done = NULL;
    int status = check_transfer(q, b, write ? "dst" : "src", host, count, func);
    if (status != CLRT_OK)
        return status;
    clrt_event *ev = NULL;
    if (done && !(ev = clrt__event_alloc()))
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    cl_event cl = NULL;
    cl_int err = clrt__fault(write ? CLRT__FAULT_WRITE : CLRT__FAULT_READ);
    if (err == CL_SUCCESS)
        err = transfer(q, b, write, host, CL_FALSE, done ? &cl : NULL);
    if (err != CL_SUCCESS) {
        free(ev);
        return clrt__context_fail_late(q->ctx, func, err, transfer_call(b, write));
    }
    /* start it now, whatever the host does next (see clrt_event_record) */
    clFlush(q->cl);
    if (done) {
        clrt__event_publish(ev, q, cl);
        *done = ev;
    }
    return CLRT_OK;
}

int clrt_buffer_write_async(clrt_queue *q, clrt_buffer *dst, const void *src, size_t count, clrt_event **done)
{
    return transfer_async(q, dst, 1, (void *)(uintptr_t)src, count, done, "clrt_buffer_write_async");
}

int clrt_buffer_read_async(clrt_queue *q, const clrt_buffer *src, void *dst, size_t count, clrt_event **done)
{
    return transfer_async(q, src, 0, dst, count, done, "clrt_buffer_read_async");
}
