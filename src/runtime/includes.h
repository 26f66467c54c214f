/* The files a program's source may #include, for the on-disk program cache:
 * a cached binary is only valid while every header the compiler read is
 * unchanged, so the headers' contents belong in the cache key. */
#ifndef CLRT_RUNTIME_INCLUDES_H
#define CLRT_RUNTIME_INCLUDES_H

#include <stddef.h>
#include <stdint.h>

/* Limits of the search: past them clrt cannot vouch for the key. */
enum {
    CLRT__INCLUDES_MAX_FILES = 256,       /* distinct headers */
    CLRT__INCLUDES_MAX_DIRECTIVES = 4096, /* #include lines, all files together */
    CLRT__INCLUDES_MAX_DIRS = 64,         /* -I and similar options */
    CLRT__INCLUDES_MAX_FILE = 16 << 20    /* bytes of one header */
};

/* Follow every #include "x" / #include <x> line of source, recursively, the
 * way a preprocessor could resolve it: in the including header's folder, in
 * each -I / -isystem / -iquote / -idirafter folder of options, and in the
 * working folder (which the drivers search too). Every candidate that exists,
 * not only the one the compiler will pick, goes into the hash (its path and
 * contents), so a header that is changed, added in an earlier folder or
 * removed changes the hash. Lines inside comments or #if 0 count as well
 * (harmless: at worst a file too many in the key).
 * Returns 0 with *hash and *files (the number of headers hashed; 0 and the
 * initial hash for a source without #include); -1 when clrt cannot tell what
 * the compiler would read: an #include it cannot parse (a macro name) or
 * find, an -include / -imacros option, an unreadable header, or a limit
 * above exceeded. A program with -1 must not be cached. */
int clrt__includes_hash(const char *source, const char *options, uint64_t *hash, size_t *files);

#endif
