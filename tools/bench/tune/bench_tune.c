/* clrt-bench --tune (see bench/tune/bench_tune.h): a thin command line over the
 * library's tuner (clrt_tune_run in <clrt/clrt_tune.h>), which searches,
 * checks every candidate against the host and times it side by side; this
 * file picks what to tune, shows progress, stores the winners in the tuned
 * file (clrt_tune_file_store) and fills the report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clrt/clrt.h>
#include <clrt/clrt_tune.h>

#include "common/output.h"
#include "report/progress.h"
#include "tune/bench_tune.h"

static void on_progress(void *user, const char *line)
{
    (void)user;
    bench_progress("%s", line);
}

/* clrt_tune_file_store with SIGINT, SIGTERM and SIGHUP held until the tuned
 * file is replaced: an interrupted --tune leaves the old file or the new one
 * whole, and no temporary file (common/output.h). */
static int store(bench_session *s, const char *path, const char *kernel, clrt_dtype dt, const char *params,
                 const char *comment)
{
    clrt__signals_defer();
    const int st = clrt_tune_file_store(s->ctx, path, kernel, dt, params, comment);
    clrt__signals_resume();
    return st;
}

/* Tune one (op, dtype) into line; 1 when it improved (and was stored). */
static int tune_one(bench_session *s, const bench_opts *o, int op, int dbl, const char *path,
                    bench_tuned_line *line)
{
    clrt_tune_options to;
    clrt_tune_options_init(&to);
    to.quick = o->quick;
    to.passes = o->tune_passes;
    to.size = op == BENCH_MATMUL ? o->tune_size : 0; /* add: the library's own (1e7) */
    to.progress = on_progress;
    clrt_tune_result r;
    memset(&r, 0, sizeof r);
    const char *kernel = bench_kernel_name(op);
    const clrt_dtype dt = dbl ? CLRT_FLOAT64 : CLRT_FLOAT32;
    int st = clrt_tune_run(s->ctx, kernel, dt, &to, &r);
    line->ok = st == CLRT_OK;
    line->default_rate = r.default_rate;
    line->tuned_rate = r.best_rate;
    line->speedup = r.speedup;
    line->tried = r.tried;
    line->rejected = r.rejected;
    line->wrong = r.wrong;
    line->kept_why = r.nreasons < BENCH_TUNE_WHY ? r.nreasons : BENCH_TUNE_WHY;
    for (size_t i = 0; i < line->kept_why; i++)
        snprintf(line->rejected_why[i], sizeof line->rejected_why[i], "%s", r.reasons[i]);
    snprintf(line->params_default, sizeof line->params_default, "%.319s", r.defaults);
    snprintf(line->params_tuned, sizeof line->params_tuned, "%.319s", r.improved ? r.best : r.defaults);
    if (st != CLRT_OK) {
        snprintf(line->note, sizeof line->note, "%s", r.note[0] ? r.note : clrt_error_message());
        return 0;
    }
    snprintf(line->note, sizeof line->note, "%s%s", r.note, r.improved ? "" : "; no entry");
    if (!r.improved || o->tune_dry_run)
        return r.improved;
    /* the entry, or none: a kernel that no longer improves loses an older entry */
    if (store(s, path, kernel, dt, r.best, r.summary) != CLRT_OK) {
        snprintf(line->note, sizeof line->note, "cannot store: %.300s", clrt_error_message());
        return -1;
    }
    return 1;
}

int bench_tune_device(bench_session *s, size_t dev_index, const bench_opts *o, bench_report *r)
{
    char path[4300];
    if (o->tune_file)
        snprintf(path, sizeof path, "%s", o->tune_file);
    else if (clrt_tune_file_path(s->ctx, path, sizeof path) != CLRT_OK)
        path[0] = '\0';
    int any = 0, failed_store = 0;
    size_t first_line = r->ntuned;
    /* each kernel the selected ops run, once; its line is named by one of them */
    static const int kernel_ops[] = {BENCH_MATMUL, BENCH_ADD, BENCH_SUM, BENCH_TRANSPOSE};
    for (size_t k = 0; k < sizeof kernel_ops / sizeof *kernel_ops; k++) {
        const int op = kernel_ops[k];
        int wanted = 0;
        for (int x = 0; x < BENCH_OPS; x++)
            wanted |= o->run[x] && strcmp(bench_op_kernel(x), bench_op_kernel(op)) == 0;
        if (!wanted)
            continue;
        for (int dbl = 0; dbl < 2; dbl++) {
            if (!(dbl ? o->run_f64 : o->run_f32) || (dbl && !s->info.has_fp64))
                continue;
            if (r->ntuned >= sizeof r->tuned / sizeof *r->tuned)
                break;
            bench_tuned_line *line = &r->tuned[r->ntuned++];
            memset(line, 0, sizeof *line);
            line->device = dev_index;
            line->op = op;
            line->dbl = dbl;
            const clrt_dtype dt = dbl ? CLRT_FLOAT64 : CLRT_FLOAT32;
            int improved = tune_one(s, o, op, dbl, o->tune_file, line);
            failed_store |= improved < 0;
            /* nothing better: an entry an earlier tuning left is taken out */
            if (improved == 0 && !o->tune_dry_run && path[0])
                failed_store |= store(s, o->tune_file, bench_kernel_name(op), dt, NULL, NULL) != CLRT_OK;
            any = 1;
        }
    }
    if (!any)
        return -1;
    if (o->tune_dry_run)
        return 0;
    if (failed_store)
        fprintf(stderr, "clrt-bench: cannot write the tuned parameters to %s: %s\n", path[0] ? path : "(no folder)",
                clrt_error_message());
    for (size_t i = first_line; i < r->ntuned; i++) {
        r->tuned[i].written = !failed_store;
        snprintf(r->tuned[i].path, sizeof r->tuned[i].path, "%.511s", path);
    }
    if (o->tune_file && !failed_store && !getenv("CLRT_TUNED_FILE"))
        fprintf(stderr, "clrt-bench: tuned parameters written to %s; clrt reads them from there only with "
                        "CLRT_TUNED_FILE=%s\n",
                o->tune_file, o->tune_file);
    return failed_store ? -2 : 0;
}
