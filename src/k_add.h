/* The add kernel's parameters and launch rule (cl/add.cl): c = a + b over n
 * elements; a work-item handles VW*ITEMS elements. Layer 4. */
#ifndef CLRT_K_ADD_H
#define CLRT_K_ADD_H

#include <string.h>

#include "params.h"

/* X(name, -D define, min, max, tuner values for variant 0 | variant 1, meaning). */
#define CLRT__ADD_PARAMS(X)                                                          \
    X(vw, "VW", 1, 16, "4 8 16", "", "vector width: 1, 2, 4, 8 or 16")               \
    X(items, "ITEMS", 1, 1024, "1 2 4 16", "", "vectors per work-item")              \
    X(wg, "WG", 1, 65536, "64 256 1024 4096", "", "work-group size")

typedef struct clrt__add_params {
    CLRT__ADD_PARAMS(CLRT__PARAM_FIELD)
} clrt__add_params;

extern const clrt__kernel_def clrt__k_add;

static inline clrt__add_params clrt__add(const clrt__pvals *p)
{
    clrt__add_params a;
    memcpy(&a, p->v, sizeof a);
    return a;
}

/* NDRange for n elements. */
void clrt__add_geometry(const clrt__add_params *p, size_t n, size_t global[1], size_t local[1]);

#endif
