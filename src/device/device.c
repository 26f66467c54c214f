/* Discovery: every device of every platform the ICD loader knows, with the
 * facts clrt_device_info reports and kernels/params.c tunes from. */
#include <stdlib.h>
#include <string.h>

#include "base/debug.h"
#include "base/error.h"
#include "base/thread.h"
#include "base/util.h"
#include "device/device.h"
#include "device/driver_env.h"

/* The loader's "no platform installed" code (cl_khr_icd); not in the 1.2 headers. */
#define CLRT_PLATFORM_NOT_FOUND_KHR (-1001)

/* Copy a string property, truncated to cap-1 bytes; "" when the query fails. */
static void info_string(cl_platform_id platform, cl_device_id device, cl_uint param, char *dst,
                        size_t cap)
{
    size_t size = 0;
    cl_int err = device ? clGetDeviceInfo(device, param, 0, NULL, &size)
                        : clGetPlatformInfo(platform, param, 0, NULL, &size);
    dst[0] = '\0';
    if (err != CL_SUCCESS || size == 0)
        return;
    char *tmp = malloc(size + 1);
    if (!tmp)
        return;
    err = device ? clGetDeviceInfo(device, param, size, tmp, NULL)
                 : clGetPlatformInfo(platform, param, size, tmp, NULL);
    if (err == CL_SUCCESS) {
        tmp[size] = '\0';
        size_t n = strlen(tmp);
        if (n >= cap)
            n = cap - 1;
        memcpy(dst, tmp, n);
        dst[n] = '\0';
    }
    free(tmp);
}

/* A fixed-size device property, zero when the query fails. */
static void info_value(cl_device_id device, cl_uint param, void *dst, size_t size)
{
    memset(dst, 0, size);
    if (clGetDeviceInfo(device, param, size, dst, NULL) != CL_SUCCESS)
        memset(dst, 0, size);
}

static int has_extension(cl_device_id device, const char *name)
{
    size_t size = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS || !size)
        return 0;
    char *ext = malloc(size + 1);
    if (!ext)
        return 0;
    int found = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, ext, NULL) == CL_SUCCESS) {
        ext[size] = '\0';
        size_t n = strlen(name);
        for (const char *p = strstr(ext, name); p && !found; p = strstr(p + 1, name))
            found = (p == ext || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0');
    }
    free(ext);
    return found;
}

/* Exactly one type: a device that claims several (Oclgrind claims all three)
 * is taken as the most capable it claims. */
static int device_type(cl_device_type t)
{
    if (t & CL_DEVICE_TYPE_GPU)
        return CLRT_DEVICE_GPU;
    if (t & CL_DEVICE_TYPE_ACCELERATOR)
        return CLRT_DEVICE_ACCELERATOR;
    if (t & CL_DEVICE_TYPE_CPU)
        return CLRT_DEVICE_CPU;
    return CLRT_DEVICE_OTHER;
}

static void describe(clrt__device_entry *e, cl_platform_id platform, cl_device_id device)
{
    clrt_device_info *info = &e->info;
    clrt__device_facts *facts = &e->facts;
    e->platform = platform;
    e->device = device;

    info_string(platform, NULL, CL_PLATFORM_NAME, info->platform, sizeof info->platform);
    info_string(platform, NULL, CL_PLATFORM_VENDOR, e->platform_vendor, sizeof e->platform_vendor);
    info_string(NULL, device, CL_DEVICE_NAME, info->name, sizeof info->name);
    info_string(NULL, device, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor);
    info_string(NULL, device, CL_DRIVER_VERSION, info->driver, sizeof info->driver);

    cl_device_type type;
    cl_uint cu, clock, vf, vd;
    cl_ulong gmem, alloc, lmem, gcache;
    cl_device_local_mem_type ltype;
    size_t wg, witem[32]; /* the query fails unless the array holds every dimension */
    cl_device_fp_config fp64;
    info_value(device, CL_DEVICE_TYPE, &type, sizeof type);
    info_value(device, CL_DEVICE_MAX_COMPUTE_UNITS, &cu, sizeof cu);
    info_value(device, CL_DEVICE_MAX_CLOCK_FREQUENCY, &clock, sizeof clock);
    info_value(device, CL_DEVICE_GLOBAL_MEM_SIZE, &gmem, sizeof gmem);
    info_value(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, &alloc, sizeof alloc);
    info_value(device, CL_DEVICE_LOCAL_MEM_SIZE, &lmem, sizeof lmem);
    info_value(device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, &gcache, sizeof gcache);
    info_value(device, CL_DEVICE_LOCAL_MEM_TYPE, &ltype, sizeof ltype);
    info_value(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, &wg, sizeof wg);
    info_value(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, witem, sizeof witem);
    info_value(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, &vf, sizeof vf);
    info_value(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, &vd, sizeof vd);
    info_value(device, CL_DEVICE_DOUBLE_FP_CONFIG, &fp64, sizeof fp64);

    info->type = device_type(type);
    info->compute_units = cu;
    info->global_mem = gmem;
    info->max_alloc = alloc;
    info->local_mem = lmem;
    info->max_work_group = wg;
    info->has_fp64 = fp64 != 0 || has_extension(device, "cl_khr_fp64");
    e->clock_mhz = clock;

    facts->type = info->type;
    facts->emulator = clrt__device_is_emulator(info);
    memcpy(facts->vendor, info->vendor, sizeof facts->vendor);
    memcpy(facts->name, info->name, sizeof facts->name);
    memcpy(facts->platform, info->platform, sizeof facts->platform);
    facts->compute_units = cu;
    facts->local_mem = lmem;
    facts->local_mem_is_global = ltype == CL_GLOBAL;
    facts->global_cache = gcache;
    facts->max_alloc = alloc;
    facts->max_work_group = wg;
    memcpy(facts->max_work_item, witem, sizeof facts->max_work_item);
    facts->pref_vec_float = vf;
    facts->pref_vec_double = vd;
    facts->nv_compiler_options = has_extension(device, "cl_nv_compiler_options");
}

static int enumerate(clrt__device_entry **out, size_t *count)
{
    static const char func[] = "clrt_device_list";

    cl_uint nplat = 0;
    cl_int err = clrt__fault(CLRT__FAULT_PLATFORM_IDS);
    if (err == CL_SUCCESS)
        err = clGetPlatformIDs(0, NULL, &nplat);
    if (err == CLRT_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && nplat == 0))
        return CLRT_OK; /* nothing installed is an empty list, not an error */
    if (err != CL_SUCCESS) /* out of host memory is CLRT_ENOMEM, as everywhere */
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clGetPlatformIDs", NULL,
                             "cannot list OpenCL platforms");

    cl_platform_id *plats = malloc(nplat * sizeof *plats);
    if (!plats)
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    err = clGetPlatformIDs(nplat, plats, NULL);
    if (err != CL_SUCCESS) {
        free(plats);
        return clrt__fail_cl(CLRT_EOPENCL, func, err, "clGetPlatformIDs", NULL,
                             "cannot list OpenCL platforms");
    }

    clrt__device_entry *devs = NULL;
    size_t n = 0;
    int status = CLRT_OK;
    for (cl_uint p = 0; p < nplat && status == CLRT_OK; p++) {
        cl_uint ndev = 0;
        err = clrt__fault(CLRT__FAULT_DEVICE_IDS);
        if (err == CL_SUCCESS)
            err = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &ndev);
        /* A platform without devices (Mesa's Clover with no GPU) is skipped;
         * so is one that fails to answer, so that one broken driver does not
         * hide the others. */
        if (err != CL_SUCCESS || ndev == 0)
            continue;
        cl_device_id *ids = malloc(ndev * sizeof *ids);
        clrt__device_entry *grown = realloc(devs, (n + ndev) * sizeof *devs);
        if (grown)
            devs = grown;
        if (!ids || !grown) {
            free(ids);
            status = clrt__fail(CLRT_ENOMEM, func, "out of host memory");
            break;
        }
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, ndev, ids, NULL) == CL_SUCCESS) {
            for (cl_uint d = 0; d < ndev; d++) {
                clrt__device_entry *e = &devs[n];
                memset(e, 0, sizeof *e);
                describe(e, plats[p], ids[d]);
                e->info.index = n;
                e->info.platform_index = p;
                e->info.device_index = d;
                n++;
            }
        }
        free(ids);
    }
    free(plats);
    if (status != CLRT_OK) {
        free(devs);
        return status;
    }
    *out = devs;
    *count = n;
    return CLRT_OK;
}

/* One discovery at a time in the process: the ICD loader and the drivers are
 * not all safe when several threads make the first calls at once (POCL 3.1
 * crashed in device enumeration, and the loader answered "no platform" to
 * threads that came while another was loading the drivers). Discovery is
 * short next to a context's life, so this costs nothing that matters. */
static clrt_mutex discovery_lock = CLRT_MUTEX_INITIALIZER;

int clrt__device_enumerate(clrt__device_entry **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    clrt_mutex_lock(&discovery_lock);
    clrt__driver_env_prepare();
    int status = enumerate(out, count);
    clrt_mutex_unlock(&discovery_lock);
    return status;
}

int clrt_device_list(clrt_device_info *out, size_t capacity, size_t *count)
{
    if (!count)
        return clrt__fail(CLRT_EINVAL, "clrt_device_list", "count is NULL");
    clrt__device_entry *devs;
    size_t n;
    int status = clrt__device_enumerate(&devs, &n);
    if (status != CLRT_OK)
        return status;
    for (size_t i = 0; out && i < n && i < capacity; i++)
        out[i] = devs[i].info;
    *count = n;
    free(devs);
    return CLRT_OK;
}

size_t clrt__device_loop_budget(const clrt__device_facts *dev)
{
    static const char llvmpipe[] = "llvmpipe";
    return clrt__icontains(dev->name, llvmpipe, sizeof llvmpipe - 1) ? 65535 : 0;
}

int clrt__device_is_emulator(const clrt_device_info *info)
{
    static const char *const emulators[] = {"oclgrind", "llvmpipe", "softpipe"};
    for (size_t i = 0; i < sizeof emulators / sizeof emulators[0]; i++) {
        size_t n = strlen(emulators[i]);
        if (clrt__icontains(info->name, emulators[i], n) || clrt__icontains(info->platform, emulators[i], n))
            return 1;
    }
    return 0;
}

int clrt_device_is_emulator(const clrt_device_info *info) { return info ? clrt__device_is_emulator(info) : 0; }

const char *clrt_device_type_name(int type)
{
    switch (type) {
    case CLRT_DEVICE_CPU:
        return "cpu";
    case CLRT_DEVICE_GPU:
        return "gpu";
    case CLRT_DEVICE_ACCELERATOR:
        return "accelerator";
    case CLRT_DEVICE_OTHER:
        return "other";
    }
    return "unknown";
}

/* POCL keeps a kernel cache (~/.cache/pocl), but a clBuildProgram that hits
 * it still runs its front end: 25-30 ms for matmul.cl against 5 ms to load
 * clrt's own binary (measured on POCL 3.1 in a new process), so clrt's cache
 * is worth using there (its first store costs POCL a one-time build of the
 * binary, ~4 s here). NVIDIA's compute cache (~/.nv/ComputeCache) makes a
 * repeated build cheap, as PyOpenCL also assumes: skip clrt's there. */
int clrt__driver_caches_builds(const clrt__device_facts *dev) { return clrt__icontains(dev->platform, "nvidia", 6); }

int clrt__driver_binary_costly(const clrt__device_facts *dev)
{
    return clrt__icontains(dev->platform, "portable computing language", 27);
}
