/* clrt-bench --tune (see bench_tune.h).
 *
 * The search is a coordinate descent from the device's defaults: one
 * parameter at a time takes each value of its axis, the rest fixed; a
 * candidate becomes the new best when it is more than 3% faster; passes
 * repeat until one changes nothing. The axes come from params.h (what each
 * parameter means) and the kernel's documented constraints; every candidate
 * is checked by clrt__*_params_check first (src/tune_space.c), then built and
 * run through clrt itself (the test seam's override), its results compared
 * with the host at shapes that take every edge path, and only then timed.
 * A candidate that fails to build, does not fit, or computes a wrong result
 * is rejected, never kept.
 *
 * Times taken at different moments drift on a shared machine, so the final
 * choice re-times the default and the best few candidates side by side
 * (interleaved), at the tuning size and at an odd size next to it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clrt/clrt.h>

#include "debug.h"
#include "internal.h"
#include "tune_space.h"
#include "tuned.h"

#include "bench_progress.h"
#include "bench_ref.h"
#include "bench_time.h"
#include "bench_tune.h"

/* add is tuned at one size, whatever --tune-size says (that is matmul's):
 * large enough that the launch cost does not hide the kernel's speed. */
enum { TUNE_ADD_N = 10000000 };

/* A context whose kernel of (op, dtype) runs with exactly p (then fitted). */
typedef struct cand {
    clrt_context *ctx;
    clrt_queue *q;
    tune_params fitted;
} cand;

/* A candidate's buffers at one timing size, and the run on them. */
typedef struct timed {
    bench_bufs d;
    bench_dev_run run;
} timed;

typedef struct tune_ctx {
    bench_session *s;
    const bench_opts *o;
    int op, dbl;
    size_t elem;
    clrt_device_facts facts;
    /* timing sizes n (matmul n x n x n, add n elements); the first is the
     * tuning size (tune_size_of) */
    size_t sizes[3];     /* sizes candidates are timed at in the search */
    size_t nsizes;
    size_t final_sizes[3]; /* ... and in the final comparison (with an odd one) */
    size_t nfinal;
    /* host inputs, large enough for every timing size */
    void *ha, *hb;
    size_t tried, rejected, wrong;
    /* why some rejected candidates were, for the report (see reject) */
    char rejected_why[BENCH_TUNE_WHY][256];
    size_t kept_why;
    /* the best so far and the last candidate, open, for timing side by side */
    cand best, last;
    timed best_r[3], last_r[3];
    int best_open, last_open;
    double best_score;   /* speed relative to the defaults (1.0) */
    /* every parameter set evaluated (after fitting), with its rate; 0 = rejected */
    struct seen {
        char key[200];
        tune_params p;
        double rate;
    } *seen;
    size_t nseen, capseen;
} tune_ctx;

/* The size (op, dtype) is tuned at. */
static size_t tune_size_of(const bench_opts *o, int op)
{
    return op == BENCH_MATMUL ? o->tune_size : TUNE_ADD_N;
}

/* t's (op, dtype) at shape m x n x k (add: n elements, m and k unused) as a
 * bench_case, for the buffers (bench_bufs_make) and work (bench_case_work). */
static bench_case case_at(const tune_ctx *t, size_t m, size_t n, size_t k)
{
    bench_case c;
    memset(&c, 0, sizeof c);
    c.op = t->op;
    c.dbl = t->dbl;
    c.m = t->op == BENCH_MATMUL ? m : 1;
    c.n = n;
    c.k = t->op == BENCH_MATMUL ? k : 0;
    return c;
}

static struct seen *find_seen(tune_ctx *t, const char *key)
{
    for (size_t i = 0; i < t->nseen; i++)
        if (strcmp(t->seen[i].key, key) == 0)
            return &t->seen[i];
    return NULL;
}

static void remember(tune_ctx *t, const char *key, const tune_params *p, double rate)
{
    if (t->nseen == t->capseen) {
        size_t cap = t->capseen ? t->capseen * 2 : 64;
        struct seen *grown = realloc(t->seen, cap * sizeof *grown);
        if (!grown)
            return;
        t->seen = grown;
        t->capseen = cap;
    }
    struct seen *e = &t->seen[t->nseen++];
    snprintf(e->key, sizeof e->key, "%s", key);
    e->p = *p;
    e->rate = rate;
}

static void cand_close(cand *c) { bench_close(&c->ctx, &c->q); }

/* The test seam forces p on the new context's kernel; what fitting made of
 * it is in c->fitted. */
static int cand_open(tune_ctx *t, const tune_params *p, cand *c)
{
    memset(c, 0, sizeof *c);
    int st = bench_open(t->s->selector, &c->ctx, &c->q, NULL, 0);
    if (st == CLRT_OK)
        st = bench_resolve(c->ctx, c->q, t->op, t->dbl, p);
    if (st != CLRT_OK) {
        cand_close(c);
        return st;
    }
    bench_params_fitted(c->ctx, t->op, t->dbl, &c->fitted);
    return CLRT_OK;
}

/* Run (op, dtype) once on c at shape (m, n, k) or add over n; compare `rows`
 * rows of the result, spread from the first to the last (all of them for the
 * small shapes: an edge path may touch one), or all of an add. 0 when right,
 * else why says what went wrong. */
static int verify_shape(tune_ctx *t, cand *c, size_t m, size_t n, size_t k, size_t rows, char *why, size_t cap)
{
    bench_case sh = case_at(t, m, n, k);
    size_t na = t->op == BENCH_MATMUL ? m * k : n, nb = t->op == BENCH_MATMUL ? k * n : n;
    size_t nc = t->op == BENCH_MATMUL ? m * n : n;
    void *a = malloc(na * t->elem), *b = malloc(nb * t->elem), *out = malloc(nc * t->elem);
    bench_bufs d;
    char bwhy[256];
    int st = CLRT_ENOMEM;
    size_t wrong = 0;
    if (a && b && out) {
        bench_fill(a, t->dbl, na, 11);
        bench_fill(b, t->dbl, nb, 12);
    }
    if (a && b && out && (st = bench_bufs_make(&d, c->ctx, c->q, &sh, a, b, 0, bwhy, sizeof bwhy)) == CLRT_OK) {
        bench_dev_run r = {.q = c->q, .a = d.a, .b = d.b, .c = d.c, .op = t->op};
        st = bench_run_dev(&r);
        if (st == CLRT_OK)
            st = clrt_buffer_read(c->q, d.c, out, nc);
        if (st == CLRT_OK)
            wrong = t->op == BENCH_MATMUL ? bench_check_matmul(t->dbl, a, b, out, m, n, k, rows, NULL)
                                          : bench_check_add(t->dbl, a, b, out, n);
        bench_bufs_free(&d);
    }
    free(a);
    free(b);
    free(out);
    if (st != CLRT_OK)
        snprintf(why, cap, "at %zux%zux%zu: %s", m, n, k, clrt_status_name(st));
    else if (wrong)
        snprintf(why, cap, "WRONG RESULT at %zux%zux%zu (%zu elements)", m, n, k, wrong);
    return st == CLRT_OK && wrong == 0;
}

/* 1 when matmul with p packs B at m x n x k, as src/ops.c decides it. */
static int packs(const tune_ctx *t, const clrt_matmul_params *p, size_t m, size_t n, size_t k)
{
    return clrt_matmul_pack_panels(p, m, n, k, t->elem, clrt__pack_scratch_max(&t->facts)) > 0;
}

/* A matmul shape that takes the packed path of the CPU kernel with c's
 * parameters (params.c: pack_pays), which the search sizes run: 0 when the
 * parameters never pack. */
static int packed_shape(const tune_ctx *t, const cand *c, size_t shape[3])
{
    const clrt_matmul_params *p = &c->fitted.mm;
    if (p->use_local || p->pack == 0)
        return 0;
    size_t m = 4 * (size_t)p->wgy * p->tm + 7, n = 2 * (size_t)p->tn + 5; /* edge tiles both ways */
    if (m < 519)
        m = 519;
    if (n < 517)
        n = 517;
    size_t k = (size_t)(640.0 * 640.0 * 640.0 / ((double)m * (double)n)) + 3;
    if (!packs(t, p, m, n, k))
        return 0;
    shape[0] = m;
    shape[1] = n;
    shape[2] = k;
    return 1;
}

/* Shapes that take every path of the kernels: edge tiles, matrices thinner
 * than a tile, k not a multiple of the k block, K = 1, B packed; odd add
 * lengths. 1 when all are right, else why says which was not. */
static int verify(tune_ctx *t, cand *c, char *why, size_t cap)
{
    if (t->op == BENCH_MATMUL) {
        static const size_t shapes[][3] = {{67, 83, 777}, {5, 7, 33}, {129, 1, 65}, {1, 131, 17}, {40, 50, 1}};
        for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
            if (!verify_shape(t, c, shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][0], why, cap))
                return 0;
        size_t big[3];
        if (packed_shape(t, c, big) && !verify_shape(t, c, big[0], big[1], big[2], BENCH_CHECK_ROWS, why, cap))
            return 0;
        return 1;
    }
    static const size_t lens[] = {1, 17, 100003};
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++)
        if (!verify_shape(t, c, 1, lens[i], 0, 1, why, cap))
            return 0;
    return 1;
}

static void timed_free(timed *r)
{
    bench_bufs_free(&r->d);
    memset(r, 0, sizeof *r);
}

static int timed_make(tune_ctx *t, cand *c, size_t size, timed *r)
{
    bench_case sh = case_at(t, size, size, size);
    char why[256];
    int st = bench_bufs_make(&r->d, c->ctx, c->q, &sh, t->ha, t->hb, 0, why, sizeof why);
    r->run = (bench_dev_run){.q = c->q, .a = r->d.a, .b = r->d.b, .c = r->d.c, .op = t->op};
    return st;
}

/* The work (FLOP or bytes) of one run at size. */
static double work_at(const tune_ctx *t, size_t size)
{
    bench_case sh = case_at(t, size, size, size);
    return bench_case_work(&sh);
}

static void timed_free_all(timed *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        timed_free(&r[i]);
}

/* Count a rejected candidate (key), and keep why for the report: the first
 * few reasons, and every wrong result ahead of the rest (a wrong result from
 * parameters the kernel accepts is a kernel bug, never to be lost). */
static void reject(tune_ctx *t, const char *key, const char *why, int wrong)
{
    size_t slot = t->kept_why < BENCH_TUNE_WHY ? t->kept_why++ : BENCH_TUNE_WHY;
    /* all kept: a wrong result takes the place of the last reason that is not one */
    for (size_t i = BENCH_TUNE_WHY; slot == BENCH_TUNE_WHY && wrong && i-- > 0;)
        if (!strstr(t->rejected_why[i], "WRONG RESULT"))
            slot = i;
    if (slot < BENCH_TUNE_WHY)
        snprintf(t->rejected_why[slot], sizeof t->rejected_why[0], "%.90s: %.160s", key, why);
    t->rejected++;
    t->wrong += wrong != 0;
}

/* Evaluate p: check it, build it, verify it, then time it side by side with
 * the current best (t->best, when there is one) at each search size.
 * Returns its score: its speed relative to the defaults, estimated as the
 * best's score times the geometric mean of the paired speed-ups over the
 * best; 0 when rejected. The first evaluation (the defaults) scores 1. A new
 * candidate stays open in t->last (t->last_open) for the caller to adopt or
 * close. Cached by the parameters, before and after fitting. */
static double evaluate(tune_ctx *t, const tune_params *p)
{
    char key[200], why[200];
    t->last_open = 0;
    bench_params_text(t->op, p, key, sizeof key);
    struct seen *e = find_seen(t, key);
    if (e)
        return e->rate;
    t->tried++;
    int valid = t->op == BENCH_MATMUL ? clrt__matmul_params_check(&t->facts, t->elem, &p->mm, why, sizeof why)
                                      : clrt__add_params_check(&t->facts, t->elem, &p->add, why, sizeof why);
    if (valid != 0) {
        reject(t, key, why, 0);
        remember(t, key, p, 0);
        return 0;
    }
    bench_progress("tuning device %zu %s %s: candidate %zu: %s", t->s->info.index, bench_op_name(t->op),
                   bench_dtype_name(t->dbl), t->tried, key);
    cand *c = &t->last;
    double score = 0;
    int st = cand_open(t, p, c);
    if (st != CLRT_OK) {
        snprintf(why, sizeof why, "%s: %.150s", clrt_status_name(st), clrt_error_message());
        reject(t, key, why, 0);
        remember(t, key, p, 0);
        return 0;
    }
    /* what fitting made of it: the same as one evaluated before? */
    char fkey[200];
    bench_params_text(t->op, &c->fitted, fkey, sizeof fkey);
    struct seen *fe = strcmp(fkey, key) ? find_seen(t, fkey) : NULL;
    if (fe) {
        score = fe->rate;
    } else if (!verify(t, c, why, sizeof why)) {
        reject(t, key, why, strncmp(why, "WRONG RESULT", 12) == 0);
    } else {
        double logsum = 0;
        int ok = 1;
        for (size_t i = 0; i < t->nsizes && ok; i++) {
            ok = timed_make(t, c, t->sizes[i], &t->last_r[i]) == CLRT_OK;
            if (!ok)
                break;
            if (!t->best_open)
                continue; /* the defaults: the reference everything is scored against */
            bench_impl run[2];
            double rounds[2][16];
            run[0] = (bench_impl){.run = bench_run_dev, .arg = &t->best_r[i].run, .rounds = rounds[0]};
            run[1] = (bench_impl){.run = bench_run_dev, .arg = &t->last_r[i].run, .rounds = rounds[1]};
            bench_budget b = {1, 3, t->o->quick ? 3 : 7, 0.05, 10};
            bench_measure(run, 2, &b);
            double sp = bench_paired_ratio(&run[0], &run[1]);
            ok = sp > 0;
            logsum += ok ? log(sp) : 0;
        }
        if (ok) {
            score = t->best_open ? t->best_score * exp(logsum / (double)t->nsizes) : 1.0;
            t->last_open = 1;
        } else {
            timed_free_all(t->last_r, t->nsizes);
        }
        if (score > 0 && fkey[0] && strcmp(fkey, key))
            remember(t, fkey, &c->fitted, score);
    }
    if (!t->last_open)
        cand_close(c);
    remember(t, key, p, score);
    return score;
}

/* Make the last evaluated candidate the best one. */
static void adopt_last(tune_ctx *t, double score)
{
    if (t->best_open) {
        timed_free_all(t->best_r, t->nsizes);
        cand_close(&t->best);
    }
    t->best = t->last;
    memcpy(t->best_r, t->last_r, sizeof t->best_r);
    /* last_r no longer owns those buffers: a later failed evaluation frees
     * every entry of last_r, made or not */
    memset(t->last_r, 0, sizeof t->last_r);
    t->best_open = 1;
    t->best_score = score;
    t->last_open = 0;
}

static void drop_last(tune_ctx *t)
{
    if (t->last_open) {
        timed_free_all(t->last_r, t->nsizes);
        cand_close(&t->last);
        t->last_open = 0;
    }
}

/* ---- the axes of the search */

typedef struct axis {
    const char *name;
    unsigned values[16];
    size_t n;
} axis;

static unsigned *field(tune_params *p, int op, const char *name)
{
    if (op == BENCH_MATMUL) {
        if (!strcmp(name, "tm"))
            return &p->mm.tm;
        if (!strcmp(name, "tn"))
            return &p->mm.tn;
        if (!strcmp(name, "tk"))
            return &p->mm.tk;
        if (!strcmp(name, "wgx"))
            return &p->mm.wgx;
        if (!strcmp(name, "wgy"))
            return &p->mm.wgy;
        if (!strcmp(name, "vw"))
            return &p->mm.vw;
        if (!strcmp(name, "tkp"))
            return &p->mm.tkp;
        if (!strcmp(name, "pack"))
            return &p->mm.pack;
    } else {
        if (!strcmp(name, "vw"))
            return &p->add.vw;
        if (!strcmp(name, "items"))
            return &p->add.items;
        if (!strcmp(name, "wg"))
            return &p->add.wg;
    }
    return NULL;
}

/* 1 when p packs B at every search size (n x n x n). */
static int packs_at_search_sizes(const tune_ctx *t, const clrt_matmul_params *p)
{
    for (size_t i = 0; i < t->nsizes; i++)
        if (!packs(t, p, t->sizes[i], t->sizes[i], t->sizes[i]))
            return 0;
    return t->nsizes > 0;
}

static size_t axes_for(const tune_ctx *t, const tune_params *start, axis *ax)
{
    size_t n = 0;
#define AXIS(nm, ...)                                                                                                \
    do {                                                                                                             \
        static const unsigned v_[] = {__VA_ARGS__};                                                                  \
        ax[n].name = nm;                                                                                             \
        ax[n].n = sizeof v_ / sizeof *v_;                                                                            \
        memcpy(ax[n].values, v_, sizeof v_);                                                                         \
        n++;                                                                                                         \
    } while (0)
    if (t->op == BENCH_ADD) {
        AXIS("vw", 4, 8, 16);
        AXIS("wg", 64, 256, 1024, 4096);
        AXIS("items", 1, 2, 4, 16);
        return n;
    }
    if (!start->mm.use_local) {
        /* CPU register tiles: rows x vector columns of accumulators, k block, group height.
         * The k block searched is the one the search sizes run: tkp where the defaults
         * pack B at all of them (params.c, pack_pays: at the default 1024 and 2048), with
         * packing on or off; else tk. The other is never timed, and a value picked by
         * noise would go to disk. */
        AXIS("tm", 2, 4, 6, 8, 10, 12, 16);
        AXIS("tn", 16, 32, 48, 64, 8, 24);
        if (packs_at_search_sizes(t, &start->mm)) {
            AXIS("tkp", 256, 512, 1024, 2048);
            AXIS("pack", 0, 1);
        } else {
            AXIS("tk", 64, 128, 256, 512, 1024);
        }
        AXIS("wgy", 1, 4, 8, 16, 32, 64);
        AXIS("vw", 4, 8, 16);
        AXIS("wgx", 1, 2, 4);
    } else {
        /* GPU local tiles */
        AXIS("tm", 1, 2, 4, 8);
        AXIS("tn", 1, 2, 4, 8);
        AXIS("tk", 8, 16, 32, 64);
        AXIS("wgx", 4, 8, 16, 32);
        AXIS("wgy", 4, 8, 16, 32);
        AXIS("vw", 1, 2, 4, 8);
    }
#undef AXIS
    return n;
}

/* ---- the final, side-by-side comparison */

typedef struct finalist {
    tune_params p;
    cand c;
    timed r;
    int open;
    double rate[3];    /* at each final size */
    double speedup[3]; /* over the defaults: median of the rounds' time ratios */
} finalist;

static int cmp_seen(const void *a, const void *b)
{
    const struct seen *x = a, *y = b;
    return (x->rate < y->rate) - (x->rate > y->rate);
}

/* The defaults (fin[0]) and the best three distinct candidates, timed
 * together round by round at each final size. */
static void final_round(tune_ctx *t, const tune_params *def, finalist *fin, size_t *nfin)
{
    qsort(t->seen, t->nseen, sizeof *t->seen, cmp_seen);
    size_t n = 0;
    fin[n++].p = *def;
    char dkey[200];
    bench_params_text(t->op, def, dkey, sizeof dkey);
    for (size_t i = 0; i < t->nseen && n < 4; i++) {
        if (t->seen[i].rate <= 0 || strcmp(t->seen[i].key, dkey) == 0)
            continue;
        int dup = 0;
        for (size_t j = 1; j < n; j++) {
            char k[200];
            bench_params_text(t->op, &fin[j].p, k, sizeof k);
            dup |= strcmp(k, t->seen[i].key) == 0;
        }
        if (!dup)
            fin[n++].p = t->seen[i].p;
    }
    *nfin = n;
    for (size_t i = 0; i < n; i++)
        fin[i].open = cand_open(t, &fin[i].p, &fin[i].c) == CLRT_OK;
    for (size_t sz = 0; sz < t->nfinal; sz++) {
        size_t size = t->final_sizes[sz];
        bench_progress("tuning device %zu %s %s: final comparison at %zu", t->s->info.index, bench_op_name(t->op),
                       bench_dtype_name(t->dbl), size);
        bench_impl run[4];
        double rounds[4][64];
        size_t map[4], m = 0;
        for (size_t i = 0; i < n; i++) {
            if (!fin[i].open || timed_make(t, &fin[i].c, size, &fin[i].r) != CLRT_OK)
                continue;
            run[m] = (bench_impl){.run = bench_run_dev, .arg = &fin[i].r.run, .rounds = rounds[m]};
            map[m++] = i;
        }
        bench_budget b = {1, 5, t->o->quick ? 5 : 11, 1.0, 30};
        bench_measure(run, m, &b);
        for (size_t j = 0; j < m; j++) {
            finalist *f = &fin[map[j]];
            if (run[j].failed || run[j].stats.median <= 0)
                continue;
            f->rate[sz] = work_at(t, size) / run[j].stats.median * 1e-9;
            /* run[0] is the defaults when they opened */
            f->speedup[sz] = map[0] == 0 ? bench_paired_ratio(&run[0], &run[j]) : 0;
        }
        for (size_t i = 0; i < n; i++)
            timed_free(&fin[i].r);
    }
    for (size_t i = 0; i < n; i++) {
        if (fin[i].open) {
            fin[i].p = fin[i].c.fitted; /* what the kernel really ran with */
            cand_close(&fin[i].c);
        }
    }
}

/* Speed over the defaults at every final size (geometric mean); 0 when not
 * measured at one of them. */
static double score_of(const tune_ctx *t, const finalist *f)
{
    double logsum = 0;
    for (size_t i = 0; i < t->nfinal; i++) {
        if (!(f->speedup[i] > 0))
            return 0;
        logsum += log(f->speedup[i]);
    }
    return exp(logsum / (double)t->nfinal);
}

/* The smallest speed-up over the defaults at any final size, by the paired
 * ratios and by the plain medians alike (on a noisy machine the two can
 * disagree; a winner must win by both). */
static double worst_of(const tune_ctx *t, const finalist *f, const finalist *def)
{
    double w = 1e9;
    for (size_t i = 0; i < t->nfinal; i++) {
        if (f->speedup[i] < w)
            w = f->speedup[i];
        double plain = def->rate[i] > 0 ? f->rate[i] / def->rate[i] : 0;
        if (plain < w)
            w = plain;
    }
    return w;
}

/* Tune one (op, dtype). Fills line; returns 1 and *best when the winner
 * beats the default by 2% or more. */
static int tune_one(bench_session *s, const bench_opts *o, int op, int dbl, bench_tuned_line *line,
                    tune_params *best)
{
    tune_ctx t;
    memset(&t, 0, sizeof t);
    t.s = s;
    t.o = o;
    t.op = op;
    t.dbl = dbl;
    t.elem = dbl ? 8 : 4;
    t.facts = s->ctx->facts;
    size_t size = tune_size_of(o, op);
    /* matmul: the tuning size and twice it in the search, and an odd size
     * next to it in the final comparison too (a choice made at one size
     * alone was measured to lose 2x at 4096); add: 1e7, and 1e7+3 */
    t.sizes[t.nsizes++] = size;
    if (op == BENCH_MATMUL && !o->quick)
        t.sizes[t.nsizes++] = 2 * size;
    t.final_sizes[t.nfinal++] = size;
    t.final_sizes[t.nfinal++] = op == BENCH_MATMUL ? size + 7 : size + 3;
    if (op == BENCH_MATMUL && !o->quick)
        t.final_sizes[t.nfinal++] = 2 * size;
    size_t count = 0;
    for (size_t i = 0; i < t.nfinal; i++) {
        size_t c = op == BENCH_MATMUL ? t.final_sizes[i] * t.final_sizes[i] : t.final_sizes[i];
        if (c > count)
            count = c;
    }
    t.ha = malloc(count * t.elem);
    t.hb = malloc(count * t.elem);
    int improved = 0;
    if (!t.ha || !t.hb) {
        snprintf(line->note, sizeof line->note, "out of host memory");
        goto done;
    }
    bench_fill(t.ha, dbl, count, 21);
    bench_fill(t.hb, dbl, count, 22);

    tune_params def, cur;
    bench_params_default(s->ctx, op, dbl, &def);
    bench_params_text(op, &def, line->params_default, sizeof line->params_default);
    double cur_rate = evaluate(&t, &def);
    if (cur_rate <= 0 || !t.last_open) {
        drop_last(&t);
        snprintf(line->note, sizeof line->note, "the default parameters failed here: nothing to tune from");
        goto done;
    }
    adopt_last(&t, cur_rate);
    cur = def;
    axis ax[12];
    size_t nax = axes_for(&t, &def, ax);
    for (int pass = 0; pass < o->tune_passes; pass++) {
        int changed = 0;
        for (size_t a = 0; a < nax; a++) {
            for (size_t v = 0; v < ax[a].n; v++) {
                tune_params p = cur;
                unsigned *f = field(&p, op, ax[a].name);
                if (!f || *f == ax[a].values[v])
                    continue;
                *f = ax[a].values[v];
                double r = evaluate(&t, &p);
                if (r > cur_rate * 1.03 && t.last_open) {
                    adopt_last(&t, r);
                    cur = p;
                    cur_rate = r;
                    changed = 1;
                } else {
                    drop_last(&t);
                }
            }
        }
        if (!changed)
            break;
    }

    if (t.best_open) {
        timed_free_all(t.best_r, t.nsizes);
        cand_close(&t.best);
        t.best_open = 0;
    }
    finalist fin[4];
    size_t nfin = 0;
    memset(fin, 0, sizeof fin);
    final_round(&t, &def, fin, &nfin);
    /* the winner must beat the defaults by 3% over the final sizes together,
     * and lose no more than 3% at any one of them, side by side and by the
     * medians */
    size_t win = 0;
    double best_score = 1.03;
    for (size_t i = 1; i < nfin; i++)
        if (score_of(&t, &fin[i]) > best_score && worst_of(&t, &fin[i], &fin[0]) >= 0.97) {
            win = i;
            best_score = score_of(&t, &fin[i]);
        }
    const char *unit = bench_unit(op);
    line->default_rate = fin[0].rate[0];
    line->tuned_rate = fin[win].rate[0];
    line->speedup = win ? score_of(&t, &fin[win]) : 1.0;
    bench_params_text(op, &fin[win].p, line->params_tuned, sizeof line->params_tuned);
    size_t other = 0;
    for (size_t i = 1; i < nfin; i++)
        if (!other || score_of(&t, &fin[i]) > score_of(&t, &fin[other]))
            other = i;
    const finalist *shown = win ? &fin[win] : other ? &fin[other] : NULL;
    char detail[200] = "";
    size_t used = 0;
    for (size_t i = 0; shown && i < t.nfinal; i++) {
        int w = snprintf(detail + used, sizeof detail - used, "%sx%.2f at %zu (%.1f vs %.1f %s)", i ? ", " : "",
                         shown->speedup[i], t.final_sizes[i], shown->rate[i], fin[0].rate[i], unit);
        if (w < 0 || (size_t)w >= sizeof detail - used)
            break;
        used += (size_t)w;
    }
    if (win != 0) {
        *best = fin[win].p;
        improved = 1;
        snprintf(line->note, sizeof line->note, "side by side with the defaults: %s", detail);
    } else {
        memcpy(line->params_tuned, line->params_default, sizeof line->params_tuned);
        snprintf(line->note, sizeof line->note,
                 "nothing beat the defaults by 3%% at every size side by side (the best other: %s); no entry",
                 other ? detail : "none");
    }
done:
    line->tried = t.tried;
    line->rejected = t.rejected;
    line->wrong = t.wrong;
    line->kept_why = t.kept_why;
    memcpy(line->rejected_why, t.rejected_why, sizeof line->rejected_why);
    free(t.ha);
    free(t.hb);
    free(t.seen);
    return improved;
}

int bench_tune_device(bench_session *s, size_t dev_index, const bench_opts *o, bench_report *r)
{
    clrt_tuned_set set;
    /* keep what an earlier tuning found for what is not tuned now */
    if (clrt__tuned_load(&s->info, &s->ctx->facts, &set) != 1)
        memset(&set, 0, sizeof set);
    int any = 0;
    size_t first_line = r->ntuned;
    for (int op = BENCH_MATMUL; op >= BENCH_ADD; op--) {
        if (!(op == BENCH_MATMUL ? o->run_matmul : o->run_add))
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
            tune_params best;
            int cop = op == BENCH_MATMUL ? CLRT_OP_MATMUL : CLRT_OP_ADD;
            int improved = tune_one(s, o, op, dbl, line, &best);
            if (op == BENCH_MATMUL) {
                set.have_matmul[dbl] = improved;
                if (improved)
                    set.matmul[dbl] = best.mm;
            } else {
                set.have_add[dbl] = improved;
                if (improved)
                    set.add[dbl] = best.add;
            }
            if (improved)
                snprintf(set.comment[cop][dbl], sizeof set.comment[cop][dbl],
                         "%s %s: %.1f %s at %zu, default %.1f (clrt-bench --tune)", bench_op_name(op),
                         dbl ? "float64" : "float32", line->tuned_rate, bench_unit(op), tune_size_of(o, op),
                         line->default_rate);
            else
                set.comment[cop][dbl][0] = '\0';
            any = 1;
        }
    }
    if (!any)
        return -1;
    if (o->tune_dry_run)
        return 0;
    char path[4300];
    int have_path = o->tune_file ? snprintf(path, sizeof path, "%s", o->tune_file) > 0
                                 : clrt__tuned_path(&s->info, 1, path, sizeof path) == 0;
    int written = have_path && clrt__tuned_write(path, &s->info, &set) == 0;
    if (!written)
        fprintf(stderr, "clrt-bench: cannot write the tuned parameters to %s\n", have_path ? path : "(no folder)");
    for (size_t i = first_line; i < r->ntuned; i++) {
        r->tuned[i].written = written;
        snprintf(r->tuned[i].path, sizeof r->tuned[i].path, "%.511s", have_path ? path : "");
    }
    if (o->tune_file && written && !getenv("CLRT_TUNED_FILE"))
        fprintf(stderr, "clrt-bench: tuned parameters written to %s; clrt reads them from there only with "
                        "CLRT_TUNED_FILE=%s\n",
                o->tune_file, o->tune_file);
    return written ? 0 : -1;
}
