/* The context's program cache: each (source, build options) is compiled once
 * per context, on first use, and kept until the context goes; builds go
 * through the on-disk binary cache (runtime/binary_cache.h) where it is on. */
#ifndef CLRT_RUNTIME_PROGRAM_H
#define CLRT_RUNTIME_PROGRAM_H

#include "runtime/build_log.h"
#include "runtime/handles.h"

/* Build or fetch the program. source must stay valid for the context's life
 * when static_source is nonzero, else it is copied. what names it in the
 * build log (runtime/build_log.h) when it is built. */
int clrt__program_get(clrt_context *ctx, const char *source, int static_source, const char *options,
                      const clrt__build_what *what, const char *func, cl_program *out);
/* At context release: release every program. */
void clrt__programs_release(clrt_context *ctx);

#endif
