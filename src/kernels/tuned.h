/* Tuned kernel parameters, persisted per device: written by the tuner
 * (clrt_tune_run, clrt_tune_file_store; `clrt-bench --tune`), read by the
 * kernel cache when a context first builds a kernel, so that a tuning applies
 * to every later process without a rebuild.
 *
 * Where: $CLRT_TUNED_FILE when set (one file; it must still be for this
 * device), else <dir>/<device>-<hash>.tuned with <dir> = $CLRT_CACHE_DIR/tuned,
 * else $XDG_CACHE_HOME/clrt/tuned, else ~/.cache/clrt/tuned, and <hash> a hash
 * of the platform, device name, driver version and clrt version.
 * CLRT_TUNED=0 (or off/no/false) ignores every tuned file.
 *
 * A file that is corrupt (bad checksum, bad syntax), foreign (another device,
 * driver or clrt version) or invalid (a value out of range or beyond the
 * device's limits) is ignored as a whole, with one warning on stderr; so is
 * one that base/trust.h does not trust (a file or folder another user owns
 * or may write, a symbolic link), and such a file is never written. */
#ifndef CLRT_KERNELS_TUNED_H
#define CLRT_KERNELS_TUNED_H

#include <stddef.h>

#include "kernels/table.h"

/* What a tuned file holds: entries for some of (kernel, dtype), each complete
 * (fields the file does not name keep their default values). */
typedef struct clrt__tuned_entry {
    int have;
    clrt__pvals p;
    char comment[200]; /* written as a "# ..." line above the entry */
} clrt__tuned_entry;
typedef struct clrt__tuned_set {
    clrt__tuned_entry e[CLRT__K_COUNT][2]; /* [kernel][dtype - 1] */
} clrt__tuned_set;

enum { CLRT__TUNED_MAX_FILE = 64 * 1024 };

/* The file for this device (see above). create = 1 makes the folder.
 * 0, or -1 when no path can be made. */
int clrt__tuned_path(const clrt_device_info *info, int create, char *out, size_t cap);

/* Parse a file's text for this device. Entries start from the device's
 * defaults. 0: *out filled; -1: corrupt or invalid; -2: foreign. *why says
 * what was wrong. Pure: no OpenCL, no files (unit-tested). */
int clrt__tuned_parse(const char *text, size_t len, const clrt_device_info *info, const clrt__device_facts *facts,
                      clrt__tuned_set *out, char *why, size_t cap);

/* The file's text for set (malloc'd), with its checksum line. NULL when out of memory. */
char *clrt__tuned_format(const clrt_device_info *info, const clrt__tuned_set *set);

/* Write set for this device to path atomically, where base/trust.h trusts
 * the folder and any file there. 0, or -1 with why (cap bytes) set. */
int clrt__tuned_write(const char *path, const clrt_device_info *info, const clrt__tuned_set *set, char *why,
                      size_t cap);

/* Read the tuned file at path (NULL: this device's, as above): 1 loaded, 0
 * none (no file, or disabled when path is NULL), -1 ignored (one warning on
 * stderr per file and reason). */
int clrt__tuned_load(const char *path, const clrt_device_info *info, const clrt__device_facts *facts,
                     clrt__tuned_set *out);

/* For the kernel cache: 1 and *out set when the device has valid tuned
 * parameters for (kernel, dtype); 0 otherwise. */
int clrt__tuned_lookup(const clrt_device_info *info, const clrt__device_facts *facts, int kernel, int dtype,
                       clrt__pvals *out);

/* For the kernel cache: the tuned parameters of (kernel, dtype) did not build
 * or fit; warn (once per process and device) that the defaults are used. */
void clrt__tuned_rejected(const clrt_device_info *info, int kernel, int dtype, const char *why);

#endif
