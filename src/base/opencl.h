/* The library's only way to include OpenCL: the target version is fixed here
 * (and as a compile definition) so that no OpenCL 2.0+ API slips in; NVIDIA
 * still only does OpenCL 1.2. */
#ifndef CLRT_BASE_OPENCL_H
#define CLRT_BASE_OPENCL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#endif
