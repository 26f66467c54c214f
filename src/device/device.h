/* Devices: discovery over every platform the ICD loader knows, and the facts
 * that kernel parameters are chosen from. */
#ifndef CLRT_DEVICE_DEVICE_H
#define CLRT_DEVICE_DEVICE_H

#include <stddef.h>

#include "base/opencl.h"
#include "clrt/clrt.h"

/* What kernel parameters may depend on. Filled by device/device.c from clGetDeviceInfo. */
typedef struct clrt__device_facts {
    int type;                        /* CLRT_DEVICE_CPU / _GPU / _ACCELERATOR / _OTHER */
    int emulator;                    /* Oclgrind, llvmpipe: correct but not a real device */
    char vendor[256];
    char name[256];
    char platform[256];
    unsigned compute_units;
    unsigned long long local_mem;    /* bytes; 0 when the device has no dedicated local memory */
    int local_mem_is_global;         /* CL_GLOBAL local memory type (CPU drivers) */
    unsigned long long global_cache; /* CL_DEVICE_GLOBAL_MEM_CACHE_SIZE bytes; 0 unknown */
    unsigned long long max_alloc;    /* CL_DEVICE_MAX_MEM_ALLOC_SIZE bytes; 0 unknown */
    size_t max_work_group;           /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    size_t max_work_item[3];         /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
    unsigned pref_vec_float;         /* CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT */
    unsigned pref_vec_double;
    int nv_compiler_options;         /* cl_nv_compiler_options: the build takes -cl-nv-maxrregcount */
} clrt__device_facts;

/* One device of the list. */
typedef struct clrt__device_entry {
    clrt_device_info info;
    char platform_vendor[256]; /* CL_PLATFORM_VENDOR ("The pocl project"): selectors match it too */
    clrt__device_facts facts;
    unsigned clock_mhz;
    cl_platform_id platform;
    cl_device_id device;
} clrt__device_entry;

/* Enumerate every device; *out is malloc'd (free() it), *count may be 0.
 * Returns CLRT_OK or a status with the error message set. */
int clrt__device_enumerate(clrt__device_entry **out, size_t *count);

/* Nonzero for checking or emulating devices that rank below every native
 * driver: Oclgrind, Mesa's llvmpipe/softpipe. */
int clrt__device_is_emulator(const clrt_device_info *info);

/* How many loop passes one work-item may make in all, 0 for no limit. Mesa's
 * llvmpipe (under rusticl) counts every pass of every loop its JIT did not
 * unroll in one counter per work-item (LP_MAX_TGSI_LOOP_ITERATIONS, 65535)
 * and, once it runs out, silently leaves each loop after its current pass;
 * kernels whose loops grow with the data run in slices there. */
size_t clrt__device_loop_budget(const clrt__device_facts *dev);

/* 1 when the driver keeps a cache of built programs that makes a repeated
 * clBuildProgram cheap, so clrt's on-disk binary cache would only add work
 * (NVIDIA). */
int clrt__driver_caches_builds(const clrt__device_facts *dev);

/* 1 when reading a built program back (to store it) costs the driver a
 * build of its own: POCL generates code for every kernel of the program once
 * more, for a generic work-group size. Measured on a cold clrt-train run
 * (--epochs 1 --limit 2000, 2-core AMD EPYC): 22.6 s storing every program,
 * 9.9 s not. clrt then loads what its cache holds but stores only when a
 * program warms the caches on purpose (clrt_warm) or CLRT_CACHE=1 says so. */
int clrt__driver_binary_costly(const clrt__device_facts *dev);

#endif
