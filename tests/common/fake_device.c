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

clrt__device_facts tu_fake_gpu(tu_gpu_class c)
{
    static const struct {
        const char *vendor, *name;
        unsigned long long local_mem;
        int nv_options;
        size_t max_work_group;
    } classes[TU_GPU_CLASSES] = {
        [TU_GPU_NVIDIA] = {"NVIDIA Corporation", "NVIDIA H200", 48 * 1024, 1, 1024},
        [TU_GPU_AMD] = {"Advanced Micro Devices, Inc.", "gfx90a", 64 * 1024, 0, 1024},
        [TU_GPU_INTEL] = {"Intel(R) Corporation", "Intel(R) Data Center GPU Max 1550", 128 * 1024, 0, 1024},
        [TU_GPU_INTEL_ARC] = {"Intel(R) Corporation", "Intel(R) Arc(TM) A770 Graphics", 64 * 1024, 0, 1024},
        [TU_GPU_INTEL_XE] = {"Intel(R) Corporation", "Intel(R) Iris(R) Xe Graphics", 64 * 1024, 0, 512},
    };
    clrt__device_facts f;
    memset(&f, 0, sizeof f);
    f.type = CLRT_DEVICE_GPU;
    snprintf(f.vendor, sizeof f.vendor, "%s", classes[c].vendor);
    snprintf(f.name, sizeof f.name, "%s", classes[c].name);
    snprintf(f.platform, sizeof f.platform, "%s", classes[c].vendor);
    f.compute_units = 100;
    f.local_mem = classes[c].local_mem;
    f.max_work_group = classes[c].max_work_group;
    f.max_work_item[0] = f.max_work_item[1] = classes[c].max_work_group;
    f.max_work_item[2] = 64;
    f.pref_vec_float = f.pref_vec_double = 1;
    f.max_alloc = 1ull << 32;
    f.nv_compiler_options = classes[c].nv_options;
    return f;
}

int tu_fake_gpu_has_fp64(tu_gpu_class c) { return c != TU_GPU_INTEL_ARC && c != TU_GPU_INTEL_XE; }

void tu_fake_gpu_info(tu_gpu_class c, clrt_device_info *info)
{
    const clrt__device_facts f = tu_fake_gpu(c);
    memset(info, 0, sizeof *info);
    info->type = CLRT_DEVICE_GPU;
    memcpy(info->name, f.name, sizeof info->name);
    memcpy(info->vendor, f.vendor, sizeof info->vendor);
    memcpy(info->platform, f.platform, sizeof info->platform);
    snprintf(info->driver, sizeof info->driver, "1.0+test");
    info->compute_units = f.compute_units;
    info->max_alloc = f.max_alloc;
    info->local_mem = f.local_mem;
    info->max_work_group = f.max_work_group;
    info->has_fp64 = tu_fake_gpu_has_fp64(c);
}
