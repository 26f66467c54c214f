/* clrt-info: list every OpenCL device clrt can use, with the selectors that
 * pick it and the facts that decide its kernel parameters. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <clrt/clrt.h>

#include "common/output.h"
#include "kernels.h"
#include "warm.h"

static void print_bytes(const char *label, unsigned long long bytes)
{
    if (bytes >= (1ULL << 30))
        printf("    %-16s %.1f GiB\n", label, (double)bytes / (1ULL << 30));
    else if (bytes >= (1ULL << 20))
        printf("    %-16s %.1f MiB\n", label, (double)bytes / (1ULL << 20));
    else
        printf("    %-16s %.0f KiB\n", label, (double)bytes / 1024);
}

static int usage(FILE *f)
{
    fprintf(f, "usage: clrt-info [--default | --kernels | --warm [--jobs N] [SELECTOR]]\n"
               "  Lists every OpenCL device with its index (selector \"N\"), platform:device\n"
               "  selector \"P:D\", type and limits.\n"
               "  --default  also say which device clrt picks with no selector ($CLRT_DEVICE\n"
               "             if set, else the default ranking).\n"
               "  --kernels  build every built-in kernel on that device and report, per kernel\n"
               "             and dtype, its parameters and what the compiler made of it\n"
               "             (work-group limit, private/local memory; on NVIDIA the\n"
               "             -cl-nv-verbose register and spill lines), and the warnings in\n"
               "             each build log with their count (CLRT_CACHE=0 compiles them all).\n"
               "  --warm [SELECTOR]  build every kernel clrt uses on that device (default: clrt's\n"
               "             choice) into the caches, running each once at small shapes, with\n"
               "             progress on stderr: a CI job runs it once and keeps the cache folders\n"
               "             (docs/ci-with-pocl.md). Exit 0, 1 when a step failed, 2 for no such\n"
               "             device.\n"
               "  --jobs N   with --warm: N processes share the work, compiling at once\n"
               "             (default: the CPUs online, at most 8; 1: this process alone).\n");
    return f == stdout ? 0 : 2;
}

/* A whole number in [1, max] from text, or 0. */
static size_t count_arg(const char *text, size_t max)
{
    char *end = NULL;
    errno = 0;
    const unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v < 1 || v > max)
        return 0;
    return (size_t)v;
}

/* What follows --warm: [--jobs N] [SELECTOR], in either order. */
static int warm_main(int argc, char **argv)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t jobs = cpus < 1 ? 1 : cpus > 8 ? 8 : (size_t)cpus;
    const char *selector = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--jobs") == 0) {
            if (i + 1 >= argc || !(jobs = count_arg(argv[++i], 64))) {
                fprintf(stderr, "clrt-info: --jobs takes a whole number from 1 to 64\n");
                return 2;
            }
        } else if (!selector && argv[i][0] != '-') {
            selector = argv[i];
        } else {
            return usage(stderr);
        }
    }
    return info_warm(selector, jobs);
}

/* --warm-share I/N [SELECTOR]: a helper of --warm --jobs N. */
static int warm_share_main(const char *share, const char *selector)
{
    char one[32], all[32];
    const char *slash = strchr(share, '/');
    if (!slash || (size_t)(slash - share) >= sizeof one || strlen(slash + 1) >= sizeof all)
        return usage(stderr);
    snprintf(one, sizeof one, "%.*s", (int)(slash - share), share);
    snprintf(all, sizeof all, "%s", slash + 1);
    const size_t n = count_arg(all, 64), i = count_arg(one, n ? n : 1);
    if (!n || !i)
        return usage(stderr);
    return info_warm_share(selector, i - 1, n);
}

static int info_main(int argc, char **argv)
{
    int show_default = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--default") == 0)
            show_default = 1;
        else if (strcmp(argv[i], "--kernels") == 0)
            return info_kernels();
        else if (strcmp(argv[i], "--warm") == 0)
            return warm_main(argc - i - 1, argv + i + 1);
        else if (strcmp(argv[i], "--warm-share") == 0 && i + 1 < argc && i + 3 >= argc)
            return warm_share_main(argv[i + 1], i + 2 < argc ? argv[i + 2] : NULL);
        else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return usage(stdout);
        else
            return usage(stderr);
    }

    size_t n = 0;
    int status = clrt_device_list(NULL, 0, &n);
    if (status != CLRT_OK) {
        fprintf(stderr, "clrt-info: %s\n", clrt_error_message());
        return 1;
    }
    if (n == 0) {
        printf("No OpenCL device found: no platform is installed, or none has a device.\n"
               "Install a driver: your GPU vendor's OpenCL, or POCL for the CPU\n"
               "(Debian: apt-get install pocl-opencl-icd). If OCL_ICD_VENDORS is set it must\n"
               "name a folder of .icd files.\n");
        return 0;
    }
    clrt_device_info *devs = calloc(n, sizeof *devs);
    if (!devs) {
        fprintf(stderr, "clrt-info: out of memory\n");
        return 1;
    }
    status = clrt_device_list(devs, n, &n);
    if (status != CLRT_OK) {
        fprintf(stderr, "clrt-info: %s\n", clrt_error_message());
        free(devs);
        return 1;
    }
    printf("%zu OpenCL device%s (select with CLRT_DEVICE=<index | P:D | gpu | cpu | accelerator | "
           "name>)\n\n",
           n, n == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++) {
        const clrt_device_info *d = &devs[i];
        printf("%zu  [%u:%u]  %s  %s\n", d->index, d->platform_index, d->device_index, clrt_device_type_name(d->type),
               d->name);
        printf("    %-16s %s\n", "platform", d->platform);
        printf("    %-16s %s\n", "vendor", d->vendor);
        printf("    %-16s %s\n", "driver", d->driver);
        printf("    %-16s %u\n", "compute units", d->compute_units);
        print_bytes("global memory", d->global_mem);
        print_bytes("max allocation", d->max_alloc);
        print_bytes("local memory", d->local_mem);
        printf("    %-16s %zu\n", "max work-group", d->max_work_group);
        printf("    %-16s %s\n\n", "fp64", d->has_fp64 ? "yes" : "no");
    }
    free(devs);

    if (show_default) {
        clrt_context *ctx;
        status = clrt_context_create(&ctx, NULL);
        if (status != CLRT_OK) {
            printf("default device: none (%s)\n%s\n", clrt_status_name(status), clrt_error_message());
            return 1;
        }
        clrt_device_info d;
        clrt_context_device(ctx, &d);
        printf("default device: %zu [%u:%u] %s (%s)\n", d.index, d.platform_index, d.device_index, d.name,
               getenv("CLRT_DEVICE") && *getenv("CLRT_DEVICE") ? "from $CLRT_DEVICE" : "default ranking");
        clrt_context_destroy(ctx);
    }
    return 0;
}

int main(int argc, char **argv)
{
    tool_stdout_watch();
    const int rc = info_main(argc, argv);
    /* what it printed, checked to its end (a full disk behind a redirection) */
    return tool_stdout_close("clrt-info") != 0 && rc == 0 ? 2 : rc;
}
