/* Selector grammar and default ranking (see clrt.h, "Devices"). */
#include "device/selector.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "device/driver_env.h"

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Parse a run of decimal digits into *value; returns the characters used, 0 if
 * none. A value that does not fit saturates, so it matches no device. */
static size_t parse_uint(const char *s, size_t len, unsigned long long *value)
{
    size_t i = 0;
    unsigned long long v = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9') {
        unsigned d = (unsigned)(s[i] - '0');
        v = (v > (~0ULL - d) / 10) ? ~0ULL : v * 10 + d;
        i++;
    }
    *value = v;
    return i;
}

static int ieq(const char *s, size_t len, const char *word)
{
    size_t wl = strlen(word);
    if (len != wl)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (tolower((unsigned char)s[i]) != word[i])
            return 0;
    return 1;
}

void clrt__selector_parse(const char *text, clrt_selector *out)
{
    memset(out, 0, sizeof *out);
    out->kind = CLRT_SEL_DEFAULT;
    if (!text)
        return;
    while (is_blank(*text))
        text++;
    size_t len = strlen(text);
    while (len > 0 && is_blank(text[len - 1]))
        len--;
    if (len == 0)
        return;

    out->text = text;
    out->text_len = len;

    /* Only digits, colons and signs: a number form, or malformed. */
    if (strspn(text, "0123456789:+-") >= len) {
        unsigned long long a, b;
        size_t na = parse_uint(text, len, &a);
        if (na == len && na > 0) {
            out->kind = CLRT_SEL_INDEX;
            out->index = a > (size_t)-1 ? (size_t)-1 : (size_t)a;
            return;
        }
        if (na > 0 && na < len && text[na] == ':') {
            size_t nb = parse_uint(text + na + 1, len - na - 1, &b);
            if (nb > 0 && na + 1 + nb == len) {
                out->kind = CLRT_SEL_PD;
                out->platform = a > ~0U ? ~0U : (unsigned)a;
                out->device = b > ~0U ? ~0U : (unsigned)b;
                return;
            }
        }
        out->kind = CLRT_SEL_MALFORMED;
        return;
    }
    if (ieq(text, len, "gpu")) {
        out->kind = CLRT_SEL_TYPE;
        out->type = CLRT_DEVICE_GPU;
    } else if (ieq(text, len, "cpu")) {
        out->kind = CLRT_SEL_TYPE;
        out->type = CLRT_DEVICE_CPU;
    } else if (ieq(text, len, "accelerator")) {
        out->kind = CLRT_SEL_TYPE;
        out->type = CLRT_DEVICE_ACCELERATOR;
    } else {
        out->kind = CLRT_SEL_TEXT;
    }
}

unsigned long long clrt__device_rank(const clrt__device_entry *dev)
{
    /* native first, then the type, then raw throughput (compute units x MHz) */
    static const unsigned type_score[] = {0, 1 /*cpu*/, 3 /*gpu*/, 2 /*accelerator*/, 0 /*other*/};
    int t = dev->info.type;
    unsigned ts = (t >= 0 && t <= CLRT_DEVICE_OTHER) ? type_score[t] : 0;
    unsigned long long speed = (unsigned long long)dev->info.compute_units * dev->clock_mhz;
    if (speed > 0xffffffffffULL)
        speed = 0xffffffffffULL;
    return ((unsigned long long)!clrt__device_is_emulator(&dev->info) << 60) |
           ((unsigned long long)ts << 56) | speed;
}

static int matches(const clrt_selector *sel, const clrt__device_entry *d)
{
    switch (sel->kind) {
    case CLRT_SEL_DEFAULT:
        return 1;
    case CLRT_SEL_INDEX:
        return d->info.index == sel->index;
    case CLRT_SEL_PD:
        return d->info.platform_index == sel->platform && d->info.device_index == sel->device;
    case CLRT_SEL_TYPE:
        return d->info.type == sel->type;
    case CLRT_SEL_TEXT:
        return clrt__icontains(d->info.platform, sel->text, sel->text_len) ||
               clrt__icontains(d->platform_vendor, sel->text, sel->text_len) ||
               clrt__icontains(d->info.vendor, sel->text, sel->text_len) ||
               clrt__icontains(d->info.name, sel->text, sel->text_len);
    case CLRT_SEL_MALFORMED:
        return 0;
    }
    return 0;
}

long clrt__selector_pick(const clrt_selector *sel, const clrt__device_entry *devs, size_t n)
{
    long best = -1;
    unsigned long long best_rank = 0;
    for (size_t i = 0; i < n; i++) {
        if (!matches(sel, &devs[i]))
            continue;
        unsigned long long r = clrt__device_rank(&devs[i]);
        /* ties keep the earlier device, so the choice is stable */
        if (best < 0 || r > best_rank) {
            best = (long)i;
            best_rank = r;
        }
    }
    return best;
}

/* Append the device list to the error message: a selector that matches
 * nothing should show what would have. */
static void append_device_list(const clrt__device_entry *devs, size_t n)
{
    clrt__error_append("\nDevices (select by index, P:D, type or name):");
    for (size_t i = 0; i < n; i++) {
        char line[900];
        snprintf(line, sizeof line, "\n  %zu  %u:%u  %-11s %s  [%s; %s]", devs[i].info.index,
                 devs[i].info.platform_index, devs[i].info.device_index, clrt_device_type_name(devs[i].info.type),
                 devs[i].info.name, devs[i].info.platform, devs[i].info.vendor);
        clrt__error_append(line);
    }
}

/* No device at all. With no driver registered: install one. With drivers
 * registered that reported nothing, installing another would not help: say
 * which are there and how to find out why they did not start. */
static int no_device(const char *func)
{
    char first[256];
    const size_t drivers = clrt__icd_count(first, sizeof first);
    if (drivers == 0)
        return clrt__fail(CLRT_ENODEVICE, func,
                          "no OpenCL platform with a device is installed. Install an OpenCL driver: "
                          "your GPU vendor's, or POCL for the CPU (Debian: apt-get install "
                          "pocl-opencl-icd). $OCL_ICD_VENDORS, if set, must name a folder of .icd files.");
    return clrt__fail(CLRT_ENODEVICE, func,
                      "%zu OpenCL driver%s registered (%s%s), but none reported a device: the driver did not "
                      "start (POCL: POCL_DEBUG=1 says why; it needs a writable cache folder), or a GPU driver "
                      "finds no GPU it supports. clinfo lists what each driver reports.",
                      drivers, drivers == 1 ? " is" : "s are", first, drivers > 1 ? ", ..." : "");
}

int clrt__device_select(const char *selector, const char *func, clrt__device_entry *out)
{
    const char *origin = "argument";
    clrt_selector sel;
    clrt__selector_parse(selector, &sel);
    /* NULL, "" and an all-blank argument all defer to $CLRT_DEVICE: a blank
     * argument must not silently override what the environment asks for. */
    if (sel.kind == CLRT_SEL_DEFAULT) {
        selector = getenv("CLRT_DEVICE");
        origin = "$CLRT_DEVICE";
        clrt__selector_parse(selector, &sel);
    }

    clrt__device_entry *devs;
    size_t n;
    int status = clrt__device_enumerate(&devs, &n);
    if (status != CLRT_OK)
        return status;
    if (n == 0) {
        free(devs);
        return no_device(func);
    }

    long pick = clrt__selector_pick(&sel, devs, n);
    if (pick < 0) {
        /* A long selector is cut in the message, not in the match. */
        int shown = sel.text_len > 200 ? 200 : (int)sel.text_len;
        clrt__fail(CLRT_ENODEVICE, func, "%s selector \"%.*s%s\" %s", origin, shown, sel.text ? sel.text : "",
                   sel.text_len > 200 ? "..." : "",
                   sel.kind == CLRT_SEL_MALFORMED ? "is malformed: use N (an index), P:D (platform:device), gpu, cpu, "
                                                    "accelerator, or part of a device name"
                                                  : "matches no device");
        append_device_list(devs, n);
        free(devs);
        return CLRT_ENODEVICE;
    }
    *out = devs[pick];
    free(devs);
    return CLRT_OK;
}

int clrt_device_select(const char *selector, clrt_device_info *out)
{
    static const char func[] = "clrt_device_select";
    if (!out)
        return clrt__fail(CLRT_EINVAL, func, "out is NULL");
    clrt__device_entry e;
    int status = clrt__device_select(selector, func, &e);
    if (status == CLRT_OK)
        *out = e.info;
    return status;
}
