/* A built-in kernel's arguments, collected in order before its launch
 * (runtime/kcache.h's clrt__launch): each value is copied in with the size
 * the kernel's parameter has, so a caller never lists sizes and pointers by
 * hand, and the struct may be kept and reused across launches. */
#ifndef CLRT_RUNTIME_ARGS_H
#define CLRT_RUNTIME_ARGS_H

#include <stddef.h>

#include "runtime/handles.h"

enum { CLRT__MAX_ARGS = 24 };

typedef struct clrt__args {
    unsigned n;
    size_t sizes[CLRT__MAX_ARGS];
    union {
        cl_ulong u;
        cl_uint w;
        cl_int i;
        cl_float f;
        cl_double d;
        cl_mem m;
    } v[CLRT__MAX_ARGS];
} clrt__args;

/* ulong, uint (the caller has checked that v fits), int. */
void clrt__arg_ulong(clrt__args *a, size_t v);
void clrt__arg_uint(clrt__args *a, size_t v);
void clrt__arg_int(clrt__args *a, int v);
/* A REAL: float, double or (an int32 kernel's) int as dtype says. */
void clrt__arg_real(clrt__args *a, clrt_dtype dtype, double v);
/* Memory (a __global pointer; its offset and stride are separate arguments). */
void clrt__arg_mem(clrt__args *a, cl_mem m);
/* A buffer's memory, offset and row stride (ulong): three arguments. */
void clrt__arg_matrix(clrt__args *a, const clrt_buffer *b);

#endif
