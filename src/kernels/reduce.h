/* The reduce kernel's parameters and launch rules (cl/reduce.cl): sums,
 * maxima and minima over every element, each row or each column
 * (clrt_reduce), and the argmax of each row (clrt_argmax_rows).
 *
 * A reduction runs as levels, all enqueued at once (no host wait between):
 * each level turns its input into partial results, one per chunk, until one
 * chunk is left. Three launch modes (with the op, build options, or on CPUs
 * kernels of one program: parameter merged):
 *   ROW_ITEMS  a work-item reduces ITEMS*VW consecutive elements of a row
 *              (no local memory; CPU devices, and rows a group would waste)
 *   ROW_GROUP  a work-group reduces WG*ITEMS*VW elements of a row, its
 *              work-items' results folded by a tree in local memory (GPUs;
 *              with group_rows, for rows longer than a quarter of that)
 *   COLS       a work-item reduces CROWS rows of VW adjacent columns
 * A row reduction's partials are rows x chunks; the next level reduces those
 * rows. A column reduction's partials are ceil(rows/CROWS) x cols; the next
 * level reduces those columns. CLRT_ALL of a contiguous matrix is a row
 * reduction of one row of rows*cols; of a strided view, a row reduction
 * whose partials (contiguous) are then one row.
 *
 * Accuracy of a sum: each level adds at most ITEMS (or CROWS) values in
 * sequence per lane, then folds the VW lanes and (ROW_GROUP) the WG
 * work-items by halving trees; every level divides the count by at least
 * ITEMS*VW (or CROWS, both at least 2), so the depth of the additions, and
 * with it the error bound (|error| <= depth * eps * sum |x| to first order),
 * grows with the logarithm of the count, not the count. */
#ifndef CLRT_KERNELS_REDUCE_H
#define CLRT_KERNELS_REDUCE_H

#include <string.h>

#include "kernels/params.h"

/* X(name, -D define, min, max, tuner values for variant 0 | variant 1, meaning). */
#define CLRT__REDUCE_PARAMS(X)                                                                                 \
    X(group_rows, NULL, 0, 1, "0 1", "0 1",                                                                    \
      "rows longer than a quarter of a group's share: 1 a work-group folds them by a tree in local memory "   \
      "(GPUs), 0 each work-item's share is a partial of the next level (CPUs)")                               \
    X(wg, "WG", 1, 4096, "16 64 256 1024", "64 128 256 512", "work-group size, a power of two")                \
    X(items, "ITEMS", 1, 256, "4 16 64", "1 2 4 8", "vectors of a row each work-item reduces, in sequence")     \
    X(arg_items, "ARG_ITEMS", 1, 256, "16 64 128", "1 2 4 8",                                                  \
      "vectors of a row each work-item reduces for argmax, in sequence (its per-item end is longer)")           \
    X(vw, "VW", 1, 16, "4 8 16", "1 2 4", "vector width: 1, 2, 4, 8 or 16")                                    \
    X(crows, "CROWS", 2, 256, "4 16 64", "4 16 64", "rows each work-item reduces in a column reduction, in sequence") \
    X(merged, NULL, 0, 1, "", "", "1 every op and mode one kernel of one program (one build), 0 a program each")

typedef struct clrt__reduce_params {
    CLRT__REDUCE_PARAMS(CLRT__PARAM_FIELD)
} clrt__reduce_params;

extern const clrt__kernel_def clrt__k_reduce;

static inline clrt__reduce_params clrt__rd(const clrt__pvals *p)
{
    clrt__reduce_params r;
    memcpy(&r, p->v, sizeof r);
    return r;
}

/* Ops the kernel is built for (OP): clrt_reduce_op's values, and argmax. */
enum { CLRT__RED_SUM = 1, CLRT__RED_MAX = 2, CLRT__RED_MIN = 3, CLRT__RED_ARGMAX = 4 };
/* Launch modes (MODE). */
enum { CLRT__RED_ROW_ITEMS = 0, CLRT__RED_ROW_GROUP = 1, CLRT__RED_COLS = 2 };

/* The kernel cache's launch variant of (op, mode), and back. */
static inline int clrt__reduce_variant(int op, int mode) { return (op - 1) + 4 * mode; }

/* Elements of a row one work-item (ROW_ITEMS) or work-group (ROW_GROUP)
 * reduces into one partial with op. */
size_t clrt__reduce_chunk(const clrt__reduce_params *p, int op, int mode);
/* The mode that reduces rows of `cols` elements with p and op. */
int clrt__reduce_row_mode(const clrt__reduce_params *p, int op, size_t cols);
/* 1-D NDRange of a level over `rows` rows of `cols` (row modes: one
 * work-item or group per chunk; COLS: one work-item per CROWS rows x VW
 * columns). */
void clrt__reduce_geometry(const clrt__reduce_params *p, int op, int mode, size_t rows, size_t cols, size_t global[1],
                           size_t local[1]);

#endif
