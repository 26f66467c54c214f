/* clrt_convert's work, shared with clrt_copy of 16-bit buffers (math/convert.c). */
#ifndef CLRT_MATH_CONVERT_H
#define CLRT_MATH_CONVERT_H

#include "runtime/handles.h"

/* dst = src converted (same dtypes: copied bit for bit), checked for func: as
 * clrt_convert, or (is_copy) as clrt_copy: dtypes equal, dst the very window of
 * src nothing to do. */
int clrt__convert(clrt_queue *q, clrt_buffer *dst, const clrt_buffer *src, int is_copy, const char *func);

#endif
