/* clrt-bench command line (see bench/cli/opts.h): the usage text, the option
 * table and what each option's value means. */
#include "cli/opts.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/tool_args.h"
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
    "                    bias add and relu, and on 16-bit storage a 1e7 add (float16,",
    "                    bfloat16) and a 2048^3 float16 GEMM against float32; side by",
    "                    side, checked against the host reference (rows of their own,",
    "                    beside the table's operations)",
    "                    'split' (alone): one float32 product, rows of A and C split",
    "                    across the --device list weighted by each device's measured",
    "                    speed, against each device alone (--sizes: first size, default",
    "                    1024; docs/events.md)",
    "  --dtype LIST      f32,f64 (default both; f64 only where the device has it)",
    "  --sizes LIST      matmul sizes: N (square) or MxNxK, each optionally :NN, :NT,",
    "                    :TN or :TT (op(A), op(B) transposed: clrt_gemm against cblas_?gemm",
    "                    with the same transposes); default",
    "                    256,512,1000,1024,1031,2048,4096,1000x1000x1,1024x1024x1. A size",
    "                    whose arrays cannot fit in this machine's memory (here, or in",
    "                    --add-sizes, --first-size, --tune-size) is refused before any",
    "                    work, saying what it needs (exit 2)",
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

/* ---- the values of the lists: a reason in why for a refused one */

/* The largest element count or dimension anything says (the memory check
 * after parsing is what bounds a run). */
#define COUNT_MAX ((unsigned long long)SIZE_MAX)

/* "1e7", "1000", "10000000" */
static int parse_count(const char *s, size_t *out, char *why, size_t cap)
{
    unsigned long long v;
    char reason[96];
    if (tool_parse_count(s, 1, COUNT_MAX, &v, reason, sizeof reason) != 0) {
        snprintf(why, cap, "'%s': %s", s, reason);
        return -1;
    }
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

static const char shape_form[] = "a size is N or MxNxK, optionally with :NN, :NT, :TN or :TT after it";

/* "N", "MxNxK", either with ":NT" (the transposes) after it. Every 'x'
 * stands between two numbers: "5x" and "5x5x5x" are refused. */
static int parse_shape(const char *text, bench_shape *out, char *why, size_t cap)
{
    char s[64];
    if (strlen(text) >= sizeof s) {
        snprintf(why, cap, "'%.20s...': too long; %s", text, shape_form);
        return -1;
    }
    strcpy(s, text);
    out->ta = out->tb = 0;
    char *colon = strchr(s, ':');
    if (colon) {
        *colon = '\0';
        if (parse_trans(colon + 1, &out->ta, &out->tb) != 0) {
            snprintf(why, cap, "'%s': %s", text, shape_form);
            return -1;
        }
    }
    size_t v[3];
    int n = 0;
    for (char *p = s;; p++) {
        const size_t len = strcspn(p, "xX");
        if (len == 0 || n == 3) { /* "x5", "5xx5", "5x" and a fourth part */
            snprintf(why, cap, "'%s': %s", text, shape_form);
            return -1;
        }
        const char end = p[len];
        p[len] = '\0';
        if (parse_count(p, &v[n++], why, cap) != 0)
            return -1;
        p += len;
        if (!end)
            break;
    }
    if (n == 2) {
        snprintf(why, cap, "'%s': %s", text, shape_form);
        return -1;
    }
    if (n == 1)
        v[1] = v[2] = v[0];
    out->m = v[0];
    out->n = v[1];
    out->k = v[2];
    return 0;
}

typedef int (*item_fn)(const char *item, void *arg, char *why, size_t cap);

/* Split a comma list and call item() on each piece: 0, or -1 with why. */
static int each_item(const char *list, item_fn item, void *arg, char *why, size_t cap)
{
    char buf[128];
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof buf) {
            snprintf(why, cap, len ? "an item longer than %zu characters" : "an empty item in the list",
                     sizeof buf - 1);
            return -1;
        }
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (item(buf, arg, why, cap) != 0)
            return -1;
        p += len;
        if (!*p)
            return 0;
        p++;
    }
}

static int add_shape(const char *s, void *arg, char *why, size_t cap)
{
    bench_opts *o = arg;
    if (o->nmatmul >= BENCH_MAX_SIZES) {
        snprintf(why, cap, "more than %d products", BENCH_MAX_SIZES);
        return -1;
    }
    if (parse_shape(s, &o->matmul[o->nmatmul], why, cap) != 0)
        return -1;
    o->nmatmul++;
    return 0;
}

/* --trans: every product size so far once per listed transpose pair. */
static int add_trans(const char *s, void *arg, char *why, size_t cap)
{
    int *mask = arg, ta, tb;
    if (parse_trans(s, &ta, &tb) != 0) {
        snprintf(why, cap, "'%s': not NN, NT, TN or TT", s);
        return -1;
    }
    *mask |= 1 << (ta | tb << 1);
    return 0;
}

static int add_count(const char *s, void *arg, char *why, size_t cap)
{
    bench_opts *o = arg;
    if (o->nadd >= BENCH_MAX_SIZES) {
        snprintf(why, cap, "more than %d counts", BENCH_MAX_SIZES);
        return -1;
    }
    if (parse_count(s, &o->add[o->nadd], why, cap) != 0)
        return -1;
    o->nadd++;
    return 0;
}

static int add_op(const char *s, void *arg, char *why, size_t cap)
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
    if (op < 0) {
        snprintf(why, cap, "'%s': no such operation", s);
        return -1;
    }
    o->run[op] = 1;
    return 0;
}

static int add_dtype(const char *s, void *arg, char *why, size_t cap)
{
    bench_opts *o = arg;
    if (strcmp(s, "f32") == 0 || strcmp(s, "float32") == 0 || strcmp(s, "float") == 0)
        o->run_f32 = 1;
    else if (strcmp(s, "f64") == 0 || strcmp(s, "float64") == 0 || strcmp(s, "double") == 0)
        o->run_f64 = 1;
    else {
        snprintf(why, cap, "'%s': not f32 or f64", s);
        return -1;
    }
    return 0;
}

/* ---- the options */

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

/* A comma list of the option being read: TOOL_ARGS_RUN, or TOOL_ARGS_BAD
 * after a message naming the option, the list and the item at fault. */
static int take_list(tool_args *a, const char *list, item_fn item, void *arg)
{
    char why[200];
    return each_item(list, item, arg, why, sizeof why) == 0 ? TOOL_ARGS_RUN : tool_args_bad(a, list, why);
}

static int take_help(tool_args *a, char **v)
{
    (void)a, (void)v;
    bench_usage(stdout);
    return TOOL_ARGS_DONE;
}

static int take_device(tool_args *a, char **v)
{
    parse_state *p = a->state;
    if (p->o.ndevices >= BENCH_MAX_DEVICES) {
        char why[64];
        snprintf(why, sizeof why, "more than %d devices", BENCH_MAX_DEVICES);
        return tool_args_bad(a, v[0], why);
    }
    p->o.devices[p->o.ndevices++] = v[0];
    return 0;
}

static int take_op(tool_args *a, char **v)
{
    parse_state *p = a->state;
    p->ops_given = 1;
    return take_list(a, v[0], add_op, &p->o);
}

static int take_dtype(tool_args *a, char **v)
{
    parse_state *p = a->state;
    if (!p->dtypes_given)
        p->o.run_f32 = p->o.run_f64 = 0;
    p->dtypes_given = 1;
    return take_list(a, v[0], add_dtype, &p->o);
}

static int take_sizes(tool_args *a, char **v)
{
    parse_state *p = a->state;
    if (!p->sizes_given)
        p->o.nmatmul = 0;
    p->sizes_given = 1;
    return take_list(a, v[0], add_shape, &p->o);
}

static int take_trans(tool_args *a, char **v)
{
    parse_state *p = a->state;
    return take_list(a, v[0], add_trans, &p->trans_mask);
}

static int take_add_sizes(tool_args *a, char **v)
{
    parse_state *p = a->state;
    if (!p->add_given)
        p->o.nadd = 0;
    p->add_given = 1;
    return take_list(a, v[0], add_count, &p->o);
}

static int take_seconds(tool_args *a, const char *s, double *out) { return tool_args_real(a, s, 0, 1e6, out); }

static int take_reps(tool_args *a, char **v)
{
    return tool_args_int(a, v[0], 1, BENCH_MAX_ROUNDS, &((parse_state *)a->state)->reps);
}
static int take_min_reps(tool_args *a, char **v)
{
    return tool_args_int(a, v[0], 1, BENCH_MAX_ROUNDS, &((parse_state *)a->state)->min_reps);
}
static int take_warmup(tool_args *a, char **v)
{
    return tool_args_int(a, v[0], 0, 100, &((parse_state *)a->state)->warmup);
}
static int take_min_time(tool_args *a, char **v) { return take_seconds(a, v[0], &((parse_state *)a->state)->min_time); }
static int take_max_time(tool_args *a, char **v) { return take_seconds(a, v[0], &((parse_state *)a->state)->max_time); }
static int take_first_size(tool_args *a, char **v)
{
    return tool_args_size(a, v[0], 1, SIZE_MAX, &((parse_state *)a->state)->o.first_size);
}
static int take_threads(tool_args *a, char **v)
{
    return tool_args_int(a, v[0], 1, 64, &((parse_state *)a->state)->o.host_threads);
}
static int take_tune_size(tool_args *a, char **v)
{
    return tool_args_size(a, v[0], 1, SIZE_MAX, &((parse_state *)a->state)->o.tune_size);
}
static int take_tune_passes(tool_args *a, char **v)
{
    return tool_args_int(a, v[0], 1, 10, &((parse_state *)a->state)->tune_passes);
}

static int take_plot(tool_args *a, char **v)
{
    ((parse_state *)a->state)->o.plot = v[0];
    return 0;
}

static int take_tune_file(tool_args *a, char **v)
{
    ((parse_state *)a->state)->o.tune_file = v[0];
    return 0;
}

static int take_json(tool_args *a, char **v)
{
    (void)v;
    ((parse_state *)a->state)->o.format = BENCH_JSON;
    return 0;
}

static int take_csv(tool_args *a, char **v)
{
    (void)v;
    ((parse_state *)a->state)->o.format = BENCH_CSV;
    return 0;
}

/* internal: the dtype word a parent gives its child */
static int take_child_dtype(tool_args *a, const char *s, int *dbl)
{
    if (strcmp(s, "f32") != 0 && strcmp(s, "f64") != 0)
        return tool_args_bad(a, s, "not f32 or f64");
    *dbl = strcmp(s, "f64") == 0;
    return 0;
}

/* internal: --child-first-call DEVICE f32|f64 N */
static int take_child_first_call(tool_args *a, char **v)
{
    parse_state *p = a->state;
    p->o.child_mode = 1;
    p->o.child_device = v[0];
    const int rc = take_child_dtype(a, v[1], &p->o.child_dbl);
    return rc ? rc : tool_args_size(a, v[2], 1, SIZE_MAX, &p->o.child_n);
}

/* internal: --child-cold OP f32|f64 N DEVICE */
static int take_child_cold(tool_args *a, char **v)
{
    parse_state *p = a->state;
    p->o.child_mode = 3;
    p->o.child_op = bench_op_by_name(v[0]);
    p->o.child_device = v[3];
    if (p->o.child_op < 0)
        return tool_args_bad(a, v[0], "no such operation");
    const int rc = take_child_dtype(a, v[1], &p->o.child_dbl);
    return rc ? rc : tool_args_size(a, v[2], 1, SIZE_MAX, &p->o.child_n);
}

/* internal: --child-raw-first P:D BINARY-FILE|- */
static int take_child_raw_first(tool_args *a, char **v)
{
    parse_state *p = a->state;
    p->o.child_mode = 2;
    p->o.child_device = v[0];
    p->o.child_raw_binary = strcmp(v[1], "-") == 0 ? NULL : v[1];
    return 0;
}

#define SWITCH(name, member, value) TOOL_SWITCH(name, parse_state, member, value)
#define VALUES TOOL_VALUES

static const tool_option options[] = {
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

/* A refusal found after parsing (a combination, a size): option's value
 * (NULL: none) and why, in tool_args' one form; TOOL_ARGS_BAD. */
static int refuse(const char *option, const char *value, const char *why)
{
    const tool_args a = {.tool = "clrt-bench", .option = option};
    return tool_args_bad(&a, value, why);
}

/* option's lists added up to more products than a run holds. */
static int too_many_products(const char *option, const char *how)
{
    char why[64];
    snprintf(why, sizeof why, "more than %d products %s", BENCH_MAX_SIZES, how);
    return refuse(option, NULL, why);
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
                    return too_many_products("--trans", "in all");
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
            return too_many_products("--cnn", "with --sizes");
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

/* ---- what the sizes need: refused before anything runs when the host
 * cannot hold a case's arrays (every count times every size, in double, so
 * that nothing wraps: what passes fits a size_t many times over) */

/* "62.5 GiB" */
static void bytes_text(double b, char *buf, size_t cap)
{
    static const char *const unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (b >= 1024 && u < 6) {
        b /= 1024;
        u++;
    }
    if (b >= 1e6) /* past exbibytes */
        snprintf(buf, cap, "%.3g %s", b, unit[u]);
    else
        snprintf(buf, cap, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
}

/* 0 when need bytes fit in host bytes; else the message naming what
 * asked for them, and TOOL_ARGS_BAD. */
static int fits(const char *option, const char *what, double need, unsigned long long host, int dbl)
{
    if (need <= (double)host)
        return 0;
    char n[32], h[32], why[160];
    bytes_text(need, n, sizeof n);
    bytes_text((double)host, h, sizeof h);
    snprintf(why, sizeof why, "its arrays need %s of memory in %s, more than this machine's %s: no such buffers can "
             "exist here", n, dbl ? "float64" : "float32", h);
    return refuse(option, what, why);
}

/* A product's host arrays: A, B, C and the read-back copy of C. */
static double product_bytes(double m, double n, double k, double es) { return (m * k + k * n + 2 * m * n) * es; }

int bench_opts_check_memory(const bench_opts *o, unsigned long long host_bytes)
{
    const int dbl = o->run_f64;
    const double es = dbl ? 8 : 4;
    char what[96];
    for (size_t i = 0; i < o->nmatmul; i++) {
        const bench_shape *s = &o->matmul[i];
        snprintf(what, sizeof what, "%zux%zux%zu", s->m, s->n, s->k);
        if (fits("--sizes", what, product_bytes((double)s->m, (double)s->n, (double)s->k, es), host_bytes, dbl))
            return TOOL_ARGS_BAD;
    }
    for (size_t i = 0; i < o->nadd; i++) { /* a, b, the host's c and the read-back */
        snprintf(what, sizeof what, "%zu", o->add[i]);
        if (fits("--add-sizes", what, 4 * (double)o->add[i] * es, host_bytes, dbl))
            return TOOL_ARGS_BAD;
    }
    const double first = (double)o->first_size, tune = 2 * (double)o->tune_size; /* the tuner times N and 2N */
    snprintf(what, sizeof what, "%zu", o->first_size);
    if (o->run[BENCH_MATMUL] && o->child &&
        fits("--first-size", what, product_bytes(first, first, first, es), host_bytes, dbl))
        return TOOL_ARGS_BAD;
    snprintf(what, sizeof what, "%zu", o->tune_size);
    if (o->tune && fits("--tune-size", what, product_bytes(tune, tune, tune, es), host_bytes, dbl))
        return TOOL_ARGS_BAD;
    return 0;
}

unsigned long long bench_host_memory(void)
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0)
        return 1ull << 40; /* unknown: 1 TiB, still far below any wrap */
    return (unsigned long long)pages * (unsigned long long)page;
}

int bench_opts_parse(bench_opts *o, int argc, char **argv)
{
    parse_state p;
    start_state(&p);
    tool_args a = {.tool = "clrt-bench", .state = &p};
    int rc = tool_args_parse(&a, options, sizeof options / sizeof *options, argc, argv);
    if (rc == 0)
        default_lists(&p);
    if (rc == 0 && p.trans_mask)
        rc = expand_trans(&p.o, p.trans_mask);
    if (rc == 0 && p.cnn)
        rc = add_cnn(&p.o, p.sizes_given);
    if (rc == 0)
        default_budget(&p, &p.o);
    /* every list against the host's memory, in a child too (which never runs them:
     * an accepted command line promises sizes that fit, whoever reads it); a
     * child's own size is checked where it allocates (bench/measure/first.c) */
    if (rc == 0)
        rc = bench_opts_check_memory(&p.o, bench_host_memory());
    *o = p.o;
    return rc;
}
