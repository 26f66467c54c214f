/* transpose, plain variant (use_local = 0, CPUs): c (cols x rows) = a^T for a
 * rows x cols, each with its own start offset and row stride (views). OpenCL C 1.2.
 *
 * Build options (src/kernels/transpose.h lists them; src/kernels/transpose.c picks them):
 *   TILE   rows of a each work-item moves (a run of TILE consecutive elements of c)
 *   WGX    work-group size; WGY is not used here
 * Launch: 1-D, local = WGX, global = ceil(rows/TILE) * ceil(cols/WGX) * WGX: group g
 * covers WGX columns of a block of TILE rows, blocks in order.
 *
 * Elements are moved as unsigned words of their size (WORD), never as floating-point
 * values, so every bit pattern (NaN payloads, int32) arrives as it was.
 *
 * Mapping: work-item j of a block reads column j of TILE rows of a and writes them as
 * one run of row j of c. A CPU driver runs a group's work-items in a loop (or side by
 * side in vector lanes): each row of a is then read along consecutive columns and
 * each run of c written whole, so both sides stream through the cache instead of
 * one side touching a new line per element.
 */

#ifndef TILE
#define TILE 16
#endif
#ifndef WGX
#define WGX 16
#endif

#if CLRT_DTYPE == 2
#define WORD ulong
#else
#define WORD uint
#endif

__kernel __attribute__((reqd_work_group_size(WGX, 1, 1)))
void transpose(const ulong rows, const ulong cols, __global const WORD *a, const ulong a_off, const ulong lda,
               __global WORD *c, const ulong c_off, const ulong ldc)
{
    const ulong groups_across = (cols + WGX - 1) / WGX;
    const ulong g = get_group_id(0);
    /* no %: with / and % both clang emits a freeze instruction that Oclgrind cannot check */
    const ulong rb = g / groups_across, r0 = rb * TILE, j = (g - rb * groups_across) * WGX + get_local_id(0);
    if (j >= cols)
        return;
    __global const WORD *src = a + a_off + r0 * lda + j;
    __global WORD *dst = c + c_off + j * ldc + r0;
    if (r0 + TILE <= rows) {
#pragma unroll
        for (uint t = 0; t < TILE; ++t)
            dst[t] = src[t * lda];
    } else {
        for (uint t = 0; r0 + t < rows; ++t)
            dst[t] = src[t * lda];
    }
}
