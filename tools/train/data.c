/* Finding and loading the dataset (see train/data.h). */
#include "data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "idx.h"

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* dir/base, or dir/base.gz when only that exists (the plain name, for the
 * error, when neither does). */
static void locate(char *out, size_t cap, const char *dir, const char *base)
{
    snprintf(out, cap, "%s/%s", dir, base);
    if (exists(out))
        return;
    snprintf(out, cap, "%s/%s.gz", dir, base);
    if (!exists(out))
        snprintf(out, cap, "%s/%s", dir, base);
}

int train_set_load(train_set *s, const char *images_path, const char *labels_path, size_t limit, char *err,
                   size_t errcap)
{
    memset(s, 0, sizeof *s);
    train_idx img, lab = {0};
    int st = train_idx_read(images_path, 3, &img, err, errcap);
    if (st)
        return st;
    if (img.rows != TRAIN_IMAGE_SIDE || img.cols != TRAIN_IMAGE_SIDE) {
        snprintf(err, errcap, "%s: images are %zux%zu; the network takes %dx%d", images_path, img.rows, img.cols,
                 TRAIN_IMAGE_SIDE, TRAIN_IMAGE_SIDE);
        train_idx_free(&img);
        return 2;
    }
    if (labels_path && (st = train_idx_read(labels_path, 1, &lab, err, errcap)) != 0) {
        train_idx_free(&img);
        return st;
    }
    if (labels_path && lab.count != img.count) {
        snprintf(err, errcap, "%s: %zu labels for the %zu images of %s", labels_path, lab.count, img.count,
                 images_path);
        st = 2;
    }
    for (size_t i = 0; st == 0 && labels_path && i < lab.count; i++)
        if (lab.data[i] >= TRAIN_CLASSES) {
            snprintf(err, errcap, "%s: label %zu is %u; labels must be 0 to %d", labels_path, i, lab.data[i],
                     TRAIN_CLASSES - 1);
            st = 2;
        }
    size_t n = limit && limit < img.count ? limit : img.count;
    if (st == 0) {
        s->count = n;
        s->images = malloc(n * TRAIN_IMAGE_SIZE * sizeof *s->images);
        s->labels = labels_path ? malloc(n * sizeof *s->labels) : NULL;
        if (!s->images || (labels_path && !s->labels)) {
            snprintf(err, errcap, "%s: no memory for %zu images", images_path, n);
            st = 2;
        }
    }
    for (size_t i = 0; st == 0 && i < n * TRAIN_IMAGE_SIZE; i++)
        s->images[i] = (float)img.data[i] / 255.0f;
    for (size_t i = 0; st == 0 && labels_path && i < n; i++)
        s->labels[i] = lab.data[i];
    train_idx_free(&img);
    train_idx_free(&lab);
    if (st)
        train_set_free(s);
    return st;
}

int train_data_load(const char *dir, train_set *train, size_t train_limit, train_set *test, size_t test_limit,
                    char *name, size_t namecap, char *err, size_t errcap)
{
    if (dir)
        snprintf(name, namecap, "%s", dir);
    else if (exists(TRAIN_DATA_DEFAULT_DIR))
        snprintf(name, namecap, "Fashion-MNIST (%s)", TRAIN_DATA_DEFAULT_DIR);
    else {
        snprintf(err, errcap, "%s: no dataset there; pass --data DIR (MNIST IDX files) or install Debian's "
                              "dataset-fashion-mnist", TRAIN_DATA_DEFAULT_DIR);
        return 2;
    }
    const char *d = dir ? dir : TRAIN_DATA_DEFAULT_DIR;
    char ip[4096], lp[4096];
    int st = 0;
    if (train) {
        locate(ip, sizeof ip, d, "train-images-idx3-ubyte");
        locate(lp, sizeof lp, d, "train-labels-idx1-ubyte");
        if ((st = train_set_load(train, ip, lp, train_limit, err, errcap)) != 0)
            return st;
    }
    locate(ip, sizeof ip, d, "t10k-images-idx3-ubyte");
    locate(lp, sizeof lp, d, "t10k-labels-idx1-ubyte");
    if ((st = train_set_load(test, ip, lp, test_limit, err, errcap)) != 0 && train)
        train_set_free(train);
    return st;
}

void train_set_free(train_set *s)
{
    free(s->images);
    free(s->labels);
    memset(s, 0, sizeof *s);
}
