/* Device, context, uploads (see train/device.h). */
#include "train_device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int train_device_fail(const char *what, int status)
{
    fprintf(stderr, "clrt-train: %s: %s (%s)\n", what, clrt_error_message(), clrt_status_name(status));
    return 1;
}

int train_device_open(const char *selector, clrt_context **ctx, clrt_queue **q, char *name, size_t namecap)
{
    int st = clrt_context_create(ctx, selector);
    if (st == CLRT_ENODEVICE) {
        fprintf(stderr, "clrt-train: --device %s: %s\n", selector ? selector : "(default)", clrt_error_message());
        return 2;
    }
    if (st != CLRT_OK)
        return train_device_fail("opening the device", st);
    clrt_device_info info;
    if ((st = clrt_context_device(*ctx, &info)) != CLRT_OK || (st = clrt_queue_create(q, *ctx)) != CLRT_OK) {
        clrt_context_destroy(*ctx);
        return train_device_fail("opening the device", st);
    }
    snprintf(name, namecap, "%s (%s)", info.name, info.platform);
    return 0;
}

int train_device_upload(clrt_queue *q, clrt_buffer *x, clrt_buffer *y, const train_set *s, const size_t *order,
                        clrt_dtype dt)
{
    const size_t rows = clrt_buffer_rows(x), cols = TRAIN_IMAGE_SIZE;
    const size_t esz = dt == CLRT_FLOAT64 ? 8 : 4;
    unsigned char *hx = calloc(rows * cols, esz);
    int32_t *hy = y ? calloc(rows, sizeof *hy) : NULL;
    if (!hx || (y && !hy)) {
        free(hx);
        free(hy);
        return CLRT_ENOMEM;
    }
    for (size_t r = 0; r < s->count; r++) {
        size_t from = order ? order[r] : r;
        const float *src = s->images + from * cols;
        if (dt == CLRT_FLOAT64)
            for (size_t c = 0; c < cols; c++)
                ((double *)(void *)hx)[r * cols + c] = src[c];
        else
            memcpy(hx + r * cols * esz, src, cols * esz);
        if (hy)
            hy[r] = s->labels[from];
    }
    int st = clrt_buffer_write(q, x, hx, rows * cols);
    if (st == CLRT_OK && y)
        st = clrt_buffer_write(q, y, hy, rows);
    free(hx);
    free(hy);
    return st;
}
