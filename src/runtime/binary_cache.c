/* On-disk cache of compiled programs, for drivers where it pays
 * (device/device.h says which: not NVIDIA's, whose own cache makes a repeated
 * build cheap; on POCL entries are read, and written only when warming the
 * caches on purpose, since writing one costs POCL a build of its own).
 *
 * One file per (source, options, the headers it includes, device, driver,
 * clrt version), named by a hash of those. The headers are found as the
 * preprocessor would find them (runtime/includes.h, through runtime/program.c, which does
 * not cache a program whose #include lines clrt cannot follow). The file repeats the key in a text header, so a hash
 * collision, an entry from another driver or clrt version, or a truncated or
 * corrupt file is a miss (with a warning for the corrupt ones), never a wrong
 * program. Writes are atomic (temporary file, then rename).
 *
 * CLRT_CACHE=0 (off/no/false) disables it, CLRT_CACHE=1 (on/yes/true) uses it on every driver;
 * CLRT_CACHE_DIR moves it (default $XDG_CACHE_HOME/clrt or ~/.cache/clrt;
 * entries go to its programs/ folder). After each store the folder is kept
 * under CLRT_CACHE_MAX_MB (least recently used entries go first: a hit
 * refreshes an entry's time) and temporary files a killed process left are
 * removed. */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/debug.h"
#include "base/disk.h"
#include "base/trust.h"
#include "base/util.h"
#include "runtime/binary_cache.h"

enum { MAX_ENTRY = 256 << 20 };

int clrt__binary_cache_enabled(const clrt_context *ctx)
{
    if (ctx->no_disk_cache)
        return 0;
    return clrt__env_flag("CLRT_CACHE", !clrt__driver_caches_builds(&ctx->facts));
}

int clrt__binary_cache_stores(const clrt_context *ctx)
{
    if (!clrt__binary_cache_enabled(ctx))
        return 0;
    if (!clrt__driver_binary_costly(&ctx->facts) || atomic_load(&ctx->warming))
        return 1;
    /* on POCL only when asked: CLRT_CACHE=1 (unset is the default, 0 is off) */
    const char *v = getenv("CLRT_CACHE");
    return v && *v && clrt__env_flag("CLRT_CACHE", 0);
}

/* The key as text: the header every entry starts with. */
#define HEADER_FMT                                                                                   \
    "CLRT-PROGRAM-CACHE 2\nclrt %s\nplatform %s\ndevice %s\nvendor %s\ndriver %s\noptions %s\n"      \
    "source %016" PRIx64 " %zu\nincludes %016" PRIx64 " %zu\n"
char *clrt__binary_cache_key(const clrt_context *ctx, const char *source, const char *options, uint64_t inc_hash,
                             size_t inc_files)
{
    uint64_t src_hash = clrt__hash_str(CLRT_HASH_INIT, source);
    int n = snprintf(NULL, 0, HEADER_FMT, clrt_version(), ctx->info.platform, ctx->info.name, ctx->info.vendor,
                     ctx->info.driver, options, src_hash, strlen(source), inc_hash, inc_files);
    char *h = n > 0 ? malloc((size_t)n + 1) : NULL;
    if (h)
        snprintf(h, (size_t)n + 1, HEADER_FMT, clrt_version(), ctx->info.platform, ctx->info.name, ctx->info.vendor,
                 ctx->info.driver, options, src_hash, strlen(source), inc_hash, inc_files);
    return h;
}

/* create: make the folder (to store; a lookup leaves the disk alone) */
static int entry_path(const char *header, int create, char *dir, size_t dcap, char *path, size_t cap)
{
    if (clrt__cache_dir("programs", create, dir, dcap) != 0)
        return -1;
    int n = snprintf(path, cap, "%s/%016" PRIx64 ".bin", dir, clrt__hash_str(CLRT_HASH_INIT, header));
    return (n > 0 && (size_t)n < cap) ? 0 : -1;
}

/* The folder's size limit: programs built with varying -D options add an
 * entry each (5-500 KB), so the cache would otherwise only grow. */
static uint64_t max_bytes(void)
{
    return (uint64_t)clrt__env_long("CLRT_CACHE_MAX_MB", CLRT__CACHE_DEFAULT_MAX_MB, 1, 1L << 20) << 20;
}

static void warn_corrupt(const char *path, const char *why)
{
    clrt__cache_count(CLRT__CACHE_REJECTED);
    fprintf(stderr, "clrt: ignoring program cache entry %s: %s (it will be rebuilt)\n", path, why);
}

int clrt__binary_cache_load(clrt_context *ctx, const char *header, const char *options, cl_program *out)
{
    *out = NULL;
    char dir[4096], path[4200];
    char *data = NULL;
    size_t len = 0;
    int hit = 0, rejected = 0;
    if (entry_path(header, 0, dir, sizeof dir, path, sizeof path) != 0 ||
        clrt__cache_file_read(path, MAX_ENTRY, &data, &len) != 0)
        goto done; /* no entry (or one base/trust.h does not trust): a plain miss */

    size_t hlen = strlen(header);
    if (len < hlen || memcmp(data, header, hlen) != 0) {
        /* another key with the same hash, or an older clrt/driver: not corrupt, just not ours */
        goto done;
    }
    size_t size = 0;
    uint64_t check = 0;
    int used = 0;
    if (sscanf(data + hlen, "size %zu\ncheck %" SCNx64 "\n%n", &size, &check, &used) != 2 || used <= 0 ||
        hlen + (size_t)used + size != len) {
        warn_corrupt(path, "truncated or malformed");
        rejected = 1;
        goto done;
    }
    const unsigned char *bin = (const unsigned char *)data + hlen + used;
    if (clrt__hash(CLRT_HASH_INIT, bin, size) != check) {
        warn_corrupt(path, "checksum mismatch");
        rejected = 1;
        goto done;
    }
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program program = clCreateProgramWithBinary(ctx->cl, 1, &ctx->device, &size, &bin, &status, &err);
    if (err != CL_SUCCESS || status != CL_SUCCESS || !program) {
        if (program)
            clReleaseProgram(program);
        warn_corrupt(path, "the driver refused the binary");
        rejected = 1;
        goto done;
    }
    /* Binaries still need clBuildProgram (which links them); a failure here
     * means the entry is stale, so build from source instead. */
    if (clBuildProgram(program, 1, &ctx->device, options, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(program);
        warn_corrupt(path, "the binary did not build");
        rejected = 1;
        goto done;
    }
    *out = program;
    hit = 1;
    clrt__file_touch(path); /* recently used: trimmed last */
done:
    if (hit)
        clrt__cache_count(CLRT__CACHE_HIT);
    else if (!rejected)
        clrt__cache_count(CLRT__CACHE_MISS);
    free(data);
    return hit;
}

/* A cache that cannot be written is not an error (the program works), but
 * its user should know why every run compiles again: once per process. */
static void warn_unwritable(const char *dir, const char *why)
{
    static atomic_int said;
    if (atomic_exchange(&said, 1))
        return;
    fprintf(stderr, "clrt: cannot write the program cache %s (%s); running without it (CLRT_CACHE_DIR names "
                    "another folder, CLRT_CACHE=0 turns it off)\n", dir[0] ? dir : "(no folder: $HOME is unset)",
            why);
}

void clrt__binary_cache_store(const char *header, cl_program program)
{
    size_t size = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || size == 0 ||
        size > MAX_ENTRY)
        return;
    unsigned char *bin = malloc(size);
    char *file = NULL;
    char dir[4096], path[4200];
    dir[0] = '\0';
    if (!bin || clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != CL_SUCCESS)
        goto done;
    errno = 0; /* set by whatever fails in making the folder; 0: nothing the OS said */
    if (entry_path(header, 1, dir, sizeof dir, path, sizeof path) != 0) {
        warn_unwritable(dir, errno ? strerror(errno) : dir[0] ? "its path is too long" : "no folder to use");
        goto done;
    }
    char trailer[64];
    int tn = snprintf(trailer, sizeof trailer, "size %zu\ncheck %016" PRIx64 "\n", size,
                      clrt__hash(CLRT_HASH_INIT, bin, size));
    size_t hlen = strlen(header), total = hlen + (size_t)tn + size;
    file = malloc(total);
    if (!file)
        goto done;
    memcpy(file, header, hlen);
    memcpy(file + hlen, trailer, (size_t)tn);
    memcpy(file + hlen + tn, bin, size);
    char why[600];
    const int rc = clrt__cache_write(path, file, total, why, sizeof why);
    if (rc == 0)
        clrt__dir_trim(dir, ".bin", max_bytes(), path + strlen(dir) + 1);
    else if (rc == -2) /* a folder that is not the user's own: said by trust's warning */
        clrt__untrusted_warn(path, why);
    else /* the writer's own account: errno may have moved on since (its cleanup) */
        warn_unwritable(dir, why);
done:
    free(bin);
    free(file);
}
