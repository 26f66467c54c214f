/* A caller's build options, checked before any driver sees them
 * (runtime/build_options.c; the table of driver crashes they keep callers
 * from is in docs/drivers.md). */
#ifndef CLRT_RUNTIME_BUILD_OPTIONS_H
#define CLRT_RUNTIME_BUILD_OPTIONS_H

#include "runtime/handles.h"

/* options (never NULL) for a program on ctx's device: CLRT_OK and in *out
 * (malloc'd) the options the driver is given (each -D, -U or -I joined to
 * the word after it: "-D N=4" becomes "-DN=4"), or CLRT_EINVAL naming the
 * option (clrt__fail with func) for a quote left open, an option that takes a
 * word without one (-D, -U, -I, -x, -include, -imacros, -isystem, -iquote,
 * -idirafter), a -D or -U without a macro name, and what crashes ctx's driver
 * (rusticl: a double quote, a word of one character; rusticl and Oclgrind: a
 * word that is not an option, as they split the options); CLRT_ENOMEM. */
int clrt__build_options_check(const clrt_context *ctx, const char *options, const char *func, char **out);

#endif
