/* clrt-bench command line (see bench/cli/opts.h): the usage text, the option
 * table and what each option's value means. */
#include "cli/opts.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "measure/timing.h"

/* --help, a line an entry (each printed with its newline). */
static const char *const usage_text[] = {
    "usage: clrt-bench [options]",
    "",
    "Times clrt_matmul and clrt_add (and, with --op, the math family) on every",
    "OpenCL device (or the ones selected) against references measured in the same",
    "run, side by side: host OpenBLAS cblas_sgemm/dgemm, a host loop on 2 threads",
    "doing the same, CLBlast on the same device, queue and buffers, and for",
    "reductions and transposes clrt_copy of the same bytes (the device's copy",
    "bandwidth). Ratios are clrt's speed over the reference's.",
    "",
    "What to run",
    "  --device SEL      a device (repeatable): N, P:D, gpu, cpu, accelerator or a",
    "                    name, as in clrt-info. Default: every device except checking",
    "                    or emulating ones (Oclgrind, llvmpipe); 'all' takes those too.",
    "  --op LIST         matmul,add (the default), and the math family: mul (clrt_binary),",
    "                    bias (clrt_binary add of a 1 x cols row to every row), relu,",
    "                    sigmoid (clrt_unary), axpby (y = 2x + 0.5y in place), sum",
    "                    (clrt_reduce over all), rowsum, colsum (per row, per column),",
    "                    argmax (clrt_argmax_rows), transpose; 'math' is all of the",
    "                    math family, 'all' that and matmul,add. bias, rowsum, colsum,",
    "                    argmax and transpose run on a near-square rows x cols matrix",
    "                    of about each --add-sizes count (3162x3163 for 1e7), the",
    "                    others on 1 x count. Rates are GB/s of bytes read + written",
    "                    'products': float32 strided batched GEMM (64 x 128^3, 512 x 64^3)",
    "                    against a clrt_gemm per matrix and OpenBLAS's cblas_sgemm per",
    "                    matrix, and a linear layer's forward pass (64x800 -> 500) with",
    "                    bias and relu in clrt_gemm_ex's epilogue against clrt_gemm, the",
    "                    bias add and relu; side by side, checked against the host",
    "                    reference (rows of their own, beside the table's operations)",
    "                    'split' (alone): one float32 product, rows of A and C split",
    "                    across the --device list weighted by each device's measured",
    "                    speed, against each device alone (--sizes: first size, default",
    "                    1024; docs/events.md)",
    "  --dtype LIST      f32,f64 (default both; f64 only where the device has it)",
    "  --sizes LIST      matmul sizes: N (square) or MxNxK, each optionally :NN, :NT,",
    "                    :TN or :TT (op(A), op(B) transposed: clrt_gemm against cblas_?gemm",
    "                    with the same transposes); default",
    "                    256,512,1000,1024,1031,2048,4096,1000x1000x1,1024x1024x1",
    "  --trans LIST      NN,NT,TN,TT: run every matmul size once per transpose pair",
    "  --cnn             the products the article's CNN trains with at batch 64",
    "                    (im2col + GEMM: forward, weight and input gradients), in",
    "                    place of the default sizes (added to --sizes when given)",
    "  --gemm-extras     products also timed side by side with alpha = 1.5, beta = 0.5",
    "                    (the cost of scaling and accumulating) and on views of larger",
    "                    buffers (the cost of a row stride and offsets)",
    "  --add-sizes LIST  element counts of add and the math family, 1e6 notation",
    "                    allowed; default add 1e3,1e4,...,1e8, the math family 1e6,1e7",
    "  --quick           a short run: matmul 256,1000,1024,1000x1000x1,1024x1024x1,",
    "                    add 1e3,1e6,1e7,",
    "                    fewer repetitions, no cold-compile measurement",
    "",
    "How long",
    "  --reps N          at most N timed runs per case (default 31; --quick 5): what",
    "                    ends short cases; longer ones end once --min-time is spent",
    "  --min-reps N      at least N (default 3; --quick 2), unless one round of all",
    "                    implementations passes --max-time",
    "  --min-time S      keep repeating a case for S seconds (default 1; --quick 0.2)",
    "  --max-time S      stop a case once another round would pass S seconds (default 20)",
    "  --warmup N        untimed runs first (default 1)",
    "",
    "Extra measurements (all on by default)",
    "  --no-first        skip the first call on a fresh context (compile + first run)",
    "  --no-child        skip a new process's first matmul (re-runs clrt-bench as a",
    "                    child: the OpenCL loader, context, buffers, the kernel from the",
    "                    caches, the work, then the same steps again) and its reference,",
    "                    a raw OpenCL program's first one-line kernel (from source, and",
    "                    from a binary it stored itself)",
    "  --first-size N    the child's matmul size (default 1024)",
    "  --no-cold         skip running that child with every build cache off (CLRT_CACHE=0,",
    "                    POCL_KERNEL_CACHE=0: the full compile; done unless --quick)",
    "  --cold            instead of the benchmark: for each --op and --dtype, a new process's",
    "                    first result (context, buffers, kernel builds, the run; matmul",
    "                    1024, the others 1e6 elements) from empty caches (a new, empty",
    "                    CLRT_CACHE_DIR and POCL_CACHE_DIR), then the same again with what",
    "                    that left in them (warm); a table, or JSON with --json",
    "  --forced-cache    also run the child with clrt's own program binary cache forced on",
    "                    (CLRT_CACHE=1; by default clrt never stores on NVIDIA, whose",
    "                    driver caches builds itself, and on POCL only while warming):",
    "                    writes to clrt's cache folder",
    "  --no-overhead     skip the per-operation cost of a tiny add (pipelined) against",
    "                    a raw clEnqueueNDRangeKernel of the same kernel, and its round",
    "                    trip (one add waited for at once; with add or matmul)",
    "  --no-default      do not also time the default parameters where tuned ones apply",
    "  --no-peak         skip the host's FMA peak (0.1-0.3 s with matmul: on each of",
    "                    --threads threads, 12 independent chains of the widest vector",
    "                    FMA the CPU has, best of 4 runs), and so the matmul cases' share",
    "                    of it on a CPU device (% peak)",
    "",
    "References",
    "  --no-openblas, --no-clblast, --no-host   leave one out",
    "  --threads N       threads of the host loops and of the FMA peak probe (default 2)",
    "",
    "Output",
    "  (default)         a table on stdout, a progress line on stderr when it is a terminal",
    "  --json, --csv     machine-readable results on stdout instead",
    "  --plot FILE.png   GFLOP/s (matmul) and GB/s (add) against size, per device and",
    "                    reference, and GB/s of the math family per size (bars), drawn",
    "                    with gnuplot",
    "  --progress, --no-progress",
    "  --list            list the devices and exit",
    "  --openblas-core   print the newest OpenBLAS core this build has for this CPU",
    "                    ('-' off x86) and the core OpenBLAS runs here (its own choice,",
    "                    or OPENBLAS_CORETYPE's), and exit: how tools/train/compare.sh",
    "                    gives PyTorch's OpenBLAS its best core",
    "  Every write is checked: a report that cannot be written whole (a full disk",
    "  behind stdout, a --plot file, the tuned file) exits 2 with the reason.",
    "  --plot FILE is written beside FILE and renamed over it (an earlier FILE stays",
    "  until then); through a symbolic link its target is written and the link kept;",
    "  a character device or FIFO is written directly, never replaced; a folder is",
    "  refused before any work.",
    "",
    "Tuning",
    "  --tune            search the parameters of the kernels the selected ops run",
    "                    (matmul, elementwise; reduce and transpose with the math",
    "                    family) on each selected device",
    "                    (every candidate's result is checked against the host, then",
    "                    timed), and store the best in the tuned-parameter file that",
    "                    clrt loads by itself from then on; then benchmark as usual",
    "                    unless --tune-only",
    "  --tune-only       tune, report default vs tuned, and stop",
    "  --tune-size N     matmul size the candidates are timed at, with twice it, and",
    "                    N+7 in the final comparison (default 1024); matmul only:",
    "                    the others are tuned at the library's own sizes (1e7 elements)",
    "  --tune-passes N   rounds of the coordinate search (default 2; --quick 1)",
    "  --tune-file PATH  write there instead of the standard place",
    "  --tune-dry-run    search and report, write nothing",
    "",
    "Tuned parameters live in $CLRT_CACHE_DIR/tuned, else $XDG_CACHE_HOME/clrt/tuned,",
    "else ~/.cache/clrt/tuned, one file per device, driver version and clrt version.",
    "CLRT_TUNED_FILE=PATH makes clrt read that file instead; CLRT_TUNED=0 ignores them.",
    "clrt reads and writes a tuned file only when it and its folder belong to this user",
    "and no one else may write them (docs/tuning.md, \"Sharing a cache\").",
    "",
    "Notes",
    "  OpenBLAS picks a kernel for the CPU it finds; OPENBLAS_CORETYPE forces one.",
    "  A release that does not know the CPU falls back to an old core (0.3.21 runs",
    "  Prescott, SSE3, on recent Intel Xeons): when OpenBLAS chose a core older than",
    "  the newest this build has for the CPU's features and OPENBLAS_CORETYPE is",
    "  unset, clrt-bench starts itself again once with OPENBLAS_CORETYPE set to that",
    "  core, and says so (\"forced: it chose Prescott on this CPU\"). A user's",
    "  OPENBLAS_CORETYPE is respected; the output says when it is older than the",
    "  CPU's best (e.g. Haswell on a CPU with AVX-512: half its speed), where the",
    "  ratios to OpenBLAS flatter clrt.",
    "  Times are medians of repeated runs; only ratios measured in the same run mean",
    "  much on a shared machine.",
};

void bench_usage(FILE *f)
{
    for (size_t i = 0; i < sizeof usage_text / sizeof *usage_text; i++) {
        fputs(usage_text[i], f);
        fputc('\n', f);
    }
}

/* "1e7", "1000", "10000000" */
static int parse_count(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v >= 1) || v > 1e15 || v != floor(v))
        return -1;
    *out = (size_t)v;
    return 0;
}

/* "NN", "NT", "TN" or "TT": op(A) then op(B). */
static int parse_trans(const char *s, int *ta, int *tb)
{
    if (strlen(s) != 2 || !strchr("NT", s[0]) || !strchr("NT", s[1]))
        return -1;
    *ta = s[0] == 'T';
    *tb = s[1] == 'T';
    return 0;
}

/* "N", "MxNxK", either with ":NT" (the transposes) after it. */
static int parse_shape(const char *text, bench_shape *out)
{
    char s[64];
    if (strlen(text) >= sizeof s)
        return -1;
    strcpy(s, text);
    out->ta = out->tb = 0;
    char *colon = strchr(s, ':');
    if (colon) {
        *colon = '\0';
        if (parse_trans(colon + 1, &out->ta, &out->tb) != 0)
            return -1;
    }
    size_t v[3];
    int n = 0;
    const char *p = s;
    char buf[64];
    while (*p && n < 3) {
        size_t len = strcspn(p, "xX");
        if (len == 0 || len >= sizeof buf)
            return -1;
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (parse_count(buf, &v[n]) != 0)
            return -1;
        n++;
        p += len;
        if (*p)
            p++;
        else
            break;
    }
    if (*p || (n != 1 && n != 3))
        return -1;
    if (n == 1)
        v[1] = v[2] = v[0];
    out->m = v[0];
    out->n = v[1];
    out->k = v[2];
    return 0;
}

/* Split a comma list; calls item() on each piece. */
static int each_item(const char *list, int (*item)(const char *, void *), void *arg)
{
    char buf[128];
    const char *p = list;
    if (!*p)
        return -1;
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof buf)
            return -1;
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (item(buf, arg) != 0)
            return -1;
        p += len;
        if (!*p)
            return 0;
        p++;
    }
}

static int add_shape(const char *s, void *arg)
{
    bench_opts *o = arg;
    if (o->nmatmul >= BENCH_MAX_SIZES)
        return -1;
    return parse_shape(s, &o->matmul[o->nmatmul++]);
}

/* --trans: every product size so far once per listed transpose pair. */
static int add_trans(const char *s, void *arg)
{
    int *mask = arg, ta, tb;
    if (parse_trans(s, &ta, &tb) != 0)
        return -1;
    *mask |= 1 << (ta | tb << 1);
    return 0;
}

static int add_count(const char *s, void *arg)
{
    bench_opts *o = arg;
    if (o->nadd >= BENCH_MAX_SIZES)
        return -1;
    return parse_count(s, &o->add[o->nadd++]);
}

static int add_op(const char *s, void *arg)
{
    bench_opts *o = arg;
    const int all = strcmp(s, "all") == 0, math = strcmp(s, "math") == 0;
    if (strcmp(s, "split") == 0) { /* a mode of its own, not an operation of the table */
        o->split = 1;
        return 0;
    }
    if (strcmp(s, "products") == 0) { /* rows of their own (bench/measure/products.c) */
        o->products = 1;
        return 0;
    }
    if (all || math) {
        for (int op = 0; op < BENCH_OPS; op++)
            if (all || bench_op_is_math(op))
                o->run[op] = 1;
        return 0;
    }
    int op = bench_op_by_name(s);
    if (op < 0)
        return -1;
    o->run[op] = 1;
    return 0;
}

static int add_dtype(const char *s, void *arg)
{
    bench_opts *o = arg;
    if (strcmp(s, "f32") == 0 || strcmp(s, "float32") == 0 || strcmp(s, "float") == 0)
        o->run_f32 = 1;
    else if (strcmp(s, "f64") == 0 || strcmp(s, "float64") == 0 || strcmp(s, "double") == 0)
        o->run_f64 = 1;
    else
        return -1;
    return 0;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_seconds(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v >= 0) || v > 1e6)
        return -1;
    *out = v;
    return 0;
}

static int bad(const char *opt, const char *value)
{
    fprintf(stderr, "clrt-bench: bad value for %s: '%s' (see clrt-bench --help)\n", opt,
            value ? value : "(missing)");
    return 2;
}

/* What parsing keeps besides the options themselves: which lists were
 * given (a given list replaces the default, a second one adds to it) and the
 * settings whose defaults depend on --quick, which may come after them
 * (-1: not given). */
typedef struct parse_state {
    bench_opts o;
    int sizes_given, add_given, ops_given, dtypes_given, trans_mask, cnn;
    int reps, min_reps, warmup, cold, tune_passes;
    double min_time, max_time;
} parse_state;

/* Each option that takes values parses them here: 0, -1 for a bad value,
 * 1 for "done" (--help). v: its values, as many as the table says. */
typedef int (*take_fn)(parse_state *p, char **v);

static int take_help(parse_state *p, char **v)
{
    (void)p, (void)v;
    bench_usage(stdout);
    return 1;
}

static int take_device(parse_state *p, char **v)
{
    if (p->o.ndevices >= BENCH_MAX_DEVICES)
        return -1;
    p->o.devices[p->o.ndevices++] = v[0];
    return 0;
}

static int take_op(parse_state *p, char **v)
{
    p->ops_given = 1;
    return each_item(v[0], add_op, &p->o);
}

static int take_dtype(parse_state *p, char **v)
{
    if (!p->dtypes_given)
        p->o.run_f32 = p->o.run_f64 = 0;
    p->dtypes_given = 1;
    return each_item(v[0], add_dtype, &p->o);
}

static int take_sizes(parse_state *p, char **v)
{
    if (!p->sizes_given)
        p->o.nmatmul = 0;
    p->sizes_given = 1;
    return each_item(v[0], add_shape, &p->o);
}

static int take_trans(parse_state *p, char **v) { return each_item(v[0], add_trans, &p->trans_mask); }

static int take_add_sizes(parse_state *p, char **v)
{
    if (!p->add_given)
        p->o.nadd = 0;
    p->add_given = 1;
    return each_item(v[0], add_count, &p->o);
}

static int take_reps(parse_state *p, char **v) { return parse_int(v[0], 1, BENCH_MAX_ROUNDS, &p->reps); }
static int take_min_reps(parse_state *p, char **v) { return parse_int(v[0], 1, BENCH_MAX_ROUNDS, &p->min_reps); }
static int take_warmup(parse_state *p, char **v) { return parse_int(v[0], 0, 100, &p->warmup); }
static int take_min_time(parse_state *p, char **v) { return parse_seconds(v[0], &p->min_time); }
static int take_max_time(parse_state *p, char **v) { return parse_seconds(v[0], &p->max_time); }
static int take_first_size(parse_state *p, char **v) { return parse_count(v[0], &p->o.first_size); }
static int take_threads(parse_state *p, char **v) { return parse_int(v[0], 1, 64, &p->o.host_threads); }
static int take_tune_size(parse_state *p, char **v) { return parse_count(v[0], &p->o.tune_size); }
static int take_tune_passes(parse_state *p, char **v) { return parse_int(v[0], 1, 10, &p->tune_passes); }

static int take_plot(parse_state *p, char **v)
{
    p->o.plot = v[0];
    return 0;
}

static int take_tune_file(parse_state *p, char **v)
{
    p->o.tune_file = v[0];
    return 0;
}

static int take_json(parse_state *p, char **v)
{
    (void)v;
    p->o.format = BENCH_JSON;
    return 0;
}

static int take_csv(parse_state *p, char **v)
{
    (void)v;
    p->o.format = BENCH_CSV;
    return 0;
}

/* internal: --child-first-call DEVICE f32|f64 N */
static int take_child_first_call(parse_state *p, char **v)
{
    p->o.child_mode = 1;
    p->o.child_device = v[0];
    p->o.child_dbl = strcmp(v[1], "f64") == 0;
    return parse_count(v[2], &p->o.child_n);
}

/* internal: --child-cold OP f32|f64 N DEVICE */
static int take_child_cold(parse_state *p, char **v)
{
    p->o.child_mode = 3;
    p->o.child_op = bench_op_by_name(v[0]);
    p->o.child_dbl = strcmp(v[1], "f64") == 0;
    p->o.child_device = v[3];
    return p->o.child_op < 0 ? -1 : parse_count(v[2], &p->o.child_n);
}

/* internal: --child-raw-first P:D BINARY-FILE|- */
static int take_child_raw_first(parse_state *p, char **v)
{
    p->o.child_mode = 2;
    p->o.child_device = v[0];
    p->o.child_raw_binary = strcmp(v[1], "-") == 0 ? NULL : v[1];
    return 0;
}

/* An option: either a switch that stores `value` in the int at `field` of
 * parse_state, or one that takes `nvalues` values (take). */
typedef struct option {
    const char *name, *alias;
    int nvalues;
    take_fn take;
    size_t field;
    int value;
} option;

#define SWITCH(name, member, value) {name, NULL, 0, NULL, offsetof(parse_state, member), value}
#define VALUES(name, alias, n, take) {name, alias, n, take, 0, 0}

static const option options[] = {
    VALUES("--help", "-h", 0, take_help),
    /* what to run */
    VALUES("--device", "-d", 1, take_device),
    VALUES("--op", NULL, 1, take_op), VALUES("--dtype", NULL, 1, take_dtype),
    VALUES("--sizes", NULL, 1, take_sizes), VALUES("--trans", NULL, 1, take_trans),
    SWITCH("--cnn", cnn, 1), SWITCH("--gemm-extras", o.gemm_extras, 1),
    VALUES("--add-sizes", NULL, 1, take_add_sizes), SWITCH("--quick", o.quick, 1),
    /* how long */
    VALUES("--reps", NULL, 1, take_reps), VALUES("--min-reps", NULL, 1, take_min_reps),
    VALUES("--min-time", NULL, 1, take_min_time), VALUES("--max-time", NULL, 1, take_max_time),
    VALUES("--warmup", NULL, 1, take_warmup),
    /* extra measurements */
    SWITCH("--no-first", o.first, 0), SWITCH("--no-child", o.child, 0),
    VALUES("--first-size", NULL, 1, take_first_size),
    SWITCH("--cold", o.cold_start, 1), SWITCH("--no-cold", cold, 0), SWITCH("--forced-cache", o.forced_cache, 1),
    SWITCH("--no-overhead", o.overhead, 0), SWITCH("--no-default", o.compare_default, 0),
    SWITCH("--no-peak", o.peak, 0),
    /* references */
    SWITCH("--no-openblas", o.openblas, 0), SWITCH("--no-clblast", o.clblast, 0), SWITCH("--no-host", o.host, 0),
    VALUES("--threads", NULL, 1, take_threads),
    /* output */
    VALUES("--json", NULL, 0, take_json), VALUES("--csv", NULL, 0, take_csv), VALUES("--plot", NULL, 1, take_plot),
    SWITCH("--progress", o.progress, 1), SWITCH("--no-progress", o.progress, 0), SWITCH("--list", o.list, 1),
    SWITCH("--openblas-core", o.openblas_query, 1),
    /* tuning */
    SWITCH("--tune", o.tune, 1), SWITCH("--tune-only", o.tune, 2),
    VALUES("--tune-size", NULL, 1, take_tune_size), VALUES("--tune-passes", NULL, 1, take_tune_passes),
    VALUES("--tune-file", NULL, 1, take_tune_file), SWITCH("--tune-dry-run", o.tune_dry_run, 1),
    /* internal: the child processes of the first-call measurements */
    VALUES("--child-first-call", NULL, 3, take_child_first_call),
    VALUES("--child-raw-first", NULL, 2, take_child_raw_first),
    VALUES("--child-cold", NULL, 4, take_child_cold),
};

static const option *find_option(const char *arg)
{
    for (size_t i = 0; i < sizeof options / sizeof *options; i++)
        if (strcmp(arg, options[i].name) == 0 || (options[i].alias && strcmp(arg, options[i].alias) == 0))
            return &options[i];
    return NULL;
}

/* The defaults that hold whatever --quick says. */
static void start_state(parse_state *p)
{
    memset(p, 0, sizeof *p);
    p->reps = p->min_reps = p->warmup = p->cold = p->tune_passes = -1;
    p->min_time = p->max_time = -1;
    bench_opts *o = &p->o;
    o->first = o->child = o->overhead = o->peak = 1;
    o->openblas = o->clblast = o->host = 1;
    o->compare_default = 1;
    o->host_threads = 2;
    o->first_size = 1024;
    o->progress = -1;
    o->format = BENCH_TABLE;
    o->tune_size = 1024;
    o->overhead_n = 1000;
}

/* The products, the add and math counts that no option gave. */
static void default_lists(parse_state *p)
{
    static const bench_shape default_mm[] = {{256, 256, 256, 0, 0},    {512, 512, 512, 0, 0},    {1000, 1000, 1000, 0, 0},
                                             {1024, 1024, 1024, 0, 0}, {1031, 1031, 1031, 0, 0}, {2048, 2048, 2048, 0, 0},
                                             {4096, 4096, 4096, 0, 0}, {1000, 1000, 1, 0, 0},       {1024, 1024, 1, 0, 0}};
    static const bench_shape quick_mm[] = {
        {256, 256, 256, 0, 0}, {1000, 1000, 1000, 0, 0}, {1024, 1024, 1024, 0, 0}, {1000, 1000, 1, 0, 0}, {1024, 1024, 1, 0, 0}};
    static const size_t default_add[] = {1000, 10000, 100000, 1000000, 10000000, 100000000};
    static const size_t quick_add[] = {1000, 1000000, 10000000};
    static const size_t default_math[] = {1000000, 10000000};
    bench_opts *o = &p->o;
    if (!p->ops_given) /* the math family only when asked: the default run and CI take no longer */
        o->run[BENCH_ADD] = o->run[BENCH_MATMUL] = 1;
    if (!p->dtypes_given)
        o->run_f32 = o->run_f64 = 1;
    o->sizes_given = p->sizes_given;
    if (!p->sizes_given) {
        const bench_shape *src = o->quick ? quick_mm : default_mm;
        o->nmatmul = o->quick ? sizeof quick_mm / sizeof *quick_mm : sizeof default_mm / sizeof *default_mm;
        memcpy(o->matmul, src, o->nmatmul * sizeof *src);
    }
    if (!p->add_given) {
        const size_t *src = o->quick ? quick_add : default_add;
        o->nadd = o->quick ? sizeof quick_add / sizeof *quick_add : sizeof default_add / sizeof *default_add;
        memcpy(o->add, src, o->nadd * sizeof *src);
        o->nmath = sizeof default_math / sizeof *default_math;
        memcpy(o->math, default_math, sizeof default_math);
    } else {
        o->nmath = o->nadd;
        memcpy(o->math, o->add, o->nadd * sizeof *o->add);
    }
}

/* --trans: each product size so far once per transpose pair asked for. */
static int expand_trans(bench_opts *o, int trans_mask)
{
    bench_shape base[BENCH_MAX_SIZES];
    size_t nbase = o->nmatmul;
    memcpy(base, o->matmul, nbase * sizeof *base);
    o->nmatmul = 0;
    for (size_t i = 0; i < nbase; i++)
        for (int t = 0; t < 4; t++)
            if (trans_mask & (1 << t)) {
                if (o->nmatmul >= BENCH_MAX_SIZES)
                    return bad("--trans", "(too many products)");
                o->matmul[o->nmatmul] = base[i];
                o->matmul[o->nmatmul].ta = t & 1;
                o->matmul[o->nmatmul++].tb = t >> 1;
            }
    return 0;
}

/* --cnn: the article's CNN at batch 64, as im2col + GEMM: forward, weight
 * and input gradients; in place of the default sizes, after given ones. */
static int add_cnn(bench_opts *o, int sizes_given)
{
    static const bench_shape cnn_mm[] = {
        {20, 36864, 25, 0, 0}, {50, 4096, 500, 0, 0}, {64, 500, 800, 0, 1}, {500, 800, 64, 1, 0},
        {20, 25, 36864, 0, 1}, {50, 500, 4096, 0, 1}, {500, 4096, 50, 1, 0}, {64, 10, 500, 0, 0},
        {10, 500, 64, 0, 0}};
    if (!sizes_given)
        o->nmatmul = 0;
    for (size_t i = 0; i < sizeof cnn_mm / sizeof *cnn_mm; i++) {
        if (o->nmatmul >= BENCH_MAX_SIZES)
            return bad("--cnn", "(too many products)");
        o->matmul[o->nmatmul++] = cnn_mm[i];
    }
    return 0;
}

/* How long each case runs, and the rest whose default depends on --quick. */
static void default_budget(const parse_state *p, bench_opts *o)
{
    o->max_reps = p->reps > 0 ? p->reps : (o->quick ? 5 : 31);
    o->min_reps = p->min_reps > 0 ? p->min_reps : (o->quick ? 2 : 3);
    if (o->min_reps > o->max_reps)
        o->min_reps = o->max_reps;
    o->warmup = p->warmup >= 0 ? p->warmup : 1;
    o->min_time = p->min_time >= 0 ? p->min_time : (o->quick ? 0.2 : 1.0);
    o->max_time = p->max_time >= 0 ? p->max_time : 20.0;
    o->cold = p->cold >= 0 ? p->cold : !o->quick;
    o->tune_passes = p->tune_passes > 0 ? p->tune_passes : (o->quick ? 1 : 2);
    o->overhead_ops = o->quick ? 200 : 500;
}

/* Every argument in turn; 0, 1 (help printed) or 2 (message printed). */
static int parse_args(parse_state *p, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const option *opt = find_option(argv[i]);
        if (!opt) {
            fprintf(stderr, "clrt-bench: unknown option '%s' (see clrt-bench --help)\n", argv[i]);
            return 2;
        }
        if (i + opt->nvalues >= argc)
            return bad(argv[i], NULL);
        if (!opt->take) {
            *(int *)((char *)p + opt->field) = opt->value;
            continue;
        }
        const int rc = opt->take(p, argv + i + 1);
        if (rc > 0)
            return 1;
        if (rc < 0) /* the value at fault: the last one (--child-first-call's N) */
            return bad(argv[i], argv[i + opt->nvalues]);
        i += opt->nvalues;
    }
    return 0;
}

int bench_opts_parse(bench_opts *o, int argc, char **argv)
{
    parse_state p;
    start_state(&p);
    int rc = parse_args(&p, argc, argv);
    if (rc == 0)
        default_lists(&p);
    if (rc == 0 && p.trans_mask)
        rc = expand_trans(&p.o, p.trans_mask);
    if (rc == 0 && p.cnn)
        rc = add_cnn(&p.o, p.sizes_given);
    if (rc == 0)
        default_budget(&p, &p.o);
    *o = p.o;
    return rc;
}
