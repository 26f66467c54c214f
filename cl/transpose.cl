/* transpose, local-memory variant (use_local = 1, GPUs): c (cols x rows) = a^T for a
 * rows x cols, each with its own start offset and row stride (views). OpenCL C 1.2.
 *
 * Build options (src/kernels/transpose.h lists them; src/kernels/transpose.c picks them):
 *   TILE      the square tile of a a work-group moves through local memory
 *   WGX, WGY  work-group shape (each divides TILE)
 * Launch: local = {WGX, WGY}, global = {tiles * WGX, WGY}, tiles = ceil(rows/TILE) *
 * ceil(cols/TILE), numbered along a's rows of tiles: one large dimension only (some
 * drivers limit the group count of the others to 65535).
 *
 * Elements are moved as unsigned words of their size (WORD), never as floating-point
 * values, so every bit pattern (NaN payloads, int32) arrives as it was.
 *
 * Mapping: the group reads its TILE x TILE tile of a row by row, consecutive
 * work-items on consecutive columns (coalesced), into local memory; after the
 * barrier it writes the tile's columns as rows of c, consecutive work-items on
 * consecutive elements again (coalesced). The tile's rows are TILE + 1 long, so the
 * column walk hits TILE different local banks.
 */

#ifndef TILE
#define TILE 16
#endif
#ifndef WGX
#define WGX 16
#endif
#ifndef WGY
#define WGY 4
#endif

#if CLRT_DTYPE == 2
#define WORD ulong
#else
#define WORD uint
#endif

__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1)))
void transpose(const ulong rows, const ulong cols, __global const WORD *a, const ulong a_off, const ulong lda,
               __global WORD *c, const ulong c_off, const ulong ldc)
{
    __local WORD t[TILE][TILE + 1];
    const ulong tiles_across = (cols + TILE - 1) / TILE;
    const ulong g = get_group_id(0);
    /* no %: with / and % both clang emits a freeze instruction that Oclgrind cannot check */
    const ulong tr = g / tiles_across, r0 = tr * TILE, c0 = (g - tr * tiles_across) * TILE;
    const uint lx = get_local_id(0), ly = get_local_id(1);
    for (uint y = ly; y < TILE; y += WGY)
        for (uint x = lx; x < TILE; x += WGX)
            if (r0 + y < rows && c0 + x < cols)
                t[y][x] = a[a_off + (r0 + y) * lda + c0 + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    /* row c0 + y of c is column c0 + y of a */
    for (uint y = ly; y < TILE; y += WGY)
        for (uint x = lx; x < TILE; x += WGX)
            if (c0 + y < cols && r0 + x < rows)
                c[c_off + (c0 + y) * ldc + r0 + x] = t[x][y];
}
