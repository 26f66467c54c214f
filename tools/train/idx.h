/* IDX files (the MNIST format), plain or gzip-compressed: a big-endian
 * header (two zero bytes, a type byte, the number of dimensions, then each
 * dimension as a 32-bit count) followed by the data. clrt-train reads u8
 * images (3 dimensions: count, rows, columns) and u8 labels (1 dimension). */
#ifndef CLRT_TOOLS_TRAIN_IDX_H
#define CLRT_TOOLS_TRAIN_IDX_H

#include <stddef.h>
#include <stdint.h>

typedef struct train_idx {
    size_t count;    /* images or labels */
    size_t rows;     /* image height (1 for labels) */
    size_t cols;     /* image width (1 for labels) */
    uint8_t *data;   /* count * rows * cols bytes (malloc'ed) */
} train_idx;

/* Read path as an IDX file of u8 with `dims` dimensions (3: images, 1:
 * labels), plain or gzip (one member or several, one after another),
 * checking the magic, the dimensions, nonzero counts, that the data is all
 * there (truncation) and that nothing follows it; for gzip also each
 * member's CRC-32 and length, a file that ends inside a member, and bytes
 * after the last member. On failure writes "PATH: problem" to err and
 * returns 2; else 0. */
int train_idx_read(const char *path, unsigned dims, train_idx *out, char *err, size_t errcap);

/* The same for a file's len bytes already in memory (path names it in
 * messages): the fuzz target's way in (tests/fuzz/fuzz_idx.c). */
int train_idx_parse(const char *path, const uint8_t *data, size_t len, unsigned dims, train_idx *out, char *err,
                    size_t errcap);

void train_idx_free(train_idx *x);

#endif
