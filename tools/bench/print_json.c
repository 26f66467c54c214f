/* clrt-bench's JSON report (see bench/print.h). */
#include "print.h"

#include <math.h>

#include "common/json.h"
#include "targets.h"

static void json_result(FILE *f, const bench_result *x)
{
    int u = bench_result_usable(x);
    fprintf(f, "{\"failed\": %s, \"median_s\": ", x->failed ? "true" : "false");
    tool_json_num(f, x->st.median, u);
    fputs(", \"min_s\": ", f);
    tool_json_num(f, x->st.min, u);
    fputs(", \"max_s\": ", f);
    tool_json_num(f, x->st.max, u);
    fprintf(f, ", \"reps\": %d, \"rate\": ", x->st.reps);
    tool_json_num(f, x->rate, u);
    fprintf(f, ", \"checked\": %zu, \"wrong\": %zu, \"note\": ", x->checked, x->wrong);
    tool_json_str(f, x->note);
    fputc('}', f);
}

void bench_print_json(FILE *f, const bench_report *r)
{
    fputs("{\n  \"tool\": \"clrt-bench\",\n  \"clrt_version\": ", f);
    tool_json_str(f, r->clrt_version);
    fputs(",\n  \"command\": ", f);
    tool_json_str(f, r->command);
    fputs(",\n  \"date\": ", f);
    tool_json_str(f, r->date);
    fputs(",\n  \"host\": ", f);
    tool_json_str(f, r->host);
    fputs(",\n  \"references\": {\n    \"openblas\": ", f);
    if (r->have_openblas) {
        fputs("{\"core\": ", f);
        tool_json_str(f, r->openblas_core);
        fprintf(f, ", \"threads\": %d, \"coretype_env\": ", r->openblas_threads);
        tool_json_str(f, r->openblas_coretype_env);
        fprintf(f, ", \"core_older_than_cpu\": %s", r->openblas_core_older ? "true" : "false");
        fputs(", \"config\": ", f);
        tool_json_str(f, r->openblas_config);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fputs(",\n    \"clblast\": ", f);
    if (r->have_clblast) {
        fputs("{\"version\": ", f);
        tool_json_str(f, r->clblast_version);
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
        tool_json_str(f, dev->info.name);
        fputs(", \"platform\": ", f);
        tool_json_str(f, dev->info.platform);
        fputs(", \"driver\": ", f);
        tool_json_str(f, dev->info.driver);
        fprintf(f, ", \"emulator\": %s, \"skipped\": %s, \"note\": ", dev->emulator ? "true" : "false",
                dev->skipped ? "true" : "false");
        tool_json_str(f, dev->note);
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
            tool_json_num(f, p->work, p->work > 0);
            fputs(", \"cold_total_s\": ", f);
            tool_json_num(f, p->cold_total, p->cold_total >= 0);
            fputs(", \"cold_overhead_s\": ", f);
            tool_json_num(f, p->cold_overhead, p->cold_total >= 0);
            fputs(", \"forced_cache_total_s\": ", f);
            tool_json_num(f, p->forced_total, p->forced_total >= 0);
            fputs(", \"forced_cache_call_s\": ", f);
            tool_json_num(f, p->forced_call, p->forced_total >= 0);
            fputc('}', f);
        }
        fputs("],\n     \"raw_first_kernel_new_process\": ", f);
        if (dev->raw_first.measured) {
            fprintf(f, "{\"source_total_s\": %.6f, \"source_loader_s\": %.6f, \"binary_total_s\": ",
                    dev->raw_first.total, dev->raw_first.loader);
            tool_json_num(f, dev->raw_first.binary_total, dev->raw_first.binary_measured);
            fputs(", \"binary_loader_s\": ", f);
            tool_json_num(f, dev->raw_first.binary_loader, dev->raw_first.binary_measured);
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
        fputc('}', f);
    }
    fputs("\n  ],\n  \"results\": [", f);
    for (size_t i = 0; i < r->ncases; i++) {
        const bench_case *c = &r->cases[i];
        fprintf(f, "%s\n    {\"device\": %zu, \"op\": \"%s\", \"dtype\": \"%s\", \"m\": %zu, \"n\": %zu, \"k\": %zu, "
                   "\"unit\": \"%s\", \"work\": %.0f, \"first_call_s\": ",
                i ? "," : "", r->devices[c->device].info.index, bench_op_name(c->op),
                bench_dtype_name(c->dbl), c->m, c->n, c->k, bench_unit(c->op), bench_case_work(c));
        tool_json_num(f, c->first_s, c->first_s >= 0);
        if (c->op == BENCH_MATMUL)
            fprintf(f, ", \"trans\": \"%c%c\"", c->ta ? 'T' : 'N', c->tb ? 'T' : 'N');
        else /* the element count asked for; a matrix op runs on m x n near it */
            fprintf(f, ", \"count\": %zu, \"matrix\": %s", c->count, bench_op_matrix(c->op) ? "true" : "false");
        if (c->ab_ratio > 0)
            fprintf(f, ", \"alpha_beta_ratio\": %.4f", c->ab_ratio);
        if (c->view_ratio > 0)
            fprintf(f, ", \"view_ratio\": %.4f", c->view_ratio);
        if (c->nb_ratio > 0)
            fprintf(f, ", \"round_neighbour\": {\"m\": %zu, \"n\": %zu, \"k\": %zu, \"rate\": %.6g, "
                       "\"ratio\": %.4f}",
                    c->nb_m, c->nb_n, c->nb_k, c->nb_rate, c->nb_ratio);
        fprintf(f, ", \"tuned\": %s, \"params\": ", c->tuned ? "true" : "false");
        tool_json_str(f, c->params);
        fputs(", \"params_default\": ", f);
        tool_json_str(f, c->params_default);
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
                   "\"tuned_rate\": %.3f, \"speedup\": %.4f, \"tried\": %zu, \"rejected\": %zu, \"wrong\": %zu, \"ok\": %s, \"written\": %s, \"params_default\": ",
                i ? "," : "", r->devices[t->device].info.index, bench_op_name(t->op),
                bench_dtype_name(t->dbl), t->default_rate, t->tuned_rate, t->speedup, t->tried, t->rejected,
                t->wrong, t->ok ? "true" : "false", t->written ? "true" : "false");
        tool_json_str(f, t->params_default);
        fputs(", \"kernel\": ", f);
        tool_json_str(f, bench_op_kernel(t->op));
        fputs(", \"params_tuned\": ", f);
        tool_json_str(f, t->params_tuned);
        fputs(", \"path\": ", f);
        tool_json_str(f, t->path);
        fputs(", \"note\": ", f);
        tool_json_str(f, t->note);
        fputs(", \"rejected_why\": [", f);
        for (size_t k = 0; k < t->kept_why; k++) {
            fputs(k ? ", " : "", f);
            tool_json_str(f, t->rejected_why[k]);
        }
        fputs("]}", f);
    }
    fprintf(f, "\n  ],\n  \"idle_waits\": {\"waits\": %d, \"timeouts\": %d, \"blind\": %d, \"total_s\": %.3f, "
               "\"max_s\": %.3f},\n  \"targets\": ",
            r->quiet.waits, r->quiet.timeouts, r->quiet.blind, r->quiet.total, r->quiet.max);
    bench_print_targets_json(f, r);
    fputs("\n}\n", f);
}
