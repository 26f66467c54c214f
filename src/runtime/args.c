/* Kernel arguments in order (see args.h). */
#include "runtime/args.h"

/* The next slot; the callers' argument lists are fixed and shorter than the
 * array, so a full list only drops values (the launch then fails loudly on
 * the missing argument) instead of writing past it. */
static int next(clrt__args *a, size_t size)
{
    if (a->n >= CLRT__MAX_ARGS)
        return -1;
    a->sizes[a->n] = size;
    return (int)a->n++;
}

void clrt__arg_ulong(clrt__args *a, size_t v)
{
    const int at = next(a, sizeof(cl_ulong));
    if (at >= 0)
        a->v[at].u = (cl_ulong)v;
}

void clrt__arg_uint(clrt__args *a, size_t v)
{
    const int at = next(a, sizeof(cl_uint));
    if (at >= 0)
        a->v[at].w = (cl_uint)v;
}

void clrt__arg_int(clrt__args *a, int v)
{
    const int at = next(a, sizeof(cl_int));
    if (at >= 0)
        a->v[at].i = (cl_int)v;
}

void clrt__arg_real(clrt__args *a, clrt_dtype dtype, double v)
{
    const int at = next(a, dtype == CLRT_FLOAT64 ? sizeof(cl_double) : sizeof(cl_float));
    if (at < 0)
        return;
    if (dtype == CLRT_FLOAT64)
        a->v[at].d = v;
    else if (dtype == CLRT_INT32)
        a->v[at].i = (cl_int)v; /* an int32 kernel's REAL is int; the caller checked that v is one */
    else
        a->v[at].f = (cl_float)v;
}

void clrt__arg_mem(clrt__args *a, cl_mem m)
{
    const int at = next(a, sizeof(cl_mem));
    if (at >= 0)
        a->v[at].m = m;
}

void clrt__arg_matrix(clrt__args *a, const clrt_buffer *b)
{
    clrt__arg_mem(a, b->cl);
    clrt__arg_ulong(a, b->offset);
    clrt__arg_ulong(a, b->ld);
}
