/* clrt-bench command line (see bench/opts.h). */
#include "opts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

void bench_usage(FILE *f)
{
    fputs(
        "usage: clrt-bench [options]\n"
        "\n"
        "Times clrt_matmul and clrt_add (and, with --op, the math family) on every\n"
        "OpenCL device (or the ones selected) against references measured in the same\n"
        "run, side by side: host OpenBLAS cblas_sgemm/dgemm, a host loop on 2 threads\n"
        "doing the same, CLBlast on the same device, queue and buffers, and for\n"
        "reductions and transposes clrt_copy of the same bytes (the device's copy\n"
        "bandwidth). Ratios are clrt's speed over the reference's.\n"
        "\n"
        "What to run\n"
        "  --device SEL      a device (repeatable): N, P:D, gpu, cpu, accelerator or a\n"
        "                    name, as in clrt-info. Default: every device except checking\n"
        "                    or emulating ones (Oclgrind, llvmpipe); 'all' takes those too.\n"
        "  --op LIST         matmul,add (the default), and the math family: mul (clrt_binary),\n"
        "                    bias (clrt_binary add of a 1 x cols row to every row), relu,\n"
        "                    sigmoid (clrt_unary), axpby (y = 2x + 0.5y in place), sum\n"
        "                    (clrt_reduce over all), rowsum, colsum (per row, per column),\n"
        "                    argmax (clrt_argmax_rows), transpose; 'math' is all of the\n"
        "                    math family, 'all' that and matmul,add. bias, rowsum, colsum,\n"
        "                    argmax and transpose run on a near-square rows x cols matrix\n"
        "                    of about each --add-sizes count (3162x3163 for 1e7), the\n"
        "                    others on 1 x count. Rates are GB/s of bytes read + written\n"
        "                    'split' (alone): one float32 product, rows of A and C split\n"
        "                    across the --device list weighted by each device's measured\n"
        "                    speed, against each device alone (--sizes: first size, default\n"
        "                    1024; docs/events.md)\n"
        "  --dtype LIST      f32,f64 (default both; f64 only where the device has it)\n"
        "  --sizes LIST      matmul sizes: N (square) or MxNxK, each optionally :NN, :NT,\n"
        "                    :TN or :TT (op(A), op(B) transposed: clrt_gemm against cblas_?gemm\n"
        "                    with the same transposes); default\n"
        "                    256,512,1000,1024,1031,2048,4096,1000x1000x1,1024x1024x1\n"
        "  --trans LIST      NN,NT,TN,TT: run every matmul size once per transpose pair\n"
        "  --cnn             the products the article's CNN trains with at batch 64\n"
        "                    (im2col + GEMM: forward, weight and input gradients), in\n"
        "                    place of the default sizes (added to --sizes when given)\n"
        "  --gemm-extras     products also timed side by side with alpha = 1.5, beta = 0.5\n"
        "                    (the cost of scaling and accumulating) and on views of larger\n"
        "                    buffers (the cost of a row stride and offsets)\n"
        "  --add-sizes LIST  element counts of add and the math family, 1e6 notation\n"
        "                    allowed; default add 1e3,1e4,...,1e8, the math family 1e6,1e7\n"
        "  --quick           a short run: matmul 256,1000,1024,1000x1000x1,1024x1024x1,\n"
        "                    add 1e3,1e6,1e7,\n"
        "                    fewer repetitions, no cold-compile measurement\n"
        "\n"
        "How long\n"
        "  --reps N          at most N timed runs per case (default 31; --quick 5): what\n"
        "                    ends short cases; longer ones end once --min-time is spent\n"
        "  --min-reps N      at least N (default 3; --quick 2), unless one round of all\n"
        "                    implementations passes --max-time\n"
        "  --min-time S      keep repeating a case for S seconds (default 1; --quick 0.2)\n"
        "  --max-time S      stop a case once another round would pass S seconds (default 20)\n"
        "  --warmup N        untimed runs first (default 1)\n"
        "\n"
        "Extra measurements (all on by default)\n"
        "  --no-first        skip the first call on a fresh context (compile + first run)\n"
        "  --no-child        skip a new process's first matmul (re-runs clrt-bench as a\n"
        "                    child: the OpenCL loader, context, buffers, the kernel from the\n"
        "                    caches, the work, then the same steps again) and its reference,\n"
        "                    a raw OpenCL program's first one-line kernel (from source, and\n"
        "                    from a binary it stored itself)\n"
        "  --first-size N    the child's matmul size (default 1024)\n"
        "  --cold            also run the child with every build cache off (CLRT_CACHE=0,\n"
        "                    POCL_KERNEL_CACHE=0): the full compile (default unless --quick)\n"
        "  --no-cold\n"
        "  --forced-cache    also run the child with clrt's own program binary cache forced on\n"
        "                    (CLRT_CACHE=1; by default clrt skips it only on NVIDIA, whose\n"
        "                    driver caches builds itself): writes to clrt's cache folder\n"
        "  --no-overhead     skip the per-operation cost of a tiny add (pipelined) against\n"
        "                    a raw clEnqueueNDRangeKernel of the same kernel, and its round\n"
        "                    trip (one add waited for at once; with add or matmul)\n"
        "  --no-default      do not also time the default parameters where tuned ones apply\n"
        "\n"
        "References\n"
        "  --no-openblas, --no-clblast, --no-host   leave one out\n"
        "  --threads N       threads of the host loops (default 2)\n"
        "\n"
        "Output\n"
        "  (default)         a table on stdout, a progress line on stderr when it is a terminal\n"
        "  --json, --csv     machine-readable results on stdout instead\n"
        "  --plot FILE.png   GFLOP/s (matmul) and GB/s (add) against size, per device and\n"
        "                    reference, and GB/s of the math family per size (bars), drawn\n"
        "                    with gnuplot\n"
        "  --progress, --no-progress\n"
        "  --list            list the devices and exit\n"
        "\n"
        "Tuning\n"
        "  --tune            search the parameters of the kernels the selected ops run\n"
        "                    (matmul, elementwise; reduce and transpose with the math\n"
        "                    family) on each selected device\n"
        "                    (every candidate's result is checked against the host, then\n"
        "                    timed), and store the best in the tuned-parameter file that\n"
        "                    clrt loads by itself from then on; then benchmark as usual\n"
        "                    unless --tune-only\n"
        "  --tune-only       tune, report default vs tuned, and stop\n"
        "  --tune-size N     matmul size the candidates are timed at, with twice it, and\n"
        "                    N+7 in the final comparison (default 1024); matmul only:\n"
        "                    the others are tuned at the library's own sizes (1e7 elements)\n"
        "  --tune-passes N   rounds of the coordinate search (default 2; --quick 1)\n"
        "  --tune-file PATH  write there instead of the standard place\n"
        "  --tune-dry-run    search and report, write nothing\n"
        "\n"
        "Tuned parameters live in $CLRT_CACHE_DIR/tuned, else $XDG_CACHE_HOME/clrt/tuned,\n"
        "else ~/.cache/clrt/tuned, one file per device, driver version and clrt version.\n"
        "CLRT_TUNED_FILE=PATH makes clrt read that file instead; CLRT_TUNED=0 ignores them.\n"
        "\n"
        "Notes\n"
        "  OpenBLAS picks a kernel for the CPU it finds; OPENBLAS_CORETYPE forces one.\n"
        "  Forced to an older core (e.g. OPENBLAS_CORETYPE=Haswell on this Zen 5 machine)\n"
        "  it runs at about half its speed: the bench prints the core that ran, and the\n"
        "  ratios are only fair against the best core: unset OPENBLAS_CORETYPE and let\n"
        "  OpenBLAS detect it (here it picks Cooperlake; Zen is as slow as Haswell).\n"
        "  Times are medians of repeated runs; only ratios measured in the same run mean\n"
        "  much on a shared machine.\n",
        f);
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

int bench_opts_parse(bench_opts *o, int argc, char **argv)
{
    static const bench_shape default_mm[] = {{256, 256, 256, 0, 0},    {512, 512, 512, 0, 0},    {1000, 1000, 1000, 0, 0},
                                             {1024, 1024, 1024, 0, 0}, {1031, 1031, 1031, 0, 0}, {2048, 2048, 2048, 0, 0},
                                             {4096, 4096, 4096, 0, 0}, {1000, 1000, 1, 0, 0},       {1024, 1024, 1, 0, 0}};
    static const bench_shape quick_mm[] = {
        {256, 256, 256, 0, 0}, {1000, 1000, 1000, 0, 0}, {1024, 1024, 1024, 0, 0}, {1000, 1000, 1, 0, 0}, {1024, 1024, 1, 0, 0}};
    static const size_t default_add[] = {1000, 10000, 100000, 1000000, 10000000, 100000000};
    static const size_t quick_add[] = {1000, 1000000, 10000000};
    static const size_t default_math[] = {1000000, 10000000};

    memset(o, 0, sizeof *o);
    int sizes_given = 0, add_given = 0, ops_given = 0, dtypes_given = 0, trans_mask = 0, cnn = 0;
    int reps = -1, min_reps = -1, warmup = -1, cold = -1, tune_passes = -1;
    double min_time = -1, max_time = -1;
    o->first = o->child = o->overhead = 1;
    o->openblas = o->clblast = o->host = 1;
    o->compare_default = 1;
    o->host_threads = 2;
    o->first_size = 1024;
    o->progress = -1;
    o->format = BENCH_TABLE;
    o->tune_size = 1024;
    o->overhead_n = 1000;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define TAKES_VALUE                                                                                          \
    do {                                                                                                     \
        if (!v)                                                                                              \
            return bad(a, NULL);                                                                             \
        i++;                                                                                                 \
    } while (0)
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            bench_usage(stdout);
            return 1;
        } else if (strcmp(a, "--device") == 0 || strcmp(a, "-d") == 0) {
            TAKES_VALUE;
            if (o->ndevices >= BENCH_MAX_DEVICES)
                return bad(a, v);
            o->devices[o->ndevices++] = v;
        } else if (strcmp(a, "--op") == 0) {
            TAKES_VALUE;
            ops_given = 1;
            if (each_item(v, add_op, o) != 0)
                return bad(a, v);
        } else if (strcmp(a, "--dtype") == 0) {
            TAKES_VALUE;
            if (!dtypes_given)
                o->run_f32 = o->run_f64 = 0;
            dtypes_given = 1;
            if (each_item(v, add_dtype, o) != 0)
                return bad(a, v);
        } else if (strcmp(a, "--sizes") == 0) {
            TAKES_VALUE;
            if (!sizes_given)
                o->nmatmul = 0;
            sizes_given = 1;
            if (each_item(v, add_shape, o) != 0)
                return bad(a, v);
        } else if (strcmp(a, "--trans") == 0) {
            TAKES_VALUE;
            if (each_item(v, add_trans, &trans_mask) != 0)
                return bad(a, v);
        } else if (strcmp(a, "--cnn") == 0) {
            cnn = 1;
        } else if (strcmp(a, "--gemm-extras") == 0) {
            o->gemm_extras = 1;
        } else if (strcmp(a, "--add-sizes") == 0) {
            TAKES_VALUE;
            if (!add_given)
                o->nadd = 0;
            add_given = 1;
            if (each_item(v, add_count, o) != 0)
                return bad(a, v);
        } else if (strcmp(a, "--quick") == 0) {
            o->quick = 1;
        } else if (strcmp(a, "--reps") == 0) {
            TAKES_VALUE;
            if (parse_int(v, 1, BENCH_MAX_ROUNDS, &reps) != 0)
                return bad(a, v);
        } else if (strcmp(a, "--min-reps") == 0) {
            TAKES_VALUE;
            if (parse_int(v, 1, BENCH_MAX_ROUNDS, &min_reps) != 0)
                return bad(a, v);
        } else if (strcmp(a, "--warmup") == 0) {
            TAKES_VALUE;
            if (parse_int(v, 0, 100, &warmup) != 0)
                return bad(a, v);
        } else if (strcmp(a, "--min-time") == 0) {
            TAKES_VALUE;
            if (parse_seconds(v, &min_time) != 0)
                return bad(a, v);
        } else if (strcmp(a, "--max-time") == 0) {
            TAKES_VALUE;
            if (parse_seconds(v, &max_time) != 0)
                return bad(a, v);
        } else if (strcmp(a, "--no-first") == 0) {
            o->first = 0;
        } else if (strcmp(a, "--no-child") == 0) {
            o->child = 0;
        } else if (strcmp(a, "--first-size") == 0) {
            TAKES_VALUE;
            if (parse_count(v, &o->first_size) != 0)
                return bad(a, v);
        } else if (strcmp(a, "--cold") == 0) {
            cold = 1;
        } else if (strcmp(a, "--no-cold") == 0) {
            cold = 0;
        } else if (strcmp(a, "--forced-cache") == 0) {
            o->forced_cache = 1;
        } else if (strcmp(a, "--no-overhead") == 0) {
            o->overhead = 0;
        } else if (strcmp(a, "--no-default") == 0) {
            o->compare_default = 0;
        } else if (strcmp(a, "--no-openblas") == 0) {
            o->openblas = 0;
        } else if (strcmp(a, "--no-clblast") == 0) {
            o->clblast = 0;
        } else if (strcmp(a, "--no-host") == 0) {
            o->host = 0;
        } else if (strcmp(a, "--threads") == 0) {
            TAKES_VALUE;
            if (parse_int(v, 1, 64, &o->host_threads) != 0)
                return bad(a, v);
        } else if (strcmp(a, "--json") == 0) {
            o->format = BENCH_JSON;
        } else if (strcmp(a, "--csv") == 0) {
            o->format = BENCH_CSV;
        } else if (strcmp(a, "--plot") == 0) {
            TAKES_VALUE;
            o->plot = v;
        } else if (strcmp(a, "--progress") == 0) {
            o->progress = 1;
        } else if (strcmp(a, "--no-progress") == 0) {
            o->progress = 0;
        } else if (strcmp(a, "--list") == 0) {
            o->list = 1;
        } else if (strcmp(a, "--tune") == 0) {
            o->tune = 1;
        } else if (strcmp(a, "--tune-only") == 0) {
            o->tune = 2;
        } else if (strcmp(a, "--tune-size") == 0) {
            TAKES_VALUE;
            if (parse_count(v, &o->tune_size) != 0)
                return bad(a, v);
        } else if (strcmp(a, "--tune-passes") == 0) {
            TAKES_VALUE;
            if (parse_int(v, 1, 10, &tune_passes) != 0)
                return bad(a, v);
        } else if (strcmp(a, "--tune-file") == 0) {
            TAKES_VALUE;
            o->tune_file = v;
        } else if (strcmp(a, "--tune-dry-run") == 0) {
            o->tune_dry_run = 1;
        } else if (strcmp(a, "--child-first-call") == 0) {
            /* internal: --child-first-call DEVICE f32|f64 N */
            if (i + 3 >= argc)
                return bad(a, NULL);
            o->child_mode = 1;
            o->child_device = argv[i + 1];
            o->child_dbl = strcmp(argv[i + 2], "f64") == 0;
            if (parse_count(argv[i + 3], &o->child_n) != 0)
                return bad(a, argv[i + 3]);
            i += 3;
        } else if (strcmp(a, "--child-raw-first") == 0) {
            /* internal: --child-raw-first P:D BINARY-FILE|- */
            if (i + 2 >= argc)
                return bad(a, NULL);
            o->child_mode = 2;
            o->child_device = argv[i + 1];
            o->child_raw_binary = strcmp(argv[i + 2], "-") == 0 ? NULL : argv[i + 2];
            i += 2;
        } else {
            fprintf(stderr, "clrt-bench: unknown option '%s' (see clrt-bench --help)\n", a);
            return 2;
        }
#undef TAKES_VALUE
    }

    if (!ops_given) /* the math family only when asked: the default run and CI take no longer */
        o->run[BENCH_ADD] = o->run[BENCH_MATMUL] = 1;
    if (!dtypes_given)
        o->run_f32 = o->run_f64 = 1;
    o->sizes_given = sizes_given;
    if (!sizes_given) {
        const bench_shape *src = o->quick ? quick_mm : default_mm;
        o->nmatmul = o->quick ? sizeof quick_mm / sizeof *quick_mm : sizeof default_mm / sizeof *default_mm;
        memcpy(o->matmul, src, o->nmatmul * sizeof *src);
    }
    if (trans_mask) { /* each size once per transpose pair asked for */
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
    }
    if (cnn) { /* the article's CNN at batch 64, as im2col + GEMM: forward, weight and input gradients */
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
    }
    if (!add_given) {
        const size_t *src = o->quick ? quick_add : default_add;
        o->nadd = o->quick ? sizeof quick_add / sizeof *quick_add : sizeof default_add / sizeof *default_add;
        memcpy(o->add, src, o->nadd * sizeof *src);
        o->nmath = sizeof default_math / sizeof *default_math;
        memcpy(o->math, default_math, sizeof default_math);
    } else {
        o->nmath = o->nadd;
        memcpy(o->math, o->add, o->nadd * sizeof *o->add);
    }
    o->max_reps = reps > 0 ? reps : (o->quick ? 5 : 31);
    o->min_reps = min_reps > 0 ? min_reps : (o->quick ? 2 : 3);
    if (o->min_reps > o->max_reps)
        o->min_reps = o->max_reps;
    o->warmup = warmup >= 0 ? warmup : 1;
    o->min_time = min_time >= 0 ? min_time : (o->quick ? 0.2 : 1.0);
    o->max_time = max_time >= 0 ? max_time : 20.0;
    o->cold = cold >= 0 ? cold : !o->quick;
    o->tune_passes = tune_passes > 0 ? tune_passes : (o->quick ? 1 : 2);
    o->overhead_ops = o->quick ? 200 : 500;
    return 0;
}
