/* clrt-info: list every OpenCL device clrt can use, with the selectors that
 * pick it and the facts that decide its kernel parameters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <clrt/clrt.h>

#include "common/tool_args.h"
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

static void usage(FILE *f)
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
}

/* What the command line asks for. */
typedef struct info_opts {
    int show_default, kernels, warm;
    size_t jobs;              /* --jobs N, 0: not given */
    const char *warm_share;   /* --warm-share I/N (a helper of --warm --jobs N) */
    const char *selector;     /* the device of --warm or --warm-share */
} info_opts;

#define OPTS(a) ((info_opts *)(a)->state)

static int take_help(tool_args *a, char **v)
{
    (void)a, (void)v;
    usage(stdout);
    return TOOL_ARGS_DONE;
}

static int take_jobs(tool_args *a, char **v) { return tool_args_size(a, v[0], 1, 64, &OPTS(a)->jobs); }

static int take_warm_share(tool_args *a, char **v)
{
    OPTS(a)->warm_share = v[0];
    return 0;
}

/* The one argument that is no option: the device --warm fills the caches of. */
static int take_selector(tool_args *a, char **v)
{
    if (OPTS(a)->selector) {
        fprintf(stderr, "clrt-info: one device at a time: '%s', then '%s' (clrt-info --help)\n", OPTS(a)->selector,
                v[0]);
        return TOOL_ARGS_BAD;
    }
    OPTS(a)->selector = v[0];
    return 0;
}

static const tool_option options[] = {
    TOOL_VALUES("--help", "-h", 0, take_help),
    TOOL_SWITCH("--default", info_opts, show_default, 1),
    TOOL_SWITCH("--kernels", info_opts, kernels, 1),
    TOOL_SWITCH("--warm", info_opts, warm, 1),
    TOOL_VALUES("--jobs", NULL, 1, take_jobs),
    TOOL_VALUES("--warm-share", NULL, 1, take_warm_share),
};

/* The command line, checked whole: 0 to run, 1 when --help printed, 2 after a message. */
static int info_parse(info_opts *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    tool_args a = {.tool = "clrt-info", .state = o, .positional = take_selector};
    const int rc = tool_args_parse(&a, options, sizeof options / sizeof *options, argc, argv);
    if (rc != TOOL_ARGS_RUN)
        return rc;
    const char *clash = NULL;
    if (o->kernels + o->warm + (o->warm_share != NULL) > 1)
        clash = "--kernels, --warm and --warm-share go alone";
    else if (o->jobs && !o->warm)
        clash = "--jobs goes with --warm";
    else if (o->selector && !o->warm && !o->warm_share)
        clash = "a device selector goes with --warm";
    if (clash) {
        fprintf(stderr, "clrt-info: %s (clrt-info --help)\n", clash);
        return TOOL_ARGS_BAD;
    }
    return TOOL_ARGS_RUN;
}

/* --warm [--jobs N] [SELECTOR]: the CPUs online, at most 8, by default. */
static int warm_main(const info_opts *o)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t jobs = o->jobs ? o->jobs : cpus < 1 ? 1 : cpus > 8 ? 8 : (size_t)cpus;
    return info_warm(o->selector, jobs);
}

/* --warm-share I/N [SELECTOR]: a helper of --warm --jobs N. */
static int warm_share_main(const char *share, const char *selector)
{
    unsigned long long i = 0, n = 0;
    char one[32], why[96];
    const char *slash = strchr(share, '/');
    if (slash && (size_t)(slash - share) < sizeof one) {
        snprintf(one, sizeof one, "%.*s", (int)(slash - share), share);
        if (tool_parse_count(slash + 1, 1, 64, &n, why, sizeof why) != 0 ||
            tool_parse_count(one, 1, n, &i, why, sizeof why) != 0)
            n = 0;
    }
    if (!n) {
        fprintf(stderr, "clrt-info: --warm-share %s: not I/N with 1 <= I <= N <= 64 (clrt-info --help)\n", share);
        return 2;
    }
    return info_warm_share(selector, (size_t)i - 1, (size_t)n);
}

static int info_main(int argc, char **argv)
{
    info_opts o;
    const int parsed = info_parse(&o, argc, argv);
    if (parsed != TOOL_ARGS_RUN)
        return parsed == TOOL_ARGS_DONE ? 0 : 2;
    if (o.kernels)
        return info_kernels();
    if (o.warm)
        return warm_main(&o);
    if (o.warm_share)
        return warm_share_main(o.warm_share, o.selector);
    const int show_default = o.show_default;

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
        printf("%zu  [%u:%u]  %s  %s%s\n", d->index, d->platform_index, d->device_index, clrt_device_type_name(d->type),
               d->name, clrt_device_is_emulator(d) ? "  (checking device)" : "");
        printf("    %-16s %s\n", "platform", d->platform);
        printf("    %-16s %s\n", "vendor", d->vendor);
        printf("    %-16s %s\n", "driver", d->driver);
        printf("    %-16s %u\n", "compute units", d->compute_units);
        print_bytes("global memory", d->global_mem);
        print_bytes("max allocation", d->max_alloc);
        print_bytes("local memory", d->local_mem);
        printf("    %-16s %zu\n", "max work-group", d->max_work_group);
        printf("    %-16s %s\n", "fp64", d->has_fp64 ? "yes" : "no");
        /* listed as a cpu like any other, though orders of magnitude slower
         * (rusticl's llvmpipe: a 1000 x 1000 product in about 16 s) */
        if (clrt_device_is_emulator(d))
            printf("    %-16s %s\n", "use",
                   "for checking only: an emulating or checking device, correct but slow; the default\n"
                   "                     ranking puts it below every native driver and clrt-bench measures it\n"
                   "                     only when selected");
        putchar('\n');
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
