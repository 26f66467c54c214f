/* clrt-bench --plot (see bench/report/plot.h). The script and its data go to
 * gnuplot in a temporary file; the PNG it prints is written to the --plot
 * file through common/output.h (whole or not at all, every write checked). */
#include "report/plot.h"
#include "report/plot_math.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/output.h"

static int have_gnuplot(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

/* Cases of a panel that go on the x axis: add by count, matmul when square. */
static int in_panel(const bench_case *c, int op, int dbl)
{
    return c->op == op && c->dbl == dbl && (op == BENCH_ADD || (c->m == c->n && c->n == c->k));
}

static int has_series(const bench_report *r, size_t d, int op, int dbl, int impl)
{
    for (size_t i = 0; i < r->ncases; i++) {
        const bench_case *c = &r->cases[i];
        if (c->device == d && in_panel(c, op, dbl) && bench_result_usable(&c->r[impl]))
            return 1;
    }
    return 0;
}

/* gnuplot strings are in double quotes: keep the title plain */
static void plain(char *dst, size_t cap, const char *src)
{
    size_t j = 0;
    for (; *src && j + 1 < cap; src++)
        dst[j++] = (*src == '"' || *src == '\\' || (unsigned char)*src < 0x20) ? ' ' : *src;
    dst[j] = '\0';
}

static int shared_impl(int impl) { return impl == IMPL_OPENBLAS || impl == IMPL_HOST; }

typedef struct point {
    size_t n;
    double rate;
} point;

static int cmp_point(const void *a, const void *b)
{
    const point *x = a, *y = b;
    return (x->n > y->n) - (x->n < y->n);
}

/* The (op, dbl) line panels with data, matmul's first; how many. */
static int find_panels(const bench_report *r, int panels[4][2])
{
    int np = 0;
    for (int op = BENCH_MATMUL; op >= BENCH_ADD; op--)
        for (int dbl = 0; dbl < 2; dbl++) {
            int any = 0;
            for (size_t i = 0; i < r->ncases && !any; i++)
                any = in_panel(&r->cases[i], op, dbl);
            if (any) {
                panels[np][0] = op;
                panels[np][1] = dbl;
                np++;
            }
        }
    return np;
}

/* The range of a matmul series' shares of the host's FMA peak, as ", 46-50%
 * of peak"; "" where there are none (a GPU's, the add panels). */
static void share_range(const bench_report *r, size_t d, int op, int dbl, int impl, char *buf, size_t cap)
{
    double lo = 0, hi = 0;
    for (size_t i = 0; i < r->ncases; i++) {
        const bench_case *c = &r->cases[i];
        const double v = c->device == d && in_panel(c, op, dbl) ? bench_peak_share(r, c, impl) : 0;
        if (v > 0) {
            lo = lo > 0 && lo < v ? lo : v;
            hi = hi > v ? hi : v;
        }
    }
    buf[0] = '\0';
    if (hi > 0 && (int)(lo * 100 + 0.5) == (int)(hi * 100 + 0.5))
        snprintf(buf, cap, ", %.0f%% of peak", hi * 100);
    else if (hi > 0)
        snprintf(buf, cap, ", %.0f-%.0f%% of peak", lo * 100, hi * 100);
}

/* A series' title in the key: the host references by name (OpenBLAS with
 * its core), the others with their device; a matmul's share of the peak. */
static void series_title(const bench_report *r, size_t d, int op, int dbl, int impl, char *title, size_t cap)
{
    char name[300], share[64], core[80] = "";
    plain(name, sizeof name, r->devices[d].info.name);
    share_range(r, d, op, dbl, impl, share, sizeof share);
    if (impl == IMPL_OPENBLAS && r->openblas.core[0])
        snprintf(core, sizeof core, " %.60s", r->openblas.core);
    if (shared_impl(impl))
        snprintf(title, cap, "%s%s (host)%s", impl == IMPL_OPENBLAS ? "OpenBLAS" : "host loop", core, share);
    else
        snprintf(title, cap, "%s on %zu %.60s%s", bench_impl_name[impl], r->devices[d].info.index, name, share);
}

/* A series' points as the data block $S<series>, in order of size, whatever
 * order they ran in. */
static void write_points(FILE *g, const bench_report *r, size_t d, int op, int dbl, int impl, int series)
{
    point *pts = malloc((r->ncases + 1) * sizeof *pts);
    size_t np = 0;
    for (size_t i = 0; pts && i < r->ncases; i++) {
        const bench_case *c = &r->cases[i];
        const bench_result *x = &c->r[impl];
        if (c->device == d && in_panel(c, op, dbl) && bench_result_usable(x)) {
            pts[np].n = c->n;
            pts[np++].rate = x->rate;
        }
    }
    if (pts)
        qsort(pts, np, sizeof *pts, cmp_point);
    fprintf(g, "$S%d << EOD\n", series);
    for (size_t i = 0; i < np; i++)
        fprintf(g, "%zu %.6g\n", pts[i].n, pts[i].rate);
    fprintf(g, "EOD\n");
    free(pts);
}

/* One line panel: rate against size. Series: each device's clrt (and
 * default, CLBlast); the host references once. */
static void line_panel(FILE *g, const bench_report *r, int op, int dbl)
{
    fprintf(g, "set title \"%s %s\"\n", op == BENCH_MATMUL ? "matmul (square)" : "add", bench_dtype_name(dbl));
    fprintf(g, "set xlabel \"%s\"\nset ylabel \"%s\"\n", op == BENCH_MATMUL ? "n" : "elements", bench_unit(op));
    if (op == BENCH_ADD)
        fprintf(g, "set logscale x\nset format x \"%%.0e\"\n");
    else
        fprintf(g, "unset logscale x\nset format x \"%%g\"\n");
    char plot[16384];
    size_t used = 0;
    int series = 0;
    int host_done[IMPL_KINDS] = {0};
    for (size_t d = 0; d < r->ndevices; d++) {
        for (int impl = 0; impl < IMPL_KINDS; impl++) {
            if (!has_series(r, d, op, dbl, impl) || (shared_impl(impl) && host_done[impl]))
                continue;
            if (shared_impl(impl))
                host_done[impl] = 1;
            char title[512];
            series_title(r, d, op, dbl, impl, title, sizeof title);
            write_points(g, r, d, op, dbl, impl, series);
            int n = snprintf(plot + used, sizeof plot - used, "%s$S%d using 1:2 with linespoints title \"%s\"",
                             series ? ", " : "", series, title);
            if (n > 0 && (size_t)n < sizeof plot - used)
                used += (size_t)n;
            series++;
        }
    }
    /* the host's FMA peak as a dashed line: the ceiling of the host's products */
    if (series && op == BENCH_MATMUL && r->peak.measured) {
        int n = snprintf(plot + used, sizeof plot - used,
                         ", %.6g with lines dashtype 2 linecolor rgb \"gray40\" title \"host FMA peak, %d threads "
                         "(%s)\"",
                         r->peak.gflops[dbl], r->peak.threads, r->peak.isa);
        if (n > 0 && (size_t)n < sizeof plot - used)
            used += (size_t)n;
    }
    if (series)
        fprintf(g, "plot %s\n", plot);
}

/* A new file for the script (in $TMPDIR, else /tmp), its name in path. */
static FILE *script_open(char *path, size_t cap)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(path, cap, "%s/clrt-bench-plot-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    FILE *g = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (fd >= 0 && !g) {
        close(fd);
        unlink(path);
    }
    return g;
}

/* gnuplot run on script, what it prints (the PNG) read into *png (malloc'd):
 * 0, or -1 when it could not run or failed. */
static int render(const char *script, unsigned char **png, size_t *len)
{
    int fds[2];
    *png = NULL;
    *len = 0;
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    size_t cap = 0;
    int ok = pid > 0;
    for (ssize_t got = 1; ok && got > 0;) {
        if (*len == cap) {
            unsigned char *grown = realloc(*png, cap = cap ? cap * 2 : 1 << 16);
            if (!(ok = grown != NULL))
                break;
            *png = grown;
        }
        got = read(fds[0], *png + *len, cap - *len);
        if (got < 0 && errno == EINTR)
            got = 1;
        else if (got < 0)
            ok = 0;
        else
            *len += (size_t)got;
    }
    close(fds[0]);
    int status = 0;
    if (pid > 0 && waitpid(pid, &status, 0) != pid)
        ok = 0;
    return ok && WIFEXITED(status) && WEXITSTATUS(status) == 0 && *len > 0 ? 0 : -1;
}

/* The title's further lines: the OpenBLAS core (forced or not, and by
 * whom), the host's FMA peak; each after a gnuplot line break ("\\n" in
 * its double-quoted string), "" when there is neither. */
static void plot_refs_lines(const bench_report *r, char *buf, size_t cap)
{
    char text[600], core[600] = "", peak[200] = "";
    if (r->have_openblas) {
        bench_openblas_core_text(&r->openblas, text, sizeof text);
        plain(core, sizeof core, text);
    }
    if (r->peak.measured)
        snprintf(peak, sizeof peak, "host FMA peak: fp32 %.0f, fp64 %.0f GFLOP/s (%d threads, %s)",
                 r->peak.gflops[0], r->peak.gflops[1], r->peak.threads, r->peak.isa);
    snprintf(buf, cap, "%s%s%s%s", core[0] ? "\\nOpenBLAS " : "", core, peak[0] ? "\\n" : "", peak);
}

/* The whole script: every panel, then the end of the multiplot. */
static void write_script(FILE *g, const bench_report *r, const int panels[4][2], int np,
                         const bench_math_panel *math, int nm)
{
    int cols = np + nm > 1 ? 2 : 1, rows = (np + nm + cols - 1) / cols;
    /* no "set output": the PNG comes back on gnuplot's stdout */
    fprintf(g, "set terminal pngcairo size %d,%d noenhanced font ',10'\n", 700 * cols, 480 * rows);
    fprintf(g, "set grid\nset key below font ',9'\n");
    char refs[1024];
    plot_refs_lines(r, refs, sizeof refs);
    fprintf(g, "set multiplot layout %d,%d title \"clrt-bench (clrt %s) on %s%s%ld CPUs, %s%s\"\n", rows, cols,
            r->clrt_version, r->cpu, r->cpu[0] ? ", " : "", r->cpus, r->date, refs);
    for (int p = 0; p < np; p++)
        line_panel(g, r, panels[p][0], panels[p][1]);
    for (int p = 0; p < nm; p++) /* after the line panels: they leave histogram style set */
        bench_plot_math_panel(g, r, &math[p], p);
    fprintf(g, "unset multiplot\n");
}

int bench_plot(const bench_report *r, const char *png)
{
    if (!have_gnuplot()) {
        fprintf(stderr, "clrt-bench: --plot needs gnuplot, which is not installed "
                        "(Debian: apt-get install gnuplot-nox); no plot written\n");
        return -1;
    }
    int panels[4][2]; /* (op, dbl) with data */
    const int np = find_panels(r, panels);
    bench_math_panel math[16];
    const int nm = (int)bench_math_panels(r, math, sizeof math / sizeof *math);
    if (np + nm == 0) {
        fprintf(stderr, "clrt-bench: nothing to plot (no square matmul, add or math family results)\n");
        return -1;
    }
    char script[4200];
    FILE *g = script_open(script, sizeof script);
    if (!g) {
        fprintf(stderr, "clrt-bench: cannot write gnuplot's script to %s: %s\n", script, strerror(errno));
        return -1;
    }
    write_script(g, r, panels, np, math, nm);
    unsigned char *image = NULL;
    size_t len = 0;
    int rc = ferror(g) | (fclose(g) != 0) ? -1 : render(script, &image, &len);
    unlink(script);
    if (rc != 0)
        fprintf(stderr, "clrt-bench: gnuplot failed; no plot written to %s\n", png);
    char err[700];
    if (rc == 0 && tool_out_write(png, image, len, err, sizeof err) != 0) {
        fprintf(stderr, "clrt-bench: --plot %s\n", err);
        rc = -2;
    }
    free(image);
    return rc;
}
