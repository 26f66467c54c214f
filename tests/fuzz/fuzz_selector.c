/* libFuzzer target: the selector grammar (src/device/selector.c) on arbitrary bytes.
 * Beyond "no crash, no sanitizer report", every parse is checked against the
 * grammar in clrt.h and every pick against a naive re-implementation over a
 * made-up machine, so a wrong answer is a finding too. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/selector.h"

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_selector: %s: ", #cond);                                         \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

enum { NDEV = 6 };
static clrt__device_entry machine[NDEV];

static void add_device(size_t i, unsigned p, unsigned d, int type, const char *name, const char *platform,
                       const char *vendor, unsigned cu, unsigned mhz)
{
    clrt__device_entry *e = &machine[i];
    memset(e, 0, sizeof *e);
    e->info.index = i;
    e->info.platform_index = p;
    e->info.device_index = d;
    e->info.type = type;
    snprintf(e->info.name, sizeof e->info.name, "%s", name);
    snprintf(e->info.platform, sizeof e->info.platform, "%s", platform);
    snprintf(e->info.vendor, sizeof e->info.vendor, "%s", vendor);
    e->info.compute_units = cu;
    e->clock_mhz = mhz;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* platform 2 has no devices: "2:0" must match nothing */
    add_device(0, 0, 0, CLRT_DEVICE_CPU, "pthread-skylake-avx512-AMD EPYC", "Portable Computing Language",
               "AuthenticAMD", 2, 2600);
    add_device(1, 1, 0, CLRT_DEVICE_GPU, "Oclgrind Simulator", "Oclgrind", "University of Bristol", 1, 1);
    add_device(2, 3, 0, CLRT_DEVICE_GPU, "llvmpipe (LLVM 15.0.6, 256 bits)", "rusticl", "Mesa", 8, 1000);
    add_device(3, 4, 0, CLRT_DEVICE_GPU, "NVIDIA H200", "NVIDIA CUDA", "NVIDIA Corporation", 132, 1980);
    add_device(4, 4, 1, CLRT_DEVICE_ACCELERATOR, "Alveo U250", "Xilinx", "Xilinx Inc", 1, 300);
    add_device(5, 5, 0, CLRT_DEVICE_OTHER, "Custom \xc3\xa9t\xc3\xa9 device", "Vendor X", "X", 4, 100);
    return 0;
}

static int blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static int all_in(const char *s, size_t n, const char *set)
{
    for (size_t i = 0; i < n; i++)
        if (!s[i] || !strchr(set, s[i]))
            return 0;
    return 1;
}

static int ieq_word(const char *s, size_t n, const char *w)
{
    if (strlen(w) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)s[i]) != w[i])
            return 0;
    return 1;
}

/* naive case-insensitive substring */
static int has(const char *hay, const char *needle, size_t n)
{
    for (size_t i = 0; hay[i]; i++) {
        size_t j = 0;
        while (j < n && hay[i + j] && tolower((unsigned char)hay[i + j]) == tolower((unsigned char)needle[j]))
            j++;
        if (j == n)
            return 1;
    }
    return n == 0;
}

static int reference_match(const clrt_selector *s, const clrt__device_entry *d)
{
    switch (s->kind) {
    case CLRT_SEL_DEFAULT:
        return 1;
    case CLRT_SEL_INDEX:
        return d->info.index == s->index;
    case CLRT_SEL_PD:
        return d->info.platform_index == s->platform && d->info.device_index == s->device;
    case CLRT_SEL_TYPE:
        return d->info.type == s->type;
    case CLRT_SEL_TEXT:
        return has(d->info.name, s->text, s->text_len) || has(d->info.platform, s->text, s->text_len) ||
               has(d->info.vendor, s->text, s->text_len);
    case CLRT_SEL_MALFORMED:
        return 0;
    }
    CHECK(0, "unknown kind %d", (int)s->kind);
    return 0;
}

static long reference_pick(const clrt_selector *s)
{
    long best = -1;
    for (size_t i = 0; i < NDEV; i++)
        if (reference_match(s, &machine[i]) &&
            (best < 0 || clrt__device_rank(&machine[i]) > clrt__device_rank(&machine[best])))
            best = (long)i;
    return best;
}

static long check_one(const char *text)
{
    clrt_selector s;
    clrt__selector_parse(text, &s);
    size_t len = strlen(text), lead = 0;
    while (lead < len && blank(text[lead]))
        lead++;
    size_t end = len;
    while (end > lead && blank(text[end - 1]))
        end--;
    const char *t = text + lead;
    size_t n = end - lead;
    if (n == 0) {
        CHECK(s.kind == CLRT_SEL_DEFAULT, "blank text parsed as kind %d", (int)s.kind);
    } else {
        CHECK(s.text == t && s.text_len == n, "trimmed text is [%zu,+%zu), parser says %td,+%zu", lead, n,
              s.text - text, s.text_len);
        switch (s.kind) {
        case CLRT_SEL_INDEX:
            CHECK(all_in(t, n, "0123456789"), "index from \"%.*s\"", (int)n, t);
            if (n <= 18) /* the value itself, where it cannot saturate */
                CHECK(s.index == (size_t)strtoull(t, NULL, 10), "\"%.*s\" gave index %zu", (int)n, t, s.index);
            break;
        case CLRT_SEL_PD: {
            const char *colon = memchr(t, ':', n);
            CHECK(colon && colon > t && colon < t + n - 1 && all_in(t, (size_t)(colon - t), "0123456789") &&
                      all_in(colon + 1, n - (size_t)(colon - t) - 1, "0123456789"),
                  "P:D from \"%.*s\"", (int)n, t);
            break;
        }
        case CLRT_SEL_TYPE:
            CHECK(ieq_word(t, n, "gpu") || ieq_word(t, n, "cpu") || ieq_word(t, n, "accelerator"),
                  "type word from \"%.*s\"", (int)n, t);
            break;
        case CLRT_SEL_MALFORMED:
            CHECK(all_in(t, n, "0123456789:+-"), "malformed from \"%.*s\"", (int)n, t);
            break;
        case CLRT_SEL_TEXT:
            CHECK(!all_in(t, n, "0123456789:+-"), "digits and colons \"%.*s\" taken as a name", (int)n, t);
            break;
        case CLRT_SEL_DEFAULT:
            CHECK(0, "non-blank \"%.*s\" parsed as default", (int)n, t);
        }
    }
    long pick = clrt__selector_pick(&s, machine, NDEV);
    CHECK(pick >= -1 && pick < NDEV, "pick %ld", pick);
    long want = reference_pick(&s);
    CHECK(pick == want, "\"%s\": picked %ld, reference %ld", text, pick, want);
    return pick;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 2048)
        return 0;
    /* the text as a C string (an embedded NUL ends it), and variants that
     * must pick the same device: blanks around it, and swapped letter case */
    char *text = malloc(size + 1), *framed = malloc(size + 5), *swapped = malloc(size + 1);
    if (!text || !framed || !swapped)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    long pick = check_one(text);
    snprintf(framed, size + 5, " \t%s\n ", text);
    CHECK(check_one(framed) == pick, "blanks around \"%s\" changed the pick", text);
    size_t n = strlen(text);
    for (size_t i = 0; i <= n; i++) {
        unsigned char c = (unsigned char)text[i];
        swapped[i] = (char)(isupper(c) ? tolower(c) : islower(c) ? toupper(c) : c);
    }
    CHECK(check_one(swapped) == pick, "letter case changed the pick of \"%s\"", text);
    free(text);
    free(framed);
    free(swapped);
    return 0;
}
