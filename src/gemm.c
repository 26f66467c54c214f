/* clrt_gemm and clrt_matmul: argument checks, the context's matmul kernel for
 * the dtype and transposes (kcache.h), and its launch: on CPU devices op(B)
 * first packed into column panels (k_matmul.h) when the shape pays for it, or
 * whenever op(B) is B^T (which the kernel would otherwise gather). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "context.h"
#include "debug.h"
#include "error.h"
#include "kcache.h"

/* The operands of one product, as the kernel takes them. */
typedef struct gemm_args {
    cl_uint M, N, K;
    const clrt_buffer *a, *b, *c;
    cl_ulong a_off, b_off, c_off;
    cl_uint lda, ldb, ldc;
    unsigned char alpha[8], beta[8]; /* REAL: float or double */
    size_t real;                     /* their size */
} gemm_args;

/* The kernel's arguments with B (and its offset, stride) as given. */
static void matmul_args(const gemm_args *g, const cl_mem *bmem, const cl_ulong *b_off, const cl_uint *ldb,
                        const cl_uint *bpacked, size_t sizes[15], const void *values[15])
{
    const size_t s[15] = {sizeof g->M,     sizeof g->N,   sizeof g->K,   g->real,        sizeof(cl_mem),
                          sizeof g->a_off, sizeof g->lda, sizeof(cl_mem), sizeof *b_off, sizeof *ldb,
                          g->real,         sizeof(cl_mem), sizeof g->c_off, sizeof g->ldc, sizeof *bpacked};
    const void *v[15] = {&g->M,     &g->N,   &g->K, g->alpha, &g->a->cl, &g->a_off, &g->lda, bmem,
                         b_off,     ldb,     g->beta, &g->c->cl, &g->c_off, &g->ldc, bpacked};
    for (int i = 0; i < 15; i++) {
        sizes[i] = s[i];
        values[i] = v[i];
    }
}

/* The product on a packed copy of op(B) (cl/matmul_cpu.cl pack_b), per slices
 * of column panels. *done = 0 when the scratch cannot be had: the caller runs
 * on B in place instead (packing only makes it faster). */
static int gemm_packed(clrt_queue *q, clrt__built *k, const char *func, const gemm_args *g, size_t per, int *done)
{
    const clrt__matmul_params p = clrt__mm(&k->p);
    const size_t panels = ((size_t)g->N + p.tn - 1) / p.tn;
    const size_t need = (per < panels ? per : panels) * g->K * p.tn * g->real;
    *done = 0;
    clrt_mutex_lock(&q->scratch_lock);
    if (q->scratch_bytes < need) {
        /* grow: commands already queued keep the old buffer alive until they finish */
        if (q->scratch) {
            clReleaseMemObject(q->scratch);
            clrt__live(CLRT__LIVE_SCRATCH, -1);
            q->scratch = NULL;
            q->scratch_bytes = 0;
        }
        cl_int err = clrt__fault(CLRT__FAULT_CREATE_BUFFER);
        cl_mem s = NULL;
        if (err == CL_SUCCESS)
            s = clCreateBuffer(q->ctx->cl, CL_MEM_READ_WRITE, need, NULL, &err);
        if (err != CL_SUCCESS || !s) {
            clrt_mutex_unlock(&q->scratch_lock);
            return CLRT_OK;
        }
        clrt__live(CLRT__LIVE_SCRATCH, +1);
        q->scratch = s;
        q->scratch_bytes = need;
    }
    *done = 1;
    size_t global[2], local[2];
    clrt__matmul_geometry(&p, g->M, g->N, global, local);
    const cl_uint bpacked = 1, zero32 = 0;
    const cl_ulong zero = 0;
    size_t msizes[15];
    const void *mvalues[15];
    matmul_args(g, &q->scratch, &zero, &zero32, &bpacked, msizes, mvalues);
    const size_t psizes[] = {sizeof g->N, sizeof g->K, sizeof(cl_mem), sizeof g->b_off, sizeof g->ldb,
                             sizeof(cl_mem)};
    const void *const pvalues[] = {&g->N, &g->K, &g->b->cl, &g->b_off, &g->ldb, &q->scratch};
    int status = CLRT_OK;
    clrt_mutex_lock(&k->launch_lock);
    for (size_t p0 = 0; p0 < panels && status == CLRT_OK; p0 += per) {
        const size_t n = panels - p0 < per ? panels - p0 : per;
        size_t pglobal[2], plocal[2];
        clrt__matmul_pack_geometry(g->K, n, k->aux_wg, q->ctx->facts.max_work_item[0], pglobal, plocal);
        const size_t poffset[2] = {0, p0};
        status = clrt__enqueue_locked(q, k->aux, func, 6, psizes, pvalues, 2, poffset, pglobal, plocal);
        if (status != CLRT_OK)
            break;
        /* this slice's column tiles: panels p0 .. p0+n-1, whole work-groups */
        const size_t moffset[2] = {p0, 0};
        global[0] = (n + p.wgx - 1) / p.wgx * p.wgx;
        status = clrt__enqueue_locked(q, k->main, func, 15, msizes, mvalues, 2, moffset, global, local);
    }
    clrt_mutex_unlock(&k->launch_lock);
    clrt_mutex_unlock(&q->scratch_lock);
    return status;
}

static void put_real(unsigned char *dst, double v, size_t real)
{
    if (real == 8) {
        memcpy(dst, &v, 8);
    } else {
        float f = (float)v;
        memcpy(dst, &f, 4);
    }
}

/* Checks in the order that makes the status predictable: live handles and
 * the transposes, then c sharing memory with an input (EINVAL before
 * contexts, dtypes and shapes, as clrt_matmul always did), one context, one
 * dtype, a dtype gemm takes, the shapes, the 32-bit limits. */
static int check_gemm(const clrt_queue *q, clrt_trans ta, clrt_trans tb, const clrt_buffer *a,
                      const clrt_buffer *b, const clrt_buffer *c, const char *func)
{
    int status = clrt__check_queue(q, func);
    if (status == CLRT_OK)
        status = clrt__check_buffer(c, func, "c");
    if (status == CLRT_OK)
        status = clrt__check_buffer(a, func, "a");
    if (status == CLRT_OK)
        status = clrt__check_buffer(b, func, "b");
    if (status != CLRT_OK)
        return status;
    if ((ta != CLRT_NO_TRANS && ta != CLRT_TRANS) || (tb != CLRT_NO_TRANS && tb != CLRT_TRANS))
        return clrt__fail(CLRT_EINVAL, func, "unknown transpose value (ta %d, tb %d): use CLRT_NO_TRANS or CLRT_TRANS",
                          (int)ta, (int)tb);
    if (clrt__overlap(c, a) || clrt__overlap(c, b))
        return clrt__fail(CLRT_EINVAL, func, "the output c shares memory with %s; a product cannot run in place",
                          clrt__overlap(c, a) ? "a" : "b");
    if (a->ctx != q->ctx || b->ctx != q->ctx || c->ctx != q->ctx)
        return clrt__fail(CLRT_EINVAL, func, "operands and queue belong to different contexts");
    if (a->dtype != b->dtype || a->dtype != c->dtype)
        return clrt__fail(CLRT_ESHAPE, func, "dtypes differ (c %s, a %s, b %s)", clrt__dtype_word((int)c->dtype),
                          clrt__dtype_word((int)a->dtype), clrt__dtype_word((int)b->dtype));
    if (a->dtype == CLRT_INT32)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "products of int32 matrices are not supported");
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

static int gemm(clrt_queue *q, clrt_trans ta, clrt_trans tb, double alpha, const clrt_buffer *a,
               const clrt_buffer *b, double beta, clrt_buffer *c, const char *func)
{
    int status = check_gemm(q, ta, tb, a, b, c, func);
    if (status == CLRT_OK)
        status = clrt__check_usable(q->ctx, func);
    if (status != CLRT_OK)
        return status;
    const int variant = (ta ? 1 : 0) | (tb ? 2 : 0);
    clrt__built *k;
    status = clrt__kcache_get(q->ctx, CLRT__K_MATMUL, (int)a->dtype, variant, func, &k);
    if (status != CLRT_OK)
        return status;
    gemm_args g = {.M = (cl_uint)c->rows, .N = (cl_uint)c->cols, .K = (cl_uint)(ta ? a->rows : a->cols),
                   .a = a, .b = b, .c = c, .a_off = a->offset, .b_off = b->offset, .c_off = c->offset,
                   .lda = (cl_uint)a->ld, .ldb = (cl_uint)b->ld, .ldc = (cl_uint)c->ld, .real = a->elem};
    put_real(g.alpha, alpha, g.real);
    put_real(g.beta, beta, g.real);
    const clrt__matmul_params p = clrt__mm(&k->p);
    if (k->aux) {
        size_t per = clrt__matmul_pack_panels(&p, g.M, g.N, g.K, g.real,
                                              clrt__matmul_pack_scratch_max(&q->ctx->facts, &p), tb == CLRT_TRANS);
        int done = 0;
        if (per)
            status = gemm_packed(q, k, func, &g, per, &done);
        if (done)
            return status;
    }
    size_t global[2], local[2];
    clrt__matmul_geometry(&p, g.M, g.N, global, local);
    const cl_uint bpacked = 0;
    size_t sizes[15];
    const void *values[15];
    matmul_args(&g, &b->cl, &g.b_off, &g.ldb, &bpacked, sizes, values);
    return clrt__launch(q, k, func, 15, sizes, values, 2, global, local);
}

int clrt_gemm(clrt_queue *q, clrt_trans ta, clrt_trans tb, double alpha, const clrt_buffer *a,
              const clrt_buffer *b, double beta, clrt_buffer *c)
{
    return gemm(q, ta, tb, alpha, a, b, beta, c, "clrt_gemm");
}

int clrt_matmul(clrt_queue *q, clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b)
{
    return gemm(q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1.0, a, b, 0.0, c, "clrt_matmul");
}
