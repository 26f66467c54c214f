/* clrt-train's command line: every option, its default, its range. */
#include "opts.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <clrt/clrt.h>

#include "common/tool_args.h"

static const char usage[] =
    "usage: clrt-train [--data DIR] [--epochs N] [--batch N] [--lr X] [--momentum X] [--seed N]\n"
    "                  [--device SEL] [--print-every N] [--limit N] [--test-limit N] [--stop-after N]\n"
    "                  [--save FILE] [--resume FILE] [--json FILE] [--profile] [--profile-every N]\n"
    "                  [--fp64] [--no-progress]\n"
    "       clrt-train --predict FILE [--images FILE [--labels FILE]] [--out FILE] [--json FILE]\n"
    "                          [--data DIR] [--device SEL] [--test-limit N]\n"
    "       clrt-train --help | --version\n"
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
    "  --print-every N   print the running loss every N mini-batches (default 2000), and at\n"
    "                    least once an epoch (every mini-batches-an-epoch when fewer)\n"
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

static int take_help(tool_args *a, char **v)
{
    (void)a, (void)v;
    fputs(usage, stdout);
    return TOOL_ARGS_DONE;
}

static int take_version(tool_args *a, char **v)
{
    (void)a, (void)v;
    printf("clrt-train (clrt %s)\n", clrt_version());
    return TOOL_ARGS_DONE;
}

#define OPTS(a) ((train_opts *)(a)->state)

static int take_epochs(tool_args *a, char **v)
{
    unsigned long long n;
    const int rc = tool_args_count(a, v[0], 1, TRAIN_EPOCHS_MAX, &n);
    if (rc == 0)
        OPTS(a)->epochs = (unsigned)n;
    return rc;
}

static int take_batch(tool_args *a, char **v) { return tool_args_size(a, v[0], 1, TRAIN_BATCH_MAX, &OPTS(a)->batch); }
static int take_lr(tool_args *a, char **v) { return tool_args_real(a, v[0], 0.0, TRAIN_LR_MAX, &OPTS(a)->lr); }
static int take_momentum(tool_args *a, char **v) { return tool_args_real(a, v[0], 0.0, 1.0, &OPTS(a)->momentum); }

static int take_seed(tool_args *a, char **v)
{
    unsigned long long n;
    const int rc = tool_args_count(a, v[0], 0, UINT64_MAX, &n);
    if (rc == 0)
        OPTS(a)->seed = (uint64_t)n;
    return rc;
}

static int take_print_every(tool_args *a, char **v)
{
    return tool_args_size(a, v[0], 1, SIZE_MAX, &OPTS(a)->print_every);
}
static int take_limit(tool_args *a, char **v) { return tool_args_size(a, v[0], 1, SIZE_MAX, &OPTS(a)->limit); }
static int take_test_limit(tool_args *a, char **v)
{
    return tool_args_size(a, v[0], 1, SIZE_MAX, &OPTS(a)->test_limit);
}
static int take_stop_after(tool_args *a, char **v)
{
    return tool_args_size(a, v[0], 1, SIZE_MAX, &OPTS(a)->stop_after);
}

static int take_profile_every(tool_args *a, char **v)
{
    OPTS(a)->profile = 1;
    return tool_args_size(a, v[0], 1, SIZE_MAX, &OPTS(a)->profile_every);
}

/* The options that name a file, a folder or a device: kept as given. */
#define PATH_TAKE(member)                                                                                             \
    static int take_##member(tool_args *a, char **v)                                                                  \
    {                                                                                                                 \
        OPTS(a)->member = v[0];                                                                                       \
        return 0;                                                                                                     \
    }
PATH_TAKE(data)
PATH_TAKE(device)
PATH_TAKE(save)
PATH_TAKE(resume)
PATH_TAKE(json)
PATH_TAKE(predict)
PATH_TAKE(images)
PATH_TAKE(labels)
PATH_TAKE(out)

#define SWITCH(name, member, value) TOOL_SWITCH(name, train_opts, member, value)
#define VALUES(name, take) TOOL_VALUES(name, NULL, 1, take)

static const tool_option options[] = {
    TOOL_VALUES("--help", "-h", 0, take_help), TOOL_VALUES("--version", NULL, 0, take_version),
    VALUES("--data", take_data), VALUES("--epochs", take_epochs), VALUES("--batch", take_batch),
    VALUES("--lr", take_lr), VALUES("--momentum", take_momentum), VALUES("--seed", take_seed),
    VALUES("--device", take_device), VALUES("--print-every", take_print_every), VALUES("--limit", take_limit),
    VALUES("--test-limit", take_test_limit), VALUES("--stop-after", take_stop_after),
    VALUES("--profile-every", take_profile_every), VALUES("--save", take_save), VALUES("--resume", take_resume),
    VALUES("--json", take_json), VALUES("--predict", take_predict), VALUES("--images", take_images),
    VALUES("--labels", take_labels), VALUES("--out", take_out),
    SWITCH("--no-progress", progress, 0), SWITCH("--fp64", f64, 1), SWITCH("--profile", profile, 1),
};

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

/* A refusal of option opt's value that the whole command line explains. */
static int refuse(tool_args *a, const char *opt, const char *value, const char *why)
{
    a->option = opt;
    return tool_args_bad(a, value, why);
}

/* The options that go together, or not. */
static int combinations(tool_args *a, const train_opts *o)
{
    if (o->labels && !o->images)
        return refuse(a, "--labels", o->labels, "needs --images");
    if (o->images && !o->predict)
        return refuse(a, "--images", o->images, "only goes with --predict");
    if (o->out && !o->predict)
        return refuse(a, "--out", o->out, "only goes with --predict");
    if (o->predict && (o->save || o->resume || o->stop_after || o->profile))
        return refuse(a, "--predict", o->predict,
                      "classifies only: no --save, --resume, --stop-after or --profile with it");
    return 0;
}

int train_opts_parse(train_opts *o, int argc, char **argv)
{
    defaults(o);
    tool_args a = {.tool = "clrt-train", .state = o};
    const int rc = tool_args_parse(&a, options, sizeof options / sizeof *options, argc, argv);
    return rc ? rc : combinations(&a, o);
}
