/* clrt_convert's kernel (see kernels/kernel_convert.h). */
#include "kernels/kernel_convert.h"

#include <stdio.h>

#include "clrt/clrt.h"

extern const char clrt__cl_convert[];

const char *clrt__convert_source(void) { return clrt__cl_convert; }

int clrt__convert_options(int src_dtype, int dst_dtype, char *buf, size_t cap)
{
    const int fp64 = src_dtype == CLRT_FLOAT64 || dst_dtype == CLRT_FLOAT64;
    const int n = snprintf(buf, cap, "-DSRC_DT=%d -DDST_DT=%d%s", src_dtype, dst_dtype, fp64 ? " -DCLRT_FP64=1" : "");
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

void clrt__convert_geometry(const clrt__device_facts *dev, size_t rows, size_t cols, size_t global[2],
                            size_t local[2])
{
    size_t wg = 64;
    if (dev->max_work_group && wg > dev->max_work_group)
        wg = dev->max_work_group;
    if (dev->max_work_item[0] && wg > dev->max_work_item[0])
        wg = dev->max_work_item[0];
    local[0] = wg;
    local[1] = 1;
    const size_t runs = (cols + 7) / 8; /* CV = 8 columns a work-item (cl/convert.cl) */
    global[0] = (runs + wg - 1) / wg * wg;
    global[1] = rows;
}
