/*
 * clrt — kernel tuning: the expert part of the API.
 *
 * The built-in kernels (clrt_add, clrt_matmul, ...) are compiled at run time
 * with parameters fitted to the device: tile sizes, vector widths, work-group
 * shapes. clrt chooses them from the device's facts, or from the device's
 * tuned file when one exists. This header lets a program read those
 * parameters, check and force its own per context, run the tuner, and store
 * what it found, with nothing but the installed library; `clrt-bench --tune`
 * is a thin command line over it.
 *
 * Stability: LESS STABLE than <clrt/clrt.h>. The names of kernels and
 * parameters, and the tuner's method, follow the kernels, which change as
 * they get faster; a minor release may change them. Parameters travel as text
 * ("tm=8 tn=48 tk=256 ...", the tuned file's own syntax) so that a new
 * parameter never changes the ABI. Include <clrt/clrt_tune.h> explicitly;
 * <clrt/clrt.h> does not.
 */
#ifndef CLRT_CLRT_TUNE_H
#define CLRT_CLRT_TUNE_H

#include "clrt/clrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup tune Tuning (expert, less stable)
 *  Kernel parameters as text, per-context overrides, the tuned file, and the
 *  tuner itself.
 *
 *  @code
 *  // force the GPU default parameters on a CPU device (tests do this)
 *  clrt_tune_override(ctx, "matmul", CLRT_FLOAT32,
 *                     "use_local=1 tm=8 tn=8 tk=16 wgx=16 wgy=16 vw=4");
 *  char now[256];                                // builds the kernel, says what it runs
 *  clrt_tune_current(ctx, "matmul", CLRT_FLOAT32, now, sizeof now, NULL);
 *  clrt_matmul(q, c, a, b);                      // runs with them (fitted)
 *
 *  // tune this device's fp32 matmul and store the result for every later process
 *  clrt_tune_options o;
 *  clrt_tune_options_init(&o);
 *  clrt_tune_result r;
 *  if (clrt_tune_run(ctx, "matmul", CLRT_FLOAT32, &o, &r) == CLRT_OK && r.improved)
 *      clrt_tune_file_store(ctx, NULL, "matmul", CLRT_FLOAT32, r.best, r.summary);
 *  @endcode
 *
 *  Kernel names: those clrt_tune_kernel_name() lists ("elementwise", which
 *  runs clrt_add, clrt_binary, clrt_unary, clrt_axpby, clrt_scale, clrt_fill
 *  and clrt_copy, and "matmul"); "add", the elementwise kernel's earlier name,
 *  still names it. Every function here takes one and a dtype; an unknown
 *  name, or a dtype the kernel is not built for, is CLRT_EINVAL. int32 copy
 *  and fill run with the elementwise kernel's float32 parameters.
 *  @{ */

/** The name of built-in kernel i (0, 1, ...), NULL past the last. */
CLRT_API const char *clrt_tune_kernel_name(size_t i);

/** One parameter of a kernel, as clrt_tune_param() describes it. */
typedef struct clrt_tune_param_info {
    const char *name;    /**< the text key, e.g. "tm" */
    unsigned min, max;   /**< the range any device allows (a device may allow less) */
    const char *meaning; /**< one sentence */
} clrt_tune_param_info;

/** Describe parameter i of kernel (0, 1, ...): CLRT_OK, or CLRT_EINVAL for
 *  an unknown kernel, an i past the last parameter or a NULL out. */
CLRT_API int clrt_tune_param(const char *kernel, size_t i, clrt_tune_param_info *out);

/** Where a kernel's parameters came from. */
typedef enum {
    CLRT_PARAMS_DEFAULT = 0,  /**< chosen from the device's facts */
    CLRT_PARAMS_TUNED = 1,    /**< the device's tuned file */
    CLRT_PARAMS_OVERRIDE = 2  /**< clrt_tune_override() on this context */
} clrt_params_origin;

/** The device's default parameters for (kernel, dtype) as text, before they
 *  are fitted to a built kernel. CLRT_EINVAL when buf is NULL or cap too small. */
CLRT_API int clrt_tune_defaults(clrt_context *ctx, const char *kernel, clrt_dtype dtype, char *buf, size_t cap);

/** The parameters ctx's kernel for (kernel, dtype) runs with, as text, after
 *  fitting (a driver may allow a built kernel fewer work-items than the
 *  device's maximum, and the work-group is then made smaller). Builds the
 *  kernel if it is not built yet, so it can fail as its first use would
 *  (CLRT_EBUILD, CLRT_EDEVICE, ...). origin (may be NULL) says where they came from. */
CLRT_API int clrt_tune_current(clrt_context *ctx, const char *kernel, clrt_dtype dtype, char *buf, size_t cap,
                               clrt_params_origin *origin);

/** Check a parameter text for (kernel, dtype) on ctx's device: CLRT_OK, or
 *  CLRT_EINVAL with why (may be NULL) saying which rule it breaks (syntax, a
 *  range, the kernel's constraints, the device's limits, or what a device of
 *  this kind is known to run). Parameters the text does not name keep the
 *  device's default values. */
CLRT_API int clrt_tune_check(clrt_context *ctx, const char *kernel, clrt_dtype dtype, const char *params,
                             char *why, size_t cap);

/** Make ctx's kernel for (kernel, dtype) use params (checked as
 *  clrt_tune_check does, else CLRT_EINVAL and nothing changes; unnamed
 *  parameters keep the defaults) instead of its tuned or default parameters,
 *  for this context only; NULL goes back to them. The kernel is rebuilt at
 *  its next use, as it was built at its first: parameters that pass the check
 *  but do not build or fit on the device make that use fail (CLRT_EBUILD,
 *  CLRT_EUNSUPPORTED); clrt_tune_current() builds at once, to find out.
 *  Unlike a tuned file's, overridden parameters never fall back to the
 *  defaults. Operations already enqueued keep the kernel they were given;
 *  later ones take the new one, from any thread. */
CLRT_API int clrt_tune_override(clrt_context *ctx, const char *kernel, clrt_dtype dtype, const char *params);

/** The tuned file clrt reads for ctx's device: $CLRT_TUNED_FILE when set,
 *  else a per-device file under $CLRT_CACHE_DIR/tuned (or
 *  $XDG_CACHE_HOME/clrt/tuned, or ~/.cache/clrt/tuned). CLRT_EINVAL when no
 *  path can be made (no HOME) or cap is too small. */
CLRT_API int clrt_tune_file_path(const clrt_context *ctx, char *buf, size_t cap);

/** Store params for (kernel, dtype) in a tuned file (path NULL: ctx's device
 *  file, clrt_tune_file_path), keeping the file's other entries when it is a
 *  valid file for this device; params NULL removes the entry. comment (may be
 *  NULL) is written above it. The file is written atomically (a reader sees
 *  the old file or the new one). Contexts read the file when they first build
 *  the kernel: existing contexts keep what they built. CLRT_EINVAL for
 *  parameters the check refuses, and (with the reason) for a path that cannot
 *  be written; CLRT_ENOMEM when out of host memory. */
CLRT_API int clrt_tune_file_store(clrt_context *ctx, const char *path, const char *kernel, clrt_dtype dtype,
                                  const char *params, const char *comment);

/** The tuner's progress: one line of text (no newline) about what it does now. */
typedef void (*clrt_tune_progress_fn)(void *user, const char *line);

/** Options of clrt_tune_run(). Fill with clrt_tune_options_init() first, then
 *  change fields: later versions add fields at the end. */
typedef struct clrt_tune_options {
    unsigned version;              /**< CLRT_TUNE_OPTIONS_VERSION, set by clrt_tune_options_init */
    size_t size;                   /**< the search's timing size: n for n x n x n products, n elements
                                        for elementwise kernels; 0: the kernel's own (1024 / 1e7) */
    int quick;                     /**< nonzero: one timing size, fewer rounds (a minute, not ten) */
    int passes;                    /**< coordinate-descent passes at most (default 2) */
    clrt_tune_progress_fn progress;/**< may be NULL */
    void *user;                    /**< passed to progress */
} clrt_tune_options;

/** The version clrt_tune_options_init() writes. */
#define CLRT_TUNE_OPTIONS_VERSION 1

/** Set o to the defaults. */
CLRT_API void clrt_tune_options_init(clrt_tune_options *o);

/** Reasons kept for rejected candidates (a wrong result always among them). */
#define CLRT_TUNE_REASONS 4

/** What clrt_tune_run() found. */
typedef struct clrt_tune_result {
    int improved;            /**< best beats the defaults by 3% over the final sizes, side by side */
    char defaults[256];      /**< the defaults, as the kernel ran them (fitted) */
    char best[256];          /**< the winner (== defaults when !improved) */
    double default_rate;     /**< GFLOP/s (products) or GB/s (elementwise) at the timing size */
    double best_rate;
    double speedup;          /**< best over defaults, geometric mean of the side-by-side ratios */
    const char *unit;        /**< "GFLOP/s" or "GB/s" */
    size_t tried;            /**< candidates evaluated */
    size_t rejected;         /**< refused by the check, failed to build, or computed a wrong result */
    size_t wrong;            /**< computed a wrong result: a kernel bug, never kept */
    size_t nreasons;         /**< entries of reasons[] in use */
    char reasons[CLRT_TUNE_REASONS][256]; /**< "params: why" for some rejected candidates */
    char summary[200];       /**< one line for a report or a tuned file's comment */
    char note[300];          /**< how the final comparison went, or why nothing could be tuned */
} clrt_tune_result;

/** Run one tuning pass for (kernel, dtype) on ctx's device: a coordinate
 *  descent from the device's defaults over the kernel's search space; every
 *  candidate is checked (clrt_tune_check), built, run at shapes that take
 *  every edge path of the kernel and compared with a host reference, and only
 *  then timed side by side with the best so far; the defaults and the best
 *  three are finally timed together at the timing size, an odd size next to
 *  it and (unless quick) twice it. The winner must beat the defaults by 3%
 *  over those sizes and lose nowhere by more than 3%. The run uses contexts
 *  of its own on ctx's device: ctx's kernels are not changed, and nothing is
 *  stored (clrt_tune_file_store does that). Takes seconds to many minutes.
 *  CLRT_OK whether or not it improved; CLRT_EINVAL for bad arguments (o may
 *  be NULL: the defaults); CLRT_EUNSUPPORTED for a kernel the tuner has no
 *  operation for (the neural-network kernels nn_*: use clrt_tune_override);
 *  when the defaults themselves fail to build or run, their status (out->note
 *  says why). */
CLRT_API int clrt_tune_run(clrt_context *ctx, const char *kernel, clrt_dtype dtype, const clrt_tune_options *o,
                           clrt_tune_result *out);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLRT_CLRT_TUNE_H */
