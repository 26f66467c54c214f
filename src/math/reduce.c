/* clrt_reduce and clrt_argmax_rows: argument checks, the plan of levels
 * (kernels/reduce.h: each level's partials are the next level's input, until one
 * chunk is left), and their launch, all enqueued at once: partials live in
 * the queue's scratch buffer, so no level waits for the host. */
#include <limits.h>
#include <stdint.h>

#include "base/debug.h"
#include "base/error.h"
#include "base/util.h"
#include "math/widen.h"
#include "runtime/context.h"
#include "runtime/kcache.h"
#include "runtime/scratch.h"

/* Every level shrinks its input at least twofold (kernels/reduce.c refuses parameters
 * that would not), so a size_t count needs fewer levels than this. */
enum { MAX_LEVELS = 8 * sizeof(size_t) + 2 };

typedef struct level {
    int mode;
    clrt__built *k;
    size_t rows, cols;   /* its input */
    size_t out_ld;       /* row stride of its partials (their count per row) */
    int final;           /* writes the caller's output */
} level;

typedef struct plan {
    level lv[MAX_LEVELS];
    size_t n;
    size_t region[2]; /* elements of the two partial regions levels alternate between */
} plan;

/* The levels of op over axis of a rows x cols matrix (already flattened for
 * CLRT_ALL of a contiguous one), each with its kernel. */
static int make_plan(clrt_context *ctx, int op, clrt_axis axis, int dtype, size_t rows, size_t cols,
                     const char *func, plan *pl)
{
    pl->n = 0;
    pl->region[0] = pl->region[1] = 0;
    for (;;) {
        if (pl->n == MAX_LEVELS)
            return clrt__fail(CLRT_EUNSUPPORTED, func, "a reduction of %zu x %zu needs too many levels", rows, cols);
        level *l = &pl->lv[pl->n];
        clrt__built *k;
        size_t next_rows, next_cols;
        if (axis == CLRT_EACH_COL) {
            l->mode = CLRT__RED_COLS;
            int st = clrt__kcache_get(ctx, CLRT__K_REDUCE, dtype, clrt__reduce_variant(op, l->mode), func, &k);
            if (st != CLRT_OK)
                return st;
            next_rows = clrt__ceil_div(rows, clrt__rd(&k->p).crows);
            next_cols = cols;
            l->out_ld = cols;
            l->final = next_rows == 1;
        } else {
            /* the row mode follows from the parameters, which the ROW_ITEMS kernel has */
            int st = clrt__kcache_get(ctx, CLRT__K_REDUCE, dtype, clrt__reduce_variant(op, CLRT__RED_ROW_ITEMS),
                                      func, &k);
            if (st != CLRT_OK)
                return st;
            const clrt__reduce_params items = clrt__rd(&k->p);
            l->mode = clrt__reduce_row_mode(&items, op, cols);
            if (l->mode != CLRT__RED_ROW_ITEMS &&
                (st = clrt__kcache_get(ctx, CLRT__K_REDUCE, dtype, clrt__reduce_variant(op, l->mode), func, &k)) !=
                    CLRT_OK)
                return st;
            const clrt__reduce_params p = clrt__rd(&k->p);
            const size_t chunks = clrt__ceil_div(cols, clrt__reduce_chunk(&p, op, l->mode));
            l->out_ld = chunks;
            l->final = chunks == 1 && (axis == CLRT_EACH_ROW || rows == 1);
            next_rows = rows;
            next_cols = chunks;
            if (axis == CLRT_ALL) { /* the partials are dense: one row */
                next_rows = 1;
                next_cols = rows * chunks;
            }
        }
        l->k = k;
        l->rows = rows;
        l->cols = cols;
        if (!l->final && pl->region[pl->n % 2] < next_rows * next_cols)
            pl->region[pl->n % 2] = next_rows * next_cols;
        pl->n++;
        if (l->final)
            return CLRT_OK;
        rows = next_rows;
        cols = next_cols;
    }
}

/* The partials live in the queue's MATH scratch slot, made at least
 * SCRATCH_MIN bytes, which holds the partials of a reduction of millions of
 * elements, so that it is seldom replaced: under Oclgrind, buffers made after
 * a replaced scratch buffer (released while a cached kernel's argument still
 * names it) were reported as uninitialised after kernels had written them. */
enum { SCRATCH_MIN = 256 * 1024 };

/* Where one level reads or writes: a buffer, its start and row stride, and
 * (argmax) the buffer and start of the columns. */
typedef struct place {
    cl_mem mem, idx;
    cl_ulong off, ld, idx_off;
} place;

/* Enqueue the plan: a (or its flattened form) into out. */
static int run_plan(clrt_queue *q, const plan *pl, int op, const clrt_buffer *a, const clrt_buffer *out,
                    const char *func)
{
    const int argmax = op == CLRT__RED_ARGMAX;
    const size_t elem = a->elem;
    const size_t parts = pl->region[0] + pl->region[1];
    /* values, then (argmax) columns: int offsets of the column regions */
    const size_t need = parts * elem + (argmax ? parts * sizeof(cl_int) : 0);
    const cl_ulong region_off[2] = {0, pl->region[0]};
    const cl_ulong idx_base = parts * elem / sizeof(cl_int);
    int status = CLRT_OK;
    cl_mem scratch = NULL;
    if (need) {
        clrt__scratch_begin(q);
        status = clrt__scratch_mem(q, CLRT__SCRATCH_MATH, need, SCRATCH_MIN, func, &scratch);
    }
    place in = {.mem = a->cl, .idx = a->cl, .off = a->offset, .ld = a->ld};
    for (size_t i = 0; i < pl->n && status == CLRT_OK; i++) {
        const level *l = &pl->lv[i];
        place to;
        cl_uint write_val = 1;
        if (l->final && argmax) {
            /* the int32 result alone: the values go nowhere (any buffer will do) */
            to = (place){.mem = a->cl, .idx = out->cl, .off = 0, .ld = out->ld, .idx_off = out->offset};
            write_val = 0;
        } else if (l->final) {
            to = (place){.mem = out->cl, .idx = out->cl, .off = out->offset, .ld = out->ld};
        } else {
            to = (place){.mem = scratch, .idx = scratch, .off = region_off[i % 2], .ld = l->out_ld,
                         .idx_off = idx_base + region_off[i % 2]};
        }
        clrt__args args = {0};
        clrt__arg_ulong(&args, l->rows);
        clrt__arg_ulong(&args, l->cols);
        clrt__arg_mem(&args, in.mem);
        clrt__arg_ulong(&args, in.off);
        clrt__arg_ulong(&args, in.ld);
        clrt__arg_mem(&args, to.mem);
        clrt__arg_ulong(&args, to.off);
        clrt__arg_ulong(&args, to.ld);
        clrt__arg_mem(&args, in.idx);
        clrt__arg_ulong(&args, in.idx_off);
        clrt__arg_mem(&args, to.idx);
        clrt__arg_ulong(&args, to.idx_off);
        clrt__arg_uint(&args, i > 0);      /* has_idx */
        clrt__arg_uint(&args, write_val);
        size_t global[1], local[1];
        clrt__reduce_params p = clrt__rd(&l->k->p);
        clrt__reduce_geometry(&p, op, l->mode, l->rows, l->cols, global, local);
        status = clrt__launch(q, l->k, func, &args, 1, global, local);
        /* the next level reads these partials as a dense matrix */
        in = (place){.mem = scratch, .idx = scratch, .off = to.off, .ld = l->out_ld, .idx_off = to.idx_off};
    }
    if (need)
        clrt__scratch_end(q);
    return status;
}

/* The handles both entry points check first (then each its own arguments,
 * contexts, dtypes and shapes, in the order that makes the status predictable). */
static int check_common(const clrt_queue *q, const clrt_buffer *out, const clrt_buffer *a, const char *func)
{
    int status = clrt__check_queue(q, func);
    if (status == CLRT_OK)
        status = clrt__check_buffer(out, func, "out");
    if (status == CLRT_OK)
        status = clrt__check_buffer(a, func, "a");
    return status;
}

static int check_float(const clrt_buffer *a, const char *func)
{
    if (a->dtype == CLRT_INT32)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "reductions of int32 matrices are not supported");
    return CLRT_OK;
}

/* A checked reduction of a 16-bit a: a and a 16-bit out widened to float32, the
 * float32 reduction, out narrowed (math/widen.h). */
static int reduce_widened(clrt_queue *q, clrt_reduce_op op, clrt_axis axis, clrt_buffer *out, const clrt_buffer *a,
                          const char *func)
{
    clrt__widening w = {0};
    const clrt_buffer *wa, *wo;
    int st = clrt__widen(q, &w, a, 1, func, &wa);
    if (st == CLRT_OK)
        st = clrt__widen(q, &w, out, 0, func, &wo);
    if (st == CLRT_OK)
        st = clrt_reduce(q, op, axis, (clrt_buffer *)wo, wa);
    st = clrt__narrow(q, out, wo, st, func);
    clrt__widen_done(&w);
    return st;
}

int clrt_reduce(clrt_queue *q, clrt_reduce_op op, clrt_axis axis, clrt_buffer *out, const clrt_buffer *a)
{
    static const char func[] = "clrt_reduce";
    int status = check_common(q, out, a, func);
    if (status != CLRT_OK)
        return status;
    if (op != CLRT_REDUCE_SUM && op != CLRT_REDUCE_MAX && op != CLRT_REDUCE_MIN)
        return clrt__fail(CLRT_EINVAL, func, "unknown op %d: use CLRT_REDUCE_SUM, _MAX or _MIN", (int)op);
    if (axis != CLRT_ALL && axis != CLRT_EACH_ROW && axis != CLRT_EACH_COL)
        return clrt__fail(CLRT_EINVAL, func, "unknown axis %d: use CLRT_ALL, CLRT_EACH_ROW or CLRT_EACH_COL",
                          (int)axis);
    if (clrt__overlap(out, a))
        return clrt__fail(CLRT_EINVAL, func, "the output shares memory with a; a reduction cannot run in place");
    if (a->ctx != q->ctx || out->ctx != q->ctx)
        return clrt__fail(CLRT_EINVAL, func, "operands and queue belong to different contexts");
    /* 16-bit a: out that dtype or float32 (math/widen.h) */
    if (a->dtype != out->dtype && !(clrt__is_16bit(a->dtype) && out->dtype == CLRT_FLOAT32))
        return clrt__fail(CLRT_ESHAPE, func, "dtypes differ (out %s, a %s)", clrt__dtype_word((int)out->dtype),
                          clrt__dtype_word((int)a->dtype));
    if ((status = check_float(a, func)) != CLRT_OK)
        return status;
    const size_t want_rows = axis == CLRT_EACH_ROW ? a->rows : 1, want_cols = axis == CLRT_EACH_COL ? a->cols : 1;
    if (out->rows != want_rows || out->cols != want_cols)
        return clrt__fail(CLRT_ESHAPE, func, "out is %zux%zu; reducing %s of a %zux%zu matrix needs %zux%zu", out->rows,
                          out->cols,
                          axis == CLRT_ALL        ? "every element"
                          : axis == CLRT_EACH_ROW ? "each row"
                                                  : "each column",
                          a->rows, a->cols, want_rows, want_cols);
    if ((status = clrt__check_usable(q->ctx, func)) != CLRT_OK)
        return status;
    if (clrt__is_16bit(a->dtype))
        return reduce_widened(q, op, axis, out, a, func);
    size_t rows = a->rows, cols = a->cols;
    /* one column's or one row's reduction is the reduction of every element, which
     * runs on a contiguous vector as one long row (a 10^7 x 1 column sum on POCL:
     * 5.0 ms in blocks of rows, 3.6 ms as one row) */
    if ((axis == CLRT_EACH_COL && cols == 1) || (axis == CLRT_EACH_ROW && rows == 1))
        axis = CLRT_ALL;
    if (axis == CLRT_ALL && clrt__contiguous(a)) { /* one run of memory: one long row */
        cols *= rows;
        rows = 1;
    }
    plan pl;
    status = make_plan(q->ctx, (int)op, axis, (int)a->dtype, rows, cols, func, &pl);
    return status == CLRT_OK ? run_plan(q, &pl, (int)op, a, out, func) : status;
}

int clrt_argmax_rows(clrt_queue *q, clrt_buffer *out, const clrt_buffer *a)
{
    static const char func[] = "clrt_argmax_rows";
    int status = check_common(q, out, a, func);
    if (status != CLRT_OK)
        return status;
    if (a->ctx != q->ctx || out->ctx != q->ctx)
        return clrt__fail(CLRT_EINVAL, func, "operands and queue belong to different contexts");
    if ((status = check_float(a, func)) != CLRT_OK)
        return status;
    if (out->dtype != CLRT_INT32)
        return clrt__fail(CLRT_ESHAPE, func, "out is %s; the columns of the maxima are int32",
                          clrt__dtype_word((int)out->dtype));
    if (out->rows != a->rows || out->cols != 1)
        return clrt__fail(CLRT_ESHAPE, func, "out is %zux%zu; a %zux%zu matrix needs %zux1", out->rows, out->cols,
                          a->rows, a->cols, a->rows);
    if (a->cols > INT32_MAX)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "%zu columns do not fit the int32 result", a->cols);
    if ((status = clrt__check_usable(q->ctx, func)) != CLRT_OK)
        return status;
    if (clrt__is_16bit(a->dtype)) { /* a widened to float32 (math/widen.h) */
        clrt__widening w = {0};
        const clrt_buffer *wa;
        status = clrt__widen(q, &w, a, 1, func, &wa);
        if (status == CLRT_OK)
            status = clrt_argmax_rows(q, out, wa);
        clrt__widen_done(&w);
        return status;
    }
    plan pl;
    status = make_plan(q->ctx, CLRT__RED_ARGMAX, CLRT_EACH_ROW, (int)a->dtype, a->rows, a->cols, func, &pl);
    return status == CLRT_OK ? run_plan(q, &pl, CLRT__RED_ARGMAX, a, out, func) : status;
}
