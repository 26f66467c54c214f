/* One way for every tool to read its command line (clrt-bench, clrt-train,
 * clrt-info, clrt-mpi-bench): a table of options, each value range-checked
 * where it enters, and every refusal one line on stderr that names the option
 * and the value at fault, in one form:
 *
 *   clrt-bench: unknown option --bogus (clrt-bench --help)
 *   clrt-train: --batch 0: must be 1 to 65536 (clrt-train --help)
 *   clrt-info: --jobs: needs a value (clrt-info --help)
 *
 * A tool's option table lists each option once with the number of values it
 * takes; a switch stores a constant into the tool's state, any other option
 * has a reader (take) that checks its values with the readers below. */
#ifndef CLRT_TOOLS_COMMON_ARGS_H
#define CLRT_TOOLS_COMMON_ARGS_H

#include <stddef.h>

/* What parsing and every reader return: run, done (--help or --version
 * printed what they print: exit 0), or bad (the message printed: exit 2). */
enum { TOOL_ARGS_RUN = 0, TOOL_ARGS_DONE = 1, TOOL_ARGS_BAD = 2 };

typedef struct tool_args tool_args;

/* An option's reader: values are the option's nvalues arguments (never NULL,
 * never empty). TOOL_ARGS_RUN, TOOL_ARGS_DONE, or TOOL_ARGS_BAD after a
 * message (tool_args_bad, or one of the readers below, prints it). */
typedef int (*tool_take_fn)(tool_args *a, char **values);

typedef struct tool_option {
    const char *name;  /* "--sizes" */
    const char *alias; /* "-d", or NULL */
    int nvalues;       /* how many arguments after it are its values */
    tool_take_fn take; /* NULL: a switch, which sets the int at offset `field` of the state to `value` */
    size_t field;
    int value;
} tool_option;

/* A switch: the int member of the tool's state type T set to value. */
#define TOOL_SWITCH(name, T, member, value) {name, NULL, 0, NULL, offsetof(T, member), value}
/* An option with n values, read by take. */
#define TOOL_VALUES(name, alias, n, take) {name, alias, n, take, 0, 0}

struct tool_args {
    const char *tool;        /* "clrt-bench": the first word of every message */
    void *state;             /* what the readers and the switches fill */
    const char *option;      /* the option being read, as given: what the messages name */
    /* an argument that is not an option (clrt-info --warm SELECTOR), as
     * values[0]; NULL: refused like an unknown option */
    tool_take_fn positional;
    int quiet;               /* refuse without a word (an MPI rank other than 0: rank 0 says it) */
};

/* Every argument of argv[1..argc) in turn, against table[0..n): TOOL_ARGS_RUN,
 * TOOL_ARGS_DONE or TOOL_ARGS_BAD (the message printed: an unknown option, a
 * missing or empty value, or what its reader refused). */
int tool_args_parse(tool_args *a, const tool_option *table, size_t n, int argc, char **argv);

/* "<tool>: <option> <value>: <why> (<tool> --help)" on stderr (without the
 * value when it is NULL); returns TOOL_ARGS_BAD. */
int tool_args_bad(const tool_args *a, const char *value, const char *why);

/* A whole number in [lo, hi]: decimal digits ("2000"), or a whole number in
 * exponent notation ("1e6", "2.5e3"). Refused with a message naming the
 * value: not a whole number, out of range (past 2^64), must be lo to hi.
 * 0, or TOOL_ARGS_BAD. */
int tool_args_count(const tool_args *a, const char *text, unsigned long long lo, unsigned long long hi,
                    unsigned long long *out);
/* The same into a size_t or an int. */
int tool_args_size(const tool_args *a, const char *text, size_t lo, size_t hi, size_t *out);
int tool_args_int(const tool_args *a, const char *text, int lo, int hi, int *out);
/* A finite number in [lo, hi]: 0, or TOOL_ARGS_BAD (not a number, must be lo to hi). */
int tool_args_real(const tool_args *a, const char *text, double lo, double hi, double *out);

/* The same readers without a message: 0, or -1 with *why set to the reason
 * ("not a whole number", "out of range", "must be 1 to 64"; why_cap >= 64). */
int tool_parse_count(const char *text, unsigned long long lo, unsigned long long hi, unsigned long long *out,
                     char *why, size_t why_cap);

#endif
