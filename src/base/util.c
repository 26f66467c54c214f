/* Small helpers (see base/util.h). */
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/disk.h"
#include "base/thread.h"

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

/* 1 the first time for a variable name (a warning is then due), 0 after. */
static int first_warning(const char *name)
{
    static _Atomic(const char *) warned[16];
    for (size_t i = 0; i < sizeof warned / sizeof *warned; i++) {
        const char *cur = NULL;
        if (atomic_compare_exchange_strong(&warned[i], &cur, name))
            return 1;
        if (strcmp(cur, name) == 0)
            return 0;
    }
    return 1; /* more names than slots: warn again rather than never */
}

int clrt__env_flag(const char *name, int dflt)
{
    static const char *const on[] = {"1", "on", "yes", "true", NULL};
    static const char *const off[] = {"0", "off", "no", "false", NULL};
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    if (is_word(v, on))
        return 1;
    if (is_word(v, off))
        return 0;
    if (first_warning(name))
        fprintf(stderr, "clrt: %s=%s is not one of 1/on/yes/true or 0/off/no/false; using %s\n", name, v,
                dflt ? "on" : "off");
    return dflt;
}

long clrt__env_long(const char *name, long dflt, long min, long max)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno == 0 && end != v && *end == '\0' && n >= min && n <= max && isdigit((unsigned char)v[0]))
        return n;
    if (first_warning(name))
        fprintf(stderr, "clrt: %s=%s is not a whole number from %ld to %ld; using %ld\n", name, v, min, max, dflt);
    return dflt;
}

/* Hashes of the (a, b) pairs already seen: a warning's file and reason. */
static clrt_mutex seen_lock = CLRT_MUTEX_INITIALIZER;
static uint64_t seen[64];
static size_t nseen;

int clrt__first_time(const char *a, const char *b)
{
    uint64_t h = clrt__hash_str(clrt__hash_str(CLRT_HASH_INIT, a), b);
    int first = 1;
    clrt_mutex_lock(&seen_lock);
    for (size_t i = 0; i < nseen && first; i++)
        first = seen[i] != h;
    if (first && nseen < sizeof seen / sizeof *seen)
        seen[nseen++] = h;
    clrt_mutex_unlock(&seen_lock);
    return first;
}
