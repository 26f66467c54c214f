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

/* A GPU's facts as its driver reports them: the vendor (also its platform), the
 * device's name, local memory per group, the largest work-group and first
 * work-item dimension, and whether it takes cl_nv_compiler_options; 100 compute
 * units, 4 GiB allocations, vector width 1. */
clrt__device_facts tu_fake_gpu_facts(const char *vendor, const char *name, unsigned long long local_mem,
                                     size_t max_group, size_t max_item0, int nv_options);

#endif
