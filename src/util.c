/* Small helpers (see util.h). */
#include "util.h"

#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *clrt__strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

int clrt__icontains(const char *hay, const char *needle, size_t nlen)
{
    size_t hlen = strlen(hay);
    if (nlen > hlen)
        return 0;
    for (size_t i = 0; i + nlen <= hlen; i++) {
        size_t j = 0;
        while (j < nlen && tolower((unsigned char)hay[i + j]) == tolower((unsigned char)needle[j]))
            j++;
        if (j == nlen)
            return 1;
    }
    return 0;
}

unsigned clrt__floor_pow2(size_t v)
{
    unsigned p = 1;
    while ((size_t)p * 2 <= v && p < (1u << 30))
        p *= 2;
    return p;
}

static int is_word(const char *v, const char *const *words)
{
    for (; *words; words++) {
        size_t n = strlen(*words);
        if (strlen(v) == n && clrt__icontains(v, *words, n))
            return 1;
    }
    return 0;
}

int clrt__env_flag(const char *name, int dflt)
{
    static const char *const on[] = {"1", "on", "yes", "true", NULL};
    static const char *const off[] = {"0", "off", "no", "false", NULL};
    static atomic_flag warned[8];
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    if (is_word(v, on))
        return 1;
    if (is_word(v, off))
        return 0;
    /* one warning per variable name (a few names exist; hash into 8 slots) */
    size_t slot = 0;
    for (const char *c = name; *c; c++)
        slot = slot * 31 + (unsigned char)*c;
    if (!atomic_flag_test_and_set(&warned[slot % 8]))
        fprintf(stderr, "clrt: %s=%s is not one of 1/on/yes/true or 0/off/no/false; using %s\n", name, v,
                dflt ? "on" : "off");
    return dflt;
}
