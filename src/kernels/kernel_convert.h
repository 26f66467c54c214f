/* clrt_convert's kernel (cl/convert.cl): its source and the build options of a
 * (source dtype, destination dtype) pair, and its launch geometry. Not a tuned
 * kernel of the table: nothing to tune in a conversion beyond its group. */
#ifndef CLRT_KERNELS_CONVERT_H
#define CLRT_KERNELS_CONVERT_H

#include <stddef.h>

#include "device/device.h"

/* The embedded source (the prelude in front). */
const char *clrt__convert_source(void);
/* "-DSRC_DT=.. -DDST_DT=.." (and CLRT_FP64 with float64) into buf: 0, or -1 when
 * it does not fit. */
int clrt__convert_options(int src_dtype, int dst_dtype, char *buf, size_t cap);
/* Its NDRange over rows x cols: dimension 0 over runs of 8 columns (a
 * work-item each) in groups of up to 64 (what dev allows), 1 over rows. */
void clrt__convert_geometry(const clrt__device_facts *dev, size_t rows, size_t cols, size_t global[2],
                            size_t local[2]);

#endif
