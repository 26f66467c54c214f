/* add draft 1 (lab) */
#if defined(CLRT_FP64) && CLRT_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifndef REAL
#define REAL float
#endif
#ifndef VW
#define VW 16
#endif
#ifndef ITEMS
#define ITEMS 1
#endif
#ifndef WG
#define WG 256
#endif
#ifndef MAP
#define MAP 0
#endif
#define CLRT_CAT_(a, b) a##b
#define CLRT_CAT(a, b) CLRT_CAT_(a, b)
#if VW == 1
#define VLOAD(i, p) ((p)[i])
#define VSTORE(v, i, p) ((p)[i] = (v))
#else
#define VLOAD(i, p) CLRT_CAT(vload, VW)((i), (p))
#define VSTORE(v, i, p) CLRT_CAT(vstore, VW)((v), (i), (p))
#endif

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void add(const ulong n, __global const REAL *a, __global const REAL *b, __global REAL *c)
{
    const ulong nv = n / VW;
#pragma unroll
    for (uint j = 0; j < ITEMS; ++j) {
#if MAP == 0
        const ulong v = (ulong)get_group_id(0) * (WG * ITEMS) + j * WG + get_local_id(0);
#elif MAP == 1
        const ulong v = (ulong)get_global_id(0) * ITEMS + j;
#else
        const ulong v = (ulong)get_global_id(0) + (ulong)j * get_global_size(0);
#endif
        if (v < nv) {
            VSTORE(VLOAD(v, a) + VLOAD(v, b), v, c);
        } else if (v == nv) {
            for (ulong i = nv * VW; i < n; ++i)
                c[i] = a[i] + b[i];
        }
    }
}
