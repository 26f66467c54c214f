/* Per-device kernel parameters: the one place where device facts (type, vendor,
 * local memory, work-group limits) turn into tuning values for the kernels in cl/
 * (matmul.cl, add.cl). All vendor quirks live in params.c. */
#ifndef CLRT_PARAMS_H
#define CLRT_PARAMS_H

#include <stddef.h>

/* What params.c may look at. Filled by device.c from clGetDeviceInfo. */
typedef struct clrt_device_facts {
    int      type;            /* CLRT_DEVICE_CPU / _GPU / _ACCELERATOR / _OTHER */
    int      emulator;        /* Oclgrind, llvmpipe: correct but not a real device */
    char     vendor[256];
    char     name[256];
    char     platform[256];
    unsigned compute_units;
    unsigned long long local_mem;      /* bytes; 0 when the device has no dedicated local memory */
    int      local_mem_is_global;      /* CL_GLOBAL local memory type (CPU drivers) */
    unsigned long long global_cache;   /* CL_DEVICE_GLOBAL_MEM_CACHE_SIZE bytes; 0 unknown */
    unsigned long long max_alloc;      /* CL_DEVICE_MAX_MEM_ALLOC_SIZE bytes; 0 unknown */
    size_t   max_work_group;           /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    size_t   max_work_item[3];         /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
    unsigned pref_vec_float;           /* CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT */
    unsigned pref_vec_double;
} clrt_device_facts;

/* cl/matmul.cl: C(MxN) = A(MxK) B(KxN), all row-major.
 * Launch geometry (see clrt_matmul_geometry): dimension 0 runs over columns,
 * dimension 1 over rows. A work-item computes a TM x TN block of C; a work-group
 * is WGX x WGY work-items and so covers (WGY*TM) rows x (WGX*TN) columns.
 * use_local = 0: register tiles only, no local memory (CPU devices).
 * use_local = 1: A and B tiles of TK along k staged in local memory (GPUs).
 * pack (use_local = 0 only; no effect with 1): B is first copied by the pack_b kernel
 * into contiguous K x TN column panels, in a scratch buffer the queue keeps (see
 * clrt_matmul_pack_panels), and walked in k blocks of tkp instead of tk. */
typedef struct clrt_matmul_params {
    int      use_local;
    unsigned tm, tn;          /* rows / cols of C per work-item */
    unsigned tk;              /* k block (local tile depth, or cache block on CPU) */
    unsigned wgx, wgy;        /* work-group shape */
    unsigned vw;              /* vector width used for B/C rows: 1, 2, 4, 8 or 16;
                                 tn must be a multiple of vw, and with use_local tk too */
    unsigned pack;            /* pack B: 0 never, 1 when the shape pays for the copy,
                                 2 whenever the kernel can take it (M >= tm, N >= tn) */
    unsigned tkp;             /* k block when B is packed; 0 = tk */
} clrt_matmul_params;

/* cl/add.cl: c = a + b over n elements. A work-item handles VW*ITEMS elements. */
typedef struct clrt_add_params {
    unsigned vw;              /* 1, 2, 4, 8, 16 */
    unsigned items;           /* vectors per work-item */
    unsigned wg;              /* work-group size */
} clrt_add_params;

/* Defaults from device facts. elem_size is 4 (float) or 8 (double). */
void clrt_matmul_params_default(const clrt_device_facts *dev, size_t elem_size,
                                clrt_matmul_params *out);
void clrt_add_params_default(const clrt_device_facts *dev, size_t elem_size,
                             clrt_add_params *out);

/* Build options for the kernel, e.g. "-DREAL=float -DTM=8 ...". Returns 0, or -1
 * when cap is too small. */
int clrt_matmul_options(const clrt_matmul_params *p, size_t elem_size, char *buf, size_t cap);
int clrt_add_options(const clrt_add_params *p, size_t elem_size, char *buf, size_t cap);

/* Bytes of local memory the matmul kernel declares with these parameters. */
size_t clrt_matmul_local_bytes(const clrt_matmul_params *p, size_t elem_size);

/* NDRange for a launch. */
void clrt_matmul_geometry(const clrt_matmul_params *p, size_t M, size_t N,
                          size_t global[2], size_t local[2]);
void clrt_add_geometry(const clrt_add_params *p, size_t n, size_t global[1], size_t local[1]);

/* The scratch bytes for packed B on this device: packing and multiplying B a slice of
 * column panels at a time keeps the slice in the last-level cache, and bounds the
 * memory a queue holds. */
size_t clrt_matmul_pack_scratch_max(const clrt_device_facts *dev);
/* B packing for clrt_matmul(M x K times K x N): the column panels each pack_b + matmul
 * launch pair covers (a multiple of wgx), so that the scratch of panels x K x tn
 * elements stays within max_scratch bytes; 0 = do not pack (the parameters or the
 * shape do not ask for it, or one panel is over max_scratch). */
size_t clrt_matmul_pack_panels(const clrt_matmul_params *p, size_t M, size_t N, size_t K,
                               size_t elem_size, size_t max_scratch);
/* pack_b's NDRange for `panels` panels of depth K; kernel_wg is its
 * CL_KERNEL_WORK_GROUP_SIZE, max_item0 the device's first work-item limit (0 = none). */
void clrt_matmul_pack_geometry(size_t K, size_t panels, size_t kernel_wg, size_t max_item0,
                               size_t global[2], size_t local[2]);

/* Make the parameters fit a kernel whose CL_KERNEL_WORK_GROUP_SIZE came out as
 * kernel_wg (smaller than the device maximum on some drivers) and a local memory
 * budget; returns 1 when something was changed (the caller rebuilds), 0 when they
 * already fit, -1 when nothing smaller exists. */
int clrt_matmul_params_shrink(clrt_matmul_params *p, size_t kernel_wg, size_t local_budget,
                              size_t elem_size);
int clrt_add_params_shrink(clrt_add_params *p, size_t kernel_wg);

/* 1 when the driver keeps a cache of built programs that makes a repeated
 * clBuildProgram cheap, so clrt's on-disk binary cache would only add work. */
int clrt_driver_caches_builds(const clrt_device_facts *dev);

#endif
