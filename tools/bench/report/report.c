/* clrt-bench's report model: the cases, devices and tuning lines of one run
 * (see bench/report/report.h); the printers read it, nothing here prints. */
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

const char *const bench_impl_name[IMPL_KINDS] = {"clrt", "clrt-default", "openblas", "clblast", "host", "copy"};

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
    const double es = c->dbl ? 8.0 : 4.0, rows = (double)c->m, cols = (double)c->n, all = rows * cols;
    switch (c->op) {
    case BENCH_MATMUL:
        return 2.0 * (double)c->m * (double)c->n * (double)c->k;
    case BENCH_ADD:
    case BENCH_MUL:
    case BENCH_AXPBY: /* y read and written, x read */
        return 3.0 * all * es;
    case BENCH_BIAS: /* a read, c written, the row once */
        return (2.0 * all + cols) * es;
    case BENCH_RELU:
    case BENCH_SIGMOID:
    case BENCH_TRANSPOSE:
        return 2.0 * all * es;
    case BENCH_SUM:
        return (all + 1.0) * es;
    case BENCH_ROWSUM:
        return (all + rows) * es;
    case BENCH_COLSUM:
        return (all + cols) * es;
    case BENCH_ARGMAX: /* int32 indices out */
        return all * es + rows * 4.0;
    default:
        return 0;
    }
}

double bench_copy_work(const bench_case *c) { return 2.0 * (double)c->m * (double)c->n * (c->dbl ? 8.0 : 4.0); }

const char *bench_unit(int op) { return op == BENCH_MATMUL ? "GFLOP/s" : "GB/s"; }
const char *bench_dtype_name(int dbl) { return dbl ? "f64" : "f32"; }

const char *bench_trans_suffix(const bench_case *c)
{
    static const char *const s[4] = {"", " TN", " NT", " TT"};
    return c->op == BENCH_MATMUL ? s[(c->ta ? 1 : 0) | (c->tb ? 2 : 0)] : "";
}

int bench_result_usable(const bench_result *x) { return x->present && !x->failed && x->st.reps > 0; }

double bench_ratio(const bench_case *c, int impl, int ref)
{
    const bench_result *a = &c->r[impl], *b = &c->r[ref];
    if (!bench_result_usable(a) || !bench_result_usable(b) || a->st.median <= 0)
        return 0;
    if (impl == IMPL_CLRT && c->ratio[ref] > 0)
        return c->ratio[ref];
    if (ref == IMPL_COPY || impl == IMPL_COPY)
        return b->rate > 0 ? a->rate / b->rate : 0;
    return b->st.median / a->st.median;
}

double bench_peak_share(const bench_report *r, const bench_case *c, int impl)
{
    const bench_result *x = &c->r[impl];
    if (!r->peak.measured || c->op != BENCH_MATMUL || !bench_result_usable(x) || r->peak.gflops[c->dbl] <= 0)
        return 0;
    if (impl != IMPL_OPENBLAS && r->devices[c->device].info.type != CLRT_DEVICE_CPU)
        return 0;
    return x->rate / r->peak.gflops[c->dbl];
}
