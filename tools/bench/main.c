/* clrt-bench: clrt_add and clrt_matmul (and, with --op, the math family) on
 * every device (or the selected ones), against references measured side by
 * side in the same run: host OpenBLAS, host loops on 2 threads doing the
 * same, CLBlast on the same device, and clrt_copy (the copy bandwidth
 * reductions and transposes are held against).
 * Also first-call latency (a fresh context; a new process), the per-operation
 * overhead of a tiny add against a raw enqueue, default against tuned
 * parameters, and the autotuner (--tune). See clrt-bench --help.
 *
 * The pieces: bench_opts (command line), bench_session (a device's contexts
 * and buffers), bench_cases (one case, every implementation side by side),
 * bench_first (first call in a new process), bench_overhead (tiny-add
 * overhead), bench_time (interleaved timing), bench_ref (host references and
 * checks), bench_host_math and bench_check_math (the math family's host
 * loops and checks), bench_ops (the operations), bench_clblast, bench_print
 * (table, JSON, CSV), bench_targets (the
 * issue's targets), bench_plot (gnuplot), bench_tune (the search),
 * bench_progress, bench_split (one product across devices), bench_openblas_force
 * (OpenBLAS at its best core), bench_peak (the host's FMA peak). This file
 * picks the devices and runs it all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <clrt/clrt.h>

#include "cli/opts.h"
#include "common/build_notice.h"
#include "common/output.h"
#include "measure/cases.h"
#include "measure/cold.h"
#include "measure/first.h"
#include "measure/first_raw.h"
#include "measure/overhead.h"
#include "measure/products.h"
#include "measure/session.h"
#include "measure/split.h"
#include "measure/timing.h"
#include "reference/clblast.h"
#include "reference/host_ref.h"
#include "reference/openblas_force.h"
#include "reference/peak.h"
#include "report/plot.h"
#include "report/print.h"
#include "report/progress.h"
#include "tune/bench_tune.h"

static bench_opts opts;
static bench_report report;
/* --tune could not write the tuned file (said on stderr): exit 2 at the end */
static int tuned_file_lost;

/* ---- devices */

static void list_devices(FILE *f);

/* The --device selectors to the report's devices: 0, -1 when the devices
 * cannot be listed (exit 1), 2 after naming a selector that matches none
 * and listing those there are (exit 2, like the other tools). */
static int select_devices(void)
{
    size_t n = 0;
    clrt_device_info devs[64];
    if (clrt_device_list(devs, 64, &n) != CLRT_OK) {
        fprintf(stderr, "clrt-bench: %s\n", clrt_error_message());
        return -1;
    }
    int want[64] = {0};
    if (n > 64)
        n = 64;
    if (opts.ndevices == 0) {
        for (size_t i = 0; i < n; i++)
            want[i] = clrt_device_is_emulator(&devs[i]) ? 2 : 1;
    }
    for (size_t s = 0; s < opts.ndevices; s++) {
        if (strcmp(opts.devices[s], "all") == 0) {
            for (size_t i = 0; i < n; i++)
                want[i] = 1;
            continue;
        }
        /* a blank selector would mean $CLRT_DEVICE: here it matches nothing */
        clrt_device_info pick;
        if (strspn(opts.devices[s], " \t\r\n") == strlen(opts.devices[s]) ||
            clrt_device_select(opts.devices[s], &pick) != CLRT_OK || pick.index >= n) {
            fprintf(stderr, "clrt-bench: --device %s: no device matches it; the devices (by index, P:D, type or "
                            "name):\n", opts.devices[s]);
            list_devices(stderr);
            return 2;
        }
        want[pick.index] = 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (!want[i])
            continue;
        bench_device *d = &report.devices[report.ndevices++];
        d->info = devs[i];
        d->emulator = clrt_device_is_emulator(&devs[i]);
        if (want[i] == 2) {
            d->skipped = 1;
            snprintf(d->note, sizeof d->note,
                     "a checking or emulating device; select it with --device %zu (or --device all)", devs[i].index);
        }
    }
    return 0;
}

/* One line a device on f (--list on stdout; after a selector that matches
 * nothing, on stderr): its selectors, what it is, and whether the default
 * run measures it. */
static void list_devices(FILE *f)
{
    size_t n = 0;
    clrt_device_info info[64];
    if (clrt_device_list(info, 64, &n) != CLRT_OK) {
        fprintf(stderr, "clrt-bench: %s\n", clrt_error_message());
        return;
    }
    if (n == 0)
        fprintf(f, "no OpenCL device (install a driver such as POCL)\n");
    for (size_t i = 0; i < n && i < 64; i++)
        fprintf(f, "%zu  [%u:%u]  %s  %s  (%s, driver %s)%s%s\n", info[i].index, info[i].platform_index,
                info[i].device_index, clrt_device_type_name(info[i].type), info[i].name, info[i].platform,
                info[i].driver, info[i].has_fp64 ? "" : "  no fp64",
                clrt_device_is_emulator(&info[i]) ? "  a checking device: measured only when selected" : "");
}

static void fill_report_header(int argc, char **argv)
{
    size_t used = 0;
    for (int i = 0; i < argc && used < sizeof report.command - 1; i++) {
        const char *arg = i == 0 ? "clrt-bench" : argv[i];
        int w = snprintf(report.command + used, sizeof report.command - used, "%s%s", i ? " " : "", arg);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(report.date, sizeof report.date, "%Y-%m-%d %H:%M:%S %Z", &tm);
    if (gethostname(report.host, sizeof report.host) != 0)
        snprintf(report.host, sizeof report.host, "?");
    report.host[sizeof report.host - 1] = '\0';
    bench_cpu_model(report.cpu, sizeof report.cpu);
    report.cpus = sysconf(_SC_NPROCESSORS_ONLN);
    report.clrt_version = clrt_version();
    report.built_openblas = bench_have_openblas();
    report.built_clblast = bench_have_clblast();
    report.have_openblas = opts.openblas && bench_have_openblas();
    if (report.have_openblas) {
        snprintf(report.openblas_config, sizeof report.openblas_config, "%s", bench_openblas_config());
        report.openblas_threads = bench_openblas_threads();
        report.openblas = *bench_openblas_state_get();
    }
    report.have_clblast = opts.clblast && bench_have_clblast();
    if (report.have_clblast)
        snprintf(report.clblast_version, sizeof report.clblast_version, "%s", bench_clblast_version());
    report.have_host = opts.host;
    report.host_threads = opts.host_threads;
}

/* --openblas-core: "BEST RUNNING" on one line, for scripts. */
static int openblas_query(void)
{
    bench_openblas_inspect();
    const bench_openblas_state *s = bench_openblas_state_get();
    if (!s->present) {
        fprintf(stderr, "clrt-bench: not built with OpenBLAS (Debian: libopenblas-dev, then reconfigure)\n");
        return 1;
    }
    printf("%s %s\n", s->best[0] ? s->best : "-", s->core);
    return 0;
}

/* ---- the run */

/* Steps of the progress line: every case of every device that runs them. */
static size_t progress_total(void)
{
    const int dtypes = opts.run_f32 + opts.run_f64;
    size_t per_dtype = 0, total = 0;
    for (int op = 0; op < BENCH_OPS; op++)
        if (opts.run[op])
            per_dtype += op == BENCH_MATMUL ? opts.nmatmul : op == BENCH_ADD ? opts.nadd : opts.nmath;
    for (size_t d = 0; d < report.ndevices && opts.tune != 2; d++)
        if (!report.devices[d].skipped)
            total += (size_t)dtypes * per_dtype;
    return total;
}

/* A device that could not be opened: skipped, with why; one failure. */
static int skip_device(bench_device *dev, const char *what, const bench_session *s)
{
    snprintf(dev->note, sizeof dev->note, "%s: %.200s", what, s->error);
    dev->skipped = 1;
    return 1;
}

/* Every case of one dtype on device d, and a new process's first matmul. */
static void run_dtype(bench_session *s, size_t d, int dbl)
{
    if (opts.run[BENCH_MATMUL])
        for (size_t i = 0; i < opts.nmatmul; i++)
            bench_run_case(&report, &opts, s, d, BENCH_MATMUL, dbl, opts.matmul[i]);
    if (opts.run[BENCH_ADD])
        for (size_t i = 0; i < opts.nadd; i++) {
            bench_shape sh = {1, opts.add[i], 0, 0, 0};
            bench_run_case(&report, &opts, s, d, BENCH_ADD, dbl, sh);
        }
    for (int op = 0; op < BENCH_OPS; op++) /* the math family, op by op */
        for (size_t i = 0; i < opts.nmath && opts.run[op] && bench_op_is_math(op); i++) {
            bench_shape sh = {1, opts.math[i], 0, 0, 0};
            bench_run_case(&report, &opts, s, d, op, dbl, sh);
        }
    if (opts.run[BENCH_MATMUL] && opts.child)
        bench_first_measure(&report, &opts, s, d, dbl);
}

/* Device d: tuned first with --tune, then every case and measurement; the
 * failures to open it (its cases' failures are counted from the report). */
static int run_device(size_t d)
{
    bench_device *dev = &report.devices[d];
    bench_session s;
    if (bench_session_open(&s, &dev->info) != CLRT_OK)
        return skip_device(dev, "cannot open a context", &s);
    if (opts.tune) {
        tuned_file_lost |= bench_tune_device(&s, d, &opts, &report) == -2;
        bench_session_close(&s);
        if (opts.tune == 2) /* --tune-only */
            return 0;
        /* a fresh context, so that the tuned file is what it runs with */
        if (bench_session_open(&s, &dev->info) != CLRT_OK)
            return skip_device(dev, "cannot reopen a context after tuning", &s);
    }
    for (int dbl = 0; dbl < 2; dbl++) {
        if (!(dbl ? opts.run_f64 : opts.run_f32))
            continue;
        if (dbl && !dev->info.has_fp64) {
            snprintf(dev->note, sizeof dev->note, "no fp64 on this device: f64 cases skipped");
            continue;
        }
        run_dtype(&s, d, dbl);
    }
    if (opts.run[BENCH_MATMUL] && opts.child)
        bench_first_raw_measure(dev, &s);
    /* with matmul too: the round trip is the floor of its small products */
    if (opts.overhead && (opts.run[BENCH_ADD] || opts.run[BENCH_MATMUL]))
        bench_overhead_measure(&dev->overhead, &opts, &s);
    if (opts.products)
        bench_products_measure(&dev->products, &opts, &s);
    bench_session_close(&s);
    return 0;
}

/* clrt failing or wrong fails the run (its copy reference too); a
 * reference failing is only noted. */
static int report_failures(void)
{
    int failures = 0;
    for (size_t i = 0; i < report.ncases; i++)
        for (int k = IMPL_CLRT; k < IMPL_KINDS; k++) {
            const bench_result *x = &report.cases[i].r[k];
            if ((k == IMPL_CLRT || k == IMPL_CLRT_DEFAULT || k == IMPL_COPY) && x->present && (x->failed || x->wrong))
                failures++;
        }
    for (size_t d = 0; d < report.ndevices; d++)
        for (int dbl = 0; dbl < 2; dbl++)
            if ((report.devices[d].first[dbl].measured && !report.devices[d].first[dbl].ok) ||
                report.devices[d].first[dbl].failed)
                failures++;
    for (size_t d = 0; d < report.ndevices; d++) /* a product clrt got wrong, or could not run */
        for (size_t i = 0; i < report.devices[d].products.n; i++) {
            const bench_product *p = &report.devices[d].products.rows[i];
            if (p->wrong || p->clrt.reps == 0)
                failures++;
        }
    return failures;
}

static void print_report(void)
{
    if (opts.format == BENCH_JSON)
        bench_print_json(stdout, &report);
    else if (opts.format == BENCH_CSV)
        bench_print_csv(stdout, &report);
    else
        bench_print_table(stdout, &report);
    fflush(stdout);
}

/* The benchmark proper: every selected device, then the report. */
static int bench(int argc, char **argv)
{
    char err[700];
    /* the files it will write: checked before the work, not after */
    if (opts.plot && tool_out_check(opts.plot, err, sizeof err) != 0) {
        fprintf(stderr, "clrt-bench: --plot %s\n", err);
        return 2;
    }
    if (opts.tune && !opts.tune_dry_run && opts.tune_file && tool_out_check(opts.tune_file, err, sizeof err) != 0) {
        fprintf(stderr, "clrt-bench: --tune-file %s\n", err);
        return 2;
    }
    fill_report_header(argc, argv);
    const int selected = select_devices();
    if (selected != 0)
        return selected < 0 ? 1 : selected;
    /* before anything runs: the probe wants the cores to itself */
    if (opts.peak && opts.run[BENCH_MATMUL])
        bench_peak_measure(&report.peak, opts.host_threads);
    if (opts.host && bench_host_add_start(opts.host_threads) != 0) {
        fprintf(stderr, "clrt-bench: cannot start the host loop threads\n");
        return 1;
    }
    bench_progress_start(opts.progress < 0 ? isatty(2) : opts.progress, progress_total());
    int failures = 0;
    for (size_t d = 0; d < report.ndevices; d++)
        if (!report.devices[d].skipped)
            failures += run_device(d);
    bench_progress_end();
    if (opts.host)
        bench_host_add_stop();
    failures += report_failures();
    report.quiet = *bench_quiet_stats();
    print_report();
    const int plot = opts.plot ? bench_plot(&report, opts.plot) : 0;
    bench_report_free(&report);
    if (failures)
        fprintf(stderr, "clrt-bench: %d failure(s): see the notes in the output\n", failures);
    return failures ? 1 : plot == -2 || tuned_file_lost ? 2 : plot ? 3 : 0;
}

/* --cold: the cold-start table for every selected device, nothing else. */
static int cold_start(int argc, char **argv)
{
    fill_report_header(argc, argv);
    const int selected = select_devices();
    if (selected != 0)
        return selected < 0 ? 1 : selected;
    clrt_device_info devs[BENCH_MAX_DEVICES];
    size_t n = 0;
    for (size_t d = 0; d < report.ndevices && n < BENCH_MAX_DEVICES; d++)
        if (!report.devices[d].skipped)
            devs[n++] = report.devices[d].info;
    int rc = bench_cold_run(&opts, devs, n);
    bench_report_free(&report);
    return rc;
}

static int bench_main(int argc, char **argv)
{
    double t_main = bench_now();
    int rc = bench_opts_parse(&opts, argc, argv);
    if (rc == 1)
        return 0;
    if (rc != 0)
        return 2;
    if (opts.child_mode == 1)
        return bench_first_child(&opts, t_main);
    if (opts.child_mode == 2)
        return bench_first_raw_child(&opts, t_main);
    if (opts.child_mode == 3)
        return bench_cold_child(&opts, t_main);
    if (opts.list) {
        list_devices(stdout);
        return 0;
    }
    if (opts.openblas_query)
        return openblas_query();
    /* OpenBLAS at its best core: this may start the process again (once),
     * so before anything is measured or printed */
    if (opts.openblas && !opts.cold_start && !opts.split)
        bench_openblas_settle(argv);
    /* a first run on empty caches compiles for a while: say so, once */
    tool_build_notice_install(0);
    if (opts.split)
        return bench_split_run(&opts);
    if (opts.cold_start)
        return cold_start(argc, argv);
    return bench(argc, argv);
}

int main(int argc, char **argv)
{
    tool_stdout_watch();
    const int rc = bench_main(argc, argv);
    /* the report on stdout, checked to its end: output lost is a failure */
    return tool_stdout_close("clrt-bench") != 0 && rc == 0 ? 2 : rc;
}
