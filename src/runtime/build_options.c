/* Build options checked before a driver sees them (see runtime/build_options.h).
 *
 * Drivers parse options with little care, and some crash the calling
 * process on a malformed one rather than fail the build (measured, each
 * through clrt_program_create; docs/drivers.md keeps the table):
 *   POCL 3.1        "-D" with nothing after it: SIGSEGV
 *   rusticl 22.3    any word of one character ("-D X", "-w X", "-o x",
 *                   "-DX=\"a\""): a Rust panic, abort; a double quote
 *                   ("-DX=\"ab\"", one left open), most words that are not
 *                   options ("-w cd"; rusticl reads no quotes: "-DX='a b'"):
 *                   SIGSEGV
 *   Oclgrind 21.10  a word that is not an option ("X", "-", "'-DX", "-s a.cl"),
 *                   also one left by a blank in single quotes ("-DX='a b'"):
 *                   SIGSEGV
 * So every driver gets the rules all of them can keep (-D/-I and the other
 * options that take a word with their word, a macro name for -D, quotes
 * closed), and a driver's own crashes are refused on that driver alone:
 * rusticl and Oclgrind, which split the options at blanks (rusticl reading no
 * quotes, Oclgrind double ones only), get each word checked to be an option
 * or an option's word, as they split it. A word that is not an option goes
 * to other drivers unchanged: NVIDIA documents "-cl-nv-maxrregcount <N>", and
 * POCL fails such a build cleanly. Words are split as a shell would: at
 * blanks outside single or double quotes, the quotes then removed. */
#include "runtime/build_options.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

/* The options that take the next word when they stand alone; the first
 * three are joined to it for the driver. */
static const char *const takes_word[] = {"-D", "-U", "-I", "-x", "-include", "-imacros", "-isystem", "-iquote",
                                         "-idirafter"};
enum { NJOINED = 3 };

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* The word that starts at *pos (blanks skipped), split as a parser that
 * groups blanks inside the quote characters `quotes` splits it: its raw span
 * [*start, *end), its text without those quotes into text; 0 at the end, 1 a
 * word, -1 a quote left open (*open: which). */
static int next_word(const char *s, const char *quotes, size_t *pos, size_t *start, size_t *end, char *text,
                     char *open)
{
    size_t p = *pos, n = 0;
    while (is_blank(s[p]))
        p++;
    if (!s[p])
        return 0;
    *start = p;
    char quote = 0;
    for (; s[p] && (quote || !is_blank(s[p])); p++) {
        if (quote && s[p] == quote)
            quote = 0;
        else if (!quote && s[p] && strchr(quotes, s[p]))
            quote = s[p];
        else
            text[n++] = s[p];
    }
    text[n] = '\0';
    *end = *pos = p;
    *open = quote;
    return quote ? -1 : 1;
}

/* Index in takes_word of the option text is, or -1. */
static int word_taker(const char *text)
{
    for (size_t i = 0; i < sizeof takes_word / sizeof *takes_word; i++)
        if (strcmp(text, takes_word[i]) == 0)
            return (int)i;
    return -1;
}

/* A macro name for -D or -U (name the text of the option and its operand,
 * as one): something before any '='. */
static int has_macro_name(const char *name) { return name[0] != '\0' && name[0] != '='; }

typedef struct scan {
    const char *options, *func;
    char *text, *out;
    size_t used;
} scan;

/* CLRT_EINVAL: why, then the options as given. */
static int refuse(const scan *sc, const char *fmt, ...) CLRT__PRINTF(2, 3);
static int refuse(const scan *sc, const char *fmt, ...)
{
    char why[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return clrt__fail(CLRT_EINVAL, sc->func, "%s (build options \"%s\"; docs/drivers.md)", why, sc->options);
}

/* One word at [start, end) with text: into sc->out (its blanks first, but
 * none for the operand of a joined option). *taker: the option before it
 * waiting for its word (-1 none), then this word's. */
static int take_word(scan *sc, size_t gap, size_t start, size_t end, int *taker)
{
    const char *t = sc->text;
    if (*taker >= 0) {
        if (t[0] == '-' || t[0] == '\0')
            return refuse(sc, "build option \"%s\" needs a word after it", takes_word[*taker]);
        if (*taker < 2 && !has_macro_name(t))
            return refuse(sc, "build option \"%s\" has no macro name", takes_word[*taker]);
        if (*taker < NJOINED)
            gap = start; /* "-D X" -> "-DX" */
        *taker = -1;
    } else if ((*taker = word_taker(t)) < 0 && t[0] == '-' && (t[1] == 'D' || t[1] == 'U') && !has_macro_name(t + 2)) {
        return refuse(sc, "build option \"%s\" has no macro name", t);
    }
    memcpy(sc->out + sc->used, sc->options + gap, end - gap);
    sc->used += end - gap;
    return CLRT_OK;
}

/* The options as a driver that groups blanks only inside `quotes` would
 * split them: each word an option or an option's operand, as the driver
 * would crash otherwise; one_char: a word of one character crashes it too. */
static int driver_split_check(const scan *sc, const char *opts, const char *quotes, int one_char,
                              const char *driver)
{
    char open, *text = sc->text;
    int taker = -1;
    for (size_t pos = 0, start, end; next_word(opts, quotes, &pos, &start, &end, text, &open) > 0;) {
        if (one_char && end - start == 1)
            return refuse(sc, "the one-character word \"%s\" in build options crashes %s (a panic that aborts)",
                          text, driver);
        if (taker < 0 && (text[0] != '-' || text[1] == '\0'))
            return refuse(sc,
                          "\"%s\" is not a build option (options start with '-'; -D, -I, -x and -include take the "
                          "word after them; %s reads quotes %s), and %s crashes on such a word",
                          text, driver, quotes[0] ? "\"...\" only" : "not at all", driver);
        taker = taker < 0 ? word_taker(text) : -1;
    }
    return CLRT_OK;
}

/* What ctx's driver crashes on, in the options it would be given. */
static int driver_check(const scan *sc, const clrt_context *ctx, const char *opts)
{
    if (clrt__icontains(ctx->info.platform, "rusticl", 7)) {
        /* Mesa 22.3: a double quote (SIGSEGV); splits at every blank */
        if (strchr(opts, '"'))
            return refuse(sc, "a double quote in build options crashes rusticl (Mesa 22.3: SIGSEGV); on "
                              "rusticl give none");
        return driver_split_check(sc, opts, "", 1, "rusticl");
    }
    if (clrt__icontains(ctx->info.platform, "oclgrind", 8))
        return driver_split_check(sc, opts, "\"", 0, "Oclgrind");
    return CLRT_OK;
}

int clrt__build_options_check(const clrt_context *ctx, const char *options, const char *func, char **out)
{
    *out = NULL;
    const size_t len = strlen(options);
    scan sc = {options, func, malloc(len + 1), malloc(len + 1), 0};
    int status = sc.text && sc.out ? CLRT_OK : clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    size_t pos = 0, start, end;
    int taker = -1;
    while (status == CLRT_OK) {
        const size_t gap = pos;
        char open = 0;
        const int got = next_word(options, "\"'", &pos, &start, &end, sc.text, &open);
        if (got == 0)
            break;
        char q[2] = {open, 0};
        status = got < 0 ? refuse(&sc, "a quote (%s) is left open", q) : take_word(&sc, gap, start, end, &taker);
    }
    if (status == CLRT_OK && taker >= 0)
        status = refuse(&sc, "build option \"%s\" needs a word after it", takes_word[taker]);
    if (status == CLRT_OK) {
        memcpy(sc.out + sc.used, options + pos, len - pos); /* trailing blanks */
        sc.out[sc.used + len - pos] = '\0';
        status = driver_check(&sc, ctx, sc.out);
    }
    free(sc.text);
    if (status != CLRT_OK)
        free(sc.out);
    else
        *out = sc.out;
    return status;
}
