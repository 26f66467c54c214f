/* add: c = a + b over n elements. OpenCL C 1.2.
 *
 * Build options (src/k_add.h lists them; src/k_add.c picks them per device; REAL,
 * VW and the vector macros come from the prelude, cl/common.cl):
 *   VW     vector width (1, 2, 4, 8, 16): explicit vectors, since POCL's implicit
 *          vectorisation of the scalar form was measured 1.7x slower
 *   ITEMS  vectors per work-item
 *   WG     work-group size
 * Launch: global = roundup(ceil(n / (VW*ITEMS)), WG), local = WG.
 *
 * Mapping: group g covers the WG*ITEMS vectors starting at g*WG*ITEMS; its work-item l
 * takes vectors l, l+WG, l+2*WG, ... of that range, so at every step consecutive
 * work-items touch consecutive vectors (coalesced on GPUs) and each group streams one
 * contiguous block (good for CPU prefetchers). On POCL (1e7 floats) this ran at the
 * speed of a 2-thread host loop; grid-stride (vector g*WG+l + j*global_size) reached
 * only ~55% of it, and ITEMS > 1 gained nothing there (k_add.c uses ITEMS=1).
 * c may alias a or b (in place): every element is read before it is written by the
 * same work-item, and no restrict is used.
 */

#ifndef ITEMS
#define ITEMS 1
#endif
#ifndef WG
#define WG 64
#endif

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void add(const ulong n, __global const REAL *a, __global const REAL *b, __global REAL *c)
{
    const ulong nv = n / VW; /* whole vectors; the n % VW rest is the tail */
    const ulong base = (ulong)get_group_id(0) * (WG * ITEMS) + get_local_id(0);
    /* Buffers normally start on a large alignment, so vector-typed accesses (one wide
     * load on every GPU) are legal; vloadn covers a host pointer that is not aligned. */
    const int aligned = (((size_t)a | (size_t)b | (size_t)c) % (VW * sizeof(REAL))) == 0;
#pragma unroll
    for (uint j = 0; j < ITEMS; ++j) {
        const ulong v = base + (ulong)j * WG;
        if (v < nv) {
            if (aligned)
                ((__global REALV *)c)[v] =
                    ((__global const REALV *)a)[v] + ((__global const REALV *)b)[v];
            else
                VSTORE(VLOAD(v, a) + VLOAD(v, b), v, c);
        } else if (v == nv) {
            for (ulong i = nv * VW; i < n; ++i)
                c[i] = a[i] + b[i];
        }
    }
}
