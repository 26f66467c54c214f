/* clrt-train's command line: every option, its default, its range. */
#include "opts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clrt/clrt.h>

static const char usage[] =
    "usage: clrt-train [--data DIR] [--epochs N] [--batch N] [--lr X] [--momentum X] [--seed N]\n"
    "                  [--device SEL] [--print-every N] [--limit N] [--save FILE] [--resume FILE]\n"
    "                  [--json FILE] [--profile] [--profile-every N]\n"
    "       clrt-train --predict FILE [--images FILE [--labels FILE]] [--out FILE] [--json FILE]\n"
    "                          [--data DIR] [--device SEL]\n"
    "\n"
    "Trains the source article's network (conv 1->20 5x5, relu, maxpool 2, conv 20->50 5x5,\n"
    "relu, maxpool 2, fc 800->500, relu, fc 500->10; cross-entropy; SGD with momentum) on an\n"
    "OpenCL device, on MNIST-format IDX files (plain or .gz).\n"
    "\n"
    "  --data DIR        the four IDX files (train-images-idx3-ubyte, train-labels-idx1-ubyte,\n"
    "                    t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte, each may end in .gz);\n"
    "                    default: Fashion-MNIST from /usr/share/datasets/fashion-mnist\n"
    "  --epochs N        passes over the training set (default 2)\n"
    "  --batch N         mini-batch size (default 4)\n"
    "  --lr X            learning rate (default 0.001)\n"
    "  --momentum X      SGD momentum (default 0.9)\n"
    "  --seed N          initial weights and the shuffle of every epoch (default 0)\n"
    "  --device SEL      a clrt device selector (default: $CLRT_DEVICE, else the best device)\n"
    "  --print-every N   print the running loss every N mini-batches (default 2000)\n"
    "  --limit N         train on the first N training images only\n"
    "  --test-limit N    test on the first N test images only\n"
    "  --save FILE       after training (or --stop-after), write weights and optimizer state\n"
    "  --resume FILE     continue the run FILE holds, exactly where it stopped\n"
    "  --stop-after N    stop after N mini-batches of this run (with --save: to resume later)\n"
    "  --json FILE       the run as one JSON object (with --predict: its images/s)\n"
    "  --profile         after training, a table on stderr of each layer's forward and backward\n"
    "                    time, the optimizer's and the host's, in ms per mini-batch and % of the\n"
    "                    step, from a sample of mini-batches (the queue finished between parts;\n"
    "                    the losses do not change); in --json too, as \"profile\"\n"
    "  --profile-every N time 1 mini-batch in N (default 50; implies --profile)\n"
    "  --fp64            train in double precision (the device needs fp64)\n"
    "  --no-progress     no progress on stderr (a line rewritten on a terminal, else\n"
    "                    a plain line every 5 s)\n"
    "  --predict FILE    classify with the weights of a --save file instead of training:\n"
    "                    the test set, or --images FILE (labels from --labels FILE, if any);\n"
    "                    --out FILE writes each image's class, one per line; images/s on stderr\n"
    "\n"
    "Output files (--save, --json, --out) are written whole or not at all: beside FILE, then\n"
    "renamed over it (an earlier FILE stays until then); through a symbolic link its target is\n"
    "written and the link kept; a character device or FIFO (/dev/stdout) is written directly,\n"
    "never replaced; a folder is refused. SIGINT or SIGTERM stops after the mini-batch in\n"
    "flight and saves (--save); more of them while it stops do not cut the save short.\n"
    "Exit status: 0 done, 2 bad options or input files, or an output that could not be\n"
    "written, 1 a device failure, 130 or 143 stopped by SIGINT or SIGTERM.\n";

static int bad(const char *opt, const char *val, const char *why)
{
    fprintf(stderr, "clrt-train: %s %s: %s (clrt-train --help)\n", opt, val, why);
    return 2;
}

/* An unsigned decimal count in [lo, hi]. */
static int count(const char *opt, const char *s, unsigned long long lo, unsigned long long hi,
                 unsigned long long *out)
{
    if (!s)
        return bad(opt, "", "needs a value");
    char *end = NULL;
    errno = 0;
    if (*s < '0' || *s > '9')
        return bad(opt, s, "not a whole number");
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return bad(opt, s, errno ? "out of range" : "not a whole number");
    if (v < lo || v > hi) {
        char why[96];
        snprintf(why, sizeof why, "must be %llu to %llu", lo, hi);
        return bad(opt, s, why);
    }
    *out = v;
    return 0;
}

static int real(const char *opt, const char *s, double lo, double hi, double *out)
{
    if (!s)
        return bad(opt, "", "needs a value");
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno)
        return bad(opt, s, "not a number");
    if (!isfinite(v) || v < lo || v > hi) {
        char why[96];
        snprintf(why, sizeof why, "must be %g to %g", lo, hi);
        return bad(opt, s, why);
    }
    *out = v;
    return 0;
}

static void defaults(train_opts *o)
{
    memset(o, 0, sizeof *o);
    o->epochs = 2;
    o->batch = 4;
    o->lr = 0.001;
    o->momentum = 0.9;
    o->print_every = 2000;
    o->progress = 1;
    o->profile_every = 50;
}

int train_opts_parse(train_opts *o, int argc, char **argv)
{
    defaults(o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        unsigned long long n = 0;
        int st = 0, takes = 1;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            return 1;
        } else if (!strcmp(a, "--version")) {
            printf("clrt-train (clrt %s)\n", clrt_version());
            return 1;
        } else if (!strcmp(a, "--data"))
            o->data = v;
        else if (!strcmp(a, "--epochs")) {
            if (!(st = count(a, v, 1, TRAIN_EPOCHS_MAX, &n)))
                o->epochs = (unsigned)n;
        } else if (!strcmp(a, "--batch")) {
            if (!(st = count(a, v, 1, TRAIN_BATCH_MAX, &n)))
                o->batch = (size_t)n;
        } else if (!strcmp(a, "--lr"))
            st = real(a, v, 0.0, TRAIN_LR_MAX, &o->lr);
        else if (!strcmp(a, "--momentum"))
            st = real(a, v, 0.0, 1.0, &o->momentum);
        else if (!strcmp(a, "--seed")) {
            if (!(st = count(a, v, 0, UINT64_MAX, &n)))
                o->seed = (uint64_t)n;
        } else if (!strcmp(a, "--device"))
            o->device = v;
        else if (!strcmp(a, "--print-every")) {
            if (!(st = count(a, v, 1, SIZE_MAX, &n)))
                o->print_every = (size_t)n;
        } else if (!strcmp(a, "--limit")) {
            if (!(st = count(a, v, 1, SIZE_MAX, &n)))
                o->limit = (size_t)n;
        } else if (!strcmp(a, "--test-limit")) {
            if (!(st = count(a, v, 1, SIZE_MAX, &n)))
                o->test_limit = (size_t)n;
        } else if (!strcmp(a, "--stop-after")) {
            if (!(st = count(a, v, 1, SIZE_MAX, &n)))
                o->stop_after = (size_t)n;
        } else if (!strcmp(a, "--profile-every")) {
            if (!(st = count(a, v, 1, SIZE_MAX, &n))) {
                o->profile_every = (size_t)n;
                o->profile = 1;
            }
        } else if (!strcmp(a, "--save"))
            o->save = v;
        else if (!strcmp(a, "--resume"))
            o->resume = v;
        else if (!strcmp(a, "--json"))
            o->json = v;
        else if (!strcmp(a, "--predict"))
            o->predict = v;
        else if (!strcmp(a, "--images"))
            o->images = v;
        else if (!strcmp(a, "--labels"))
            o->labels = v;
        else if (!strcmp(a, "--out"))
            o->out = v;
        else {
            takes = 0;
            if (!strcmp(a, "--no-progress"))
                o->progress = 0;
            else if (!strcmp(a, "--fp64"))
                o->f64 = 1;
            else if (!strcmp(a, "--profile"))
                o->profile = 1;
            else {
                fprintf(stderr, "clrt-train: unknown option %s (clrt-train --help)\n", a);
                return 2;
            }
        }
        if (st)
            return st;
        if (takes) {
            if (!v || !*v)
                return bad(a, "", "needs a value");
            i++;
        }
    }
    if (o->labels && !o->images)
        return bad("--labels", o->labels, "needs --images");
    if ((o->images || o->out) && !o->predict)
        return bad(o->images ? "--images" : "--out", o->images ? o->images : o->out, "only goes with --predict");
    if (o->predict && (o->save || o->resume || o->stop_after || o->profile))
        return bad("--predict", o->predict,
                   "classifies only: no --save, --resume, --stop-after or --profile with it");
    return 0;
}
