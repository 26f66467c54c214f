/* clrt-bench output: table, JSON, CSV (see bench_out.h). */
#include "bench_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_targets.h"

const char *const bench_impl_name[IMPL_KINDS] = {"clrt", "clrt-default", "openblas", "clblast", "host"};

bench_case *bench_report_add(bench_report *r)
{
    if (r->ncases == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        bench_case *grown = realloc(r->cases, cap * sizeof *grown);
        if (!grown)
            return NULL;
        r->cases = grown;
        r->cap = cap;
    }
    bench_case *c = &r->cases[r->ncases++];
    memset(c, 0, sizeof *c);
    c->first_s = -1;
    return c;
}

void bench_report_free(bench_report *r)
{
    free(r->cases);
    r->cases = NULL;
    r->ncases = r->cap = 0;
}

double bench_case_work(const bench_case *c)
{
    if (c->op == BENCH_MATMUL)
        return 2.0 * (double)c->m * (double)c->n * (double)c->k;
    return 3.0 * (double)c->n * (c->dbl ? 8.0 : 4.0);
}

const char *bench_op_name(int op) { return op == BENCH_MATMUL ? "matmul" : "add"; }
const char *bench_unit(int op) { return op == BENCH_MATMUL ? "GFLOP/s" : "GB/s"; }
const char *bench_dtype_name(int dbl) { return dbl ? "f64" : "f32"; }

int bench_result_usable(const bench_result *x) { return x->present && !x->failed && x->st.reps > 0; }

double bench_ratio(const bench_case *c, int impl, int ref)
{
    const bench_result *a = &c->r[impl], *b = &c->r[ref];
    if (!bench_result_usable(a) || !bench_result_usable(b) || a->st.median <= 0)
        return 0;
    if (impl == IMPL_CLRT && c->ratio[ref] > 0)
        return c->ratio[ref];
    return b->st.median / a->st.median;
}

/* ---- table */

static void shape_text(const bench_case *c, char *buf, size_t cap)
{
    if (c->op == BENCH_ADD)
        snprintf(buf, cap, "%zu", c->n);
    else if (c->m == c->n && c->n == c->k)
        snprintf(buf, cap, "%zu", c->n);
    else
        snprintf(buf, cap, "%zux%zux%zu", c->m, c->n, c->k);
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

static const char *check_text(const bench_case *c)
{
    int any = 0;
    for (int i = 0; i < IMPL_KINDS; i++) {
        const bench_result *x = &c->r[i];
        if (!bench_result_usable(x) || x->checked == 0)
            continue;
        any = 1;
        if (x->wrong)
            return i == IMPL_CLRT || i == IMPL_CLRT_DEFAULT ? "WRONG" : "ref-wrong";
    }
    return any ? "ok" : "-";
}

static void print_group_header(FILE *f, int op, int dbl)
{
    if (op == BENCH_MATMUL)
        fprintf(f, "\n  matmul %s    %-26s %8s %8s %9s %6s %8s %6s %9s  %s\n", bench_dtype_name(dbl),
                "clrt ms median [min-max]", "GFLOP/s", "default", "OpenBLAS", "x OB", "CLBlast", "x CLB",
                "first ms", "check");
    else
        fprintf(f, "\n  add %s       %-26s %8s %8s %9s %6s %8s %6s %9s  %s\n", bench_dtype_name(dbl),
                "clrt ms median [min-max]", "GB/s", "default", "host", "x host", "", "", "first ms", "check");
}

static void print_case(FILE *f, const bench_case *c)
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
    } else {
        clb[0] = rclb[0] = '\0';
    }
    if (c->first_s >= 0)
        snprintf(first, sizeof first, "%.1f", c->first_s * 1e3);
    else
        snprintf(first, sizeof first, "-");
    fprintf(f, "  %-15s %-26s %8s %8s %9s %6s %8s %6s %9s  %s\n", shape, t, rate, def, ref, rref, clb, rclb, first,
            check_text(c));
}

static void print_notes(FILE *f, const bench_case *c)
{
    for (int i = 0; i < IMPL_KINDS; i++) {
        const bench_result *x = &c->r[i];
        if (x->present && (x->failed || x->wrong) && x->note[0])
            fprintf(f, "      %s: %s\n", bench_impl_name[i], x->note);
        else if (x->present && x->wrong)
            fprintf(f, "      %s: %zu of %zu checked elements wrong\n", bench_impl_name[i], x->wrong, x->checked);
    }
}

static void print_params(FILE *f, const bench_report *r, size_t d)
{
    int printed[2][2] = {{0, 0}, {0, 0}};
    for (size_t i = 0; i < r->ncases; i++) {
        const bench_case *c = &r->cases[i];
        if (c->device != d || printed[c->op][c->dbl] || !c->params[0])
            continue;
        printed[c->op][c->dbl] = 1;
        fprintf(f, "  %-6s %s: %s parameters %s", bench_op_name(c->op), bench_dtype_name(c->dbl),
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
                r->devices[t->device].info.index, bench_op_name(t->op), bench_dtype_name(t->dbl),
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

static void print_refs(FILE *f, const bench_report *r)
{
    fprintf(f, "references:");
    int any = 0;
    if (r->have_openblas) {
        fprintf(f, " OpenBLAS cblas_sgemm/dgemm (core %s, %d threads%s%s)", r->openblas_core, r->openblas_threads,
                r->openblas_coretype_env[0] ? ", forced by OPENBLAS_CORETYPE=" : "", r->openblas_coretype_env);
        any = 1;
    }
    if (r->have_clblast) {
        fprintf(f, "%s CLBlast %s on the same device", any ? ";" : "", r->clblast_version);
        any = 1;
    }
    if (r->have_host) {
        fprintf(f, "%s host add loop (%d threads)", any ? ";" : "", r->host_threads);
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
        fprintf(f, "; no host add loop (--no-host)");
    fputc('\n', f);
    if (r->have_openblas && r->openblas_core_older)
        fprintf(f, "note: OpenBLAS runs its %s kernels, older than this CPU%s: it is far from its best\n"
                   "      (about half on this Zen 5 machine with Haswell), so x OB flatters clrt.\n",
                r->openblas_core, r->openblas_coretype_env[0] ? " (forced by OPENBLAS_CORETYPE)" : "");
}

void bench_print_table(FILE *f, const bench_report *r)
{
    fprintf(f, "clrt-bench (clrt %s) on %s, %s\n", r->clrt_version, r->host, r->date);
    fprintf(f, "command: %s\n", r->command);
    print_refs(f, r);
    fprintf(f, "times: median [min-max] of repeated runs after a warm-up; rates from the median; x REF = clrt's "
               "speed over the reference's: the median over rounds of their time ratio, both run side by side "
               "in each round\n");
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
        int last_op = -1, last_dbl = -1;
        for (size_t i = 0; i < r->ncases; i++) {
            const bench_case *c = &r->cases[i];
            if (c->device != d)
                continue;
            if (c->op != last_op || c->dbl != last_dbl)
                print_group_header(f, c->op, c->dbl);
            last_op = c->op;
            last_dbl = c->dbl;
            print_case(f, c);
            print_notes(f, c);
        }
        fputc('\n', f);
        for (int dbl = 0; dbl < 2; dbl++)
            print_first(f, &dev->first[dbl]);
        print_raw_first(f, &dev->raw_first);
        print_overhead(f, &dev->overhead);
    }
    if (r->quiet.waits)
        fprintf(f, "OpenBLAS leaves its threads spinning after each call: nothing was timed until they went idle "
                   "(%d waits, %.1f s in all, longest %.2f s%s)\n\n",
                r->quiet.waits, r->quiet.total, r->quiet.max,
                r->quiet.timeouts || r->quiet.blind ? "; some gave up: ratios to OpenBLAS may be low" : "");
    print_tuned(f, r);
    bench_print_targets(f, r);
}

/* ---- JSON */

void bench_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

/* a number, or null for "not measured" */
static void json_num(FILE *f, double v, int have)
{
    if (have && isfinite(v))
        fprintf(f, "%.9g", v);
    else
        fputs("null", f);
}

static void json_result(FILE *f, const bench_result *x)
{
    int u = bench_result_usable(x);
    fprintf(f, "{\"failed\": %s, \"median_s\": ", x->failed ? "true" : "false");
    json_num(f, x->st.median, u);
    fputs(", \"min_s\": ", f);
    json_num(f, x->st.min, u);
    fputs(", \"max_s\": ", f);
    json_num(f, x->st.max, u);
    fprintf(f, ", \"reps\": %d, \"rate\": ", x->st.reps);
    json_num(f, x->rate, u);
    fprintf(f, ", \"checked\": %zu, \"wrong\": %zu, \"note\": ", x->checked, x->wrong);
    bench_json_str(f, x->note);
    fputc('}', f);
}

void bench_print_json(FILE *f, const bench_report *r)
{
    fputs("{\n  \"tool\": \"clrt-bench\",\n  \"clrt_version\": ", f);
    bench_json_str(f, r->clrt_version);
    fputs(",\n  \"command\": ", f);
    bench_json_str(f, r->command);
    fputs(",\n  \"date\": ", f);
    bench_json_str(f, r->date);
    fputs(",\n  \"host\": ", f);
    bench_json_str(f, r->host);
    fputs(",\n  \"references\": {\n    \"openblas\": ", f);
    if (r->have_openblas) {
        fputs("{\"core\": ", f);
        bench_json_str(f, r->openblas_core);
        fprintf(f, ", \"threads\": %d, \"coretype_env\": ", r->openblas_threads);
        bench_json_str(f, r->openblas_coretype_env);
        fprintf(f, ", \"core_older_than_cpu\": %s", r->openblas_core_older ? "true" : "false");
        fputs(", \"config\": ", f);
        bench_json_str(f, r->openblas_config);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fputs(",\n    \"clblast\": ", f);
    if (r->have_clblast) {
        fputs("{\"version\": ", f);
        bench_json_str(f, r->clblast_version);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fputs(",\n    \"host_add\": ", f);
    if (r->have_host)
        fprintf(f, "{\"threads\": %d}", r->host_threads);
    else
        fputs("null", f);
    fputs("\n  },\n  \"devices\": [", f);
    for (size_t d = 0; d < r->ndevices; d++) {
        const bench_device *dev = &r->devices[d];
        fprintf(f, "%s\n    {\"index\": %zu, \"selector\": \"%u:%u\", \"name\": ", d ? "," : "", dev->info.index,
                dev->info.platform_index, dev->info.device_index);
        bench_json_str(f, dev->info.name);
        fputs(", \"platform\": ", f);
        bench_json_str(f, dev->info.platform);
        fputs(", \"driver\": ", f);
        bench_json_str(f, dev->info.driver);
        fprintf(f, ", \"emulator\": %s, \"skipped\": %s, \"note\": ", dev->emulator ? "true" : "false",
                dev->skipped ? "true" : "false");
        bench_json_str(f, dev->note);
        fputs(",\n     \"first_call_new_process\": [", f);
        int n = 0;
        for (int dbl = 0; dbl < 2; dbl++) {
            const bench_first *p = &dev->first[dbl];
            if (!p->measured)
                continue;
            fprintf(f, "%s{\"dtype\": \"%s\", \"n\": %zu, \"ok\": %s, \"total_s\": %.6f, \"before_main_s\": %.6f, "
                       "\"loader_s\": %.6f, \"platforms\": %u, \"context_s\": %.6f, \"buffers_s\": %.6f, "
                       "\"call_s\": %.6f, \"finish_s\": %.6f, \"again_s\": %.6f, \"again_buffers_s\": %.6f, "
                       "\"again_call_s\": %.6f, \"again_finish_s\": %.6f, \"overhead_s\": %.6f, \"kernel_s\": ",
                    n++ ? ", " : "", bench_dtype_name(dbl), p->n, p->ok ? "true" : "false", p->total,
                    p->spawn_to_main, p->loader, p->platforms, p->context, p->buffers, p->call, p->finish, p->again,
                    p->again_buffers, p->again_call, p->again_finish, p->overhead);
            json_num(f, p->work, p->work > 0);
            fputs(", \"cold_total_s\": ", f);
            json_num(f, p->cold_total, p->cold_total >= 0);
            fputs(", \"cold_overhead_s\": ", f);
            json_num(f, p->cold_overhead, p->cold_total >= 0);
            fputs(", \"forced_cache_total_s\": ", f);
            json_num(f, p->forced_total, p->forced_total >= 0);
            fputs(", \"forced_cache_call_s\": ", f);
            json_num(f, p->forced_call, p->forced_total >= 0);
            fputc('}', f);
        }
        fputs("],\n     \"raw_first_kernel_new_process\": ", f);
        if (dev->raw_first.measured) {
            fprintf(f, "{\"source_total_s\": %.6f, \"source_loader_s\": %.6f, \"binary_total_s\": ",
                    dev->raw_first.total, dev->raw_first.loader);
            json_num(f, dev->raw_first.binary_total, dev->raw_first.binary_measured);
            fputs(", \"binary_loader_s\": ", f);
            json_num(f, dev->raw_first.binary_loader, dev->raw_first.binary_measured);
            fputc('}', f);
        } else {
            fputs("null", f);
        }
        fputs(",\n     \"tiny_add_overhead\": ", f);
        const bench_overhead *o = &dev->overhead;
        if (o->measured)
            fprintf(f,
                    "{\"n\": %zu, \"ops\": %d, \"rounds\": %d, \"clrt_op_s\": %.9f, \"raw_op_s\": %.9f, "
                    "\"raw_setargs_op_s\": %.9f, \"ratio_clrt_over_raw\": %.4f}",
                    o->n, o->ops, o->rounds, o->clrt_op, o->raw_op, o->raw_args_op, o->ratio);
        else
            fputs("null", f);
        fputc('}', f);
    }
    fputs("\n  ],\n  \"results\": [", f);
    for (size_t i = 0; i < r->ncases; i++) {
        const bench_case *c = &r->cases[i];
        fprintf(f, "%s\n    {\"device\": %zu, \"op\": \"%s\", \"dtype\": \"%s\", \"m\": %zu, \"n\": %zu, \"k\": %zu, "
                   "\"unit\": \"%s\", \"work\": %.0f, \"first_call_s\": ",
                i ? "," : "", r->devices[c->device].info.index, bench_op_name(c->op),
                bench_dtype_name(c->dbl), c->m, c->n, c->k, bench_unit(c->op), bench_case_work(c));
        json_num(f, c->first_s, c->first_s >= 0);
        if (c->nb_ratio > 0)
            fprintf(f, ", \"round_neighbour\": {\"m\": %zu, \"n\": %zu, \"k\": %zu, \"rate\": %.6g, "
                       "\"ratio\": %.4f}",
                    c->nb_m, c->nb_n, c->nb_k, c->nb_rate, c->nb_ratio);
        fprintf(f, ", \"tuned\": %s, \"params\": ", c->tuned ? "true" : "false");
        bench_json_str(f, c->params);
        fputs(", \"params_default\": ", f);
        bench_json_str(f, c->params_default);
        fputs(",\n     \"ratio\": {", f);
        int n = 0;
        for (int ref = IMPL_CLRT_DEFAULT; ref < IMPL_KINDS; ref++) {
            double v = bench_ratio(c, IMPL_CLRT, ref);
            if (v > 0)
                fprintf(f, "%s\"%s\": %.4f", n++ ? ", " : "", bench_impl_name[ref], v);
        }
        fputs("},\n     \"impl\": {", f);
        n = 0;
        for (int k = 0; k < IMPL_KINDS; k++) {
            if (!c->r[k].present)
                continue;
            fprintf(f, "%s\n       \"%s\": ", n++ ? "," : "", bench_impl_name[k]);
            json_result(f, &c->r[k]);
        }
        fputs("}}", f);
    }
    fputs("\n  ],\n  \"tuning\": [", f);
    for (size_t i = 0; i < r->ntuned; i++) {
        const bench_tuned_line *t = &r->tuned[i];
        fprintf(f, "%s\n    {\"device\": %zu, \"op\": \"%s\", \"dtype\": \"%s\", \"default_rate\": %.3f, "
                   "\"tuned_rate\": %.3f, \"speedup\": %.4f, \"tried\": %zu, \"rejected\": %zu, \"wrong\": %zu, \"written\": %s, \"params_default\": ",
                i ? "," : "", r->devices[t->device].info.index, bench_op_name(t->op),
                bench_dtype_name(t->dbl), t->default_rate, t->tuned_rate, t->speedup, t->tried, t->rejected,
                t->wrong, t->written ? "true" : "false");
        bench_json_str(f, t->params_default);
        fputs(", \"params_tuned\": ", f);
        bench_json_str(f, t->params_tuned);
        fputs(", \"path\": ", f);
        bench_json_str(f, t->path);
        fputs(", \"rejected_why\": [", f);
        for (size_t k = 0; k < t->kept_why; k++) {
            fputs(k ? ", " : "", f);
            bench_json_str(f, t->rejected_why[k]);
        }
        fputs("]}", f);
    }
    fprintf(f, "\n  ],\n  \"idle_waits\": {\"waits\": %d, \"timeouts\": %d, \"blind\": %d, \"total_s\": %.3f, "
               "\"max_s\": %.3f},\n  \"targets\": ",
            r->quiet.waits, r->quiet.timeouts, r->quiet.blind, r->quiet.total, r->quiet.max);
    bench_print_targets_json(f, r);
    fputs("\n}\n", f);
}

/* ---- CSV: one row per (case, implementation) */

static void csv_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
    fputc('"', f);
}

void bench_print_csv(FILE *f, const bench_report *r)
{
    fputs("device,device_name,op,dtype,m,n,k,impl,median_s,min_s,max_s,reps,rate,unit,ratio_clrt_over_this,"
          "first_call_s,checked,wrong,failed,params,note\n",
          f);
    for (size_t i = 0; i < r->ncases; i++) {
        const bench_case *c = &r->cases[i];
        for (int k = 0; k < IMPL_KINDS; k++) {
            const bench_result *x = &c->r[k];
            if (!x->present)
                continue;
            fprintf(f, "%zu,", r->devices[c->device].info.index);
            csv_str(f, r->devices[c->device].info.name);
            fprintf(f, ",%s,%s,%zu,%zu,%zu,%s,", bench_op_name(c->op), bench_dtype_name(c->dbl),
                    c->m, c->n, c->k, bench_impl_name[k]);
            if (bench_result_usable(x))
                fprintf(f, "%.9g,%.9g,%.9g,%d,%.6g,", x->st.median, x->st.min, x->st.max, x->st.reps, x->rate);
            else
                fputs(",,,0,,", f);
            fprintf(f, "%s,", bench_unit(c->op));
            double ratio = k == IMPL_CLRT ? 0 : bench_ratio(c, IMPL_CLRT, k);
            if (ratio > 0)
                fprintf(f, "%.4f", ratio);
            fputc(',', f);
            if (k == IMPL_CLRT && c->first_s >= 0)
                fprintf(f, "%.6f", c->first_s);
            fprintf(f, ",%zu,%zu,%d,", x->checked, x->wrong, x->failed);
            csv_str(f, k == IMPL_CLRT ? c->params : k == IMPL_CLRT_DEFAULT ? c->params_default : "");
            fputc(',', f);
            csv_str(f, x->note);
            fputc('\n', f);
        }
    }
}
