/* The tuner (clrt_tune_run, include/clrt/clrt_tune.h).
 *
 * A coordinate descent from the device's defaults: one parameter at a time
 * takes each value of its search list (kernels/params.h: from the kernel's X-macro
 * list), the rest fixed; a candidate becomes the new best when it is more
 * than 3% faster; passes repeat until one changes nothing. Every candidate is
 * checked first (the kernel's rules), then built in a context of its own
 * through the per-context override, its results compared with the host at
 * shapes that take every edge path (tune/work.c), and only then timed. A
 * candidate that fails to build, does not fit, or computes a wrong result is
 * rejected, never kept.
 *
 * Times taken at different moments drift on a shared machine, so every
 * candidate is timed side by side (interleaved) with the best so far, and the
 * final choice re-times the defaults and the best three together at the
 * timing size, an odd size next to it and (unless quick) twice it. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "hostref/ref.h"
#include "runtime/context.h"
#include "runtime/kcache.h"
#include "tune/clock.h"
#include "tune/tune.h"
#include "tune/work.h"

enum { MAX_SIZES = 3, MAX_FINAL = 4, KEY = 256 };

/* A context whose kernel runs with one parameter set, and that set after fitting. */
typedef struct cand {
    clrt_context *ctx;
    clrt_queue *q;
    clrt__pvals fitted;
} cand;

/* A candidate's operands at one timing size, and their timing. */
typedef struct timed {
    clrt__work w;
    clrt__timed_run r;
} timed;

typedef struct seen {
    char key[KEY];
    clrt__pvals p;
    double score; /* speed relative to the defaults; 0 = rejected */
} seen;

typedef struct tuner {
    clrt_context *ctx; /* the caller's: its device */
    int id, dtype;
    const clrt__kernel_def *def;
    const clrt_tune_options *o;
    clrt_tune_result *out;
    clrt__device_entry dev;
    size_t sizes[MAX_SIZES], nsizes;      /* timed in the search */
    size_t final_sizes[MAX_SIZES], nfinal; /* ... and in the final comparison */
    void *ha, *hb;                         /* host operands, large enough for every size */
    cand best, last;
    timed best_t[MAX_SIZES], last_t[MAX_SIZES];
    int best_open, last_open;
    double best_score;
    seen *seen;
    size_t nseen, capseen;
} tuner;

static void progress(const tuner *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void progress(const tuner *t, const char *fmt, ...)
{
    if (!t->o->progress)
        return;
    char line[400];
    int n = snprintf(line, sizeof line, "tuning %s %s on %s: ", t->def->name, clrt__dtype_word(t->dtype),
                     t->dev.info.name);
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof line)
        vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    t->o->progress(t->o->user, line);
}

static void key_of(const tuner *t, const clrt__pvals *p, char *key)
{
    if (clrt__params_text(t->def, p, key, KEY) != 0)
        key[0] = '\0';
}

static seen *find_seen(tuner *t, const char *key)
{
    for (size_t i = 0; i < t->nseen; i++)
        if (strcmp(t->seen[i].key, key) == 0)
            return &t->seen[i];
    return NULL;
}

static void remember(tuner *t, const char *key, const clrt__pvals *p, double score)
{
    if (t->nseen == t->capseen) {
        size_t cap = t->capseen ? t->capseen * 2 : 64;
        seen *grown = realloc(t->seen, cap * sizeof *grown);
        if (!grown)
            return;
        t->seen = grown;
        t->capseen = cap;
    }
    seen *e = &t->seen[t->nseen++];
    snprintf(e->key, sizeof e->key, "%s", key);
    e->p = *p;
    e->score = score;
}

/* Count a rejected candidate, and keep why for the report: the first few
 * reasons, and every wrong result ahead of the rest (a wrong result from
 * parameters the kernel accepts is a kernel bug, never to be lost). */
static void reject(tuner *t, const char *key, const char *why, int wrong)
{
    clrt_tune_result *r = t->out;
    size_t slot = r->nreasons < CLRT_TUNE_REASONS ? r->nreasons++ : CLRT_TUNE_REASONS;
    for (size_t i = CLRT_TUNE_REASONS; slot == CLRT_TUNE_REASONS && wrong && i-- > 0;)
        if (!strstr(r->reasons[i], "WRONG RESULT"))
            slot = i;
    if (slot < CLRT_TUNE_REASONS)
        snprintf(r->reasons[slot], sizeof r->reasons[0], "%.90s: %.160s", key, why);
    r->rejected++;
    r->wrong += wrong != 0;
}

static void cand_close(cand *c)
{
    clrt_queue_destroy(c->q);
    clrt_context_destroy(c->ctx);
    memset(c, 0, sizeof *c);
}

/* A new context on the device, its kernel built with p (then fitted). */
static int cand_open(tuner *t, const clrt__pvals *p, cand *c)
{
    static const char func[] = "clrt_tune_run";
    memset(c, 0, sizeof *c);
    int st = clrt__context_open(&c->ctx, &t->dev, func);
    if (st == CLRT_OK) {
        c->ctx->no_disk_cache = 1;
        st = clrt_queue_create(&c->q, c->ctx);
    }
    if (st == CLRT_OK)
        clrt__kcache_override(c->ctx, t->id, t->dtype, p);
    clrt__built *b;
    if (st == CLRT_OK)
        st = clrt__kcache_get(c->ctx, t->id, t->dtype, 0, func, &b);
    if (st != CLRT_OK) {
        cand_close(c);
        return st;
    }
    c->fitted = b->p;
    return CLRT_OK;
}

/* Shapes that take every path of the kernel with c's parameters. 0 right. */
static int verify(tuner *t, cand *c, char *why, size_t cap)
{
    clrt__shape shapes[8];
    size_t n = clrt__work_check_shapes(t->id, shapes, 8);
    for (size_t i = 0; i < n; i++)
        if (clrt__work_verify(t->id, t->dtype, c->ctx, c->q, shapes[i], shapes[i].m, why, cap) != 0)
            return -1;
    n = clrt__work_param_shapes(t->id, t->dtype, &t->dev.facts, &c->fitted, shapes, 8);
    for (size_t i = 0; i < n; i++) /* large: 16 rows spread over it */
        if (clrt__work_verify(t->id, t->dtype, c->ctx, c->q, shapes[i], 16, why, cap) != 0)
            return -1;
    return 0;
}

static void timed_free(timed *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        clrt__work_free(&x[i].w);
}

static int timed_make(tuner *t, cand *c, size_t size, timed *x)
{
    memset(x, 0, sizeof *x);
    int st = clrt__work_make(&x->w, t->id, t->dtype, c->ctx, c->q, clrt__work_shape(t->id, size), t->ha, t->hb);
    x->r.run = clrt__work_run;
    x->r.arg = &x->w;
    return st;
}

/* Evaluate p: check, build, verify, then time it side by side with the best
 * so far at each search size. Returns its score (speed relative to the
 * defaults: the best's score times the geometric mean of the paired
 * speed-ups over the best; the first evaluation, the defaults, scores 1), 0
 * when rejected. A candidate that scored stays open in t->last. *status: the
 * failure of a candidate that could not be built or run (for the defaults). */
static double evaluate(tuner *t, const clrt__pvals *p, int *status)
{
    char key[KEY], why[300];
    t->last_open = 0;
    *status = CLRT_OK;
    key_of(t, p, key);
    seen *e = find_seen(t, key);
    if (e)
        return e->score;
    t->out->tried++;
    if (clrt__params_check(t->def, &t->dev.facts, clrt__dtype_size(t->dtype), p, why, sizeof why) != 0) {
        *status = CLRT_EINVAL;
        reject(t, key, why, 0);
        remember(t, key, p, 0);
        return 0;
    }
    progress(t, "candidate %zu: %s", t->out->tried, key);
    cand *c = &t->last;
    double score = 0;
    int st = cand_open(t, p, c);
    if (st != CLRT_OK) {
        *status = st;
        snprintf(why, sizeof why, "%s: %.200s", clrt_status_name(st), clrt_error_message());
        reject(t, key, why, 0);
        remember(t, key, p, 0);
        return 0;
    }
    /* what fitting made of it: the same as one evaluated before? */
    char fkey[KEY];
    key_of(t, &c->fitted, fkey);
    seen *fe = strcmp(fkey, key) ? find_seen(t, fkey) : NULL;
    if (fe) {
        score = fe->score;
    } else if (verify(t, c, why, sizeof why) != 0) {
        *status = CLRT_EDEVICE;
        reject(t, key, why, strncmp(why, "WRONG RESULT", 12) == 0);
    } else {
        double logsum = 0;
        int ok = 1;
        for (size_t i = 0; i < t->nsizes && ok; i++) {
            ok = timed_make(t, c, t->sizes[i], &t->last_t[i]) == CLRT_OK;
            if (!ok || !t->best_open)
                continue; /* the defaults: the reference everything is scored against */
            clrt__timed_run runs[2] = {t->best_t[i].r, t->last_t[i].r};
            clrt__time_rounds(runs, 2, 1, 3, t->o->quick ? 3 : 7, 0.05, 10);
            double sp = clrt__paired_ratio(&runs[0], &runs[1]);
            ok = sp > 0;
            logsum += ok ? log(sp) : 0;
        }
        if (ok) {
            score = t->best_open ? t->best_score * exp(logsum / (double)t->nsizes) : 1.0;
            t->last_open = 1;
        } else {
            *status = CLRT_EDEVICE;
            snprintf(why, sizeof why, "failed at a timing size: %.200s", clrt_error_message());
            reject(t, key, why, 0);
            timed_free(t->last_t, t->nsizes);
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
static void adopt_last(tuner *t, double score)
{
    if (t->best_open) {
        timed_free(t->best_t, t->nsizes);
        cand_close(&t->best);
    }
    t->best = t->last;
    memcpy(t->best_t, t->last_t, sizeof t->best_t);
    /* the timed runs point at their own work: fix the copies */
    for (size_t i = 0; i < t->nsizes; i++)
        t->best_t[i].r.arg = &t->best_t[i].w;
    memset(t->last_t, 0, sizeof t->last_t);
    t->best_open = 1;
    t->best_score = score;
    t->last_open = 0;
}

static void drop_last(tuner *t)
{
    if (t->last_open) {
        timed_free(t->last_t, t->nsizes);
        cand_close(&t->last);
        t->last_open = 0;
    }
}

/* ---- the final, side-by-side comparison */

typedef struct finalist {
    clrt__pvals p;
    cand c;
    int open;
    double rate[MAX_SIZES];    /* at each final size */
    double speedup[MAX_SIZES]; /* over the defaults: median of the rounds' time ratios */
} finalist;

static int cmp_seen(const void *a, const void *b)
{
    const seen *x = a, *y = b;
    return (x->score < y->score) - (x->score > y->score);
}

/* The defaults (fin[0]) and the best three distinct candidates, timed
 * together round by round at each final size. */
static size_t final_round(tuner *t, const clrt__pvals *def, finalist *fin)
{
    qsort(t->seen, t->nseen, sizeof *t->seen, cmp_seen);
    size_t n = 0;
    char dkey[KEY];
    key_of(t, def, dkey);
    fin[n++].p = *def;
    for (size_t i = 0; i < t->nseen && n < MAX_FINAL; i++) {
        if (t->seen[i].score <= 0 || strcmp(t->seen[i].key, dkey) == 0)
            continue;
        int dup = 0;
        for (size_t j = 1; j < n; j++) {
            char k[KEY];
            key_of(t, &fin[j].p, k);
            dup |= strcmp(k, t->seen[i].key) == 0;
        }
        if (!dup)
            fin[n++].p = t->seen[i].p;
    }
    for (size_t i = 0; i < n; i++)
        fin[i].open = cand_open(t, &fin[i].p, &fin[i].c) == CLRT_OK;
    for (size_t sz = 0; sz < t->nfinal; sz++) {
        const size_t size = t->final_sizes[sz];
        progress(t, "final comparison at %zu", size);
        timed x[MAX_FINAL];
        clrt__timed_run runs[MAX_FINAL];
        size_t map[MAX_FINAL], m = 0;
        for (size_t i = 0; i < n; i++) {
            if (!fin[i].open || timed_make(t, &fin[i].c, size, &x[m]) != CLRT_OK)
                continue;
            runs[m] = x[m].r;
            map[m++] = i;
        }
        clrt__time_rounds(runs, m, 1, 5, t->o->quick ? 5 : 11, 1.0, 30);
        const double work = clrt__work_amount(t->id, t->dtype, clrt__work_shape(t->id, size));
        for (size_t j = 0; j < m; j++) {
            finalist *f = &fin[map[j]];
            if (runs[j].failed || runs[j].median <= 0)
                continue;
            f->rate[sz] = work / runs[j].median * 1e-9;
            /* runs[0] is the defaults when they opened */
            f->speedup[sz] = map[0] == 0 ? clrt__paired_ratio(&runs[0], &runs[j]) : 0;
        }
        timed_free(x, m);
    }
    for (size_t i = 0; i < n; i++)
        if (fin[i].open) {
            fin[i].p = fin[i].c.fitted; /* what the kernel really ran with */
            cand_close(&fin[i].c);
        }
    return n;
}

/* Speed over the defaults at every final size (geometric mean); 0 when not
 * measured at one of them. */
static double score_of(const tuner *t, const finalist *f)
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
static double worst_of(const tuner *t, const finalist *f, const finalist *def)
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

/* The descent from the defaults; the best stays open in t->best. */
static void descend(tuner *t, const clrt__pvals *def)
{
    clrt__pvals cur = *def;
    double cur_score = t->best_score;
    for (int pass = 0; pass < t->o->passes; pass++) {
        int changed = 0;
        for (size_t i = 0; i < t->def->nparams; i++) {
            unsigned values[32];
            size_t nv = clrt__param_search(t->def, def, i, values, 32);
            if (nv && t->def->searched &&
                !t->def->searched(&t->dev.facts, clrt__dtype_size(t->dtype), def, i, t->sizes, t->nsizes))
                nv = 0;
            for (size_t v = 0; v < nv; v++) {
                if (cur.v[i] == values[v])
                    continue;
                clrt__pvals p = cur;
                p.v[i] = values[v];
                int st;
                double s = evaluate(t, &p, &st);
                if (s > cur_score * 1.03 && t->last_open) {
                    adopt_last(t, s);
                    cur = p;
                    cur_score = s;
                    changed = 1;
                } else {
                    drop_last(t);
                }
            }
        }
        if (!changed)
            break;
    }
}

/* Pick the winner of the final round and fill the result. */
static void conclude(tuner *t, const finalist *fin, size_t nfin)
{
    clrt_tune_result *r = t->out;
    size_t win = 0, other = 0;
    double best = 1.03;
    /* the winner must beat the defaults by 3% over the final sizes together,
     * and lose no more than 3% at any one of them, side by side and by the medians */
    for (size_t i = 1; i < nfin; i++) {
        if (score_of(t, &fin[i]) > best && worst_of(t, &fin[i], &fin[0]) >= 0.97) {
            win = i;
            best = score_of(t, &fin[i]);
        }
        if (!other || score_of(t, &fin[i]) > score_of(t, &fin[other]))
            other = i;
    }
    r->default_rate = fin[0].rate[0];
    r->best_rate = fin[win].rate[0];
    r->speedup = win ? score_of(t, &fin[win]) : 1.0;
    r->improved = win != 0;
    clrt__params_text(t->def, &fin[0].p, r->defaults, sizeof r->defaults);
    clrt__params_text(t->def, &fin[win].p, r->best, sizeof r->best);
    const finalist *shown = win ? &fin[win] : other ? &fin[other] : NULL;
    char detail[240] = "";
    size_t used = 0;
    for (size_t i = 0; shown && i < t->nfinal; i++) {
        int w = snprintf(detail + used, sizeof detail - used, "%sx%.2f at %zu (%.1f vs %.1f %s)", i ? ", " : "",
                         shown->speedup[i], t->final_sizes[i], shown->rate[i], fin[0].rate[i], r->unit);
        if (w < 0 || (size_t)w >= sizeof detail - used)
            break;
        used += (size_t)w;
    }
    if (win)
        snprintf(r->note, sizeof r->note, "side by side with the defaults: %s", detail);
    else
        snprintf(r->note, sizeof r->note,
                 "nothing beat the defaults by 3%% at every size side by side (the best other: %s)",
                 other ? detail : "none");
    snprintf(r->summary, sizeof r->summary, "%s %s: %.1f %s at %zu, default %.1f (clrt_tune_run)", t->def->name,
             clrt__dtype_word(t->dtype), r->best_rate, r->unit, t->final_sizes[0], r->default_rate);
}

/* Whether the timing sizes made from size (below: it, an odd size next to it,
 * twice it) and their operands' bytes are size_t: a size near SIZE_MAX
 * wrapped them to a small allocation that the host fill then overran. */
static int size_fits(int id, size_t size, size_t elem)
{
    if (size > SIZE_MAX / 2 - 8)
        return 0;
    const size_t sizes[] = {size, size + 7, 2 * size};
    for (int i = 0; i < 3; i++) {
        const clrt__shape sh = clrt__work_shape(id, sizes[i]);
        const size_t k = sh.k ? sh.k : 1;
        size_t bytes;
        if (clrt__matrix_bytes(sh.m, sh.n, elem, &bytes) != 0 || clrt__matrix_bytes(sh.m, k, elem, &bytes) != 0 ||
            clrt__matrix_bytes(k, sh.n, elem, &bytes) != 0)
            return 0;
    }
    return 1;
}

void clrt_tune_options_init(clrt_tune_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->version = CLRT_TUNE_OPTIONS_VERSION;
    o->passes = 2;
}

int clrt_tune_run(clrt_context *ctx, const char *kernel, clrt_dtype dtype, const clrt_tune_options *o,
                  clrt_tune_result *out)
{
    static const char func[] = "clrt_tune_run";
    clrt_tune_options dflt;
    clrt_tune_options_init(&dflt);
    tuner t;
    memset(&t, 0, sizeof t);
    int status = clrt__tune_target(ctx, kernel, dtype, func, &t.id);
    if (status == CLRT_OK && !out)
        status = clrt__fail(CLRT_EINVAL, func, "out is NULL");
    if (status == CLRT_OK && !clrt__work_known(t.id))
        status = clrt__fail(CLRT_EUNSUPPORTED, func,
                            "kernel '%s' has no tuner operation yet; set its parameters with clrt_tune_override",
                            kernel);
    if (status == CLRT_OK && o && (o->version < 1 || o->version > CLRT_TUNE_OPTIONS_VERSION))
        status = clrt__fail(CLRT_EINVAL, func, "options of version %u (use clrt_tune_options_init)", o->version);
    if (status == CLRT_OK && o && o->size && !size_fits(t.id, o->size, clrt__dtype_size((int)dtype)))
        status = clrt__fail(CLRT_EINVAL, func, "o->size %zu is too large: the operands at twice that size overflow size_t",
                            o->size);
    if (status == CLRT_OK)
        status = clrt__check_usable(ctx, func);
    if (status != CLRT_OK)
        return status;
    memset(out, 0, sizeof *out);
    t.ctx = ctx;
    t.dtype = (int)dtype;
    t.def = clrt__kernel_at(t.id);
    t.o = o ? o : &dflt;
    t.out = out;
    out->unit = clrt__work_unit(t.id);
    t.dev.info = ctx->info;
    t.dev.facts = ctx->facts;
    t.dev.device = ctx->device;
    t.dev.platform = ctx->platform;

    /* the timing size and twice it in the search (products), an odd size next
     * to it in the final comparison too: a choice made at one size alone was
     * measured to lose 2x at 4096 */
    const int product = t.id == CLRT__K_MATMUL;
    const size_t size = t.o->size ? t.o->size : clrt__work_default_size(t.id);
    t.sizes[t.nsizes++] = size;
    if (product && !t.o->quick)
        t.sizes[t.nsizes++] = 2 * size;
    t.final_sizes[t.nfinal++] = size;
    t.final_sizes[t.nfinal++] = size + (product ? 7 : 3);
    if (product && !t.o->quick)
        t.final_sizes[t.nfinal++] = 2 * size;
    size_t count = 0;
    for (size_t i = 0; i < t.nfinal; i++) {
        const clrt__shape sh = clrt__work_shape(t.id, t.final_sizes[i]);
        size_t c = product ? t.final_sizes[i] * t.final_sizes[i] : sh.m * sh.n;
        count = c > count ? c : count;
    }
    const size_t elem = clrt__dtype_size(t.dtype);
    t.ha = malloc(count * elem);
    t.hb = malloc(count * elem);
    if (!t.ha || !t.hb) {
        status = clrt__fail(CLRT_ENOMEM, func, "out of host memory");
        snprintf(out->note, sizeof out->note, "out of host memory");
        goto done;
    }
    clrt__ref_fill(t.ha, (clrt_dtype)t.dtype, count, 21);
    clrt__ref_fill(t.hb, (clrt_dtype)t.dtype, count, 22);

    clrt__pvals def;
    t.def->defaults(&ctx->facts, elem, &def);
    clrt__params_text(t.def, &def, out->defaults, sizeof out->defaults);
    double s = evaluate(&t, &def, &status);
    if (s <= 0 || !t.last_open) {
        drop_last(&t);
        if (status == CLRT_OK)
            status = CLRT_EDEVICE;
        snprintf(out->note, sizeof out->note, "the default parameters failed here (%s): nothing to tune from; %.200s",
                 clrt_status_name(status), out->nreasons ? out->reasons[0] : "");
        clrt__fail(status, func, "%s", out->note);
        goto done;
    }
    adopt_last(&t, s);
    descend(&t, &def);
    if (t.best_open) {
        timed_free(t.best_t, t.nsizes);
        cand_close(&t.best);
        t.best_open = 0;
    }
    finalist fin[MAX_FINAL];
    memset(fin, 0, sizeof fin);
    conclude(&t, fin, final_round(&t, &def, fin));
    status = CLRT_OK;
done:
    free(t.ha);
    free(t.hb);
    free(t.seen);
    return status;
}
