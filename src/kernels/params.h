/* Kernel parameters in general: how a built-in kernel's tuning values are
 * described, written as text, parsed, turned into build options, range
 * checked and searched. Each kernel declares its parameters once, in an
 * X-macro list in its k_<kernel>.h (name, -D define, range, the tuner's
 * values, meaning); everything here works from the table that list makes. */
#ifndef CLRT_KERNELS_PARAMS_H
#define CLRT_KERNELS_PARAMS_H

#include <stddef.h>

#include "device/device.h"

/* Most parameters one kernel may have; a kernel's parameter struct is that
 * many unsigned values at most, in declaration order, without padding. */
enum { CLRT__MAX_PARAMS = 20 };
/* Auxiliary kernels a built-in kernel may have (packing steps, other forms). */
enum { CLRT__MAX_AUX = 5 };
/* Largest value any parameter may take in text (tuned files, overrides). */
enum { CLRT__PARAM_MAX = 65536 };

/* One parameter, from an X-macro line. */
typedef struct clrt__param_def {
    const char *name;      /* text key: "tm" */
    const char *define;    /* -D<define>=<value> in the build options; NULL: read by the host only */
    unsigned min, max;     /* the range any device allows */
    const char *search[2]; /* the tuner's values for kernel variant 0 and 1 ("2 4 8"); "" = not searched */
    const char *meaning;
} clrt__param_def;

/* Builds a kernel's table entry from its X-macro line. */
#define CLRT__PARAM_DEF(name, define, min, max, search0, search1, meaning) \
    {#name, define, min, max, {search0, search1}, meaning},
/* Builds a kernel's parameter struct member from its X-macro line. */
#define CLRT__PARAM_FIELD(name, define, min, max, search0, search1, meaning) unsigned name;
/* The static table `name` of a kernel's X-macro list, checked at compile time
 * against the struct the same list makes (type): the generic code reads that
 * struct by position, as at most CLRT__MAX_PARAMS unsigned values. */
#define CLRT__PARAM_TABLE(name, LIST, type)                                                                  \
    static const clrt__param_def name[] = {LIST(CLRT__PARAM_DEF)};                                           \
    _Static_assert(sizeof(type) == sizeof name / sizeof *name * sizeof(unsigned),                           \
                   #type ": parameters are unsigned values without padding");                              \
    _Static_assert(sizeof name / sizeof *name <= CLRT__MAX_PARAMS, #type ": too many parameters")

/* The values of any kernel's parameters, as its struct or by position. */
typedef struct clrt__pvals {
    unsigned v[CLRT__MAX_PARAMS];
} clrt__pvals;

/* Element types a kernel is built for: -DREAL=<type>; the 16-bit ones are
 * stored as 16 bits (-DCLRT_STORE=<clrt_dtype>) and computed in float. */
typedef enum {
    CLRT__ELEM_F32 = 1,
    CLRT__ELEM_F64 = 2,
    CLRT__ELEM_I32 = 3,
    CLRT__ELEM_F16 = 4,
    CLRT__ELEM_BF16 = 5
} clrt__elem;

/* The dtypes (clrt__kernel_def's bits) of the kernels built for floats alone. */
#define CLRT__FLOAT_DTYPES ((1u << CLRT_FLOAT32) | (1u << CLRT_FLOAT64))

/* What a kernel is, for the generic code (kernel cache, tuned files, tuner). */
typedef struct clrt__kernel_def {
    const char *name;              /* "matmul": the tuned-file word and the tuning API's name */
    const clrt__param_def *params; /* nparams entries, in struct order */
    size_t nparams;
    unsigned dtypes;               /* bit (1 << clrt_dtype) for each dtype it is built for */
    /* 1: the library's own launches also build it for float16 and bfloat16
     * storage (CLRT_STORE), with float32's parameters; not in dtypes, so never
     * tuned for them nor handed out by clrt_context_kernel_cl */
    int storage16;
    const char *variant_param;     /* the parameter choosing the search list, NULL: list 0 */
    /* the defaults for a device and element size (4 or 8) */
    void (*defaults)(const clrt__device_facts *dev, size_t elem, clrt__pvals *out);
    /* constraints between parameters and with the device, beyond each range:
     * 0, or -1 with why */
    int (*check)(const clrt__device_facts *dev, size_t elem, const clrt__pvals *p, char *why, size_t cap);
    /* make p fit a built kernel whose CL_KERNEL_WORK_GROUP_SIZE is kernel_wg:
     * 1 changed (rebuild), 0 fits, -1 nothing smaller exists */
    int (*fit)(const clrt__device_facts *dev, size_t elem, size_t kernel_wg, clrt__pvals *p);
    /* work-items per group p launches with (NULL: the build is never retried
     * with a smaller group) */
    size_t (*group)(const clrt__pvals *p);
    /* the embedded source and __kernel function for p (a kernel may have a
     * source per variant), and its auxiliary kernels of the same program in a
     * launch variant: the i-th (i < CLRT__MAX_AUX) or NULL (none there; may be
     * NULL: none at all) */
    const char *(*source)(const clrt__pvals *p);
    const char *entry;
    /* the __kernel function of a launch variant where the variants are kernels of
     * one program rather than programs (NULL: entry for every variant) */
    const char *(*variant_entry)(const clrt__pvals *p, int variant);
    const char *(*aux_entry)(const clrt__pvals *p, int variant, unsigned i);
    /* build options of a launch variant (transposes, op codes) appended to
     * the parameters' p (may be NULL: one variant) */
    int (*variant_options)(const clrt__pvals *p, int variant, char *buf, size_t cap);
    /* whether the tuner searches parameter i from start at the timing sizes
     * (n x n x n products, or n elements); NULL: whenever it has values */
    int (*searched)(const clrt__device_facts *dev, size_t elem, const clrt__pvals *start, size_t i,
                    const size_t *sizes, size_t nsizes);
} clrt__kernel_def;

/* The main __kernel function of def's launch variant for p. */
static inline const char *clrt__entry_of(const clrt__kernel_def *def, const clrt__pvals *p, int variant)
{
    const char *e = def->variant_entry ? def->variant_entry(p, variant) : NULL;
    return e ? e : def->entry;
}

/* Index of parameter name in def, or -1. */
int clrt__param_index(const clrt__kernel_def *def, const char *name, size_t len);

/* "tm=8 tn=48 ...": every parameter, in declaration order. 0, or -1 when cap is too small. */
int clrt__params_text(const clrt__kernel_def *def, const clrt__pvals *p, char *buf, size_t cap);
/* "key=value ..." over the values already in *p (keys in any order, each at
 * most once, at least one). 0, or -1 with why. Ranges are not checked here. */
int clrt__params_parse(const clrt__kernel_def *def, const char *text, clrt__pvals *p, char *why, size_t cap);
/* Every range, then def->check. 0, or -1 with why. */
int clrt__params_check(const clrt__kernel_def *def, const clrt__device_facts *dev, size_t elem,
                       const clrt__pvals *p, char *why, size_t cap);
/* Build options: "-DREAL=float -DTM=8 ..." plus the launch variant's. 0, or -1 when cap is too small. */
int clrt__params_options(const clrt__kernel_def *def, const clrt__pvals *p, clrt__elem elem, int variant,
                         char *buf, size_t cap);
/* The tuner's values of parameter i for the variant p selects; returns how
 * many (at most cap). */
size_t clrt__param_search(const clrt__kernel_def *def, const clrt__pvals *p, size_t i, unsigned *values,
                          size_t cap);

/* Shared by the kernels' rules: the device's work-group limits (0 = unknown: not checked). */
int clrt__check_group(const clrt__device_facts *dev, size_t x, size_t y, char *why, size_t cap);
/* printf into why (when not NULL) and return -1. */
int clrt__refuse(char *why, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The widest of 16, 8, 4, 2 that the preferred width pv reaches, not below
 * floor; 4 when the driver reports no preference (0 or 1). */
unsigned clrt__pick_vector_width(unsigned pv, unsigned floor);
/* The device gets the register-tile (CPU) variants of the kernels. */
int clrt__wants_register_tiles(const clrt__device_facts *dev);

#endif
