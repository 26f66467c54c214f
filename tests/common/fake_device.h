/* Made-up devices for what needs a device's description but no device: a CPU
 * like POCL's on the test machine (the tuned-file suites and fuzz target) and
 * GPUs of the vendor classes clrt has defaults for (the GPU parameter rules).
 * Plain C on clrt's headers (no cmocka), so the fuzz targets can compile it. */
#ifndef CLRT_TESTS_COMMON_FAKE_DEVICE_H
#define CLRT_TESTS_COMMON_FAKE_DEVICE_H

#include "device/device.h"

/* "pthread-fake-avx512" on "Portable Computing Language", driver "3.1+test",
 * with fp64, 2 compute units, 1 MiB local memory, work-groups of 4096. */
void tu_fake_cpu_device(clrt_device_info *info, clrt__device_facts *facts);

/* The GPU vendor classes clrt has defaults for, each as one of its devices. */
typedef enum {
    TU_GPU_NVIDIA, /* "NVIDIA H200": 48 KiB local memory, takes cl_nv_compiler_options */
    TU_GPU_AMD,    /* "gfx90a" (an MI200): 64 KiB local memory */
    TU_GPU_INTEL,  /* "Intel(R) Data Center GPU Max 1550": 128 KiB local memory */
    TU_GPU_INTEL_ARC, /* "Intel(R) Arc(TM) A770 Graphics": 64 KiB local memory, no fp64 */
    TU_GPU_INTEL_XE,  /* "Intel(R) Iris(R) Xe Graphics": 64 KiB local memory, groups of 512, no fp64 */
    TU_GPU_CLASSES
} tu_gpu_class;

/* The class's device as its driver reports it: vendor (also its platform), name,
 * local memory and compiler options as above; work-groups of 1024 (unless said
 * above), 100 compute units, 4 GiB allocations, vector width 1. */
clrt__device_facts tu_fake_gpu(tu_gpu_class c);

/* Whether the class's device has cl_khr_fp64 (clrt_device_info::has_fp64): all
 * but Arc and Iris Xe. */
int tu_fake_gpu_has_fp64(tu_gpu_class c);

/* The class's device as clrt_device_list() describes it (type, name, vendor,
 * platform, driver "1.0+test", local memory, groups, has_fp64). */
void tu_fake_gpu_info(tu_gpu_class c, clrt_device_info *info);

#endif
