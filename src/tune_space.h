/* Which kernel parameters are valid on a device: the constraints of
 * cl/matmul.cl and cl/add.cl (vector widths, tile divisibility, register and
 * unrolling bounds) and the device's limits (work-group size and shape,
 * local memory). Used by the tuned-file loader (every value of a file is
 * checked before use) and by the autotuner (candidates that fail are never
 * built). Belongs with params.c; kept apart while params.c is being worked on. */
#ifndef CLRT_TUNE_SPACE_H
#define CLRT_TUNE_SPACE_H

#include <stddef.h>

#include "params.h"

/* Largest value any single parameter may take in a tuned file. */
enum { CLRT_PARAM_MAX = 65536 };

/* 0 when p is valid for dev and elem_size (4 or 8); -1 with *why (may be
 * NULL) saying which constraint fails. */
int clrt__matmul_params_check(const clrt_device_facts *dev, size_t elem_size, const clrt_matmul_params *p,
                              char *why, size_t cap);
int clrt__add_params_check(const clrt_device_facts *dev, size_t elem_size, const clrt_add_params *p, char *why,
                           size_t cap);

#endif
