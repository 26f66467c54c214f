/* clrt-bench's readable table (see bench/report/print.h). */
#include "report/print.h"

#include <math.h>
#include <string.h>

#include "report/targets.h"

static void shape_text(const bench_case *c, char *buf, size_t cap)
{
    if (c->op != BENCH_MATMUL && c->m > 1) /* a matrix op: rows x cols */
        snprintf(buf, cap, "%zux%zu", c->m, c->n);
    else if (c->op != BENCH_MATMUL)
        snprintf(buf, cap, "%zu", c->n);
    else if (c->m == c->n && c->n == c->k)
        snprintf(buf, cap, "%zu%s", c->n, bench_trans_suffix(c));
    else
        snprintf(buf, cap, "%zux%zux%zu%s", c->m, c->n, c->k, bench_trans_suffix(c));
}

static void rate_text(const bench_result *x, char *buf, size_t cap)
{
    if (bench_result_usable(x))
        snprintf(buf, cap, "%.1f", x->rate);
    else if (x->present && x->failed)
        snprintf(buf, cap, "failed");
    else
        snprintf(buf, cap, "-");
}

static void ratio_text(double v, char *buf, size_t cap)
{
    if (v > 0)
        snprintf(buf, cap, "%.2f", v);
    else
        snprintf(buf, cap, "-");
}

/* A share of the host's FMA peak in percent; "-" where it means nothing. */
static void share_text(double share, char *buf, size_t cap)
{
    if (share > 0)
        snprintf(buf, cap, "%.0f", share * 100);
    else
        snprintf(buf, cap, "-");
}

static const char *check_text(const bench_case *c)
{
    int any = 0;
    for (int i = 0; i < IMPL_KINDS; i++) {
        const bench_result *x = &c->r[i];
        if (!bench_result_usable(x) || x->checked == 0)
            continue;
        any = 1;
        if (x->wrong)
            return i == IMPL_CLRT || i == IMPL_CLRT_DEFAULT || i == IMPL_COPY ? "WRONG" : "ref-wrong";
    }
    return any ? "ok" : "-";
}

static void print_group_header(FILE *f, int op, int dbl)
{
    char name[32];
    snprintf(name, sizeof name, "%s %s", bench_op_name(op), bench_dtype_name(dbl));
    if (op == BENCH_MATMUL) /* with the shares of the host's FMA peak, clrt's and OpenBLAS's */
        fprintf(f, "\n  %-14s%-26s %8s %6s %8s %9s %6s %6s %8s %6s %9s  %s\n", name, "clrt ms median [min-max]",
                "GFLOP/s", "% peak", "default", "OpenBLAS", "% peak", "x OB", "CLBlast", "x CLB", "first ms", "check");
    else if (bench_op_copy_ref(op))
        fprintf(f, "\n  %-14s%-26s %8s %8s %9s %6s %8s %6s %9s  %s\n", name, "clrt ms median [min-max]", "GB/s",
                "default", "host", "x host", "copy", "x copy", "first ms", "check");
    else
        fprintf(f, "\n  %-14s%-26s %8s %8s %9s %6s %8s %6s %9s  %s\n", name, "clrt ms median [min-max]", "GB/s",
                "default", "host", "x host", "", "", "first ms", "check");
}

static void print_case(FILE *f, const bench_report *r, const bench_case *c)
{
    char shape[64], t[64], rate[32], def[32], ref[32], rref[32], clb[32], rclb[32], first[32];
    const bench_result *x = &c->r[IMPL_CLRT];
    shape_text(c, shape, sizeof shape);
    if (bench_result_usable(x)) {
        double ms = 1e3;
        int prec = x->st.median * ms < 1 ? 3 : x->st.median * ms < 100 ? 2 : 1;
        snprintf(t, sizeof t, "%.*f [%.*f-%.*f]", prec, x->st.median * ms, prec, x->st.min * ms, prec,
                 x->st.max * ms);
    } else {
        snprintf(t, sizeof t, "%s", x->present && x->failed ? "failed" : "-");
    }
    rate_text(x, rate, sizeof rate);
    rate_text(&c->r[IMPL_CLRT_DEFAULT], def, sizeof def);
    int refk = c->op == BENCH_MATMUL ? IMPL_OPENBLAS : IMPL_HOST;
    rate_text(&c->r[refk], ref, sizeof ref);
    ratio_text(bench_ratio(c, IMPL_CLRT, refk), rref, sizeof rref);
    if (c->op == BENCH_MATMUL) {
        rate_text(&c->r[IMPL_CLBLAST], clb, sizeof clb);
        ratio_text(bench_ratio(c, IMPL_CLRT, IMPL_CLBLAST), rclb, sizeof rclb);
    } else if (bench_op_copy_ref(c->op)) {
        rate_text(&c->r[IMPL_COPY], clb, sizeof clb);
        ratio_text(bench_ratio(c, IMPL_CLRT, IMPL_COPY), rclb, sizeof rclb);
    } else {
        clb[0] = rclb[0] = '\0';
    }
    if (c->first_s >= 0)
        snprintf(first, sizeof first, "%.1f", c->first_s * 1e3);
    else
        snprintf(first, sizeof first, "-");
    if (c->op == BENCH_MATMUL) {
        char pk[16], pkref[16];
        share_text(bench_peak_share(r, c, IMPL_CLRT), pk, sizeof pk);
        share_text(bench_peak_share(r, c, IMPL_OPENBLAS), pkref, sizeof pkref);
        fprintf(f, "  %-15s %-26s %8s %6s %8s %9s %6s %6s %8s %6s %9s  %s\n", shape, t, rate, pk, def, ref, pkref,
                rref, clb, rclb, first, check_text(c));
        return;
    }
    fprintf(f, "  %-15s %-26s %8s %8s %9s %6s %8s %6s %9s  %s\n", shape, t, rate, def, ref, rref, clb, rclb, first,
            check_text(c));
}

static void print_notes(FILE *f, const bench_case *c)
{
    if (c->ab_ratio > 0 || c->view_ratio > 0) {
        char ab[32] = "-", view[32] = "-";
        if (c->ab_ratio > 0)
            snprintf(ab, sizeof ab, "x%.2f", c->ab_ratio);
        if (c->view_ratio > 0)
            snprintf(view, sizeof view, "x%.2f", c->view_ratio);
        fprintf(f, "      speed over the plain product, side by side: alpha 1.5 beta 0.5 %s, on views %s\n", ab,
                view);
    }
    for (int i = 0; i < IMPL_KINDS; i++) {
        const bench_result *x = &c->r[i];
        if (x->present && (x->failed || x->wrong) && x->note[0])
            fprintf(f, "      %s: %s\n", bench_impl_name[i], x->note);
        else if (x->present && x->wrong)
            fprintf(f, "      %s: %zu of %zu checked elements wrong\n", bench_impl_name[i], x->wrong, x->checked);
    }
}

/* Once per kernel and dtype (the elementwise ops share one kernel). */
static void print_params(FILE *f, const bench_report *r, size_t d)
{
    for (size_t i = 0; i < r->ncases; i++) {
        const bench_case *c = &r->cases[i];
        if (c->device != d || !c->params[0])
            continue;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = r->cases[j].device == d && r->cases[j].dbl == c->dbl && r->cases[j].params[0] &&
                   strcmp(bench_op_kernel(r->cases[j].op), bench_op_kernel(c->op)) == 0;
        if (seen)
            continue;
        fprintf(f, "  %-11s %s: %s parameters %s", bench_op_kernel(c->op), bench_dtype_name(c->dbl),
                c->tuned ? "tuned" : "default", c->params);
        if (c->tuned && c->params_default[0])
            fprintf(f, "  (default %s)", c->params_default);
        fputc('\n', f);
    }
}

static void print_raw_first(FILE *f, const bench_raw_first *r)
{
    if (r->measured) {
        fprintf(f,
                "  reference: a raw OpenCL program's first one-line kernel in a new process: %.1f ms from main() "
                "built from source with the driver's cache warm (OpenCL loader %.1f of it)",
                r->total * 1e3, r->loader * 1e3);
        if (r->binary_measured)
            fprintf(f, ", %.1f ms from a binary it stored itself (loader %.1f)", r->binary_total * 1e3,
                    r->binary_loader * 1e3);
        fputc('\n', f);
    }
    if (r->note[0])
        fprintf(f, "  reference: a raw OpenCL program's first kernel: %s\n", r->note);
}

static void print_first(FILE *f, const bench_first *p)
{
    if (!p->measured) {
        if (p->note[0])
            fprintf(f, "  first matmul in a new process, %s: %s\n", bench_dtype_name(p->dbl), p->note);
        return;
    }
    fprintf(f,
            "  first matmul in a new process, %s n=%zu, warm caches: %.1f ms from main() = OpenCL loader %.1f "
            "(%u platforms) + context %.1f + buffers %.1f + call %.1f + finish %.1f%s\n",
            bench_dtype_name(p->dbl), p->n, p->total * 1e3, p->loader * 1e3, p->platforms, p->context * 1e3,
            p->buffers * 1e3, p->call * 1e3, p->finish * 1e3, p->ok ? "" : " (RESULT WRONG)");
    char kernel[64] = "";
    if (p->work > 0)
        snprintf(kernel, sizeof kernel, "; the kernel alone %.1f ms", p->work * 1e3);
    fprintf(f,
            "    the same steps again in that process %.1f ms (buffers %.1f + call %.1f + finish %.1f) -> being first "
            "cost %.1f ms%s\n",
            p->again * 1e3, p->again_buffers * 1e3, p->again_call * 1e3, p->again_finish * 1e3, p->overhead * 1e3,
            kernel);
    fprintf(f, "    (median of 3 new processes; before main(): %.1f ms of exec and loading, clrt-bench's OpenBLAS and "
               "CLBlast included)\n",
            p->spawn_to_main * 1e3);
    if (p->forced_total >= 0)
        fprintf(f, "    with clrt's own program cache forced on (CLRT_CACHE=1): %.1f ms, call %.1f ms -> overhead %.1f ms\n",
                p->forced_total * 1e3, p->forced_call * 1e3, p->forced_overhead * 1e3);
    if (p->cold_total >= 0)
        fprintf(f, "    with every build cache off (full compile): %.1f ms -> overhead %.1f ms\n", p->cold_total * 1e3,
                p->cold_overhead * 1e3);
    if (p->note[0])
        fprintf(f, "    %s\n", p->note);
}

static void print_overhead(FILE *f, const bench_overhead *o)
{
    if (!o->measured) {
        if (o->note[0])
            fprintf(f, "  tiny-add overhead: %s\n", o->note);
        return;
    }
    fprintf(f,
            "  tiny add (n=%zu), blocks of %d pipelined then one finish, %d rounds; median per operation: clrt_add "
            "%.2f us, raw clEnqueueNDRangeKernel of the same kernel %.2f us, raw clSetKernelArg of every argument + enqueue %.2f us; "
            "clrt / raw enqueue, median of the rounds: x%.2f\n",
            o->n, o->ops, o->rounds, o->clrt_op * 1e6, o->raw_op * 1e6, o->raw_args_op * 1e6, o->ratio);
    if (o->trips)
        fprintf(f,
                "  round trip (one tiny add waited for at once, %d times, alternated): clrt_add + clrt_queue_finish "
                "median %.1f us [min %.1f, 90th percentile %.1f], raw enqueue + clFinish median %.1f us\n",
                o->trips, o->trip_clrt_median * 1e6, o->trip_clrt_min * 1e6, o->trip_clrt_p90 * 1e6,
                o->trip_raw_median * 1e6);
}

/* --op products: each call's median against what it replaces (and OpenBLAS), side by side. */
static void print_products(FILE *f, const bench_products *p)
{
    if (!p->measured)
        return;
    fprintf(f, "  products (medians; x: how many times faster clrt's one call is, paired rounds)\n");
    for (size_t i = 0; i < p->n; i++) {
        const bench_product *r = &p->rows[i];
        if (r->clrt.reps == 0) {
            fprintf(f, "    %-17s %-19s %s: %s\n", r->name, r->shape, r->dtype, r->note);
            continue;
        }
        fprintf(f, "    %-17s %-19s %s: clrt %.3f ms (%.1f GFLOP/s); %s %.3f ms x%.2f", r->name, r->shape, r->dtype,
                r->clrt.median * 1e3, r->flop / r->clrt.median * 1e-9, r->loop_what, r->loop.median * 1e3,
                r->vs_loop);
        if (r->openblas.reps)
            fprintf(f, "; OpenBLAS %.3f ms x%.2f", r->openblas.median * 1e3, r->vs_openblas);
        fprintf(f, "; %zu of %zu checked wrong%s%s\n", r->wrong, r->checked, r->note[0] ? "; " : "", r->note);
    }
}

static void print_tuned(FILE *f, const bench_report *r)
{
    if (!r->ntuned)
        return;
    fprintf(f, "\ntuning\n");
    for (size_t i = 0; i < r->ntuned; i++) {
        const bench_tuned_line *t = &r->tuned[i];
        fprintf(f, "  device %zu %-6s %s: default %.1f %s, tuned %.1f (x%.2f side by side) after %zu candidates (%zu "
                   "rejected, %zu for a wrong result)\n",
                r->devices[t->device].info.index,
                t->op == BENCH_ADD || t->op == BENCH_MATMUL ? bench_op_name(t->op) : bench_op_kernel(t->op),
                bench_dtype_name(t->dbl),
                t->default_rate, bench_unit(t->op), t->tuned_rate, t->speedup, t->tried, t->rejected, t->wrong);
        fprintf(f, "      default %s\n      tuned   %s\n", t->params_default, t->params_tuned);
        if (t->note[0])
            fprintf(f, "      %s\n", t->note);
        for (size_t k = 0; k < t->kept_why; k++)
            fprintf(f, "      rejected %s\n", t->rejected_why[k]);
        if (t->rejected > t->kept_why)
            fprintf(f, "      (and %zu more rejected)\n", t->rejected - t->kept_why);
        if (t->written)
            fprintf(f, "      written to %s\n", t->path);
    }
}

/* The host's FMA peak, once, with how it was measured. */
static void print_peak(FILE *f, const bench_report *r)
{
    if (r->peak.measured)
        fprintf(f, "host FMA peak: fp32 %.1f GFLOP/s, fp64 %.1f GFLOP/s (%s); %% peak = a product's GFLOP/s over "
                   "it: clrt's on a CPU device, OpenBLAS's on the host\n",
                r->peak.gflops[0], r->peak.gflops[1], r->peak.method);
    else if (r->peak.method[0])
        fprintf(f, "host FMA peak: %s\n", r->peak.method);
}

/* Under a device's name, when its matmul shares need a word: none on a
 * device other than a CPU; a CPU device with more compute units than the
 * probe's threads reads high. */
static void print_peak_device(FILE *f, const bench_report *r, size_t d)
{
    const bench_device *dev = &r->devices[d];
    int matmul = 0;
    for (size_t i = 0; i < r->ncases && !matmul; i++)
        matmul = r->cases[i].device == d && r->cases[i].op == BENCH_MATMUL;
    if (!r->peak.measured || !matmul)
        return;
    if (dev->info.type != CLRT_DEVICE_CPU)
        fprintf(f, "  %% peak: none for clrt on a %s device: its peak is not measurable from the host\n",
                clrt_device_type_name(dev->info.type));
    else if (dev->info.compute_units > (unsigned)r->peak.threads)
        fprintf(f, "  %% peak: this device has %u compute units, the peak is of %d threads (--threads %u "
                   "measures it on as many)\n",
                dev->info.compute_units, r->peak.threads, dev->info.compute_units);
}

static void print_refs(FILE *f, const bench_report *r)
{
    fprintf(f, "references:");
    int any = 0;
    if (r->have_openblas) {
        char core[512];
        bench_openblas_core_text(&r->openblas, core, sizeof core);
        fprintf(f, " OpenBLAS cblas_sgemm/dgemm (%s; %d threads)", core, r->openblas_threads);
        any = 1;
    }
    if (r->have_clblast) {
        fprintf(f, "%s CLBlast %s on the same device", any ? ";" : "", r->clblast_version);
        any = 1;
    }
    if (r->have_host) {
        fprintf(f, "%s host loops (%d threads)", any ? ";" : "", r->host_threads);
        any = 1;
    }
    if (!any)
        fprintf(f, " none");
    if (!r->have_openblas)
        fprintf(f, "; no OpenBLAS (%s)",
                r->built_openblas ? "--no-openblas" : "not built in: Debian libopenblas-dev, then reconfigure");
    if (!r->have_clblast)
        fprintf(f, "; no CLBlast (%s)",
                r->built_clblast ? "--no-clblast" : "not built in: Debian libclblast-dev, then reconfigure");
    if (!r->have_host)
        fprintf(f, "; no host loops (--no-host)");
    fputc('\n', f);
    if (r->have_openblas && r->openblas.older)
        fprintf(f, "note: OpenBLAS runs its %s kernels, older than this CPU's best (%s): it can be far from its\n"
                   "      best (AVX2 kernels on a CPU with AVX-512 can run at half its speed, SSE3 ones at a fifth),\n"
                   "      so x OB flatters clrt%s.\n",
                r->openblas.core, r->openblas.best,
                r->openblas.user_set ? "; unset OPENBLAS_CORETYPE and clrt-bench forces the best itself" : "");
    print_peak(f, r);
}

void bench_print_table(FILE *f, const bench_report *r)
{
    fprintf(f, "clrt-bench (clrt %s) on %s (%s%s%ld CPUs), %s\n", r->clrt_version, r->host, r->cpu,
            r->cpu[0] ? ", " : "", r->cpus, r->date);
    fprintf(f, "command: %s\n", r->command);
    print_refs(f, r);
    fprintf(f, "times: median [min-max] of repeated runs after a warm-up; rates from the median; x REF = clrt's "
               "speed over the reference's: the median over rounds of their time ratio, both run side by side "
               "in each round\n");
    int math = 0;
    for (size_t i = 0; i < r->ncases; i++)
        math |= bench_op_is_math(r->cases[i].op);
    if (math)
        fprintf(f, "math family: GB/s of the bytes read and written (a sum reads its input, writes one value); "
                   "bias, rowsum, colsum, argmax and transpose on a near-square rows x cols matrix of about the "
                   "count asked for (--add-sizes), the others on 1 x count; host = the same loop on the host's "
                   "threads; copy = clrt_copy of the same input on the device (its own GB/s), x copy = clrt's "
                   "GB/s over copy's, side by side\n");
    for (size_t d = 0; d < r->ndevices; d++) {
        const bench_device *dev = &r->devices[d];
        fprintf(f, "\ndevice %zu [%u:%u] %s (%s, driver %s)\n", dev->info.index, dev->info.platform_index,
                dev->info.device_index, dev->info.name, dev->info.platform, dev->info.driver);
        if (dev->skipped) {
            fprintf(f, "  skipped: %s\n", dev->note);
            continue;
        }
        if (dev->note[0])
            fprintf(f, "  %s\n", dev->note);
        print_params(f, r, d);
        print_peak_device(f, r, d);
        int last_op = -1, last_dbl = -1;
        for (size_t i = 0; i < r->ncases; i++) {
            const bench_case *c = &r->cases[i];
            if (c->device != d)
                continue;
            if (c->op != last_op || c->dbl != last_dbl)
                print_group_header(f, c->op, c->dbl);
            last_op = c->op;
            last_dbl = c->dbl;
            print_case(f, r, c);
            print_notes(f, c);
        }
        fputc('\n', f);
        for (int dbl = 0; dbl < 2; dbl++)
            print_first(f, &dev->first[dbl]);
        print_raw_first(f, &dev->raw_first);
        print_overhead(f, &dev->overhead);
        print_products(f, &dev->products);
    }
    if (r->quiet.waits)
        fprintf(f, "OpenBLAS leaves its threads spinning after each call: nothing was timed until they went idle "
                   "(%d waits, %.1f s in all, longest %.2f s%s)\n\n",
                r->quiet.waits, r->quiet.total, r->quiet.max,
                r->quiet.timeouts || r->quiet.blind ? "; some gave up: ratios to OpenBLAS may be low" : "");
    print_tuned(f, r);
    bench_print_targets(f, r);
}
