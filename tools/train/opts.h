/* clrt-train's command line (docs/train.md: the contract options plus --predict and a few
 * options of its own): parsed into one struct, checked before anything runs. */
#ifndef CLRT_TOOLS_TRAIN_OPTS_H
#define CLRT_TOOLS_TRAIN_OPTS_H

#include <stddef.h>
#include <stdint.h>

/* The largest --epochs, --batch and --lr: a --resume file's settings are
 * held to them too (train/state.c). */
#define TRAIN_EPOCHS_MAX 100000u
#define TRAIN_BATCH_MAX 65536u
#define TRAIN_LR_MAX 1e6

typedef struct train_opts {
    const char *data;        /* --data DIR, or NULL: the installed dataset */
    unsigned epochs;         /* --epochs, default 2 */
    size_t batch;            /* --batch, default 4 */
    double lr;               /* --lr, default 0.001 */
    double momentum;         /* --momentum, default 0.9 */
    uint64_t seed;           /* --seed, default 0 */
    const char *device;      /* --device SEL, or NULL: clrt's default device */
    size_t print_every;      /* --print-every, default 2000 */
    size_t limit;            /* --limit N, 0: every training image */
    size_t test_limit;       /* --test-limit N, 0: every test image */
    size_t stop_after;       /* --stop-after N: stop (and --save) after N mini-batches of this run; 0: never */
    const char *save;        /* --save FILE */
    const char *resume;      /* --resume FILE */
    const char *json;        /* --json FILE */
    const char *predict;     /* --predict FILE: classify with the weights FILE holds, no training */
    const char *images;      /* --images FILE: what --predict classifies (default: the test set) */
    const char *labels;      /* --labels FILE: their labels, for an accuracy */
    const char *out;         /* --out FILE: --predict's classes, one per line */
    int progress;            /* 1: progress on stderr (train/progress.h); 0: --no-progress */
    int profile;             /* --profile: time each layer on sampled mini-batches (train/profile.h) */
    size_t profile_every;    /* --profile-every N (implies --profile): sample 1 mini-batch in N, default 50 */
    int f64;                 /* --fp64: train in double precision (gradient checks; the device needs fp64) */
} train_opts;

/* Fill o from argv. Returns 0 to run, 1 when --help or --version printed
 * what they print (exit 0), 2 after printing a one-line error to stderr. */
int train_opts_parse(train_opts *o, int argc, char **argv);

#endif
