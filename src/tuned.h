/* Tuned kernel parameters, persisted per device: written by
 * `clrt-bench --tune`, read by ops.c when a context first builds a kernel,
 * so that a tuning applies to every later process without a rebuild.
 *
 * Resolution of a kernel's parameters (ops.c): the device defaults
 * (params.c), replaced by the tuned ones when this device has a valid tuned
 * file, then fitted to the built kernel; tuned parameters that fail to build
 * or fit fall back to the defaults, with a warning.
 *
 * Where: $CLRT_TUNED_FILE when set (one file; it must still be for this
 * device), else <dir>/<device>-<hash>.tuned with <dir> = $CLRT_CACHE_DIR/tuned,
 * else $XDG_CACHE_HOME/clrt/tuned, else ~/.cache/clrt/tuned, and <hash> a hash
 * of the platform, device name, driver version and clrt version.
 * CLRT_TUNED=0 (or off) ignores every tuned file.
 *
 * A file that is corrupt (bad checksum, bad syntax), foreign (another
 * device, driver or clrt version) or invalid (a value out of range or beyond
 * the device's limits) is ignored as a whole, with one warning on stderr. */
#ifndef CLRT_TUNED_H
#define CLRT_TUNED_H

#include <stddef.h>

#include "internal.h"

/* What a tuned file holds: entries for some of (op, dtype), each complete
 * (fields the file does not name keep their default values). */
typedef struct clrt_tuned_set {
    int have_matmul[2];               /* [dtype - 1] */
    int have_add[2];
    clrt_matmul_params matmul[2];
    clrt_add_params add[2];
    char comment[CLRT_OP_COUNT][2][200]; /* written as a "# ..." line above the entry */
} clrt_tuned_set;

enum { CLRT_TUNED_MAX_FILE = 64 * 1024 };

/* The file for this device (see above). create = 1 makes the folder.
 * 0, or -1 when no path can be made. */
int clrt__tuned_path(const clrt_device_info *info, int create, char *out, size_t cap);

/* Parse a file's text for this device. Entries start from the device's
 * defaults. 0: *out filled; -1: corrupt or invalid; -2: foreign. *why says
 * what was wrong. Pure: no OpenCL, no files (unit-tested). */
int clrt__tuned_parse(const char *text, size_t len, const clrt_device_info *info,
                      const clrt_device_facts *facts, clrt_tuned_set *out, char *why, size_t cap);

/* The file's text for set (malloc'd), with its checksum line. NULL when out of memory. */
char *clrt__tuned_format(const clrt_device_info *info, const clrt_tuned_set *set);

/* Write set for this device to path atomically. 0 or -1. */
int clrt__tuned_write(const char *path, const clrt_device_info *info, const clrt_tuned_set *set);

/* Read this device's tuned file: 1 loaded, 0 none (no file or disabled),
 * -1 ignored (one warning on stderr per file and reason). */
int clrt__tuned_load(const clrt_device_info *info, const clrt_device_facts *facts, clrt_tuned_set *out);

/* For ops.c: 1 and *out (a clrt_matmul_params or clrt_add_params) set when
 * ctx's device has valid tuned parameters for (op, dtype); 0 otherwise. */
int clrt__tuned_params(const clrt_context *ctx, int op, clrt_dtype dtype, void *out);

/* For ops.c: the tuned parameters of (op, dtype) did not build or fit; warn
 * (once per process and device) that the defaults are used instead. */
void clrt__tuned_rejected(const clrt_context *ctx, int op, clrt_dtype dtype, const char *why);

/* "use_local=0 tm=8 tn=32 ..." / "vw=16 items=1 wg=256": the file's syntax. */
int clrt__matmul_params_text(const clrt_matmul_params *p, char *buf, size_t cap);
int clrt__add_params_text(const clrt_add_params *p, char *buf, size_t cap);

/* Test seam: since the process started, tuned entries put to use, files
 * ignored (corrupt, foreign, invalid), and tuned parameters that failed to
 * build or fit and fell back to the defaults. */
void clrt_debug_tuned_stats(unsigned long *used, unsigned long *ignored, unsigned long *fallbacks);

#endif
