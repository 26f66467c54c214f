/* A made-up CPU device like POCL's on the test machine, for what needs a
 * device's description but no device: the tuned-file suites and fuzz target.
 * Plain C on clrt's headers (no cmocka), so the fuzz targets can compile it. */
#ifndef CLRT_TESTS_COMMON_FAKE_DEVICE_H
#define CLRT_TESTS_COMMON_FAKE_DEVICE_H

#include "device/device.h"

/* "pthread-fake-avx512" on "Portable Computing Language", driver "3.1+test",
 * with fp64, 2 compute units, 1 MiB local memory, work-groups of 4096. */
void tu_fake_cpu_device(clrt_device_info *info, clrt__device_facts *facts);

#endif
