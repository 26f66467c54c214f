/* What the public tuning functions share with the tuner (tune/run.c): the
 * checks of a (context, kernel, dtype) triple and the parse of a parameter
 * text over the device's defaults. */
#ifndef CLRT_TUNE_TUNE_H
#define CLRT_TUNE_TUNE_H

#include "clrt/clrt_tune.h"
#include "kernels/table.h"
#include "runtime/handles.h"

/* ctx live, kernel known, dtype one it is built for and the device has: the
 * kernel's id, or a status (EINVAL, EUNSUPPORTED for fp64) with the message set. */
int clrt__tune_target(const clrt_context *ctx, const char *kernel, clrt_dtype dtype, const char *func, int *id);

/* text over the device's defaults into *p, then checked: CLRT_OK, or
 * CLRT_EINVAL with the reason in why (when not NULL) and the message. */
int clrt__tune_parse(const clrt_context *ctx, int id, clrt_dtype dtype, const char *text, clrt__pvals *p,
                     const char *func, char *why, size_t cap);

#endif
