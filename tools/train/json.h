/* clrt-train --json: the run as one JSON object with the keys docs/train.md lists
 * (device, epochs, batch, losses, test_accuracy, images_per_s) and a few
 * more (dataset, lr, momentum, seed, train_images, test_correct, test_total,
 * train_seconds, and with --profile, profile). With --predict: device,
 * dataset, images, count, test_accuracy, test_correct, test_total,
 * images_per_s, seconds. */
#ifndef CLRT_TOOLS_TRAIN_JSON_H
#define CLRT_TOOLS_TRAIN_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

typedef struct train_report {
    const char *device, *dataset;
    unsigned epochs;
    size_t batch;
    double lr, momentum;
    uint64_t seed;
    size_t train_images;
    const double *losses;  /* the printed running losses, in order */
    size_t nlosses;
    size_t test_correct, test_total;
    double images_per_s, train_seconds;
    const train_profile *profile; /* --profile's timings (key "profile"), or NULL */
} train_report;

/* --predict --json: what was classified, how well and how fast. */
typedef struct train_predict_report {
    const char *device, *dataset, *images; /* dataset: "" with --images; images: "" without */
    size_t count;                          /* images classified */
    size_t correct;                        /* of count, when labelled */
    int labelled;
    double images_per_s, seconds;          /* the forward passes and argmax, up to the classes read back */
} train_predict_report;

/* Write r to path (common/output.h: whole or not at all, every write checked);
 * the problem, naming the file, in err and 2 on failure. */
int train_json_write(const char *path, const train_report *r, char *err, size_t errcap);
/* The same for --predict. */
int train_json_write_predict(const char *path, const train_predict_report *r, char *err, size_t errcap);

#endif
