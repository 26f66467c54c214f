/* clrt-bench's CLBlast reference (see bench/reference/clblast.h). */
#include "reference/clblast.h"

#include <stdio.h>

#include <clrt/clrt_cl.h>

#ifdef CLRT_BENCH_CLBLAST
#include <clblast_c.h>
#endif

int bench_have_clblast(void)
{
#ifdef CLRT_BENCH_CLBLAST
    return 1;
#else
    return 0;
#endif
}

const char *bench_clblast_version(void)
{
#ifdef CLRT_BENCH_CLBLAST
#define CLRT_STR_(x) #x
#define CLRT_STR(x) CLRT_STR_(x)
    return CLRT_STR(CLBLAST_VERSION_MAJOR) "." CLRT_STR(CLBLAST_VERSION_MINOR) "." CLRT_STR(
        CLBLAST_VERSION_PATCH);
#else
    return "";
#endif
}

int bench_clblast_gemm(clrt_queue *q, int ta, int tb, clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b,
                       const char **why)
{
    *why = "";
#ifdef CLRT_BENCH_CLBLAST
    static char text[96];
    cl_command_queue cq = clrt_queue_cl(q);
    cl_mem ma = clrt_buffer_cl(a), mb = clrt_buffer_cl(b), mc = clrt_buffer_cl(c);
    if (!cq || !ma || !mb || !mc) {
        *why = "no OpenCL objects behind the clrt handles";
        return -1;
    }
    const size_t M = clrt_buffer_rows(c), N = clrt_buffer_cols(c);
    const size_t K = ta ? clrt_buffer_rows(a) : clrt_buffer_cols(a);
    const size_t lda = clrt_buffer_cols(a), ldb = clrt_buffer_cols(b);
    const CLBlastTranspose oa = ta ? CLBlastTransposeYes : CLBlastTransposeNo;
    const CLBlastTranspose ob = tb ? CLBlastTransposeYes : CLBlastTransposeNo;
    CLBlastStatusCode s;
    if (clrt_buffer_dtype(a) == CLRT_FLOAT64)
        s = CLBlastDgemm(CLBlastLayoutRowMajor, oa, ob, M, N, K, 1.0, ma, 0, lda, mb, 0, ldb, 0.0, mc, 0, N, &cq,
                         NULL);
    else
        s = CLBlastSgemm(CLBlastLayoutRowMajor, oa, ob, M, N, K, 1.0f, ma, 0, lda, mb, 0, ldb, 0.0f, mc, 0, N, &cq,
                         NULL);
    if (s == CLBlastSuccess) {
        cl_int e = clFinish(cq);
        if (e == CL_SUCCESS)
            return 0;
        snprintf(text, sizeof text, "clFinish after CLBlast returned %d", (int)e);
        *why = text;
        return (int)e;
    }
    snprintf(text, sizeof text, "CLBlast status %d", (int)s);
    *why = text;
    return (int)s;
#else
    (void)q, (void)c, (void)a, (void)b;
    *why = "built without CLBlast";
    return -1;
#endif
}

void bench_clblast_clear(void)
{
#ifdef CLRT_BENCH_CLBLAST
    CLBlastClearCache();
#endif
}
