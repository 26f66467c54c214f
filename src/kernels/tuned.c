/* Tuned kernel parameters on disk (see kernels/tuned.h).
 *
 * The file is text, so that a user can read what was tuned:
 *
 *   # comments anywhere
 *   CLRT-TUNED 1
 *   clrt 0.1.0
 *   platform Portable Computing Language
 *   device pthread-skylake-avx512-AMD EPYC
 *   driver 3.1+debian
 *   matmul float32 use_local=0 tm=8 tn=48 tk=256 tkp=1024 wgx=1 wgy=1 pack=1 pack_kib=0 vw=16
 *   add float32 vw=16 items=1 wg=1024
 *   check 5b1c0e4f2d3a6978
 *
 * "check" is the FNV-1a hash of every byte before its line: a truncated or
 * damaged file is detected before any of it is used. Every value is then
 * checked against the kernel's constraints and the device's limits. The
 * entry words and fields come from the kernel table (kernels/table.h), so a new
 * kernel or parameter needs nothing here. */
#include "kernels/tuned.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/debug.h"
#include "base/disk.h"
#include "base/trust.h"
#include "base/thread.h"
#include "base/util.h"

enum { NDTYPES = 2 }; /* float32, float64: the dtypes with tuned kernels */

/* ---- where */

/* Control characters cannot be written on one line: '?' for them, in the
 * file and in the comparison alike. */
static void one_line(char *dst, size_t cap, const char *src)
{
    size_t j = 0;
    for (; *src && j + 1 < cap; src++)
        dst[j++] = ((unsigned char)*src < 0x20 || *src == 0x7f) ? '?' : *src;
    dst[j] = '\0';
}

/* The key lines every file for this device starts with (after CLRT-TUNED 1). */
static void key_lines(const clrt_device_info *info, char *buf, size_t cap)
{
    char platform[256], name[256], driver[256];
    one_line(platform, sizeof platform, info->platform);
    one_line(name, sizeof name, info->name);
    one_line(driver, sizeof driver, info->driver);
    snprintf(buf, cap, "clrt %s\nplatform %s\ndevice %s\ndriver %s\n", clrt_version(), platform, name, driver);
}

int clrt__tuned_path(const clrt_device_info *info, int create, char *out, size_t cap)
{
    const char *file = getenv("CLRT_TUNED_FILE");
    if (file && *file) {
        int n = snprintf(out, cap, "%s", file);
        return (n > 0 && (size_t)n < cap) ? 0 : -1;
    }
    char dir[4096], key[1200], slug[48];
    if (clrt__cache_dir("tuned", create, dir, sizeof dir) != 0)
        return -1;
    key_lines(info, key, sizeof key);
    size_t j = 0;
    for (const char *s = info->name; *s && j + 1 < sizeof slug; s++) {
        char ch = *s;
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
                 ch == '_';
        if (ok)
            slug[j++] = ch;
        else if (j > 0 && slug[j - 1] != '-')
            slug[j++] = '-';
    }
    while (j > 0 && slug[j - 1] == '-')
        j--;
    slug[j] = '\0';
    int n = snprintf(out, cap, "%s/%s%s%016" PRIx64 ".tuned", dir, slug, j ? "-" : "",
                     clrt__hash_str(CLRT_HASH_INIT, key));
    return (n > 0 && (size_t)n < cap) ? 0 : -1;
}

/* ---- parsing */

static int fail(char *why, size_t cap, int rc, const char *text, size_t line)
{
    if (line)
        snprintf(why, cap, "line %zu: %s", line, text);
    else
        snprintf(why, cap, "%s", text);
    return rc;
}

/* The checksum line, the last non-empty one, against the hash of every
 * byte before it; *body: where it starts (the lines it covers end there). */
static int check_sum(const char *text, size_t len, size_t *body, char *why, size_t cap)
{
    size_t end = len;
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r' || text[end - 1] == ' '))
        end--;
    size_t start = end;
    while (start > 0 && text[start - 1] != '\n')
        start--;
    char hex[32];
    size_t hlen = end - start;
    if (hlen < 7 || hlen - 6 >= sizeof hex || strncmp(text + start, "check ", 6) != 0)
        return fail(why, cap, -1, "no checksum line at the end (truncated?)", 0);
    memcpy(hex, text + start + 6, hlen - 6);
    hex[hlen - 6] = '\0';
    if (strlen(hex) != 16 || strspn(hex, "0123456789abcdef") != 16)
        return fail(why, cap, -1, "malformed checksum line", 0);
    const uint64_t want = strtoull(hex, NULL, 16);
    if (clrt__hash(CLRT_HASH_INIT, text, start) != want)
        return fail(why, cap, -1, "checksum mismatch (the file was damaged or edited)", 0);
    *body = start;
    return 0;
}

/* The next line of *rest (cut there, without its '\r'), *rest moved past
 * it (NULL after the last one). */
static char *next_line(char **rest)
{
    char *line = *rest;
    char *nl = strchr(line, '\n');
    if (nl) {
        *nl = '\0';
        *rest = nl + 1;
    } else {
        *rest = NULL;
    }
    size_t ll = strlen(line);
    if (ll && line[ll - 1] == '\r')
        line[--ll] = '\0';
    return line;
}

/* Key line `state` (1..4: clrt, platform, device, driver) against the
 * device's (key: its key lines); 0, -1 (malformed) or -2 (another device's). */
static int check_key_line(const char *line, int state, const char *key, size_t lineno, char *why, size_t cap)
{
    static const char *const key_names[4] = {"clrt", "platform", "device", "driver"};
    const char *name = key_names[state - 1];
    size_t nlen = strlen(name);
    if (strncmp(line, name, nlen) != 0 || line[nlen] != ' ') {
        char msg[200];
        snprintf(msg, sizeof msg, "expected the '%s' line", name);
        return fail(why, cap, -1, msg, lineno);
    }
    /* this line must equal the device's */
    const char *k = key;
    for (int i = 1; i < state; i++)
        k = strchr(k, '\n') + 1;
    size_t klen = strcspn(k, "\n");
    if (strlen(line) != klen || strncmp(line, k, klen) != 0) {
        snprintf(why, cap, "written for another %s: '%.80s', this is '%.*s'",
                 state == 1 ? "clrt version" : state == 3 ? "device" : name, line + nlen + 1,
                 (int)(klen - nlen - 1 > 80 ? 80 : klen - nlen - 1), k + nlen + 1);
        return -2;
    }
    return 0;
}

/* An entry, "<op> <dtype> key=value ...", into out: a known kernel and
 * dtype the device has, once, with parameters the kernel and device take. */
static int parse_entry(char *line, size_t lineno, const clrt_device_info *info, const clrt__device_facts *facts,
                       clrt__tuned_set *out, char *why, size_t cap)
{
    char msg[200];
    char *sp1 = strchr(line, ' ');
    char *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
    if (!sp1 || !sp2)
        return fail(why, cap, -1, "expected '<op> <dtype> key=value ...'", lineno);
    *sp1 = *sp2 = '\0';
    int op = clrt__kernel_find(line), dt = -1;
    for (int i = 1; i <= NDTYPES; i++)
        if (strcmp(sp1 + 1, clrt__dtype_word(i)) == 0)
            dt = i;
    const clrt__kernel_def *def = clrt__kernel_at(op);
    if (!def || dt < 0 || !clrt__kernel_takes(def, dt)) {
        snprintf(msg, sizeof msg, "unknown operation or dtype '%.30s %.30s'", line, sp1 + 1);
        return fail(why, cap, -1, msg, lineno);
    }
    if (dt == CLRT_FLOAT64 && !info->has_fp64)
        return fail(why, cap, -1, "a float64 entry for a device without fp64", lineno);
    size_t elem = clrt__dtype_size(dt);
    clrt__tuned_entry *e = &out->e[op][dt - 1];
    if (e->have)
        return fail(why, cap, -1, "the same operation and dtype twice", lineno);
    def->defaults(facts, elem, &e->p);
    char fwhy[160];
    if (clrt__params_parse(def, sp2 + 1, &e->p, fwhy, sizeof fwhy) != 0 ||
        clrt__params_check(def, facts, elem, &e->p, fwhy, sizeof fwhy) != 0) {
        snprintf(msg, sizeof msg, "%s %s: %s", def->name, clrt__dtype_word(dt), fwhy);
        return fail(why, cap, -1, msg, lineno);
    }
    e->have = 1;
    return 0;
}

/* The lines before the checksum (body, which this cuts into lines): the
 * magic line, the device's key lines, then entries. */
static int parse_lines(char *body, const clrt_device_info *info, const clrt__device_facts *facts,
                       clrt__tuned_set *out, char *why, size_t cap)
{
    char key[1200];
    key_lines(info, key, sizeof key);
    int rc = 0, state = 0; /* 0: want magic, 1..4: want key lines, 5: entries */
    size_t lineno = 0;
    char *rest = body;
    while (rc == 0 && rest && *rest) {
        char *line = next_line(&rest);
        lineno++;
        if (line[0] == '\0' || line[0] == '#')
            continue;
        if (state == 0) {
            if (strcmp(line, "CLRT-TUNED 1") != 0)
                rc = fail(why, cap, -1, "not a clrt tuned-parameter file (no 'CLRT-TUNED 1' line)", lineno);
            state = 1;
        } else if (state <= 4) {
            rc = check_key_line(line, state, key, lineno, why, cap);
            state++;
        } else {
            rc = parse_entry(line, lineno, info, facts, out, why, cap);
        }
    }
    if (rc == 0 && state < 5)
        rc = fail(why, cap, -1, "incomplete header", 0);
    return rc;
}

int clrt__tuned_parse(const char *text, size_t len, const clrt_device_info *info, const clrt__device_facts *facts,
                      clrt__tuned_set *out, char *why, size_t cap)
{
    memset(out, 0, sizeof *out);
    if (len > CLRT__TUNED_MAX_FILE)
        return fail(why, cap, -1, "larger than a tuned file can be", 0);
    if (memchr(text, '\0', len))
        return fail(why, cap, -1, "binary data (a NUL byte)", 0);
    size_t start;
    int rc = check_sum(text, len, &start, why, cap);
    if (rc != 0)
        return rc;
    /* line by line, up to the checksum */
    char *copy = malloc(start + 1);
    if (!copy)
        return fail(why, cap, -1, "out of memory", 0);
    memcpy(copy, text, start);
    copy[start] = '\0';
    rc = parse_lines(copy, info, facts, out, why, cap);
    free(copy);
    if (rc != 0)
        memset(out, 0, sizeof *out);
    return rc;
}

/* ---- writing */

char *clrt__tuned_format(const clrt_device_info *info, const clrt__tuned_set *set)
{
    size_t cap = 8192, used = 0;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    char key[1200];
    key_lines(info, key, sizeof key);
    int n = snprintf(buf, cap,
                     "# clrt tuned kernel parameters, written by clrt-bench --tune and read by clrt\n"
                     "# whenever it builds a kernel for this device. Delete the file to go back to\n"
                     "# the defaults; CLRT_TUNED=0 ignores it. Editing it invalidates the check line.\n"
                     "CLRT-TUNED 1\n%s",
                     key);
    if (n < 0 || (size_t)n >= cap)
        goto fail;
    used = (size_t)n;
    for (int op = 0; op < CLRT__K_COUNT; op++)
        for (int dt = 1; dt <= NDTYPES; dt++) {
            const clrt__tuned_entry *e = &set->e[op][dt - 1];
            if (!e->have)
                continue;
            char fields[400], comment[210];
            if (clrt__params_text(clrt__kernel_at(op), &e->p, fields, sizeof fields) != 0)
                goto fail;
            one_line(comment, sizeof comment, e->comment);
            n = snprintf(buf + used, cap - used, "%s%s%s%s %s %s\n", comment[0] ? "# " : "", comment,
                         comment[0] ? "\n" : "", clrt__kernel_at(op)->name, clrt__dtype_word(dt), fields);
            if (n < 0 || (size_t)n >= cap - used)
                goto fail;
            used += (size_t)n;
        }
    n = snprintf(buf + used, cap - used, "check %016" PRIx64 "\n", clrt__hash(CLRT_HASH_INIT, buf, used));
    if (n < 0 || (size_t)n >= cap - used)
        goto fail;
    return buf;
fail:
    free(buf);
    return NULL;
}

int clrt__tuned_write(const char *path, const clrt_device_info *info, const clrt__tuned_set *set, char *why,
                      size_t cap)
{
    char *text = clrt__tuned_format(info, set);
    if (!text) {
        snprintf(why, cap, "out of host memory");
        return -1;
    }
    /* as the program cache's files: only where base/trust.h trusts the folder */
    int rc = clrt__cache_write(path, text, strlen(text), why, cap);
    free(text);
    return rc == 0 ? 0 : -1;
}

/* ---- loading, with one warning per file and reason */

int clrt__tuned_load(const char *path, const clrt_device_info *info, const clrt__device_facts *facts,
                     clrt__tuned_set *out)
{
    memset(out, 0, sizeof *out);
    char own[4300];
    if (!path) {
        if (!clrt__env_flag("CLRT_TUNED", 1) || clrt__tuned_path(info, 0, own, sizeof own) != 0)
            return 0;
        path = own;
    }
    char *data = NULL;
    size_t len = 0;
    char why[600];
    /* only a file of this user's that no one else may write (base/trust.h) */
    int rc = clrt__trusted_read(path, CLRT__TUNED_MAX_FILE, &data, &len, why, sizeof why);
    if (rc == 1)
        return 0; /* no tuning: the defaults, silently */
    if (rc != 0) {
        rc = -1;
    } else if (len == 0) {
        free(data);
        return 0; /* an empty file (made to be written): no tuning */
    } else {
        rc = clrt__tuned_parse(data, len, info, facts, out, why, sizeof why);
    }
    free(data);
    if (rc == 0)
        return 1;
    clrt__tuned_count(CLRT__TUNED_IGNORED);
    if (clrt__first_time(path, why))
        fprintf(stderr, "clrt: ignoring tuned parameters %s: %s; using the defaults for device '%s'\n", path, why,
                info->name);
    return -1;
}

int clrt__tuned_lookup(const clrt_device_info *info, const clrt__device_facts *facts, int kernel, int dtype,
                       clrt__pvals *out)
{
    clrt__tuned_set set;
    if (kernel < 0 || kernel >= CLRT__K_COUNT || dtype < 1 || dtype > NDTYPES ||
        clrt__tuned_load(NULL, info, facts, &set) != 1 || !set.e[kernel][dtype - 1].have)
        return 0;
    *out = set.e[kernel][dtype - 1].p;
    clrt__tuned_count(CLRT__TUNED_USED);
    return 1;
}

void clrt__tuned_rejected(const clrt_device_info *info, int kernel, int dtype, const char *why)
{
    clrt__tuned_count(CLRT__TUNED_FALLBACK);
    char what[64];
    snprintf(what, sizeof what, "%s %s", clrt__kernel_at(kernel)->name, clrt__dtype_word(dtype));
    if (clrt__first_time(info->name, what))
        fprintf(stderr, "clrt: the tuned %s parameters for device '%s' do not work there (%s); using the defaults\n",
                what, info->name, why);
}
