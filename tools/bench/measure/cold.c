/* clrt-bench --cold: a new process's first result from empty caches, per
 * operation (see bench/measure/cold.h). */
#include "measure/cold.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/ops.h"
#include "measure/child.h"
#include "measure/session.h"
#include "measure/timing.h"
#include "reference/host_ref.h"

/* ---- the child: one operation from main() to its result */

/* The case the child runs: op at size (a matmul n x n x n; else n elements,
 * as the table's cases are shaped). */
static bench_case child_case(int op, int dbl, size_t n)
{
    bench_case c = {0};
    c.op = op;
    c.dbl = dbl;
    if (op == BENCH_MATMUL) {
        c.m = c.n = c.k = n;
    } else if (bench_op_matrix(op)) {
        bench_matrix_shape(n, &c.m, &c.n);
        c.count = n;
    } else {
        c.m = 1;
        c.n = c.count = n;
    }
    return c;
}

int bench_cold_child(const bench_opts *o, double t_main)
{
    const bench_case c = child_case(o->child_op, o->child_dbl, o->child_n);
    const bench_shapes s = bench_shapes_of(&c);
    const clrt_dtype dt = c.dbl ? CLRT_FLOAT64 : CLRT_FLOAT32;
    const size_t na = s.ar * s.ac, nb = s.br * s.bc, es = c.dbl ? 8 : 4;
    void *ha = malloc((na ? na : 1) * es), *hb = malloc((nb ? nb : 1) * es);
    clrt_context *ctx = NULL;
    clrt_queue *q = NULL;
    bench_bufs d = {0};
    char why[300] = "";
    int st = ha && hb ? CLRT_OK : CLRT_ENOMEM;
    if (st == CLRT_OK) {
        clrt__ref_fill(ha, dt, na, 1);
        clrt__ref_fill(hb, dt, nb, 2);
        st = bench_open(o->child_device, &ctx, &q, why, sizeof why);
    }
    const double t_ctx = bench_now();
    if (st == CLRT_OK)
        st = bench_bufs_make(&d, ctx, q, &c, ha, hb, 0, 0, why, sizeof why);
    bench_dev_run r = {.q = q, .a = d.a, .b = d.b, .c = d.c, .op = c.op};
    if (st == CLRT_OK && (st = bench_run_dev(&r)) != CLRT_OK)
        snprintf(why, sizeof why, "%s", r.why);
    const double t_done = bench_now();
    if (st == CLRT_OK)
        printf("COLD %.6f %.6f\n", t_done - t_main, t_ctx - t_main);
    else
        printf("ERROR %s\n", why[0] ? why : clrt_status_name(st));
    bench_bufs_free(&d);
    bench_close(&ctx, &q);
    free(ha);
    free(hb);
    return st == CLRT_OK ? 0 : 1;
}

/* ---- the parent: the table */

/* Remove path and, for a folder, everything under it (links not followed). */
static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    DIR *d = S_ISDIR(st.st_mode) ? opendir(path) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        remove_tree(sub);
    }
    if (d)
        closedir(d);
    remove(path);
}

/* One child run with the caches in base; its seconds to the result (and to
 * its context) or a reason. 0, or -1 with why filled. */
static int run_child(const char *selector, int op, int dbl, size_t n, const char *base, double *to_result,
                     double *to_context, char *why, size_t cap)
{
    char size[32], clrt_dir[600], pocl_dir[600];
    snprintf(size, sizeof size, "%zu", n);
    snprintf(clrt_dir, sizeof clrt_dir, "CLRT_CACHE_DIR=%s/clrt", base);
    snprintf(pocl_dir, sizeof pocl_dir, "POCL_CACHE_DIR=%s/pocl", base);
    /* the caches at their defaults, in the new folders */
    const char *set[] = {clrt_dir, pocl_dir, "CLRT_CACHE", "POCL_KERNEL_CACHE", NULL};
    char *argv[] = {"clrt-bench", "--child-cold", (char *)bench_op_name(op), dbl ? "f64" : "f32", size,
                    (char *)selector, NULL};
    char out[512];
    double t_spawn;
    if (bench_child_run_env(argv, set, out, sizeof out, &t_spawn, why, cap) != 0)
        return -1;
    if (sscanf(out, "COLD %lf %lf", to_result, to_context) != 2) {
        bench_child_why(out, why, cap);
        return -1;
    }
    return 0;
}

/* The size each operation is timed at: a product of 1024, 10^6 elements. */
static size_t cold_size(int op) { return op == BENCH_MATMUL ? 1024 : 1000000; }

static void cold_case(const bench_opts *o, const clrt_device_info *dev, int op, int dbl, size_t *rows)
{
    char base[] = "/tmp/clrt-bench-cold-XXXXXX", sel[32], why[300] = "";
    snprintf(sel, sizeof sel, "%zu", dev->index);
    double cold = 0, warm = 0, ctx_cold = 0, ctx_warm = 0;
    int rc = mkdtemp(base) ? 0 : -1;
    if (rc == 0)
        rc = run_child(sel, op, dbl, cold_size(op), base, &cold, &ctx_cold, why, sizeof why);
    if (rc == 0) /* the same again, with what the first run left in the caches */
        rc = run_child(sel, op, dbl, cold_size(op), base, &warm, &ctx_warm, why, sizeof why);
    if (rc == 0 && o->format == BENCH_JSON)
        printf("%s{\"device\": %zu, \"op\": \"%s\", \"dtype\": \"%s\", \"size\": %zu, \"cold_s\": %.4f, "
               "\"warm_s\": %.4f, \"cold_context_s\": %.4f, \"warm_context_s\": %.4f}",
               *rows ? ",\n  " : "", dev->index, bench_op_name(op), dbl ? "f64" : "f32",
               cold_size(op), cold, warm, ctx_cold, ctx_warm);
    else if (rc == 0)
        printf("  %-10s %s  %-9zu %8.2f %8.2f   %6.3f %6.3f\n", bench_op_name(op), dbl ? "f64" : "f32",
               cold_size(op), cold, warm, ctx_cold, ctx_warm);
    else
        fprintf(stderr, "clrt-bench --cold: %s %s: %s\n", bench_op_name(op), dbl ? "f64" : "f32", why);
    *rows += rc == 0;
    if (strstr(base, "XXXXXX") == NULL) /* made */
        remove_tree(base);
}

int bench_cold_run(const bench_opts *o, const clrt_device_info *devs, size_t ndevs)
{
    size_t rows = 0;
    if (o->format == BENCH_JSON)
        printf("{\"cold_start\": [\n  ");
    for (size_t d = 0; d < ndevs; d++) {
        if (o->format != BENCH_JSON) {
            printf("device %zu [%u:%u] %s (%s)\n", devs[d].index, devs[d].platform_index, devs[d].device_index,
                   devs[d].name, devs[d].platform);
            printf("  a new process's first result: empty caches (cold), then again with what that left (warm)\n");
            printf("  %-10s %s  %-9s %8s %8s   %13s\n", "op", "dt ", "size", "cold s", "warm s",
                   "context s c/w");
        }
        for (int dbl = 0; dbl < 2; dbl++) {
            if ((dbl ? !o->run_f64 || !devs[d].has_fp64 : !o->run_f32))
                continue;
            for (int op = 0; op < BENCH_OPS; op++)
                if (o->run[op])
                    cold_case(o, &devs[d], op, dbl, &rows);
        }
    }
    if (o->format == BENCH_JSON)
        printf("\n]}\n");
    return rows ? 0 : 1;
}
