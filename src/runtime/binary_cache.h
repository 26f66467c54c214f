/* On-disk program binary cache (runtime/binary_cache.c). */
#ifndef CLRT_RUNTIME_BINARY_CACHE_H
#define CLRT_RUNTIME_BINARY_CACHE_H

#include "runtime/handles.h"

/* The program cache's size limit unless CLRT_CACHE_MAX_MB says otherwise. */
enum { CLRT__CACHE_DEFAULT_MAX_MB = 256 };

/* Whether builds on this context look in the disk cache first. */
int clrt__binary_cache_enabled(const clrt_context *ctx);
/* Whether a program this context builds from source is stored there. */
int clrt__binary_cache_stores(const clrt_context *ctx);
/* The key of (source, options, the hash and count of the headers it
 * includes: clrt__includes_hash) on ctx: the text an entry starts with
 * (malloc'd); NULL when there is no memory. */
char *clrt__binary_cache_key(const clrt_context *ctx, const char *source, const char *options, uint64_t inc_hash,
                             size_t inc_files);
/* 1 and a program built with options in *out on a hit; 0 on a miss (corrupt entries warn). */
int clrt__binary_cache_load(clrt_context *ctx, const char *key, const char *options, cl_program *out);
/* Save a program just built from source; failures are silent (it is a cache). */
void clrt__binary_cache_store(const char *key, cl_program program);

#endif
