/* clrt_split_rows: how many rows of one product each device gets, in
 * proportion to its speed. Host arithmetic only: the devices' own work is
 * the ordinary calls on their own contexts. */
#include <math.h>
#include <stdint.h>

#include "base/error.h"
#include "runtime/handles.h"

/* A boundary blocks * share (share in [0, 1]) rounded to the nearest block,
 * as a size_t within [0, blocks]: the double may round above blocks (or to
 * 2^64, which no size_t holds) when blocks is near SIZE_MAX. */
static size_t boundary(size_t blocks, double share)
{
    const double x = floor((double)blocks * share + 0.5);
    if (!(x > 0))
        return 0;
    if (x >= 0x1p64)
        return blocks;
    const size_t b = (size_t)x;
    return b < blocks ? b : blocks;
}

/* The weights checked, and their sum once each is divided by the largest
 * (so that weights near DBL_MAX cannot sum to infinity): *largest and *sum. */
static int check_weights(const double *weights, size_t parts, double *largest, double *sum, const char *func)
{
    *largest = 0;
    for (size_t i = 0; i < parts; i++) {
        if (!isfinite(weights[i]) || weights[i] < 0)
            return clrt__fail(CLRT_EINVAL, func, "weights[%zu] is %g (must be finite and >= 0)", i, weights[i]);
        if (weights[i] > *largest)
            *largest = weights[i];
    }
    if (!(*largest > 0))
        return clrt__fail(CLRT_EINVAL, func, "the weights sum to 0 (at least one must be > 0)");
    *sum = 0;
    for (size_t i = 0; i < parts; i++)
        *sum += weights[i] / *largest; /* each in [0, 1]: the sum is at most parts */
    return CLRT_OK;
}

int clrt_split_rows(size_t *counts, size_t parts, size_t rows, const double *weights, size_t align)
{
    static const char func[] = "clrt_split_rows";
    if (!counts || !weights)
        return clrt__fail(CLRT_EINVAL, func, "%s is NULL", counts ? "weights" : "counts");
    if (parts == 0 || align == 0)
        return clrt__fail(CLRT_EINVAL, func, "%s is 0", parts == 0 ? "parts" : "align");
    double largest = 0, sum = 0;
    int status = check_weights(weights, parts, &largest, &sum, func);
    if (status != CLRT_OK)
        return status;
    /* Whole blocks of align rows: part i gets the blocks between the rounded
     * boundaries blocks * (weights before i) / sum and blocks * (weights up to
     * i) / sum. Each part so gets its share rounded down or up (to the
     * precision of doubles, which near SIZE_MAX blocks is a few thousand), the
     * counts sum to blocks exactly (the last weighted part's boundary is
     * blocks itself), a weight of 0 gets none, and it takes one pass whatever
     * the sizes, with no conversion that can overflow (boundary()). The rows
     * short of a whole block go to the last part that has any. */
    const size_t blocks = rows / align;
    size_t last_weighted = 0; /* the last part with a weight: its boundary is blocks */
    for (size_t i = 0; i < parts; i++)
        if (weights[i] > 0)
            last_weighted = i;
    double before = 0;
    size_t at = 0;
    for (size_t i = 0; i < parts; i++) {
        before += weights[i] / largest;
        size_t next = i >= last_weighted ? blocks : boundary(blocks, before / sum);
        if (next < at) /* a larger sum never rounds lower; kept so that no count can wrap */
            next = at;
        counts[i] = next - at;
        at = next;
    }
    size_t last = parts;
    for (size_t i = 0; i < parts; i++) {
        counts[i] *= align; /* at most blocks * align <= rows */
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
