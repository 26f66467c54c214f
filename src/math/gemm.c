/* clrt_gemm and clrt_matmul: argument checks, the context's matmul kernel for
 * the dtype and transposes (runtime/kcache.h), and its launch: on CPU devices op(B)
 * first packed into column panels (kernels/matmul.h) when the shape pays for it, or
 * whenever op(B) is B^T (which the kernel would otherwise gather), and op(A)
 * into row panels when the shape pays for it (A^T, read a row apart per k). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "base/debug.h"
#include "base/error.h"
#include "base/util.h"
#include "kernels/matmul_plan.h"
#include "math/gemm.h"
#include "math/widen.h"
#include "runtime/context.h"
#include "runtime/kcache.h"
#include "runtime/scratch.h"

/* The operands of one product (or a strided batch of them), as the kernel takes them. */
typedef struct gemm_args {
    size_t M, N, K;
    const clrt_buffer *a, *b, *c;
    size_t a_off, b_off, c_off;
    size_t lda, ldb, ldc;
    clrt_dtype dtype;
    double alpha, beta;
    size_t real; /* bytes of a REAL */
    cl_mem cmem; /* where C is written: c's memory unless set (k splits' partials) */
    size_t count, sa, sb, sc; /* the batch: matrices, elements from one to the next */
    cl_mem bias;              /* the epilogue's bias (NULL: none) */
    size_t bias_off, bias_ld;
    unsigned epi; /* cl/common.cl's CLRT_EPI_*: act << 2 | bias (1 per column, 2 per row) */
} gemm_args;

/* The kernel's arguments, with A and B (their memory, offsets and strides)
 * as the launch reads them: in place or packed (packed: bit 0 B, bit 1 A,
 * bit 2 the grid's dimensions swapped). */
typedef struct operands {
    cl_mem amem, bmem;
    size_t a_off, b_off;
    size_t lda, ldb;
    unsigned packed; /* the GPU variant: the k of each split (0: none), cl/matmul_gpu.cl */
} operands;

/* The epilogue's bias (C's own memory, unread, when there is none), its offset and
 * stride, and epi: matmul's, matmul_dot's and matmul_sum's last arguments but one. */
static void epilogue_args(const gemm_args *g, clrt__args *a)
{
    clrt__arg_mem(a, g->bias ? g->bias : g->c->cl);
    clrt__arg_ulong(a, g->bias ? g->bias_off : 0);
    clrt__arg_uint(a, g->bias ? g->bias_ld : 0);
    clrt__arg_uint(a, g->epi);
}

/* A launch's NDRange over a batch: dimension 2 over its matrices (a group of one
 * matrix deep), 2-D for one. The number of dimensions. */
static cl_uint batch_dims(const gemm_args *g, size_t global[3], size_t local[3])
{
    global[2] = g->count;
    local[2] = 1;
    return g->count > 1 ? 3 : 2;
}

static void matmul_args(const gemm_args *g, const operands *o, clrt__args *a)
{
    *a = (clrt__args){0};
    clrt__arg_uint(a, g->M);
    clrt__arg_uint(a, g->N);
    clrt__arg_uint(a, g->K);
    clrt__arg_real(a, g->dtype, g->alpha);
    clrt__arg_mem(a, o->amem);
    clrt__arg_ulong(a, o->a_off);
    clrt__arg_uint(a, o->lda);
    clrt__arg_mem(a, o->bmem);
    clrt__arg_ulong(a, o->b_off);
    clrt__arg_uint(a, o->ldb);
    clrt__arg_real(a, g->dtype, g->beta);
    clrt__arg_mem(a, g->cmem ? g->cmem : g->c->cl);
    clrt__arg_ulong(a, g->c_off);
    clrt__arg_uint(a, g->ldc);
    clrt__arg_ulong(a, g->count > 1 ? g->sa : 0);
    clrt__arg_ulong(a, g->count > 1 ? g->sb : 0);
    clrt__arg_ulong(a, g->count > 1 ? g->sc : 0);
    epilogue_args(g, a);
    clrt__arg_uint(a, o->packed);
}

/* One pack launch (pack_b or pack_a) of n panels from panel p0 into scratch
 * at element offset dst_off (pack_b: always 0, not an argument). */
static int enqueue_pack(clrt_queue *q, clrt__built *k, int aux, const char *func, const gemm_args *g, int ta,
                        int tb, cl_mem scratch, size_t p0, size_t n, size_t dst_off)
{
    size_t global[2], local[2], offset[2];
    const size_t item0 = q->ctx->facts.max_work_item[0];
    clrt__args a = {0};
    const int pack_b = aux == CLRT__MATMUL_AUX_PACK_B;
    clrt__arg_uint(&a, pack_b ? g->N : g->M);
    clrt__arg_uint(&a, g->K);
    clrt__arg_mem(&a, pack_b ? g->b->cl : g->a->cl);
    clrt__arg_ulong(&a, pack_b ? g->b_off : g->a_off);
    clrt__arg_uint(&a, pack_b ? g->ldb : g->lda);
    clrt__arg_mem(&a, scratch);
    if (!pack_b)
        clrt__arg_ulong(&a, dst_off);
    clrt__arg_uint(&a, n);
    if (pack_b)
        clrt__matmul_pack_geometry(tb, clrt__mm(&k->p).vw, g->K, p0, n, k->aux_wg[aux], item0, offset, global,
                                   local);
    else
        clrt__matmul_pack_a_geometry(ta, g->K, p0, n, k->aux_wg[aux], item0, offset, global, local);
    return clrt__enqueue_locked(q, k->aux[aux], func, &a, 2, offset, global, local);
}

/* The product with op(B) packed per slices of b_per column panels and/or
 * op(A) per slices of a_per row panels (0: that operand in place), in the
 * queue's scratch: B's slice first, A's after it. For each B slice, each A
 * slice: pack what is packed (A once when it is one slice), then the matmul
 * over those panels (the global offsets say which). *done = 0 when the
 * scratch cannot be had: the caller runs in place instead (packing only makes
 * it faster). */
/* Dimension 0 over C's row tiles, 1 over its column tiles (packed bit 2). */
static void swap2(size_t v[2])
{
    const size_t t = v[0];
    v[0] = v[1];
    v[1] = t;
}

static int gemm_packed(clrt_queue *q, clrt__built *k, const char *func, const gemm_args *g, int ta, int tb,
                       size_t b_per, size_t a_per, int rows_first, int *done)
{
    const clrt__matmul_params p = clrt__matmul_launch_params(&k->p, k->variant);
    const size_t cols = ((size_t)g->N + p.tn - 1) / p.tn, rows = ((size_t)g->M + p.tm - 1) / p.tm;
    const size_t bstep = b_per ? b_per : (cols + p.wgx - 1) / p.wgx * p.wgx;
    const size_t astep = a_per ? a_per : (rows + p.wgy - 1) / p.wgy * p.wgy;
    /* A's region starts on a 4 KiB boundary after B's */
    size_t b_bytes = b_per ? (bstep < cols ? bstep : cols) * g->K * p.tn * g->real : 0;
    b_bytes = (b_bytes + 4095) / 4096 * 4096;
    const size_t a_bytes = a_per ? (astep < rows ? astep : rows) * g->K * p.tm * g->real : 0;
    *done = 0;
    clrt__scratch_begin(q);
    cl_mem scratch;
    int status = clrt__scratch_mem(q, CLRT__SCRATCH_MATH, b_bytes + a_bytes, 0, func, &scratch);
    if (status != CLRT_OK) {
        clrt__scratch_end(q);
        /* no memory for the panels: the caller multiplies in place */
        return status == CLRT_ENOMEM ? CLRT_OK : status;
    }
    *done = 1;
    operands o = {g->a->cl, g->b->cl, g->a_off, g->b_off, g->lda, g->ldb,
                  (b_per ? 1u : 0u) | (a_per ? 2u : 0u) | (rows_first ? 4u : 0u)};
    if (b_per) {
        o.bmem = scratch;
        o.b_off = 0;
        o.ldb = 0;
    }
    if (a_per) {
        o.amem = scratch;
        o.a_off = b_bytes / g->real;
        o.lda = 0;
    }
    size_t global[2], local[2];
    clrt__args margs;
    matmul_args(g, &o, &margs);
    clrt__matmul_geometry(&p, g->M, g->N, global, local);
    clrt_mutex_lock(&k->launch_lock);
    for (size_t p0 = 0; p0 < cols && status == CLRT_OK; p0 += bstep) {
        const size_t n = cols - p0 < bstep ? cols - p0 : bstep;
        if (b_per)
            status = enqueue_pack(q, k, CLRT__MATMUL_AUX_PACK_B, func, g, ta, tb, scratch, p0, n, 0);
        for (size_t r0 = 0; r0 < rows && status == CLRT_OK; r0 += astep) {
            const size_t m = rows - r0 < astep ? rows - r0 : astep;
            if (a_per && (p0 == 0 || astep < rows))
                status = enqueue_pack(q, k, CLRT__MATMUL_AUX_PACK_A, func, g, ta, tb, scratch, r0, m, o.a_off);
            if (status != CLRT_OK)
                break;
            /* this slice's tiles: column panels p0 .., row panels r0 .., whole work-groups */
            size_t moffset[2] = {p0, r0};
            global[0] = (n + p.wgx - 1) / p.wgx * p.wgx;
            global[1] = (m + p.wgy - 1) / p.wgy * p.wgy;
            if (rows_first) {
                swap2(moffset);
                swap2(global);
            }
            status = clrt__enqueue_locked(q, k->main, func, &margs, 2, moffset, global, local);
            if (rows_first)
                swap2(global);
        }
    }
    clrt_mutex_unlock(&k->launch_lock);
    clrt__scratch_end(q);
    return status;
}

/* A B^T in the dot form (cl/matmul_cpu.cl matmul_dot), nothing packed, in
 * launches over slices of C's columns whose rows of B fit the last-level cache. */
static int gemm_dot(clrt_queue *q, clrt__built *k, const char *func, const gemm_args *g)
{
    const clrt__matmul_params p = clrt__matmul_launch_params(&k->p, k->variant);
    size_t tm, nv;
    clrt__matmul_dot_tile(&p, &tm, &nv);
    const size_t cols = clrt__matmul_dot_columns(&p, g->N, g->K, g->real,
                                                 clrt__matmul_pack_scratch_max(&q->ctx->facts, &p));
    const operands o = {g->a->cl, g->b->cl, g->a_off, g->b_off, g->lda, g->ldb, 0};
    size_t global[3], local[3];
    const cl_uint dims = batch_dims(g, global, local);
    clrt__args args;
    matmul_args(g, &o, &args);
    args.n--; /* matmul's but the last (packed) */
    int status = CLRT_OK;
    clrt_mutex_lock(&k->launch_lock);
    for (size_t c0 = 0; c0 < g->N && status == CLRT_OK; c0 += cols) {
        const size_t n = g->N - c0 < cols ? g->N - c0 : cols;
        clrt__matmul_dot_geometry(&p, g->M, n, global, local);
        const size_t offset[3] = {c0 / nv, 0, 0};
        status = clrt__enqueue_locked(q, k->aux[CLRT__MATMUL_AUX_DOT], func, &args, dims, offset, global, local);
    }
    clrt_mutex_unlock(&k->launch_lock);
    return status;
}

/* math/gemm.h */
int clrt__gemm_same_kind(const clrt_queue *q, const clrt_buffer *a, const clrt_buffer *b, const clrt_buffer *c,
                         const char *func)
{
    if (a->ctx != q->ctx || b->ctx != q->ctx || c->ctx != q->ctx)
        return clrt__fail(CLRT_EINVAL, func, "operands and queue belong to different contexts");
    /* 16-bit a and b: one dtype, c that dtype or float32 (math/widen.h) */
    const int half = clrt__is_16bit(a->dtype) || clrt__is_16bit(b->dtype) || clrt__is_16bit(c->dtype);
    if (a->dtype != b->dtype || (a->dtype != c->dtype && !(half && c->dtype == CLRT_FLOAT32)))
        return clrt__fail(CLRT_ESHAPE, func, "dtypes differ (c %s, a %s, b %s)", clrt__dtype_word((int)c->dtype),
                          clrt__dtype_word((int)a->dtype), clrt__dtype_word((int)b->dtype));
    if (a->dtype == CLRT_INT32)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "products of int32 matrices are not supported");
    return CLRT_OK;
}

/* math/gemm.h */
int clrt__gemm_live(const clrt_queue *q, clrt_trans ta, clrt_trans tb, const clrt_buffer *a, const clrt_buffer *b,
                    const clrt_buffer *c, const char *func)
{
    int status = clrt__check_queue(q, func);
    if (status == CLRT_OK)
        status = clrt__check_buffer(c, func, "c");
    if (status == CLRT_OK)
        status = clrt__check_buffer(a, func, "a");
    if (status == CLRT_OK)
        status = clrt__check_buffer(b, func, "b");
    if (status == CLRT_OK && ((ta != CLRT_NO_TRANS && ta != CLRT_TRANS) || (tb != CLRT_NO_TRANS && tb != CLRT_TRANS)))
        status = clrt__fail(CLRT_EINVAL, func,
                            "unknown transpose value (ta %d, tb %d): use CLRT_NO_TRANS or CLRT_TRANS", (int)ta,
                            (int)tb);
    return status;
}

/* Checks in the order that makes the status predictable: live handles and
 * the transposes (clrt__gemm_live), then c sharing memory with an input (EINVAL
 * before contexts, dtypes and shapes, as clrt_matmul always did), one context, one
 * dtype, a dtype gemm takes, the shapes, the 32-bit limits. */
int clrt__gemm_check(const clrt_queue *q, clrt_trans ta, clrt_trans tb, const clrt_buffer *a,
                     const clrt_buffer *b, const clrt_buffer *c, const char *func)
{
    const int status = clrt__gemm_live(q, ta, tb, a, b, c, func);
    if (status != CLRT_OK)
        return status;
    if (clrt__overlap(c, a) || clrt__overlap(c, b))
        return clrt__fail(CLRT_EINVAL, func, "the output c shares memory with %s; a product cannot run in place",
                          clrt__overlap(c, a) ? "a" : "b");
    int kind = clrt__gemm_same_kind(q, a, b, c, func);
    if (kind != CLRT_OK)
        return kind;
    const size_t M = ta ? a->cols : a->rows, K = ta ? a->rows : a->cols;
    const size_t Kb = tb ? b->cols : b->rows, N = tb ? b->rows : b->cols;
    if (K != Kb || c->rows != M || c->cols != N)
        return clrt__fail(CLRT_ESHAPE, func,
                          "c(%zux%zu) = op(a)(%zux%zu) op(b)(%zux%zu): need op(a) MxK, op(b) KxN, c MxN", c->rows,
                          c->cols, M, K, Kb, N);
    if (M > UINT_MAX || N > UINT_MAX || K > UINT_MAX || a->ld > UINT_MAX || b->ld > UINT_MAX || c->ld > UINT_MAX)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "matrix dimensions above %u are not supported", UINT_MAX);
    return CLRT_OK;
}

/* How much of g's k range, from its start, the GPU variant's matmul_fast may take
 * (kernels/matmul.h): 0 where it is not built, cannot run the group, or refuses
 * the operands. */
static size_t fast_k(const clrt__built *k, const gemm_args *g, int ta, int tb)
{
    const clrt__matmul_params p = clrt__matmul_launch_params(&k->p, k->variant);
    if (!k->aux[CLRT__MATMUL_AUX_FAST] || k->aux_wg[CLRT__MATMUL_AUX_FAST] < (size_t)p.wgx * p.wgy)
        return 0;
    /* a batch's matrices on the vw boundaries matrix 0's are on */
    if (g->count > 1 && (p.vw == 0 || g->sa % p.vw || g->sb % p.vw))
        return 0;
    return clrt__matmul_fast_k(&p, ta, tb, g->M, g->N, g->K, g->a_off, g->lda, g->b_off, g->ldb);
}

/* One launch sequence of the product g (its k range already cut to the slice);
 * fast: the GPU variant's matmul_fast takes it whole (fast_k). */
static int gemm_slice(clrt_queue *q, clrt__built *k, const char *func, const gemm_args *g, int ta, int tb, int dot,
                      int fast)
{
    int status = CLRT_OK;
    const clrt__matmul_params p = clrt__matmul_launch_params(&k->p, k->variant);
    const int rows_first = clrt__matmul_rows_first(&q->ctx->facts, &p, g->M, g->N, g->K, g->real);
    if (dot)
        return gemm_dot(q, k, func, g);
    /* a batch reads its operands in place: the panels are one matrix's */
    if (g->count == 1 && (k->aux[CLRT__MATMUL_AUX_PACK_B] || k->aux[CLRT__MATMUL_AUX_PACK_A])) {
        const size_t most = clrt__matmul_pack_scratch_max(&q->ctx->facts, &p);
        const size_t b_per = k->aux[CLRT__MATMUL_AUX_PACK_B]
                                 ? clrt__matmul_pack_panels(&p, g->M, g->N, g->K, g->real, most, tb) : 0;
        const size_t a_per = k->aux[CLRT__MATMUL_AUX_PACK_A]
                                 ? clrt__matmul_pack_a_panels(&p, g->M, g->N, g->K, g->real, most, ta, tb,
                                                              b_per > 0)
                                 : 0;
        int done = 0;
        if (b_per || a_per)
            status = gemm_packed(q, k, func, g, ta, tb, b_per, a_per, rows_first, &done);
        if (done)
            return status;
    }
    size_t global[3], local[3];
    const cl_uint dims = batch_dims(g, global, local);
    clrt__matmul_geometry(&p, g->M, g->N, global, local);
    if (rows_first) /* wgx = wgy: local stays */
        swap2(global);
    const operands o = {g->a->cl, g->b->cl, g->a_off, g->b_off, g->lda, g->ldb, rows_first ? 4u : 0u};
    clrt__args args;
    matmul_args(g, &o, &args);
    if (!fast)
        return clrt__launch(q, k, func, &args, dims, global, local);
    clrt_mutex_lock(&k->launch_lock);
    status = clrt__enqueue_locked(q, k->aux[CLRT__MATMUL_AUX_FAST], func, &args, dims, NULL, global, local);
    clrt_mutex_unlock(&k->launch_lock);
    return status;
}

/* One launch of the GPU variant over the k splits g's ksplit makes (3-D: z = split), of
 * matmul_fast (fast) or matmul. */
static int launch_splits(clrt_queue *q, clrt__built *k, const char *func, const gemm_args *g, size_t kc,
                         size_t splits, int fast)
{
    const clrt__matmul_params p = clrt__matmul_launch_params(&k->p, k->variant);
    size_t global[3], local[3] = {0, 0, 1};
    clrt__matmul_geometry(&p, g->M, g->N, global, local);
    global[2] = splits;
    const operands o = {g->a->cl, g->b->cl, g->a_off, g->b_off, g->lda, g->ldb, (unsigned)kc};
    clrt__args args;
    matmul_args(g, &o, &args);
    return clrt__enqueue_locked(q, fast ? k->aux[CLRT__MATMUL_AUX_FAST] : k->main, func, &args, 3, NULL, global,
                                local);
}

/* The product g in `splits` splits of k, side by side (kernels/matmul.h
 * clrt__matmul_splits), each at most `most` long (0: any): their partials, alpha
 * applied, into the queue's scratch (matmul_fast for the whole splits where it
 * takes them, matmul for the rest), then C = their sum + beta C (matmul_sum).
 * *done = 0 where the scratch cannot be had: the caller runs it unsplit. */
static int gemm_split(clrt_queue *q, clrt__built *k, const char *func, const gemm_args *g, int ta, int tb,
                      size_t splits, size_t most, int *done)
{
    const clrt__matmul_params p = clrt__matmul_launch_params(&k->p, k->variant);
    const size_t step = 2 * (size_t)p.tk; /* whole splits are whole steps of matmul_fast */
    size_t kc = clrt__ceil_div(clrt__ceil_div(g->K, splits), step) * step;
    if (most && kc > most)
        kc = most / step * step;
    *done = 0;
    if (kc == 0 || kc >= g->K || k->aux_wg[CLRT__MATMUL_AUX_SUM] == 0)
        return CLRT_OK;
    splits = clrt__ceil_div(g->K, kc);
    clrt__scratch_begin(q);
    cl_mem part;
    int status = clrt__scratch_mem(q, CLRT__SCRATCH_MATH, splits * g->M * g->N * g->real, 0, func, &part);
    if (status != CLRT_OK) {
        clrt__scratch_end(q);
        return status == CLRT_ENOMEM ? CLRT_OK : status; /* no memory: unsplit */
    }
    *done = 1;
    gemm_args pg = *g; /* the partials: rows of N, one M x N after the other */
    pg.cmem = part;
    pg.c_off = 0;
    pg.ldc = g->N;
    pg.beta = 0.0;
    pg.epi = 0; /* the sum applies it */
    const size_t whole = g->K / kc;
    pg.K = whole * kc; /* every whole split's offsets must fit matmul_fast's 32 bits */
    const int fast = fast_k(k, &pg, ta, tb) == pg.K;
    clrt_mutex_lock(&k->launch_lock);
    if (fast) {
        status = launch_splits(q, k, func, &pg, kc, whole, 1);
        if (status == CLRT_OK && g->K > whole * kc) { /* the last, short split: matmul */
            pg.K = g->K - whole * kc;
            pg.a_off = g->a_off + whole * kc * (ta ? g->lda : 1);
            pg.b_off = g->b_off + whole * kc * (tb ? 1 : g->ldb);
            pg.c_off = whole * g->M * g->N;
            status = launch_splits(q, k, func, &pg, 0, 1, 0);
        }
    } else {
        pg.K = g->K;
        status = launch_splits(q, k, func, &pg, kc, splits, 0);
    }
    if (status == CLRT_OK) {
        clrt__args a = {0};
        clrt__arg_uint(&a, g->M);
        clrt__arg_uint(&a, g->N);
        clrt__arg_uint(&a, splits);
        clrt__arg_mem(&a, part);
        clrt__arg_real(&a, g->dtype, g->beta);
        clrt__arg_mem(&a, g->c->cl);
        clrt__arg_ulong(&a, g->c_off);
        clrt__arg_uint(&a, g->ldc);
        epilogue_args(g, &a);
        const size_t global[2] = {g->N, g->M};
        status = clrt__enqueue_locked(q, k->aux[CLRT__MATMUL_AUX_SUM], func, &a, 2, NULL, global, NULL);
    }
    clrt_mutex_unlock(&k->launch_lock);
    clrt__scratch_end(q);
    return status;
}

/* Which kernel variant a product takes: the transposes, and (decided on the
 * parameters it will be built with) the narrow variant for C thinner than a tile
 * unless A B^T runs as dots, and the tile's rows fitted to a C with few of them.
 * *dot: it runs in the dot form. */
static int pick_variant(clrt_queue *q, clrt_trans ta, clrt_trans tb, const clrt__gemm_op *op, int *dot)
{
    clrt__pvals pv;
    clrt__kcache_params(q->ctx, CLRT__K_MATMUL, (int)op->a->dtype, &pv);
    const clrt__matmul_params p0 = clrt__mm(&pv);
    *dot = clrt__matmul_dot(&p0, op->M, op->N, op->K, ta == CLRT_TRANS, tb == CLRT_TRANS);
    int variant = (ta ? CLRT__MATMUL_TA : 0) | (tb ? CLRT__MATMUL_TB : 0) |
                  (!*dot && clrt__matmul_narrow(&p0, op->N) ? CLRT__MATMUL_NARROW : 0);
    clrt__matmul_params tile = clrt__matmul_launch_params(&pv, variant);
    if (*dot && p0.dot_tm) /* the dot form's own tile is the one fitted */
        tile.tm = p0.dot_tm;
    variant |= op->act ? CLRT__MATMUL_ACT : 0; /* a program of its own: the activations compiled in */
    return variant | (int)(clrt__matmul_fit_rows(&tile, op->M, op->N, op->K) << CLRT__MATMUL_ROWS_SHIFT);
}

/* op as the kernels take it: matrix 0's places, the batch's strides, the epilogue. */
static gemm_args args_of(const clrt__gemm_op *op)
{
    const clrt_buffer *a = op->a, *b = op->b, *c = op->c, *bias = op->bias;
    const unsigned bias_mode = bias ? (op->bias_per_row ? 2u : 1u) : 0u;
    return (gemm_args){.M = op->M, .N = op->N, .K = op->K, .a = a, .b = b, .c = c, .a_off = a->offset,
                       .b_off = b->offset, .c_off = c->offset, .lda = a->ld, .ldb = b->ld, .ldc = c->ld,
                       .dtype = a->dtype, .alpha = op->alpha, .real = a->elem, .count = op->count ? op->count : 1,
                       .sa = op->sa, .sb = op->sb, .sc = op->sc, .bias = bias ? bias->cl : NULL,
                       .bias_off = bias ? bias->offset : 0, .bias_ld = bias ? bias->ld : 0,
                       .epi = (unsigned)op->act << 2 | bias_mode};
}

/* A batch stride of x (elements: rows apart times x's ld) for wide, x's float32
 * copy of x's shape: the same rows apart, times wide's ld. */
static size_t widened_stride(size_t stride, const clrt_buffer *x, const clrt_buffer *wide)
{
    return wide == x ? stride : stride / x->ld * wide->ld;
}

/* op with 16-bit operands: a, b, a 16-bit c (read when beta is not 0) and the
 * bias widened to float32, the float32 product, c narrowed (math/widen.h). A
 * batch (count > 1) is widened whole: its stacks' views, whose rows c's
 * windows must cover exactly (clrt_gemm_strided_batched sees to it), the
 * batch strides kept in rows. */
static int gemm_widened(clrt_queue *q, clrt_trans ta, clrt_trans tb, const clrt__gemm_op *op, const char *func)
{
    clrt__widening w = {0};
    clrt__gemm_op o = *op;
    int st = clrt__widen(q, &w, op->a, 1, func, &o.a);
    if (st == CLRT_OK)
        st = clrt__widen(q, &w, op->b, 1, func, &o.b);
    if (st == CLRT_OK)
        st = clrt__widen(q, &w, op->c, op->beta != 0.0, func, &o.c);
    if (st == CLRT_OK)
        st = clrt__widen(q, &w, op->bias, 1, func, &o.bias);
    o.sa = widened_stride(op->sa, op->a, o.a);
    o.sb = widened_stride(op->sb, op->b, o.b);
    o.sc = widened_stride(op->sc, op->c, o.c);
    if (st == CLRT_OK)
        st = clrt__gemm_run(q, ta, tb, &o, func);
    st = clrt__narrow(q, (clrt_buffer *)op->c, o.c, st, func);
    clrt__widen_done(&w);
    return st;
}

int clrt__gemm_run(clrt_queue *q, clrt_trans ta, clrt_trans tb, const clrt__gemm_op *op, const char *func)
{
    if (clrt__is_16bit(op->a->dtype) || clrt__is_16bit(op->c->dtype))
        return gemm_widened(q, ta, tb, op, func);
    int dot;
    const int variant = pick_variant(q, ta, tb, op, &dot);
    clrt__built *k;
    int status = clrt__kcache_get(q->ctx, CLRT__K_MATMUL, (int)op->a->dtype, variant, func, &k);
    if (status != CLRT_OK)
        return status;
    dot = dot && k->aux[CLRT__MATMUL_AUX_DOT]; /* built (it is, unless tuned parameters fell back) */
    gemm_args g = args_of(op);
    const size_t K = op->K;
    const unsigned epi = g.epi;
    /* A driver that ends long loops early (llvmpipe, kernels/matmul.c) gets the product as
     * a sum over slices of k: C = alpha op(A)[:, slice] op(B)[slice, :] + beta C for
     * the first, then + C, the epilogue with the last; so does a large product on a CPU
     * that runs it faster in k blocks (kernels/matmul_plan.c). K = 0 still runs once
     * (C = beta C). On the GPU variant the part of a slice matmul_fast takes is a slice of
     * its own, the rest the next one; a product (not a batch) too small to fill the device
     * runs as k splits side by side instead. */
    const clrt__matmul_params p = clrt__matmul_launch_params(&k->p, k->variant);
    size_t slice = clrt__matmul_k_slice(&q->ctx->facts, &p);
    if (slice == 0 && !dot)
        slice = clrt__matmul_k_block(&q->ctx->facts, &p, g.M, g.N, K);
    const size_t splits = dot || g.count > 1 ? 1 : clrt__matmul_splits(&p, &q->ctx->facts, g.M, g.N, K);
    if (splits > 1 && k->aux[CLRT__MATMUL_AUX_SUM]) {
        int done = 0;
        g.beta = op->beta;
        status = gemm_split(q, k, func, &g, ta == CLRT_TRANS, tb == CLRT_TRANS, splits, slice, &done);
        if (status != CLRT_OK || done)
            return status;
    }
    size_t k0 = 0;
    do {
        g.K = slice && K - k0 > slice ? slice : K - k0;
        g.a_off = op->a->offset + k0 * (ta ? op->a->ld : 1);
        g.b_off = op->b->offset + k0 * (tb ? 1 : op->b->ld);
        g.beta = k0 == 0 ? op->beta : 1.0;
        const size_t kf = dot ? 0 : fast_k(k, &g, ta == CLRT_TRANS, tb == CLRT_TRANS);
        if (kf)
            g.K = kf;
        g.epi = k0 + g.K >= K ? epi : 0; /* once, with the last slice */
        status = gemm_slice(q, k, func, &g, ta == CLRT_TRANS, tb == CLRT_TRANS, dot, kf != 0);
        k0 += g.K;
    } while (status == CLRT_OK && k0 < K);
    return status;
}

int clrt_gemm(clrt_queue *q, clrt_trans ta, clrt_trans tb, double alpha, const clrt_buffer *a,
              const clrt_buffer *b, double beta, clrt_buffer *c)
{
    return clrt__gemm(q, ta, tb, alpha, a, b, beta, c, NULL, "clrt_gemm");
}

int clrt_matmul(clrt_queue *q, clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b)
{
    return clrt__gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.0, a, b, 0.0, c, NULL, "clrt_matmul");
}
