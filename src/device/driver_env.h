/* What a driver needs from the process's environment before it loads, and
 * what clrt does when that is missing. POCL keeps compiled kernels in a
 * cache folder and refuses to start (its platform then has no device, and the
 * loader may report no platform at all) when it cannot create that folder;
 * with a folder it cannot write, every build fails with an empty log. Before
 * the first OpenCL call, clrt probes that folder and, when it cannot be
 * written, points POCL at a private temporary folder for this process,
 * saying so once on stderr, so that the run goes on (compiling every kernel
 * again next time) instead of failing with advice that does not fit. */
#ifndef CLRT_DEVICE_DRIVER_ENV_H
#define CLRT_DEVICE_DRIVER_ENV_H

#include <stddef.h>

/* POCL's cache folder as POCL names it: $POCL_CACHE_DIR, else
 * $XDG_CACHE_HOME/pocl/kcache, else $HOME/.cache/pocl/kcache, else
 * /tmp/pocl/kcache. Always fills out (possibly truncated). */
void clrt__pocl_cache_dir(char *out, size_t cap);

/* 1 when POCL keeps no build cache: $POCL_KERNEL_CACHE is "0" (set by the
 * user, or by clrt__driver_env_prepare for a cache folder it cannot write). */
int clrt__pocl_cache_off(void);

/* What POCL's cache folder says about a build that ran from wall-clock time
 * `since` (seconds since the epoch, a little early for the file system's
 * coarser clock) to now. POCL 3.1 writes <bucket>/<program>/program.bc when it
 * compiles a program and touches <bucket>/<program>/last_accessed when its
 * cache serves one. COMPILED: a program.bc was written since (this build's,
 * or, rarely, another build's at the same time: said of a build served from
 * the cache, never the other way round); SERVED: none was, and a
 * last_accessed was touched; UNKNOWN: neither (another POCL's layout, or a
 * file system whose times are whole seconds), or a folder too large to look
 * through. */
typedef enum clrt__pocl_probe {
    CLRT__POCL_PROBE_UNKNOWN,
    CLRT__POCL_PROBE_COMPILED,
    CLRT__POCL_PROBE_SERVED
} clrt__pocl_probe;
clrt__pocl_probe clrt__pocl_cache_probe(const char *dir, double since);

/* Once per process, before the first clGetPlatformIDs: when POCL is
 * registered with the loader and its cache folder cannot be made or written,
 * set POCL_CACHE_DIR to a new private folder under $TMPDIR (or /tmp) and say
 * so on stderr. The caller serialises discovery. */
void clrt__driver_env_prepare(void);

/* For a message when no device was found: how many OpenCL drivers (.icd
 * files) the loader was given, and the first one's name in first. 0 when
 * none (or the folder cannot be read). */
size_t clrt__icd_count(char *first, size_t cap);

#endif
