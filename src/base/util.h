/* Small helpers with no clrt state: strings, integer rounding, the boolean
 * environment variables. */
#ifndef CLRT_BASE_UTIL_H
#define CLRT_BASE_UTIL_H

#include <stddef.h>

/* strdup (not in C11); NULL when out of memory. */
char *clrt__strdup(const char *s);

/* Case-insensitive (ASCII) search for needle[0..nlen) in hay. */
int clrt__icontains(const char *hay, const char *needle, size_t nlen);

/* ceil(a / b), b > 0. */
static inline size_t clrt__ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }

/* The largest power of two <= v (1 for v < 2), at most 2^30. */
unsigned clrt__floor_pow2(size_t v);

/* A boolean environment variable (CLRT_CACHE, CLRT_TUNED: one parser for
 * all): 1 for 1/on/yes/true, 0 for 0/off/no/false (any case), dflt when unset
 * or empty; any other value is dflt, with one warning on stderr per variable. */
int clrt__env_flag(const char *name, int dflt);

/* A whole-number environment variable in [min, max] (decimal digits only),
 * dflt when unset or empty; any other value is dflt, with one warning on
 * stderr per variable. */
long clrt__env_long(const char *name, long dflt, long min, long max);

/* 1 the first time this process asks about the pair (a, b), 0 after: for
 * warnings given once per file and reason (past 64 pairs, every later one is
 * a first time: warned again rather than never). Thread-safe. */
int clrt__first_time(const char *a, const char *b);

#endif
