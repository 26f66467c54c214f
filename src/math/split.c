/* clrt_split_rows: how many rows of one product each device gets, in
 * proportion to its speed. Host arithmetic only: the devices' own work is
 * the ordinary calls on their own contexts. */
#include <math.h>

#include "base/error.h"
#include "runtime/handles.h"

int clrt_split_rows(size_t *counts, size_t parts, size_t rows, const double *weights, size_t align)
{
    static const char func[] = "clrt_split_rows";
    if (!counts || !weights)
        return clrt__fail(CLRT_EINVAL, func, "%s is NULL", counts ? "weights" : "counts");
    if (parts == 0 || align == 0)
        return clrt__fail(CLRT_EINVAL, func, "%s is 0", parts == 0 ? "parts" : "align");
    double total = 0;
    for (size_t i = 0; i < parts; i++) {
        if (!isfinite(weights[i]) || weights[i] < 0)
            return clrt__fail(CLRT_EINVAL, func, "weights[%zu] is %g (must be finite and >= 0)", i, weights[i]);
        total += weights[i];
    }
    if (!(total > 0) || !isfinite(total))
        return clrt__fail(CLRT_EINVAL, func, "the weights sum to %g (at least one must be > 0)", total);
    /* Whole blocks of align rows, each part's share rounded down, then the
     * blocks left over to the parts that lost most to the rounding (largest
     * remainder); the rows short of a whole block go to the last part that
     * has any. */
    const size_t blocks = rows / align;
    size_t given = 0;
    for (size_t i = 0; i < parts; i++) {
        counts[i] = (size_t)floor((double)blocks * (weights[i] / total));
        if (counts[i] > blocks - given)
            counts[i] = blocks - given;
        given += counts[i];
    }
    while (given < blocks) {
        size_t best = 0;
        double best_loss = -1;
        for (size_t i = 0; i < parts; i++) {
            const double loss = (double)blocks * (weights[i] / total) - (double)counts[i];
            if (weights[i] > 0 && loss > best_loss) {
                best = i;
                best_loss = loss;
            }
        }
        counts[best]++;
        given++;
    }
    size_t last = parts;
    for (size_t i = 0; i < parts; i++) {
        counts[i] *= align;
        if (counts[i] > 0)
            last = i;
    }
    if (last == parts) /* fewer rows than one block: all to the heaviest part */
        for (size_t i = last = 0; i < parts; i++)
            if (weights[i] > weights[last])
                last = i;
    counts[last] += rows - blocks * align;
    return CLRT_OK;
}
