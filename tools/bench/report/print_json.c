/* clrt-bench's JSON report (see bench/report/print.h): the run's header and
 * references, each device's one-off measurements, each case, each tuning,
 * then the targets. */
#include "report/print.h"

#include <math.h>

#include "common/json.h"
#include "report/targets.h"

static const char *json_bool(int v) { return v ? "true" : "false"; }

static void json_result(FILE *f, const bench_result *x)
{
    int u = bench_result_usable(x);
    fprintf(f, "{\"failed\": %s", json_bool(x->failed));
    tool_json_key_num(f, ", ", "median_s", x->st.median, u);
    tool_json_key_num(f, ", ", "min_s", x->st.min, u);
    tool_json_key_num(f, ", ", "max_s", x->st.max, u);
    fprintf(f, ", \"reps\": %d", x->st.reps);
    tool_json_key_num(f, ", ", "rate", x->rate, u);
    fprintf(f, ", \"checked\": %zu, \"wrong\": %zu", x->checked, x->wrong);
    tool_json_key_str(f, ", ", "note", x->note);
    fputc('}', f);
}

/* OpenBLAS's core: the one that ran, the best this build has for the CPU
 * ("" off x86), who chose it (OpenBLAS itself, the user's
 * OPENBLAS_CORETYPE, or clrt-bench, which forced the best: then
 * chosen_by_openblas is what OpenBLAS had picked), and the same in words. */
static void json_openblas(FILE *f, const bench_report *r)
{
    const bench_openblas_state *o = &r->openblas;
    char text[512];
    bench_openblas_core_text(o, text, sizeof text);
    tool_json_key_str(f, "{", "core", o->core);
    fprintf(f, ", \"threads\": %d", r->openblas_threads);
    tool_json_key_str(f, ", ", "best_core", o->best);
    fprintf(f, ", \"core_older_than_cpu\": %s, \"forced\": %s", json_bool(o->older), json_bool(o->forced));
    /* what OpenBLAS picked by itself: unknown (null) under a user's OPENBLAS_CORETYPE */
    fputs(", \"chosen_by_openblas\": ", f);
    if (o->user_set)
        fputs("null", f);
    else
        tool_json_str(f, o->forced ? o->chosen : o->core);
    tool_json_key_str(f, ", ", "coretype_env", o->env);
    tool_json_key_str(f, ", ", "coretype_set_by", o->forced ? "clrt-bench" : o->user_set ? "user" : "");
    fprintf(f, ", \"dynamic_arch\": %s", json_bool(o->dynamic));
    tool_json_key_str(f, ", ", "note", o->note);
    tool_json_key_str(f, ", ", "summary", text);
    tool_json_key_str(f, ", ", "config", r->openblas_config);
    fputc('}', f);
}

/* The host's FMA peak; null when not measured. */
static void json_peak(FILE *f, const bench_report *r)
{
    const bench_peak *p = &r->peak;
    fputs(",\n  \"host_peak\": ", f);
    if (!p->measured) {
        fputs("null", f);
        return;
    }
    fprintf(f, "{\"f32_gflops\": %.3f, \"f64_gflops\": %.3f, \"threads\": %d, \"chains\": %d, ", p->gflops[0],
            p->gflops[1], p->threads, p->chains);
    fprintf(f, "\"lanes_f32\": %d, \"lanes_f64\": %d, \"trials\": %d, \"trial_s\": %.3f", p->lanes[0], p->lanes[1],
            p->trials, p->trial_s);
    tool_json_key_str(f, ", ", "isa", p->isa);
    tool_json_key_str(f, ", ", "method", p->method);
    fputc('}', f);
}

/* The references the run had: OpenBLAS (the core it picked), CLBlast, the
 * host loops; null for one left out or not built. */
static void json_references(FILE *f, const bench_report *r)
{
    fputs(",\n  \"references\": {\n    \"openblas\": ", f);
    if (r->have_openblas) {
        json_openblas(f, r);
    } else {
        fputs("null", f);
    }
    fputs(",\n    \"clblast\": ", f);
    if (r->have_clblast) {
        tool_json_key_str(f, "{", "version", r->clblast_version);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fputs(",\n    \"host_add\": ", f);
    if (r->have_host)
        fprintf(f, "{\"threads\": %d}", r->host_threads);
    else
        fputs("null", f);
    fputs("\n  }", f);
}

/* A new process's first matmul, per dtype measured. */
static void json_first_calls(FILE *f, const bench_device *dev)
{
    fputs(",\n     \"first_call_new_process\": [", f);
    int n = 0;
    for (int dbl = 0; dbl < 2; dbl++) {
        const bench_first *p = &dev->first[dbl];
        if (!p->measured && p->failed) { /* the child failed: how it ended */
            fprintf(f, "%s{\"dtype\": \"%s\", \"n\": %zu, \"ok\": false, \"failed\": true", n++ ? ", " : "",
                    bench_dtype_name(dbl), p->n);
            tool_json_key_str(f, ", ", "note", p->note);
            fputc('}', f);
        }
        if (!p->measured)
            continue;
        fprintf(f, "%s{\"dtype\": \"%s\", \"n\": %zu, \"ok\": %s, \"total_s\": %.6f, \"before_main_s\": %.6f, "
                   "\"loader_s\": %.6f, \"platforms\": %u, \"context_s\": %.6f, \"buffers_s\": %.6f, "
                   "\"call_s\": %.6f, \"finish_s\": %.6f, \"again_s\": %.6f, \"again_buffers_s\": %.6f, "
                   "\"again_call_s\": %.6f, \"again_finish_s\": %.6f, \"overhead_s\": %.6f",
                n++ ? ", " : "", bench_dtype_name(dbl), p->n, json_bool(p->ok), p->total, p->spawn_to_main,
                p->loader, p->platforms, p->context, p->buffers, p->call, p->finish, p->again, p->again_buffers,
                p->again_call, p->again_finish, p->overhead);
        tool_json_key_num(f, ", ", "kernel_s", p->work, p->work > 0);
        tool_json_key_num(f, ", ", "cold_total_s", p->cold_total, p->cold_total >= 0);
        tool_json_key_num(f, ", ", "cold_overhead_s", p->cold_overhead, p->cold_total >= 0);
        tool_json_key_num(f, ", ", "forced_cache_total_s", p->forced_total, p->forced_total >= 0);
        tool_json_key_num(f, ", ", "forced_cache_call_s", p->forced_call, p->forced_total >= 0);
        if (p->failed) {
            fputs(", \"failed\": true", f);
            tool_json_key_str(f, ", ", "note", p->note);
        }
        fputc('}', f);
    }
    fputc(']', f);
}

/* A raw OpenCL program's first kernel in a new process, and the tiny add's
 * per-operation overhead; null when not measured. */
static void json_raw_and_overhead(FILE *f, const bench_device *dev)
{
    fputs(",\n     \"raw_first_kernel_new_process\": ", f);
    const bench_raw_first *raw = &dev->raw_first;
    if (raw->measured) {
        fprintf(f, "{\"source_total_s\": %.6f, \"source_loader_s\": %.6f", raw->total, raw->loader);
        tool_json_key_num(f, ", ", "binary_total_s", raw->binary_total, raw->binary_measured);
        tool_json_key_num(f, ", ", "binary_loader_s", raw->binary_loader, raw->binary_measured);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fputs(",\n     \"tiny_add_overhead\": ", f);
    const bench_overhead *o = &dev->overhead;
    if (o->measured)
        fprintf(f,
                "{\"n\": %zu, \"ops\": %d, \"rounds\": %d, \"clrt_op_s\": %.9f, \"raw_op_s\": %.9f, "
                "\"raw_setargs_op_s\": %.9f, \"ratio_clrt_over_raw\": %.4f, \"round_trips\": %d, "
                "\"round_trip_median_s\": %.9f, \"round_trip_min_s\": %.9f, \"round_trip_p90_s\": %.9f, "
                "\"raw_round_trip_median_s\": %.9f}",
                o->n, o->ops, o->rounds, o->clrt_op, o->raw_op, o->raw_args_op, o->ratio, o->trips,
                o->trip_clrt_median, o->trip_clrt_min, o->trip_clrt_p90, o->trip_raw_median);
    else
        fputs("null", f);
}

/* --op products: a row per product, clrt's call against what it replaces and
 * OpenBLAS (null where not run); null when not measured. */
static void json_products(FILE *f, const bench_device *dev)
{
    fputs(",\n     \"products\": ", f);
    const bench_products *p = &dev->products;
    if (!p->measured) {
        fputs("null", f);
        return;
    }
    fputc('[', f);
    for (size_t i = 0; i < p->n; i++) {
        const bench_product *r = &p->rows[i];
        fprintf(f, "%s\n      {", i ? "," : "");
        tool_json_key_str(f, "", "name", r->name);
        tool_json_key_str(f, ", ", "shape", r->shape);
        tool_json_key_str(f, ", ", "dtype", r->dtype);
        tool_json_key_str(f, ", ", "replaces", r->loop_what);
        fprintf(f, ", \"flop\": %.0f, \"reps\": %d", r->flop, r->clrt.reps);
        tool_json_key_num(f, ", ", "clrt_median_s", r->clrt.median, r->clrt.reps > 0);
        tool_json_key_num(f, ", ", "replaced_median_s", r->loop.median, r->loop.reps > 0);
        tool_json_key_num(f, ", ", "openblas_median_s", r->openblas.median, r->openblas.reps > 0);
        tool_json_key_num(f, ", ", "speedup_vs_replaced", r->vs_loop, r->vs_loop > 0);
        tool_json_key_num(f, ", ", "speedup_vs_openblas", r->vs_openblas, r->vs_openblas > 0);
        fprintf(f, ", \"checked\": %zu, \"wrong\": %zu", r->checked, r->wrong);
        tool_json_key_str(f, ", ", "note", r->note);
        fputc('}', f);
    }
    fputc(']', f);
}

static void json_device(FILE *f, const bench_device *dev, size_t d)
{
    fprintf(f, "%s\n    {\"index\": %zu, \"selector\": \"%u:%u\"", d ? "," : "", dev->info.index,
            dev->info.platform_index, dev->info.device_index);
    tool_json_key_str(f, ", ", "name", dev->info.name);
    tool_json_key_str(f, ", ", "platform", dev->info.platform);
    tool_json_key_str(f, ", ", "driver", dev->info.driver);
    fprintf(f, ", \"emulator\": %s, \"skipped\": %s", json_bool(dev->emulator), json_bool(dev->skipped));
    tool_json_key_str(f, ", ", "note", dev->note);
    json_first_calls(f, dev);
    json_raw_and_overhead(f, dev);
    json_products(f, dev);
    fputc('}', f);
}

/* The start of the i-th entry of results or tuning: which device, op, dtype. */
static void json_entry_head(FILE *f, const bench_report *r, size_t i, size_t device, int op, int dbl)
{
    fprintf(f, "%s\n    {\"device\": %zu, \"op\": \"%s\", \"dtype\": \"%s\"", i ? "," : "",
            r->devices[device].info.index, bench_op_name(op), bench_dtype_name(dbl));
}

static void json_case(FILE *f, const bench_report *r, const bench_case *c, size_t i)
{
    json_entry_head(f, r, i, c->device, c->op, c->dbl);
    fprintf(f, ", \"m\": %zu, \"n\": %zu, \"k\": %zu, \"unit\": \"%s\", \"work\": %.0f", c->m, c->n, c->k,
            bench_unit(c->op), bench_case_work(c));
    tool_json_key_num(f, ", ", "first_call_s", c->first_s, c->first_s >= 0);
    if (c->op == BENCH_MATMUL)
        fprintf(f, ", \"trans\": \"%c%c\"", c->ta ? 'T' : 'N', c->tb ? 'T' : 'N');
    else /* the element count asked for; a matrix op runs on m x n near it */
        fprintf(f, ", \"count\": %zu, \"matrix\": %s", c->count, json_bool(bench_op_matrix(c->op)));
    if (c->ab_ratio > 0)
        fprintf(f, ", \"alpha_beta_ratio\": %.4f", c->ab_ratio);
    if (c->view_ratio > 0)
        fprintf(f, ", \"view_ratio\": %.4f", c->view_ratio);
    if (c->nb_ratio > 0)
        fprintf(f, ", \"round_neighbour\": {\"m\": %zu, \"n\": %zu, \"k\": %zu, \"rate\": %.6g, \"ratio\": %.4f}",
                c->nb_m, c->nb_n, c->nb_k, c->nb_rate, c->nb_ratio);
    fprintf(f, ", \"tuned\": %s", json_bool(c->tuned));
    tool_json_key_str(f, ", ", "params", c->params);
    tool_json_key_str(f, ", ", "params_default", c->params_default);
    fputs(",\n     \"ratio\": {", f);
    int n = 0;
    for (int ref = IMPL_CLRT_DEFAULT; ref < IMPL_KINDS; ref++) {
        double v = bench_ratio(c, IMPL_CLRT, ref);
        if (v > 0)
            fprintf(f, "%s\"%s\": %.4f", n++ ? ", " : "", bench_impl_name[ref], v);
    }
    if (c->op == BENCH_MATMUL) { /* shares of the host's FMA peak, where they mean something */
        fputs("},\n     \"peak_share\": {", f);
        n = 0;
        for (int k = 0; k < IMPL_KINDS; k++) {
            double v = bench_peak_share(r, c, k);
            if (v > 0)
                fprintf(f, "%s\"%s\": %.4f", n++ ? ", " : "", bench_impl_name[k], v);
        }
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

static void json_tuned(FILE *f, const bench_report *r, const bench_tuned_line *t, size_t i)
{
    json_entry_head(f, r, i, t->device, t->op, t->dbl);
    fprintf(f, ", \"default_rate\": %.3f, \"tuned_rate\": %.3f, \"speedup\": %.4f, \"tried\": %zu, \"rejected\": %zu, "
               "\"wrong\": %zu, \"ok\": %s, \"written\": %s",
            t->default_rate, t->tuned_rate, t->speedup, t->tried, t->rejected, t->wrong, json_bool(t->ok),
            json_bool(t->written));
    tool_json_key_str(f, ", ", "params_default", t->params_default);
    tool_json_key_str(f, ", ", "kernel", bench_op_kernel(t->op));
    tool_json_key_str(f, ", ", "params_tuned", t->params_tuned);
    tool_json_key_str(f, ", ", "path", t->path);
    tool_json_key_str(f, ", ", "note", t->note);
    fputs(", \"rejected_why\": [", f);
    for (size_t k = 0; k < t->kept_why; k++) {
        fputs(k ? ", " : "", f);
        tool_json_str(f, t->rejected_why[k]);
    }
    fputs("]}", f);
}

void bench_print_json(FILE *f, const bench_report *r)
{
    fputs("{\n  \"tool\": \"clrt-bench\"", f);
    tool_json_key_str(f, ",\n  ", "clrt_version", r->clrt_version);
    tool_json_key_str(f, ",\n  ", "command", r->command);
    tool_json_key_str(f, ",\n  ", "date", r->date);
    tool_json_key_str(f, ",\n  ", "host", r->host);
    tool_json_key_str(f, ",\n  ", "cpu", r->cpu);
    fprintf(f, ",\n  \"cpus\": %ld", r->cpus);
    json_references(f, r);
    json_peak(f, r);
    fputs(",\n  \"devices\": [", f);
    for (size_t d = 0; d < r->ndevices; d++)
        json_device(f, &r->devices[d], d);
    fputs("\n  ],\n  \"results\": [", f);
    for (size_t i = 0; i < r->ncases; i++)
        json_case(f, r, &r->cases[i], i);
    fputs("\n  ],\n  \"tuning\": [", f);
    for (size_t i = 0; i < r->ntuned; i++)
        json_tuned(f, r, &r->tuned[i], i);
    fprintf(f, "\n  ],\n  \"idle_waits\": {\"waits\": %d, \"timeouts\": %d, \"blind\": %d, \"total_s\": %.3f, "
               "\"max_s\": %.3f},\n  \"targets\": ",
            r->quiet.waits, r->quiet.timeouts, r->quiet.blind, r->quiet.total, r->quiet.max);
    bench_print_targets_json(f, r);
    fputs("\n}\n", f);
}
