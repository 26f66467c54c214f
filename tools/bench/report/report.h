/* clrt-bench's report model: what one run measured (cases, devices, the
 * first call, overhead, tuning). Filled by the measuring files, read by the
 * printers (bench/report/print.h) and the target check (bench/report/targets.h). */
#ifndef CLRT_TOOLS_BENCH_REPORT_H
#define CLRT_TOOLS_BENCH_REPORT_H

#include <stddef.h>

#include <clrt/clrt.h>

#include "cli/ops.h"
#include "measure/timing.h"
#include "reference/openblas_force.h"
#include "reference/peak.h"

/* Who did the work of a case. */
enum bench_impl_kind {
    IMPL_CLRT,         /* clrt as a user gets it: tuned parameters when there are some */
    IMPL_CLRT_DEFAULT, /* clrt with the default parameters (only when tuned ones were used) */
    IMPL_OPENBLAS,     /* host cblas_sgemm / cblas_dgemm */
    IMPL_CLBLAST,      /* CLBlast gemm on the same device */
    IMPL_HOST,         /* host loop on --threads threads doing the same (add and the math family) */
    IMPL_COPY,         /* clrt_copy of the case's input on the same device: the copy bandwidth a
                        * reduction or transpose is measured against (its own bytes, its own GB/s) */
    IMPL_KINDS
};
extern const char *const bench_impl_name[IMPL_KINDS];

typedef struct bench_result {
    int present;       /* measured (or tried: see note) */
    int failed;        /* it ran and failed: note says why */
    bench_stats st;
    double rate;       /* GFLOP/s (matmul) or GB/s (bytes read + written), from the median */
    size_t wrong, checked; /* result check after the timing */
    char note[160];
} bench_result;

typedef struct bench_case {
    size_t device;     /* index into the report's devices */
    int op;            /* enum bench_op */
    int dbl;
    size_t m, n, k;    /* add and the math family: m x n (rows x cols; 1 x count unless
                        * bench_op_matrix()), k = 0 */
    size_t count;      /* add and the math family: the element count asked for (--add-sizes) */
    int ta, tb;        /* matmul: op(A), op(B) transposed (clrt_gemm) */
    double first_s;    /* first call on a fresh context (compile + first run); < 0: not measured */
    int tuned;         /* clrt ran with tuned parameters */
    char params[320];  /* the parameters clrt ran with (a full tuned line is ~170 characters) */
    char params_default[320];
    bench_result r[IMPL_KINDS];
    double ratio[IMPL_KINDS]; /* clrt's speed over each: median of the rounds' time ratios (copy: of
                               * clrt's GB/s over copy's GB/s); 0: none */
    /* matmul at sizes that are not multiples of 64: clrt at the nearest round
     * sizes too, side by side; nb_ratio = this rate / that rate (median of the
     * rounds); 0: not measured */
    size_t nb_m, nb_n, nb_k;
    double nb_rate, nb_ratio;
    /* --gemm-extras: clrt's speed with alpha 1.5, beta 0.5, and on views of
     * larger buffers, over the plain product's (median of the rounds'
     * side-by-side ratios); 0: not measured */
    double ab_ratio, view_ratio;
} bench_case;

/* A new process's first matmul (see bench/measure/first.h). Times in seconds. */
typedef struct bench_first {
    int measured, ok;
    int failed;            /* a child failed (note says how it ended): a failure of the run */
    int dbl;
    size_t n;
    double spawn_to_main;  /* exec, dynamic loading, until main() */
    double loader;         /* the ICD loader's first clGetPlatformIDs: it opens every registered driver */
    unsigned platforms;    /* ... and found this many platforms */
    double context;        /* clrt_context_create + clrt_queue_create after that */
    double buffers;        /* 3 buffers + the 2 uploads */
    double call;           /* clrt_matmul returning: kernel build or cache fetch, enqueue */
    double finish;         /* until the result is complete (POCL loads its work-group function here) */
    double total;          /* main() to complete, less the time the child spent making inputs */
    double again;          /* the same steps (buffers, uploads, call, finish) again in that process, warm */
    double again_buffers, again_call, again_finish;
    double overhead;       /* total - again: what being first cost */
    double work;           /* the steady median of the matmul kernel alone in this run; <= 0: not measured */
    double cold_total;     /* the same with every build cache off; < 0: not measured */
    double cold_overhead;
    double forced_total;   /* the same with clrt's own program cache forced on (CLRT_CACHE=1); < 0: not measured */
    double forced_call;    /* ... its clrt_matmul call (the kernel from clrt's cache) */
    double forced_overhead;
    char note[320];
} bench_first;

typedef struct bench_overhead {
    int measured;
    size_t n;
    int ops;
    double clrt_op;        /* seconds per clrt_add, pipelined (enqueue only, one finish at the end) */
    double raw_op;         /* the same kernel by clEnqueueNDRangeKernel, arguments set once */
    double raw_args_op;    /* ... and by a clSetKernelArg per argument + clEnqueueNDRangeKernel per operation */
    double ratio;          /* median over rounds of clrt_op / raw_op, each round's pair side by side */
    int rounds;
    /* One tiny add waited for at once, alternated with the raw pair (enqueue +
     * clFinish): the latency a synchronous caller pays per operation, the floor
     * of any small product. Seconds; trips = how many of each. */
    int trips;
    double trip_clrt_median, trip_clrt_min, trip_clrt_p90;
    double trip_raw_median;
    char note[160];
} bench_overhead;

/* The reference for the first matmul: a raw OpenCL program's first
 * one-line kernel in a new process (see bench/measure/first_raw.h). Seconds. */
typedef struct bench_raw_first {
    int measured;
    double total;          /* main() to the result read back */
    double loader;         /* ... of which the ICD loader's first clGetPlatformIDs */
    int binary_measured;   /* the same with the program from a binary the program stored itself */
    double binary_total, binary_loader;
    char note[200];        /* why (part of) it was not measured */
} bench_raw_first;

/* One row of --op products (bench/measure/products.c): clrt's one call against
 * what it replaces, side by side. */
enum { BENCH_PRODUCT_ROWS = 6 };
typedef struct bench_product {
    char name[48];       /* "strided batched", "linear bias+relu" */
    char shape[48];      /* "64 x 128x128x128", "64x800 -> 500" */
    char dtype[16];
    double flop;         /* per run */
    bench_stats clrt;    /* the one call (one launch) */
    bench_stats loop;    /* what it replaces: a clrt_gemm per matrix, or gemm + bias add + relu */
    bench_stats openblas; /* OpenBLAS doing the same (a cblas_?gemm per matrix); reps 0: not run */
    double vs_loop;      /* paired: loop / clrt (how many times faster clrt's call is) */
    double vs_openblas;  /* paired: openblas / clrt */
    size_t wrong, checked; /* clrt's result against the host reference in double */
    char loop_what[64];  /* what the loop is, for the report */
    char note[160];
} bench_product;
typedef struct bench_products {
    int measured;
    size_t n;
    bench_product rows[BENCH_PRODUCT_ROWS];
} bench_products;

typedef struct bench_device {
    clrt_device_info info;
    int emulator;
    int skipped;
    char note[256];        /* why it was skipped, or what failed */
    bench_first first[2];  /* [dbl] */
    bench_raw_first raw_first;
    bench_overhead overhead;
    bench_products products;
} bench_device;

/* How many rejected candidates a tuning line says why of. */
enum { BENCH_TUNE_WHY = 4 };

/* One line per tuned (kernel, dtype) of a device, for the report. */
typedef struct bench_tuned_line {
    size_t device;
    int op, dbl;               /* op: one the kernel runs (add: elementwise, sum: reduce) */
    int ok;                    /* the tuning pass ran (the defaults built and ran) */
    int written;
    double default_rate, tuned_rate;
    double speedup;            /* tuned over default, side by side (geometric mean of two sizes) */
    size_t tried, rejected;
    size_t wrong;              /* ... of them for a wrong result: a kernel bug */
    char rejected_why[BENCH_TUNE_WHY][256]; /* "params: why", every wrong result among them */
    size_t kept_why;           /* how many of rejected_why are filled */
    char params_default[320], params_tuned[320];
    char path[512];
    char note[400];
} bench_tuned_line;

typedef struct bench_report {
    char command[1024];
    char date[64];
    char host[256];
    char cpu[256];             /* bench_cpu_model(): "" when the kernel names none */
    long cpus;                 /* online CPUs */
    const char *clrt_version;
    int have_openblas, have_clblast, have_host;
    int built_openblas, built_clblast; /* compiled in (else the bench says how to get them) */
    char openblas_config[256];
    int openblas_threads;
    bench_openblas_state openblas; /* the core that ran, the CPU's best, who chose it */
    bench_peak peak;           /* the host's FMA peak; peak.measured 0: not measured */
    bench_quiet quiet;         /* the waits for OpenBLAS's spinning threads */
    char clblast_version[32];
    int host_threads;
    bench_device devices[64];
    size_t ndevices;
    bench_case *cases;
    size_t ncases, cap;
    bench_tuned_line tuned[64];
    size_t ntuned;
} bench_report;

/* A new case (zeroed, first_s = -1), or NULL when out of memory. */
bench_case *bench_report_add(bench_report *r);
void bench_report_free(bench_report *r);

/* Work of a case: FLOP (matmul) or bytes moved, reads + writes (the others). */
double bench_case_work(const bench_case *c);
/* Bytes the copy reference moves: the case's input read and written once. */
double bench_copy_work(const bench_case *c);
const char *bench_unit(int op);     /* "GFLOP/s" (matmul) or "GB/s" */
const char *bench_dtype_name(int dbl); /* "f32" or "f64" */
/* A product's transposes for a label: "" (NN), " NT", " TN" or " TT". */
const char *bench_trans_suffix(const bench_case *c);

/* 1 when x ran, did not fail and has timed runs: its times and rate mean
 * something (a result can be present, e.g. tried, without them). */
int bench_result_usable(const bench_result *x);

/* impl's rate in a matmul case as a share of the host's FMA peak (0.46 for
 * 46%); 0 where that means nothing: no peak measured, not a matmul, or an
 * implementation on a device other than a CPU (a GPU's peak is not
 * measurable from the host; OpenBLAS always runs on the host). */
double bench_peak_share(const bench_report *r, const bench_case *c, int impl);

/* speed of impl over ref: for clrt the median of the per-round ratios (each
 * round ran both side by side), else the ratio of the medians; against the
 * copy reference, of the rates (GB/s over GB/s: the bytes differ); 0 when
 * either is missing */
double bench_ratio(const bench_case *c, int impl, int ref);

#endif
