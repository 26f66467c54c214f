/* clrt-bench targets (see bench/report/targets.h). Only what the run measured is
 * judged; a target whose inputs are missing is not listed. */
#include "report/targets.h"

#include <stdio.h>

#include "common/json.h"

typedef struct target {
    size_t device;
    char name[96];
    double value, limit; /* pass when value >= limit (or <= for an upper limit) */
    int upper;
    int info;            /* reported, not judged: no limit */
    char detail[200];
} target;

typedef void (*target_fn)(const target *t, void *arg);

static const bench_case *find(const bench_report *r, size_t d, int op, int dbl, size_t m, size_t n, size_t k)
{
    for (size_t i = 0; i < r->ncases; i++) {
        const bench_case *c = &r->cases[i];
        if (c->device == d && c->op == op && c->dbl == dbl && c->m == m && c->n == n && c->k == k)
            return c;
    }
    return NULL;
}

static double rate(const bench_case *c, int impl)
{
    return bench_result_usable(&c->r[impl]) ? c->r[impl].rate : 0;
}

static int pass(const target *t) { return t->upper ? t->value <= t->limit : t->value >= t->limit; }

/* A target of device d: value against limit; its name and detail to fill. */
static target new_target(size_t d, double value, double limit)
{
    target t = {.device = d, .value = value, .limit = limit};
    return t;
}

/* The math family at 1e7 elements: against the host loop (binary, unary,
 * axpby and the reductions, argmax among them: >= 0.9; the transpose is only
 * reported), and the reductions and transpose in GB/s against clrt_copy of
 * the same input (reported: how close they come to the device's copy
 * bandwidth). */
static void math_targets(const bench_report *r, size_t d, target_fn fn, void *arg)
{
    enum { COUNT = 10000000 };
    for (int dbl = 0; dbl < 2; dbl++)
        for (int op = 0; op < BENCH_OPS; op++) {
            const bench_case *c = NULL;
            for (size_t i = 0; i < r->ncases && !c; i++) {
                const bench_case *x = &r->cases[i];
                if (x->device == d && x->op == op && x->dbl == dbl && x->count == COUNT && bench_op_is_math(op))
                    c = x;
            }
            if (!c || rate(c, IMPL_CLRT) <= 0)
                continue;
            char shape[48] = "";
            if (bench_op_matrix(op))
                snprintf(shape, sizeof shape, "%zux%zu; ", c->m, c->n);
            if (rate(c, IMPL_HOST) > 0) {
                target t = new_target(d, bench_ratio(c, IMPL_CLRT, IMPL_HOST), 0.9);
                snprintf(t.name, sizeof t.name, "%s %s 1e7 vs host loop (%d threads)", bench_op_name(op),
                         bench_dtype_name(dbl), r->host_threads);
                t.info = bench_op_family(op) == FAM_TRANSPOSE;
                snprintf(t.detail, sizeof t.detail, "%s%.1f vs %.1f GB/s", shape, rate(c, IMPL_CLRT),
                         rate(c, IMPL_HOST));
                fn(&t, arg);
            }
            if (rate(c, IMPL_COPY) > 0) {
                target t = new_target(d, bench_ratio(c, IMPL_CLRT, IMPL_COPY), 0);
                snprintf(t.name, sizeof t.name, "%s %s 1e7 GB/s vs device copy", bench_op_name(op),
                         bench_dtype_name(dbl));
                t.info = 1;
                snprintf(t.detail, sizeof t.detail, "%s%.1f vs %.1f GB/s (clrt_copy of the input)", shape,
                         rate(c, IMPL_CLRT), rate(c, IMPL_COPY));
                fn(&t, arg);
            }
        }
}

/* a dimension that a tile of 32 divides (the "round" neighbour sizes) */
static int round_dim(size_t v) { return v == 1 || v % 32 == 0; }

static const bench_case *neighbour(const bench_report *r, const bench_case *c)
{
    const bench_case *best = NULL;
    double best_d = 0;
    for (size_t i = 0; i < r->ncases; i++) {
        const bench_case *o = &r->cases[i];
        if (o == c || o->device != c->device || o->op != c->op || o->dbl != c->dbl || o->ta != c->ta || o->tb != c->tb)
            continue;
        if (!round_dim(o->m) || !round_dim(o->n) || !round_dim(o->k) || (o->k == 1) != (c->k == 1))
            continue;
        double d = 0;
        size_t a[3] = {c->m, c->n, c->k}, b[3] = {o->m, o->n, o->k};
        for (int j = 0; j < 3; j++) {
            double x = (double)a[j], y = (double)b[j];
            double rel = x > y ? (x - y) / x : (y - x) / x;
            if (rel > 0.1)
                d = 1e9;
            d += rel;
        }
        if (d < 1e9 && (!best || d < best_d)) {
            best = o;
            best_d = d;
        }
    }
    return best;
}

/* The products the article's CNN trains with at batch 64 (clrt-bench --cnn). */
static int is_cnn_shape(const bench_case *c)
{
    static const size_t shapes[][5] = {{20, 36864, 25, 0, 0}, {50, 4096, 500, 0, 0}, {64, 500, 800, 0, 1},
                                       {500, 800, 64, 1, 0},  {20, 25, 36864, 0, 1}, {50, 500, 4096, 0, 1},
                                       {500, 4096, 50, 1, 0}, {64, 10, 500, 0, 0},   {10, 500, 64, 0, 0}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (c->m == shapes[i][0] && c->n == shapes[i][1] && c->k == shapes[i][2] && (size_t)c->ta == shapes[i][3] &&
            (size_t)c->tb == shapes[i][4])
            return 1;
    return 0;
}

/* Said with every ratio to OpenBLAS when it ran on an older core than the
 * CPU's best (a user's OPENBLAS_CORETYPE, or a build for one older core):
 * the ratio is then against less than its best. */
static const char *openblas_note(const bench_report *r)
{
    return r->openblas.older ? " (OpenBLAS on a core older than the CPU: not its best)" : "";
}

/* The large square products, whose targets are the strictest. */
static int big_square(const bench_case *c)
{
    return c->m == c->n && c->n == c->k && (c->n == 1024 || c->n == 2048 || c->n == 4096);
}

/* A product against OpenBLAS sgemm: the large square ones, the small ones
 * and the CNN's. */
static void openblas_target(const bench_report *r, size_t d, const bench_case *c, target_fn fn, void *arg)
{
    const int big = big_square(c);
    const int small = c->m == c->n && c->n == c->k && (c->n == 64 || c->n == 128 || c->n == 256);
    const int cnn = is_cnn_shape(c);
    if (rate(c, IMPL_OPENBLAS) <= 0 || c->dbl || !(big || small || cnn))
        return;
    target t = new_target(d, bench_ratio(c, IMPL_CLRT, IMPL_OPENBLAS), big ? (c->n <= 2048 ? 0.95 : 1.0) : 0.8);
    snprintf(t.name, sizeof t.name, "matmul f32 %zux%zux%zu%s vs OpenBLAS sgemm", c->m, c->n, c->k,
             bench_trans_suffix(c));
    /* a product timed with its finish cannot be quicker than the device's
     * round trip: say how close it is, and OpenBLAS's time */
    char floor[96] = "";
    const bench_overhead *o = &r->devices[d].overhead;
    if (!big && o->trips && bench_result_usable(&c->r[IMPL_OPENBLAS]))
        snprintf(floor, sizeof floor, "; %.0f us, OpenBLAS %.0f, the device's round trip %.0f",
                 c->r[IMPL_CLRT].st.median * 1e6, c->r[IMPL_OPENBLAS].st.median * 1e6, o->trip_clrt_median * 1e6);
    snprintf(t.detail, sizeof t.detail, "%.1f vs %.1f GFLOP/s; %s%s%s", rate(c, IMPL_CLRT), rate(c, IMPL_OPENBLAS),
             big ? (c->n <= 2048 ? "target >= 0.95, aim 1.0" : "aim >= 1.0")
                 : cnn ? "a CNN training product" : "a small product",
             floor, openblas_note(r));
    fn(&t, arg);
}

/* A large float32 product against CLBlast's on the same device. */
static void clblast_target(size_t d, const bench_case *c, target_fn fn, void *arg)
{
    if (rate(c, IMPL_CLBLAST) <= 0 || !big_square(c) || c->dbl)
        return;
    target t = new_target(d, bench_ratio(c, IMPL_CLRT, IMPL_CLBLAST), 10);
    snprintf(t.name, sizeof t.name, "matmul f32 %zu%s vs CLBlast", c->n, bench_trans_suffix(c));
    snprintf(t.detail, sizeof t.detail, "%.1f vs %.1f GFLOP/s", rate(c, IMPL_CLRT), rate(c, IMPL_CLBLAST));
    fn(&t, arg);
}

/* clrt's product with alpha/beta, or on views, over the plain one, timed
 * side by side (--gemm-extras); what: the variant. */
static void variant_target(size_t d, const bench_case *c, const char *what, double ratio, double limit,
                           const char *detail, target_fn fn, void *arg)
{
    target t = new_target(d, ratio, limit);
    snprintf(t.name, sizeof t.name, "gemm %s %zux%zux%zu%s %s vs plain", bench_dtype_name(c->dbl), c->m, c->n, c->k,
             bench_trans_suffix(c), what);
    snprintf(t.detail, sizeof t.detail, "%s", detail);
    fn(&t, arg);
}

/* A product against OpenBLAS (same transposes) and CLBlast, and its
 * variants against the plain product. */
static void product_targets(const bench_report *r, size_t d, const bench_case *c, target_fn fn, void *arg)
{
    openblas_target(r, d, c, fn, arg);
    clblast_target(d, c, fn, arg);
    if (c->ab_ratio > 0)
        variant_target(d, c, "alpha/beta", c->ab_ratio, 0.97,
                       "alpha 1.5 beta 0.5 over alpha 1 beta 0, side by side", fn, arg);
    if (c->view_ratio > 0)
        variant_target(d, c, "on views", c->view_ratio, 0.95, "operands windows of larger buffers, side by side",
                       fn, arg);
}

/* An odd size against its round neighbour: measured side by side with it,
 * or else the nearest round size of the run. */
static void neighbour_target(const bench_report *r, size_t d, const bench_case *c, target_fn fn, void *arg)
{
    if (c->nb_ratio > 0) {
        target t = new_target(d, c->nb_ratio, 0.85);
        snprintf(t.name, sizeof t.name, "matmul %s %zux%zux%zu%s vs %zux%zux%zu", bench_dtype_name(c->dbl), c->m, c->n,
                 c->k, bench_trans_suffix(c), c->nb_m, c->nb_n, c->nb_k);
        snprintf(t.detail, sizeof t.detail, "%.1f vs %.1f GFLOP/s side by side; within 15%%", rate(c, IMPL_CLRT),
                 c->nb_rate);
        fn(&t, arg);
        return;
    }
    if (round_dim(c->m) && round_dim(c->n) && round_dim(c->k))
        return;
    const bench_case *o = neighbour(r, c);
    if (!o || rate(o, IMPL_CLRT) <= 0)
        return;
    target t = new_target(d, rate(c, IMPL_CLRT) / rate(o, IMPL_CLRT), 0.85);
    snprintf(t.name, sizeof t.name, "matmul %s %zux%zux%zu vs %zux%zux%zu", bench_dtype_name(c->dbl), c->m, c->n, c->k,
             o->m, o->n, o->k);
    snprintf(t.detail, sizeof t.detail, "%.1f vs %.1f GFLOP/s; within 15%%", rate(c, IMPL_CLRT), rate(o, IMPL_CLRT));
    fn(&t, arg);
}

/* A large float64 product against OpenBLAS dgemm. */
static void dgemm_target(const bench_report *r, size_t d, const bench_case *c, target_fn fn, void *arg)
{
    if (!c->dbl || c->m != c->n || c->n != c->k || c->n < 1024 || rate(c, IMPL_OPENBLAS) <= 0)
        return;
    target t = new_target(d, bench_ratio(c, IMPL_CLRT, IMPL_OPENBLAS), 0.9);
    snprintf(t.name, sizeof t.name, "matmul f64 %zu%s vs OpenBLAS dgemm", c->n, bench_trans_suffix(c));
    snprintf(t.detail, sizeof t.detail, "%.1f vs %.1f GFLOP/s%s", rate(c, IMPL_CLRT), rate(c, IMPL_OPENBLAS),
             openblas_note(r));
    fn(&t, arg);
}

/* An odd size against its round neighbour, and fp64 against dgemm. */
static void odd_and_f64_targets(const bench_report *r, size_t d, const bench_case *c, target_fn fn, void *arg)
{
    neighbour_target(r, d, c, fn, arg);
    dgemm_target(r, d, c, fn, arg);
}

typedef void (*product_fn)(const bench_report *r, size_t d, const bench_case *c, target_fn fn, void *arg);

/* per on each of device d's products that clrt ran, in the report's order. */
static void each_product(const bench_report *r, size_t d, product_fn per, target_fn fn, void *arg)
{
    for (size_t i = 0; i < r->ncases; i++) {
        const bench_case *c = &r->cases[i];
        if (c->device == d && c->op == BENCH_MATMUL && rate(c, IMPL_CLRT) > 0)
            per(r, d, c, fn, arg);
    }
}

/* add against the host loop, at 1e7 and 1e8 elements. */
static void add_targets(const bench_report *r, size_t d, target_fn fn, void *arg)
{
    static const size_t adds[] = {10000000, 100000000};
    for (int i = 0; i < 2; i++) {
        const bench_case *c = find(r, d, BENCH_ADD, 0, 1, adds[i], 0);
        if (!c || rate(c, IMPL_CLRT) <= 0 || rate(c, IMPL_HOST) <= 0)
            continue;
        target t = new_target(d, bench_ratio(c, IMPL_CLRT, IMPL_HOST), 0.9);
        snprintf(t.name, sizeof t.name, "add f32 %.0e vs host loop (%d threads)", (double)adds[i], r->host_threads);
        snprintf(t.detail, sizeof t.detail, "%.1f vs %.1f GB/s", rate(c, IMPL_CLRT), rate(c, IMPL_HOST));
        fn(&t, arg);
    }
}

/* The tiny add's cost per operation over a raw enqueue's (an upper limit). */
static void overhead_target(const bench_device *dev, size_t d, target_fn fn, void *arg)
{
    const bench_overhead *o = &dev->overhead;
    if (!o->measured || o->raw_op <= 0)
        return;
    target t = new_target(d, o->ratio, 1.2);
    t.upper = 1;
    snprintf(t.name, sizeof t.name, "tiny add per op vs raw enqueue");
    snprintf(t.detail, sizeof t.detail, "%.2f vs %.2f us per operation, pipelined (n=%zu); median of %d rounds",
             o->clrt_op * 1e6, o->raw_op * 1e6, o->n, o->rounds);
    fn(&t, arg);
}

/* A new process's first matmul: ms over the same work warm (an upper limit). */
static void first_call_targets(const bench_device *dev, size_t d, target_fn fn, void *arg)
{
    for (int dbl = 0; dbl < 2; dbl++) {
        const bench_first *p = &dev->first[dbl];
        if (!p->measured)
            continue;
        target t = new_target(d, p->overhead * 1e3, 50);
        t.upper = 1;
        snprintf(t.name, sizeof t.name, "new process first matmul %s %zu, ms over it warm", bench_dtype_name(dbl),
                 p->n);
        char raw[96] = "";
        if (dev->raw_first.binary_measured)
            snprintf(raw, sizeof raw, "; a raw OpenCL one-line kernel %.1f ms (source), %.1f (binary)",
                     dev->raw_first.total * 1e3, dev->raw_first.binary_total * 1e3);
        else if (dev->raw_first.measured)
            snprintf(raw, sizeof raw, "; a raw OpenCL one-line kernel %.1f ms", dev->raw_first.total * 1e3);
        snprintf(t.detail, sizeof t.detail,
                 "%.1f ms in all, the same steps again %.1f ms; OpenCL loader %.1f of it%s; warm caches",
                 p->total * 1e3, p->again * 1e3, p->loader * 1e3, raw);
        fn(&t, arg);
    }
}

/* Every target the run measured, device by device, in the report's order. */
static void each_target(const bench_report *r, target_fn fn, void *arg)
{
    for (size_t d = 0; d < r->ndevices; d++) {
        const bench_device *dev = &r->devices[d];
        if (dev->skipped)
            continue;
        each_product(r, d, product_targets, fn, arg);
        each_product(r, d, odd_and_f64_targets, fn, arg);
        add_targets(r, d, fn, arg);
        math_targets(r, d, fn, arg);
        overhead_target(dev, d, fn, arg);
        first_call_targets(dev, d, fn, arg);
    }
}

static void print_one(const target *t, void *arg)
{
    void **a = arg;
    FILE *f = a[0];
    const bench_report *r = a[1];
    if (t->info)
        fprintf(f, "  %-5s dev %zu  %-44s %8.2f %9s %s\n", "INFO", r->devices[t->device].info.index, t->name, t->value,
                "", t->detail);
    else
        fprintf(f, "  %-5s dev %zu  %-44s %8.2f %s %-6.2f %s\n", pass(t) ? "PASS" : "MISS",
                r->devices[t->device].info.index, t->name, t->value, t->upper ? "<=" : ">=", t->limit, t->detail);
}

void bench_print_targets(FILE *f, const bench_report *r)
{
    void *arg[2] = {f, (void *)r};
    fprintf(f, "\ntargets (ratios are clrt's speed over the reference's, same run; INFO: reported, not judged)\n");
    each_target(r, print_one, arg);
}

static void json_one(const target *t, void *arg)
{
    void **a = arg;
    FILE *f = a[0];
    const bench_report *r = a[1];
    int *n = a[2];
    fprintf(f, "%s\n    {\"device\": %zu, \"target\": ", (*n)++ ? "," : "", r->devices[t->device].info.index);
    tool_json_str(f, t->name);
    /* reported only: no limit, pass null */
    if (t->info)
        fprintf(f, ", \"value\": %.4f, \"limit\": null, \"upper\": false, \"pass\": null, \"info\": true, \"detail\": ",
                t->value);
    else
        fprintf(f, ", \"value\": %.4f, \"limit\": %.4f, \"upper\": %s, \"pass\": %s, \"info\": false, \"detail\": ",
                t->value, t->limit, t->upper ? "true" : "false", pass(t) ? "true" : "false");
    tool_json_str(f, t->detail);
    fputc('}', f);
}

void bench_print_targets_json(FILE *f, const bench_report *r)
{
    int n = 0;
    void *arg[3] = {f, (void *)r, &n};
    fputc('[', f);
    each_target(r, json_one, arg);
    fputs(n ? "\n  ]" : "]", f);
}
