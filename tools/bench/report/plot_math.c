/* clrt-bench --plot, the math family's panels (see bench/report/plot_math.h). */
#include "report/plot_math.h"

#include <string.h>

static const bench_case *find(const bench_report *r, size_t d, int op, const bench_math_panel *p)
{
    for (size_t i = 0; i < r->ncases; i++) {
        const bench_case *c = &r->cases[i];
        if (c->device == d && c->op == op && c->dbl == p->dbl && c->count == p->count)
            return c;
    }
    return NULL;
}

size_t bench_math_panels(const bench_report *r, bench_math_panel *out, size_t cap)
{
    size_t n = 0;
    for (int dbl = 0; dbl < 2; dbl++)
        for (size_t i = 0; i < r->ncases; i++) {
            const bench_case *c = &r->cases[i];
            if (!bench_op_is_math(c->op) || c->dbl != dbl)
                continue;
            int seen = 0;
            for (size_t k = 0; k < n && !seen; k++)
                seen = out[k].dbl == dbl && out[k].count == c->count;
            if (seen || n == cap)
                continue;
            /* in order of count */
            size_t at = n;
            while (at > 0 && out[at - 1].dbl == dbl && out[at - 1].count > c->count) {
                out[at] = out[at - 1];
                at--;
            }
            out[at] = (bench_math_panel){dbl, c->count};
            n++;
        }
    return n;
}

/* A series: one implementation on one device (or the host's, device -1). */
typedef struct series {
    int impl;
    size_t device;
} series;

static int has(const bench_report *r, const bench_math_panel *p, series s)
{
    for (int op = 0; op < BENCH_OPS; op++) {
        const bench_case *c = bench_op_is_math(op) ? find(r, s.device, op, p) : NULL;
        if (c && bench_result_usable(&c->r[s.impl]))
            return 1;
    }
    return 0;
}

void bench_plot_math_panel(FILE *g, const bench_report *r, const bench_math_panel *p, int index)
{
    enum { MAX_SERIES = 3 * 8 };
    series s[MAX_SERIES];
    int ns = 0;
    int host_done = 0;
    size_t matrix_r = 0, matrix_c = 0;
    for (size_t d = 0; d < r->ndevices && ns + 3 <= MAX_SERIES; d++) {
        const series clrt = {IMPL_CLRT, d}, host = {IMPL_HOST, d}, copy = {IMPL_COPY, d};
        if (has(r, p, clrt))
            s[ns++] = clrt;
        if (!host_done && has(r, p, host)) { /* the host's loop once, whichever device's case timed it */
            s[ns++] = host;
            host_done = 1;
        }
        if (has(r, p, copy))
            s[ns++] = copy;
    }
    fprintf(g, "$M%d << EOD\n", index);
    for (int op = 0; op < BENCH_OPS; op++) {
        if (!bench_op_is_math(op))
            continue;
        int any = 0;
        for (size_t d = 0; d < r->ndevices && !any; d++)
            any = find(r, d, op, p) != NULL;
        if (!any)
            continue;
        fprintf(g, "%s", bench_op_name(op));
        for (int k = 0; k < ns; k++) {
            /* the host loop's rate from the first device's case that has one */
            const bench_case *c = NULL;
            for (size_t d = s[k].impl == IMPL_HOST ? 0 : s[k].device; d < r->ndevices && !c; d++) {
                c = find(r, d, op, p);
                if (c && !bench_result_usable(&c->r[s[k].impl]))
                    c = NULL;
                if (s[k].impl != IMPL_HOST)
                    break;
            }
            if (c)
                fprintf(g, " %.6g", c->r[s[k].impl].rate);
            else
                fputs(" -", g);
            if (c && bench_op_matrix(op)) {
                matrix_r = c->m;
                matrix_c = c->n;
            }
        }
        fputc('\n', g);
    }
    fputs("EOD\n", g);
    char matrix[64] = "";
    if (matrix_r)
        snprintf(matrix, sizeof matrix, ", matrix ops %zux%zu", matrix_r, matrix_c);
    fprintf(g, "set title \"math family %s, %zu elements%s\"\n", bench_dtype_name(p->dbl), p->count, matrix);
    fputs("unset logscale x\nset xlabel \"\"\nset ylabel \"GB/s (read + written)\"\n"
          "set style data histogram\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
          "set datafile missing \"-\"\nset xtics rotate by -30\nset yrange [0:*]\n",
          g);
    if (ns == 0) {
        fputs("plot 0 notitle\n", g);
        return;
    }
    fputs("plot ", g);
    for (int k = 0; k < ns; k++) {
        char title[128];
        if (s[k].impl == IMPL_HOST)
            snprintf(title, sizeof title, "host loop (%d threads)", r->host_threads);
        else
            snprintf(title, sizeof title, "%s on %zu", s[k].impl == IMPL_COPY ? "clrt_copy" : "clrt",
                     r->devices[s[k].device].info.index);
        if (k == 0)
            fprintf(g, "$M%d using 2:xtic(1) title \"%s\"", index, title);
        else
            fprintf(g, ", '' using %d title \"%s\"", k + 2, title);
    }
    fputc('\n', g);
}
