/* Opening the device clrt-train runs on, and moving image sets there. */
#ifndef CLRT_TOOLS_TRAIN_DEVICE_H
#define CLRT_TOOLS_TRAIN_DEVICE_H

#include <stddef.h>

#include <clrt/clrt.h>

#include "data.h"

/* A context and queue on selector (NULL: clrt's default), its name in
 * name. Prints the one-line error and returns 2 (no such device) or 1. */
int train_device_open(const char *selector, clrt_context **ctx, clrt_queue **q, char *name, size_t namecap);

/* x (rows x 784, dtype dt) and, when s has labels and y is not NULL, y
 * (int32 rows x 1) holding s's images in the order `order` gives (NULL: as
 * they are); rows >= s->count, the rows after the images are zero. A clrt status. */
int train_device_upload(clrt_queue *q, clrt_buffer *x, clrt_buffer *y, const train_set *s, const size_t *order,
                        clrt_dtype dt);

/* Print "clrt-train: what: clrt's message" and return 1 (a device failure). */
int train_device_fail(const char *what, int status);

#endif
