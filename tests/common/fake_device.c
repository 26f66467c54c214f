/* A made-up CPU device (see common/fake_device.h). */
#include "common/fake_device.h"

#include <stdio.h>
#include <string.h>

void tu_fake_cpu_device(clrt_device_info *info, clrt__device_facts *facts)
{
    memset(info, 0, sizeof *info);
    memset(facts, 0, sizeof *facts);
    snprintf(info->name, sizeof info->name, "pthread-fake-avx512");
    snprintf(info->platform, sizeof info->platform, "Portable Computing Language");
    snprintf(info->vendor, sizeof info->vendor, "FakeVendor");
    snprintf(info->driver, sizeof info->driver, "3.1+test");
    info->type = CLRT_DEVICE_CPU;
    info->has_fp64 = 1;
    facts->type = CLRT_DEVICE_CPU;
    memcpy(facts->name, info->name, sizeof facts->name);
    memcpy(facts->platform, info->platform, sizeof facts->platform);
    memcpy(facts->vendor, info->vendor, sizeof facts->vendor);
    facts->compute_units = 2;
    facts->local_mem = 1 << 20;
    facts->local_mem_is_global = 1;
    facts->max_work_group = 4096;
    facts->max_work_item[0] = facts->max_work_item[1] = facts->max_work_item[2] = 4096;
    facts->pref_vec_float = 16;
    facts->pref_vec_double = 8;
}
