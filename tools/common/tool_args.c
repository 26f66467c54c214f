/* The tools' command-line reading (see common/tool_args.h). */
#include "common/tool_args.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tool_args_bad(const tool_args *a, const char *value, const char *why)
{
    const char *opt = a->option ? a->option : "";
    if (a->quiet)
        return TOOL_ARGS_BAD;
    if (value)
        fprintf(stderr, "%s: %s%s%s: %s (%s --help)\n", a->tool, opt, *opt ? " " : "", value, why, a->tool);
    else
        fprintf(stderr, "%s: %s: %s (%s --help)\n", a->tool, opt, why, a->tool);
    return TOOL_ARGS_BAD;
}

/* "must be lo to hi", or "must be at least lo" when hi is no limit at all. */
static void range_why(char *why, size_t cap, unsigned long long lo, unsigned long long hi)
{
    if (hi == ULLONG_MAX || hi == SIZE_MAX)
        snprintf(why, cap, "must be at least %llu", lo);
    else
        snprintf(why, cap, "must be %llu to %llu", lo, hi);
}

int tool_parse_count(const char *text, unsigned long long lo, unsigned long long hi, unsigned long long *out,
                     char *why, size_t why_cap)
{
    const size_t len = strlen(text), digits = strspn(text, "0123456789");
    unsigned long long v;
    if (len == 0 || digits == 0 || strspn(text, "0123456789.eE+") != len) {
        snprintf(why, why_cap, "not a whole number");
        return -1;
    }
    if (digits == len) {
        errno = 0;
        v = strtoull(text, NULL, 10);
        if (errno == ERANGE) {
            snprintf(why, why_cap, "out of range");
            return -1;
        }
    } else {
        /* 1e6, 2.5e3: exponent notation, a whole number all the same */
        char *end = NULL;
        errno = 0;
        const double d = strtod(text, &end);
        if (*end || !isfinite(d) || d != floor(d)) {
            snprintf(why, why_cap, errno == ERANGE ? "out of range" : "not a whole number");
            return -1;
        }
        if (d >= 18446744073709551616.0) { /* 2^64: no 64-bit count holds it */
            snprintf(why, why_cap, "out of range");
            return -1;
        }
        v = (unsigned long long)d;
    }
    if (v < lo || v > hi) {
        range_why(why, why_cap, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int tool_args_count(const tool_args *a, const char *text, unsigned long long lo, unsigned long long hi,
                    unsigned long long *out)
{
    char why[96];
    return tool_parse_count(text, lo, hi, out, why, sizeof why) == 0 ? 0 : tool_args_bad(a, text, why);
}

int tool_args_size(const tool_args *a, const char *text, size_t lo, size_t hi, size_t *out)
{
    unsigned long long v;
    const int rc = tool_args_count(a, text, lo, hi, &v);
    if (rc == 0)
        *out = (size_t)v;
    return rc;
}

int tool_args_int(const tool_args *a, const char *text, int lo, int hi, int *out)
{
    unsigned long long v;
    if (lo < 0) /* no tool takes a negative count */
        lo = 0;
    const int rc = tool_args_count(a, text, (unsigned long long)lo, (unsigned long long)(hi < lo ? lo : hi), &v);
    if (rc == 0)
        *out = (int)v;
    return rc;
}

int tool_args_real(const tool_args *a, const char *text, double lo, double hi, double *out)
{
    char *end = NULL;
    errno = 0;
    const double v = strtod(text, &end);
    if (end == text || *end || errno)
        return tool_args_bad(a, text, "not a number");
    if (!isfinite(v) || v < lo || v > hi) {
        char why[96];
        snprintf(why, sizeof why, "must be %g to %g", lo, hi);
        return tool_args_bad(a, text, why);
    }
    *out = v;
    return 0;
}

static const tool_option *find_option(const tool_option *table, size_t n, const char *arg)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(arg, table[i].name) == 0 || (table[i].alias && strcmp(arg, table[i].alias) == 0))
            return &table[i];
    return NULL;
}

/* An argument the table does not know: the positional reader's, or refused. */
static int not_an_option(tool_args *a, char **arg)
{
    a->option = NULL;
    if (a->positional && (arg[0][0] != '-' || arg[0][1] == '\0'))
        return a->positional(a, arg);
    if (!a->quiet)
        fprintf(stderr, "%s: %s %s (%s --help)\n", a->tool, arg[0][0] == '-' ? "unknown option" : "unexpected argument",
            arg[0], a->tool);
    return TOOL_ARGS_BAD;
}

int tool_args_parse(tool_args *a, const tool_option *table, size_t n, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const tool_option *opt = find_option(table, n, argv[i]);
        if (!opt) {
            const int rc = not_an_option(a, argv + i);
            if (rc != TOOL_ARGS_RUN)
                return rc;
            continue;
        }
        a->option = argv[i];
        for (int k = 1; k <= opt->nvalues; k++)
            if (i + k >= argc || !argv[i + k][0]) {
                char why[32];
                snprintf(why, sizeof why, opt->nvalues == 1 ? "needs a value" : "needs %d values", opt->nvalues);
                return tool_args_bad(a, NULL, why);
            }
        if (!opt->take) {
            *(int *)((char *)a->state + opt->field) = opt->value;
            continue;
        }
        const int rc = opt->take(a, argv + i + 1);
        if (rc != TOOL_ARGS_RUN)
            return rc;
        i += opt->nvalues;
    }
    a->option = NULL;
    return TOOL_ARGS_RUN;
}
