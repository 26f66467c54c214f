/* Device selectors and the default ranking: pure functions over a device
 * list (unit-tested without any OpenCL device), and the selection every
 * context starts with. */
#ifndef CLRT_DEVICE_SELECTOR_H
#define CLRT_DEVICE_SELECTOR_H

#include <stddef.h>

#include "device/device.h"

typedef enum {
    CLRT_SEL_DEFAULT,   /* NULL or blank: the default ranking */
    CLRT_SEL_INDEX,     /* "N" */
    CLRT_SEL_PD,        /* "P:D" */
    CLRT_SEL_TYPE,      /* "gpu" | "cpu" | "accelerator" */
    CLRT_SEL_TEXT,      /* substring of platform, vendor or device name */
    CLRT_SEL_MALFORMED  /* digits and colons that are neither N nor P:D, e.g. "1:", "-1" */
} clrt_selector_kind;

typedef struct clrt_selector {
    clrt_selector_kind kind;
    size_t index;          /* CLRT_SEL_INDEX */
    unsigned platform;     /* CLRT_SEL_PD */
    unsigned device;       /* CLRT_SEL_PD */
    int type;              /* CLRT_SEL_TYPE: a CLRT_DEVICE_* value */
    const char *text;      /* CLRT_SEL_TEXT: the selector after its leading blanks */
    size_t text_len;       /* its length without trailing blanks */
} clrt_selector;

/* Parse text (may be NULL). Numbers too large for their field parse as
 * indices that match nothing rather than wrapping. */
void clrt__selector_parse(const char *text, clrt_selector *out);

/* Ranking key: higher is better. */
unsigned long long clrt__device_rank(const clrt__device_entry *dev);

/* The position in devs of the best device matching sel, or -1. */
long clrt__selector_pick(const clrt_selector *sel, const clrt__device_entry *devs, size_t n);

/* Resolve selector (NULL or blank: $CLRT_DEVICE, then the default ranking)
 * to one device of a fresh enumeration: CLRT_OK and *out, or CLRT_ENODEVICE
 * with a message naming the selector and listing the devices that exist.
 * func names the public function for the message. */
int clrt__device_select(const char *selector, const char *func, clrt__device_entry *out);

#endif
