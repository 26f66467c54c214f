/* Training and prediction (see train/run.h): the loop of the article's
 * script, on the device.
 *
 * Each epoch the training images are put on the device once, in that
 * epoch's shuffled order, so that a mini-batch is a view of consecutive rows
 * and a step moves no data. Each step's loss goes to its own row of a device
 * buffer; the running loss is read and summed (in double, in order, like the
 * article's loss.item() sum) only when a line is printed. */
#include "run.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clrt/clrt_event.h>

#include "common/build_notice.h"
#include "common/output.h"
#include "data.h"
#include "train_device.h"
#include "json.h"
#include "net.h"
#include "profile.h"
#include "progress.h"
#include "shuffle.h"
#include "state.h"

/* Set by SIGINT and SIGTERM (to the signal's number): the run stops after
 * the mini-batch in flight, as --stop-after would (saving with --save), so a
 * Ctrl-C loses nothing. Once training starts the handler stays until the
 * process exits: a second signal (a double Ctrl-C, a supervisor repeating
 * itself) is noted again, never the default action that would end the
 * process with the save or a report half written; what follows the save is
 * quick (the reports, freeing the device), and the exit status says which
 * signal stopped the run (130, 143). */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

/* SIGINT and SIGTERM stop the run (on_signal) from now on. */
static void catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; /* the device's and the file's calls go on */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}


/* Largest number of losses kept on the device between two reads. */
#define LOSS_ROWS_MAX 4096

typedef struct run {
    const train_opts *o;
    const train_hooks *h; /* the device and the step (hooks.h) */
    clrt_context *ctx;
    clrt_queue *q;
    clrt_dtype dt;
    train_net *net;
    train_set train, test;
    clrt_buffer *x, *y;        /* the training set on the device, this epoch's order */
    clrt_buffer *tx, *ty;      /* the test set, rows rounded up to TRAIN_EVAL_ROWS */
    clrt_buffer *losses;       /* a loss per step since the last read */
    size_t nloss_rows, kept;   /* its rows; how many hold unread losses */
    double running;            /* losses read since the last printed line, summed */
    double *printed;           /* every printed running loss */
    size_t nprinted;
    size_t every;              /* a loss line every this many mini-batches: --print-every, at most an epoch's */
    clrt_event *prev;          /* the last mini-batch's end: the next one waits for it (pace) */
    train_profile prof;        /* --profile's timings (prof.every 0: off) */
    double epoch_t0;           /* --profile: when this epoch's shuffle began */
    double t0;                 /* when the run began: the origin of its total time */
    char device[600], dataset[4200], err[4600];
} run;

static size_t round_up(size_t n, size_t m)
{
    return (n + m - 1) / m * m;
}

/* running += the kept losses, in order. */
static int flush_losses(run *r)
{
    if (!r->kept)
        return CLRT_OK;
    double host[LOSS_ROWS_MAX];
    clrt_buffer *v = NULL;
    int st = clrt_buffer_view(&v, r->losses, 0, 0, r->kept, 1);
    if (st == CLRT_OK) {
        if (r->dt == CLRT_FLOAT64)
            st = clrt_buffer_read(r->q, v, host, r->kept);
        else {
            float f[LOSS_ROWS_MAX];
            st = clrt_buffer_read(r->q, v, f, r->kept);
            for (size_t i = 0; i < r->kept; i++)
                host[i] = f[i];
        }
        clrt_buffer_destroy(v);
    }
    for (size_t i = 0; st == CLRT_OK && i < r->kept; i++)
        r->running += host[i];
    r->kept = 0;
    return st;
}

/* Classify the test set on the device: *correct of r->test.count. */
static int evaluate(run *r, train_net *net, size_t *correct)
{
    clrt_buffer *pred = NULL;
    const size_t rows = clrt_buffer_rows(r->tx);
    int32_t *p = malloc(rows * sizeof *p);
    int st = p ? clrt_buffer_create(&pred, r->ctx, CLRT_INT32, rows, 1) : CLRT_ENOMEM;
    if (st == CLRT_OK)
        st = train_net_classify(net, pred, r->tx, TRAIN_EVAL_ROWS);
    if (st == CLRT_OK)
        st = clrt_buffer_read(r->q, pred, p, rows);
    *correct = 0;
    for (size_t i = 0; st == CLRT_OK && i < r->test.count; i++)
        *correct += p[i] == r->test.labels[i];
    if (pred)
        clrt_buffer_destroy(pred);
    free(p);
    return st;
}

/* The saved shuffle state is the one this seed reaches at the saved epoch
 * over these images (replayed: at most TRAIN_SHUFFLE_REPLAY_MAX draws, past
 * which it is taken as it is). */
static int check_resume_shuffle(const run *r, const train_state *s)
{
    uint64_t want;
    if (train_shuffle_state_at(s->seed, r->train.count, s->epoch, &want) != 0 || want == s->shuffle)
        return 0;
    fprintf(stderr,
            "clrt-train: %s: corrupt: its shuffle state is not the one --seed %llu reaches at epoch %llu over %zu "
            "images\n",
            r->o->resume, (unsigned long long)s->seed, (unsigned long long)s->epoch + 1, r->train.count);
    return 2;
}

/* The settings a resumed run must share with the run that saved. */
static int check_resume(const run *r, const train_state *s)
{
    const train_opts *o = r->o;
    const char *what = NULL;
    char saved[64] = "", now[64] = "";
    if (s->dt != r->dt) {
        what = "--fp64";
        snprintf(saved, sizeof saved, "%s", s->dt == CLRT_FLOAT64 ? "on" : "off");
        snprintf(now, sizeof now, "%s", o->f64 ? "on" : "off");
    } else if (s->batch != o->batch) {
        what = "--batch";
        snprintf(saved, sizeof saved, "%llu", (unsigned long long)s->batch);
        snprintf(now, sizeof now, "%zu", o->batch);
    } else if (s->seed != o->seed) {
        what = "--seed";
        snprintf(saved, sizeof saved, "%llu", (unsigned long long)s->seed);
        snprintf(now, sizeof now, "%llu", (unsigned long long)o->seed);
    } else if (s->lr != o->lr) {
        what = "--lr";
        snprintf(saved, sizeof saved, "%g", s->lr);
        snprintf(now, sizeof now, "%g", o->lr);
    } else if (s->momentum != o->momentum) {
        what = "--momentum";
        snprintf(saved, sizeof saved, "%g", s->momentum);
        snprintf(now, sizeof now, "%g", o->momentum);
    } else if (s->ntrain != r->train.count) {
        what = "training images (--data, --limit)";
        snprintf(saved, sizeof saved, "%llu", (unsigned long long)s->ntrain);
        snprintf(now, sizeof now, "%zu", r->train.count);
    }
    if (!what)
        return check_resume_shuffle(r, s);
    fprintf(stderr, "clrt-train: %s: saved with %s %s, this run has %s; resume with the same settings\n", o->resume,
            what, saved, now);
    return 2;
}

static int save_state(run *r, uint64_t epoch, uint64_t index, uint64_t shuffle)
{
    train_state s = {0};
    int st = train_state_from_net(&s, r->net);
    if (st != CLRT_OK) {
        train_state_free(&s);
        return train_device_fail("reading the weights", st);
    }
    s.seed = r->o->seed;
    s.batch = r->o->batch;
    s.ntrain = r->train.count;
    s.lr = r->o->lr;
    s.momentum = r->o->momentum;
    s.epoch = epoch;
    s.index = index;
    s.shuffle = shuffle;
    s.running = r->running;
    int rc = train_state_save(r->o->save, &s, r->err, sizeof r->err);
    train_state_free(&s);
    if (rc)
        fprintf(stderr, "clrt-train: %s\n", r->err);
    return rc;
}

static void pace_end(run *r);

static void cleanup(run *r)
{
    pace_end(r);
    clrt_buffer *b[] = {r->x, r->y, r->tx, r->ty, r->losses};
    for (size_t i = 0; i < sizeof b / sizeof *b; i++)
        if (b[i])
            clrt_buffer_destroy(b[i]);
    train_net_destroy(r->net);
    if (r->q)
        clrt_queue_destroy(r->q);
    if (r->ctx)
        clrt_context_destroy(r->ctx);
    train_set_free(&r->train);
    train_set_free(&r->test);
    free(r->printed);
}

/* The test set on the device (zero rows after it up to a whole number of
 * TRAIN_EVAL_ROWS). */
static int upload_test(run *r)
{
    int st = clrt_buffer_create(&r->tx, r->ctx, r->dt, round_up(r->test.count, TRAIN_EVAL_ROWS), TRAIN_IMAGE_SIZE);
    if (st == CLRT_OK)
        st = train_device_upload(r->q, r->tx, NULL, &r->test, NULL, r->dt);
    return st;
}

/* Where a training run is: the epochs and mini-batches it runs, how far it
 * has come, and where it stopped (--stop-after, a signal). */
typedef struct schedule {
    size_t spe;             /* mini-batches an epoch */
    unsigned e0;            /* the first epoch of this run */
    size_t i0;              /* its first mini-batch (a resumed run) */
    uint64_t shuffle;       /* the shuffle's state */
    size_t total;           /* mini-batches this run has to do */
    size_t done, images;    /* how many it did, of how many images */
    int stop;               /* stopped before the end */
    unsigned stop_epoch;    /* then where a resumed run continues */
    size_t stop_index;
    uint64_t stop_shuffle;
    double secs;            /* the training's time */
} schedule;

/* The host runs at most one mini-batch ahead of the device: after queuing
 * mini-batch i it waits for i - 1 to end (the device then runs i while the
 * host queues i + 1, so it never waits for the host). A stop (SIGINT,
 * SIGTERM, --stop-after) then ends the run after the mini-batch in flight,
 * as the usage says, not after the thousands a free-running host would have
 * queued by then (the losses are read only every --print-every). */
static int pace(run *r)
{
    clrt_event *ev = NULL;
    int st = clrt_event_record(&ev, r->q);
    if (st == CLRT_OK && r->prev)
        st = clrt_event_wait(r->prev);
    clrt_event_destroy(r->prev);
    r->prev = ev;
    return st;
}

/* The last mini-batch's event released (the queue is finished or the run
 * failed); before the queue goes. */
static void pace_end(run *r)
{
    clrt_event_destroy(r->prev);
    r->prev = NULL;
}

/* The running loss of the last r->every steps, printed. */
static int print_loss(run *r, unsigned e, size_t i)
{
    const int st = flush_losses(r);
    if (st != CLRT_OK)
        return st;
    train_progress_clear();
    double l = r->running / (double)r->every;
    printf("[%u, %5zu] loss: %.3f\n", e + 1, i + 1, l);
    fflush(stdout);
    r->printed[r->nprinted++] = l;
    r->running = 0;
    return CLRT_OK;
}

/* One step: `rows` rows from `row` of this epoch's order (views) through
 * the network, its loss into the next row of r->losses. */
static int one_step(run *r, size_t row, size_t rows, size_t done)
{
    const train_opts *o = r->o;
    clrt_buffer *xv = NULL, *yv = NULL, *lv = NULL;
    const int timed = train_profile_wanted(&r->prof, done, rows, o->batch);
    int st = timed ? train_profile_begin(&r->prof) : CLRT_OK;
    if (st == CLRT_OK)
        st = clrt_buffer_view(&xv, r->x, row, 0, rows, TRAIN_IMAGE_SIZE);
    if (st == CLRT_OK)
        st = clrt_buffer_view(&yv, r->y, row, 0, rows, 1);
    if (st == CLRT_OK)
        st = clrt_buffer_view(&lv, r->losses, r->kept, 0, 1, 1);
    if (st == CLRT_OK && timed)
        st = train_profile_mark(&r->prof, TRAIN_PARTS, 0); /* the views: the host's */
    if (st == CLRT_OK)
        st = r->h->step(r->net, xv, yv, lv, o->lr, o->momentum);
    clrt_buffer *vs[] = {xv, yv, lv};
    for (int k = 0; k < 3; k++)
        if (vs[k])
            clrt_buffer_destroy(vs[k]);
    if (st == CLRT_OK && timed)
        st = train_profile_end(&r->prof);
    return st;
}

/* One epoch from mini-batch `first`; a clrt status. When --stop-after (or
 * a signal) ends the run here, sc->stop is set and sc->stop_epoch,
 * sc->stop_index say where a resumed run continues. */
static int epoch_loop(run *r, unsigned e, size_t first, const size_t *order, schedule *sc)
{
    const train_opts *o = r->o;
    const size_t n = r->train.count, spe = sc->spe;
    int st = train_device_upload(r->q, r->x, r->y, &r->train, order, r->dt);
    if (st == CLRT_OK && r->prof.every) {
        /* the shuffle and the upload, done: the host's share of this epoch */
        st = clrt_queue_finish(r->q);
        r->prof.host_epoch += train_now() - r->epoch_t0;
        r->prof.epoch_steps += spe - first;
    }
    for (size_t i = first; st == CLRT_OK && i < spe; i++) {
        const size_t row = i * o->batch, rows = n - row < o->batch ? n - row : o->batch;
        if ((st = one_step(r, row, rows, sc->done)) != CLRT_OK || (st = pace(r)) != CLRT_OK)
            break;
        r->kept++;
        sc->done++;
        sc->images += rows;
        if (sc->done == 1) { /* the first mini-batch done: its kernels' first launches compiled */
            st = clrt_queue_finish(r->q);
            tool_build_notice_wait(0);
            if (st != CLRT_OK)
                break;
        }
        if ((i + 1) % r->every == 0) {
            if ((st = print_loss(r, e, i)) != CLRT_OK)
                break;
        } else if (r->kept == r->nloss_rows)
            st = flush_losses(r);
        if (st == CLRT_OK && train_progress_due(sc->done))
            st = clrt_queue_finish(r->q); /* the line counts what the device has done */
        train_progress_step(e + 1, i + 1, sc->done, sc->images);
        if (st == CLRT_OK && sc->done < sc->total && ((o->stop_after && sc->done == o->stop_after) || interrupted)) {
            st = flush_losses(r);
            sc->stop = 1;
            /* Stopped at an epoch's end: the next epoch starts afresh. */
            sc->stop_epoch = i + 1 == spe ? e + 1 : e;
            sc->stop_index = i + 1 == spe ? 0 : i + 1;
            if (i + 1 == spe)
                r->running = 0;
            break;
        }
    }
    return st;
}

static void run_init(run *r, const train_opts *o, const train_hooks *h)
{
    memset(r, 0, sizeof *r);
    r->o = o;
    r->h = h;
}

/* Where this run starts (a resumed run: where the saved one stopped), how
 * many mini-batches it does, and how many losses the device keeps. */
static void plan(run *r, const train_state *saved, schedule *sc)
{
    const train_opts *o = r->o;
    memset(sc, 0, sizeof *sc);
    sc->spe = (r->train.count + o->batch - 1) / o->batch;
    sc->e0 = o->resume ? (unsigned)saved->epoch : 0;
    sc->i0 = o->resume ? (size_t)saved->index : 0;
    sc->shuffle = o->resume ? saved->shuffle : train_shuffle_start(o->seed);
    r->running = o->resume ? saved->running : 0;
    sc->total = sc->e0 < o->epochs ? (size_t)(o->epochs - sc->e0) * sc->spe - sc->i0 : 0;
    /* a loss line at least once an epoch: an interval longer than an epoch
     * (the article's 2000 on a --limit run) would never come, the count
     * starting again with each epoch */
    r->every = o->print_every < sc->spe ? o->print_every : sc->spe ? sc->spe : 1;
    r->nloss_rows = r->every;
    if (r->nloss_rows > LOSS_ROWS_MAX)
        r->nloss_rows = LOSS_ROWS_MAX;
}

/* The network (with the saved weights when resuming), --profile's marks,
 * the training set's, the losses' and the test set's buffers; a clrt status. */
static int set_up_net(run *r, const train_state *saved)
{
    const train_opts *o = r->o;
    const size_t n = r->train.count;
    size_t cap = o->batch > TRAIN_EVAL_ROWS ? o->batch : TRAIN_EVAL_ROWS;
    int st = train_net_create(&r->net, r->ctx, r->q, r->dt, cap, o->seed);
    if (st == CLRT_OK && o->resume)
        st = train_state_to_net(saved, r->net);
    if (st == CLRT_OK && o->profile) {
        r->prof.q = r->q;
        r->prof.every = o->profile_every;
        r->net->mark = train_profile_mark;
        r->net->mark_arg = &r->prof;
    }
    if (st == CLRT_OK)
        st = clrt_buffer_create(&r->x, r->ctx, r->dt, n, TRAIN_IMAGE_SIZE);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&r->y, r->ctx, CLRT_INT32, n, 1);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&r->losses, r->ctx, r->dt, r->nloss_rows, 1);
    if (st == CLRT_OK)
        st = upload_test(r);
    if (st == CLRT_OK)
        st = clrt_queue_finish(r->q);
    return st;
}

/* Every epoch of the schedule, each in its own shuffled order, until the
 * end or a stop; SIGINT and SIGTERM stop it after the step in flight. */
static int train_epochs(run *r, schedule *sc, size_t *order)
{
    const train_opts *o = r->o;
    int st = CLRT_OK;
    train_progress_start(o->progress, sc->total, sc->spe, o->epochs);
    const double t0 = train_now();
    for (unsigned e = sc->e0; st == CLRT_OK && !sc->stop && e < o->epochs; e++) {
        const uint64_t start_state = sc->shuffle;
        if (r->prof.every) {
            /* the last epoch's steps are not the host's */
            if ((st = clrt_queue_finish(r->q)) != CLRT_OK)
                break;
            r->epoch_t0 = train_now();
        }
        train_shuffle(order, r->train.count, &sc->shuffle);
        if (e != sc->e0 || sc->i0 == 0)
            r->running = 0; /* the article starts each epoch's running loss at 0 */
        r->kept = 0;
        st = epoch_loop(r, e, e == sc->e0 ? sc->i0 : 0, order, sc);
        /* A resumed run redraws this epoch's order from its start state. */
        sc->stop_shuffle = sc->stop_epoch == e ? start_state : sc->shuffle;
    }
    if (st == CLRT_OK)
        st = clrt_queue_finish(r->q);
    pace_end(r);
    sc->secs = train_now() - t0;
    train_progress_clear();
    return st;
}

/* After the training: a stopped run saved (with --save) and said so; a
 * finished one tested and saved. 0, or the exit status of a failure. */
static int conclude(run *r, const schedule *sc, size_t *correct)
{
    const train_opts *o = r->o;
    int rc;
    *correct = 0;
    if (sc->stop) {
        if (o->save && (rc = save_state(r, sc->stop_epoch, sc->stop_index, sc->stop_shuffle)) != 0)
            return rc;
        fprintf(stderr, "clrt-train: %s after %zu mini-batches%s%s\n", interrupted ? "interrupted" : "stopped",
                sc->done, o->save ? "; saved to " : "", o->save ? o->save : "");
        return 0;
    }
    printf("Finished Training\n");
    fflush(stdout);
    int st = evaluate(r, r->net, correct);
    if (st != CLRT_OK)
        return train_device_fail("testing", st);
    printf("test accuracy: %.2f%% (%zu/%zu)\n", 100.0 * (double)*correct / (double)r->test.count, *correct,
           r->test.count);
    fflush(stdout);
    if (o->save && (rc = save_state(r, o->epochs > sc->e0 ? o->epochs : sc->e0, 0, sc->shuffle)) != 0)
        return rc;
    return 0;
}

/* --json: the run's report; 0, or 2 after a message. */
static int write_train_json(run *r, const schedule *sc, size_t correct)
{
    const train_opts *o = r->o;
    const int stop = sc->stop;
    train_report rep = {.device = r->device, .dataset = r->dataset, .epochs = o->epochs, .batch = o->batch,
                        .lr = o->lr, .momentum = o->momentum, .seed = o->seed, .train_images = r->train.count,
                        .losses = r->printed, .nlosses = r->nprinted, .test_correct = stop ? 0 : correct,
                        .test_total = stop ? 0 : r->test.count,
                        .images_per_s = sc->secs > 0 ? (double)sc->images / sc->secs : 0, .train_seconds = sc->secs,
                        .profile = o->profile ? &r->prof : NULL};
    if (train_json_write(o->json, &rep, r->err, sizeof r->err) != 0) {
        fprintf(stderr, "clrt-train: %s\n", r->err);
        return 2;
    }
    return 0;
}

/* Train on the device opened in r, test, save, report. */
static int train_and_test(run *r, const train_state *saved)
{
    const train_opts *o = r->o;
    schedule sc;
    plan(r, saved, &sc);
    const size_t n = r->train.count;
    size_t *order = malloc(n * sizeof *order);
    r->printed = calloc(sc.total / r->every + 2, sizeof *r->printed);
    if (!order || !r->printed) {
        free(order);
        fprintf(stderr, "clrt-train: no memory for %zu images\n", n);
        return 1;
    }
    /* until the first mini-batch is done, a cold run's silence is compiling: timed on stderr */
    tool_build_notice_wait(1);
    int st = set_up_net(r, saved);
    if (st != CLRT_OK) {
        tool_build_notice_wait(0);
        free(order);
        return train_device_fail("setting up the network", st);
    }
    catch_stop_signals();
    st = train_epochs(r, &sc, order);
    tool_build_notice_wait(0);
    free(order);
    int rc = st != CLRT_OK ? train_device_fail("training", st) : 0;
    size_t correct = 0;
    if (rc == 0)
        rc = conclude(r, &sc, &correct);
    if (rc == 0) {
        /* stdout's last line: the whole run, reading the data and building the kernels included */
        printf("total time: %.1f s\n", train_now() - r->t0);
        fflush(stdout);
    }
    if (rc == 0 && o->profile) /* after the contract's lines, on stderr */
        train_profile_print(stderr, &r->prof, o->batch);
    if (rc == 0 && o->json && write_train_json(r, &sc, correct) != 0)
        rc = 2;
    if (rc == 0 && interrupted)
        rc = 128 + interrupted; /* the shell's code for a run ended by that signal */
    return rc;
}

/* --save, --json and --out can be written (a folder is there, a file may
 * be made beside them): found out before the work, not after it. 0, or 2
 * after a message. */
static int check_outputs(const train_opts *o)
{
    const char *outs[] = {o->save, o->json, o->out};
    char err[700];
    for (size_t i = 0; i < sizeof outs / sizeof *outs; i++)
        if (outs[i] && tool_out_check(outs[i], err, sizeof err) != 0) {
            fprintf(stderr, "clrt-train: %s\n", err);
            return 2;
        }
    return 0;
}

int train_run(const train_opts *o, const train_hooks *h)
{
    run r;
    run_init(&r, o, h);
    r.t0 = train_now();
    r.dt = o->f64 ? CLRT_FLOAT64 : CLRT_FLOAT32;
    train_state saved = {0};
    /* Every input is read and checked before anything is computed or written. */
    if (check_outputs(o) != 0)
        return 2;
    if (o->resume && train_state_load(o->resume, &saved, r.err, sizeof r.err)) {
        fprintf(stderr, "clrt-train: %s\n", r.err);
        return 2;
    }
    if (train_data_load(o->data, &r.train, o->limit, &r.test, o->test_limit, r.dataset, sizeof r.dataset, r.err,
                        sizeof r.err)) {
        fprintf(stderr, "clrt-train: %s\n", r.err);
        train_state_free(&saved);
        return 2;
    }
    int rc = o->resume ? check_resume(&r, &saved) : 0;
    if (rc == 0 && r.train.count < o->batch) /* runs, but learns next to nothing: said, not silent */
        fprintf(stderr,
                "clrt-train: only %zu training image%s%s, fewer than one mini-batch of --batch %zu: each epoch is "
                "one step on them, too little to learn from; expect a test accuracy near chance (10%%)\n",
                r.train.count, r.train.count == 1 ? "" : "s", o->limit ? " (--limit)" : " in the data set", o->batch);
    if (rc == 0)
        rc = h->device_open(o->device, &r.ctx, &r.q, r.device, sizeof r.device);
    if (rc == 0)
        rc = train_and_test(&r, &saved);
    train_state_free(&saved);
    cleanup(&r);
    return rc;
}

/* One pass first (the kernels built, the memory touched), so that the
 * timed pass runs from an idle queue. */
static int warm_up(run *r, clrt_buffer *pred)
{
    clrt_buffer *xw = NULL, *pw = NULL;
    int st = clrt_buffer_view(&xw, r->tx, 0, 0, TRAIN_EVAL_ROWS, TRAIN_IMAGE_SIZE);
    if (st == CLRT_OK)
        st = clrt_buffer_view(&pw, pred, 0, 0, TRAIN_EVAL_ROWS, 1);
    if (st == CLRT_OK)
        st = train_net_classify(r->net, pw, xw, TRAIN_EVAL_ROWS);
    if (st == CLRT_OK)
        st = clrt_queue_finish(r->q);
    if (xw)
        clrt_buffer_destroy(xw);
    if (pw)
        clrt_buffer_destroy(pw);
    return st;
}

/* The saved network classifies the test set (or --images) into p (rows
 * entries); *secs: from an idle queue to the classes read back. */
static int classify(run *r, const train_state *saved, int32_t *p, size_t rows, double *secs)
{
    clrt_buffer *pred = NULL;
    int st = p ? train_net_create(&r->net, r->ctx, r->q, r->dt, TRAIN_EVAL_ROWS, 0) : CLRT_ENOMEM;
    if (st == CLRT_OK)
        st = train_state_to_net(saved, r->net);
    if (st == CLRT_OK)
        st = upload_test(r);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&pred, r->ctx, CLRT_INT32, rows, 1);
    tool_build_notice_wait(1); /* the first pass compiles on a cold run */
    if (st == CLRT_OK)
        st = warm_up(r, pred);
    tool_build_notice_wait(0);
    const double t0 = train_now();
    if (st == CLRT_OK)
        st = train_net_classify(r->net, pred, r->tx, TRAIN_EVAL_ROWS);
    if (st == CLRT_OK)
        st = clrt_buffer_read(r->q, pred, p, rows);
    *secs = train_now() - t0;
    if (pred)
        clrt_buffer_destroy(pred);
    return st;
}

/* Each image's class, one a line: to --out (common/output.h), else stdout;
 * 0, or 2 after a message. */
static int write_classes(const char *out, const int32_t *p, size_t count)
{
    tool_out o = {0};
    char err[700];
    if (out && tool_out_open(&o, out, err, sizeof err) != 0) {
        fprintf(stderr, "clrt-train: %s\n", err);
        return 2;
    }
    FILE *f = out ? o.f : stdout;
    for (size_t i = 0; i < count; i++)
        fprintf(f, "%d\n", (int)p[i]);
    if (out && tool_out_close(&o, err, sizeof err) != 0) {
        fprintf(stderr, "clrt-train: %s\n", err);
        return 2;
    }
    return 0;
}

/* What --predict reports of the classes in p: images/s, the accuracy when
 * labelled, --json, the classes themselves (--out, or stdout unlabelled). */
static int report_classes(run *r, const int32_t *p, double secs)
{
    const train_opts *o = r->o;
    int rc = 0;
    const double ips = secs > 0 ? (double)r->test.count / secs : 0;
    fprintf(stderr, "clrt-train: classified %zu images in %.3f s: %.0f images/s (passes of %d)\n", r->test.count,
            secs, ips, TRAIN_EVAL_ROWS);
    size_t correct = 0;
    if (r->test.labels) {
        for (size_t i = 0; i < r->test.count; i++)
            correct += p[i] == r->test.labels[i];
        printf("test accuracy: %.2f%% (%zu/%zu)\n", 100.0 * (double)correct / (double)r->test.count, correct,
               r->test.count);
    }
    if (o->json) {
        train_predict_report rep = {.device = r->device, .dataset = o->images ? "" : r->dataset,
                                    .images = o->images ? o->images : "", .count = r->test.count,
                                    .correct = correct, .labelled = r->test.labels != NULL, .images_per_s = ips,
                                    .seconds = secs};
        if (train_json_write_predict(o->json, &rep, r->err, sizeof r->err) != 0) {
            fprintf(stderr, "clrt-train: %s\n", r->err);
            rc = 2;
        }
    }
    if ((o->out || !r->test.labels) && write_classes(o->out, p, r->test.count) != 0)
        rc = 2;
    return rc;
}

/* --predict: the classes of --images (or the test set) with saved weights. */
int train_predict(const train_opts *o, const train_hooks *h)
{
    run r;
    run_init(&r, o, h);
    train_state saved = {0};
    if (check_outputs(o) != 0)
        return 2;
    if (train_state_load(o->predict, &saved, r.err, sizeof r.err)) {
        fprintf(stderr, "clrt-train: %s\n", r.err);
        return 2;
    }
    r.dt = saved.dt;
    int bad = o->images ? train_set_load(&r.test, o->images, o->labels, o->test_limit, r.err, sizeof r.err)
                        : train_data_load(o->data, NULL, 0, &r.test, o->test_limit, r.dataset, sizeof r.dataset,
                                          r.err, sizeof r.err);
    if (bad) {
        fprintf(stderr, "clrt-train: %s\n", r.err);
        train_state_free(&saved);
        return 2;
    }
    int rc = h->device_open(o->device, &r.ctx, &r.q, r.device, sizeof r.device);
    if (rc == 0) {
        const size_t rows = round_up(r.test.count, TRAIN_EVAL_ROWS);
        int32_t *p = malloc(rows * sizeof *p);
        double secs;
        int st = classify(&r, &saved, p, rows, &secs);
        rc = st == CLRT_OK ? report_classes(&r, p, secs) : train_device_fail("classifying", st);
        free(p);
    }
    train_state_free(&saved);
    cleanup(&r);
    return rc;
}
