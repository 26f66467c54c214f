/* clrt-bench's CLBlast reference: gemm on the same device, queue and memory
 * as clrt (through <clrt/clrt_cl.h>), when built with CLBlast. */
#ifndef CLRT_TOOLS_BENCH_CLBLAST_H
#define CLRT_TOOLS_BENCH_CLBLAST_H

#include <stddef.h>

#include <clrt/clrt.h>

int bench_have_clblast(void);
/* "1.5.3", or "" without CLBlast. */
const char *bench_clblast_version(void);
/* Enqueue C = op(A) op(B) (row-major; A stored KxM when ta, B NxK when tb)
 * on q's queue and wait for it.
 * 0, or a CLBlast status code (negative) with *why set. */
int bench_clblast_gemm(clrt_queue *q, int ta, int tb, clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b,
                       const char **why);
/* Drop CLBlast's compiled kernels (before a context goes). */
void bench_clblast_clear(void);

#endif
