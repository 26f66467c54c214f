/* Which dataset clrt-train uses and loading it: --data DIR, else
 * Fashion-MNIST as Debian's dataset-fashion-mnist installs it. Images become
 * float rows of 28 x 28 values scaled to [0, 1]; labels int32 0..9. */
#ifndef CLRT_TOOLS_TRAIN_DATA_H
#define CLRT_TOOLS_TRAIN_DATA_H

#include <stddef.h>
#include <stdint.h>

/* Where Debian's dataset-fashion-mnist puts the four .gz files. */
#define TRAIN_DATA_DEFAULT_DIR "/usr/share/datasets/fashion-mnist"
#define TRAIN_IMAGE_SIDE 28
#define TRAIN_IMAGE_SIZE (TRAIN_IMAGE_SIDE * TRAIN_IMAGE_SIDE)
#define TRAIN_CLASSES 10

/* One set of images with their labels (labels NULL when unknown). */
typedef struct train_set {
    size_t count;
    float *images;    /* count x TRAIN_IMAGE_SIZE, in [0, 1] */
    int32_t *labels;  /* count, each 0..9, or NULL */
} train_set;

/* The images file at path (and, unless labels_path is NULL, its labels),
 * at most limit of them (0: all). "PATH: problem" in err and 2 on failure. */
int train_set_load(train_set *s, const char *images_path, const char *labels_path, size_t limit, char *err,
                   size_t errcap);

/* Both sets from dir (NULL: the default), each file name with or without
 * .gz; *name receives what was used ("Fashion-MNIST (/usr/share/...)" or
 * the directory). Only the test set when train is NULL. */
int train_data_load(const char *dir, train_set *train, size_t train_limit, train_set *test, size_t test_limit,
                    char *name, size_t namecap, char *err, size_t errcap);

void train_set_free(train_set *s);

#endif
