/* On-disk program binary cache (binary_cache.c). Layer 8, below program.c. */
#ifndef CLRT_BINARY_CACHE_H
#define CLRT_BINARY_CACHE_H

#include "handles.h"

/* Whether builds on this context go through the disk cache. */
int clrt__binary_cache_enabled(const clrt_context *ctx);
/* 1 and a built program in *out on a hit; 0 on a miss (corrupt entries warn). */
int clrt__binary_cache_load(clrt_context *ctx, const char *source, const char *options, cl_program *out);
/* Save a program just built from source; failures are silent (it is a cache). */
void clrt__binary_cache_store(clrt_context *ctx, const char *source, const char *options, cl_program program);

#endif
