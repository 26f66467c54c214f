/* JSON scalars and object members for the tools' --json output (clrt-bench,
 * clrt-train): every tool writes strings, numbers and "not measured" alike. */
#ifndef CLRT_TOOLS_COMMON_JSON_H
#define CLRT_TOOLS_COMMON_JSON_H

#include <stdio.h>

/* s as a JSON string, quoted and escaped. */
void tool_json_str(FILE *f, const char *s);
/* v as a JSON number, or null when !have or v is not finite ("not measured"). */
void tool_json_num(FILE *f, double v, int have);

/* A member of an object: sep (what comes before it: "{", ", ", ",\n  "),
 * then "key": and the value as tool_json_str / tool_json_num write it. */
void tool_json_key_str(FILE *f, const char *sep, const char *key, const char *s);
void tool_json_key_num(FILE *f, const char *sep, const char *key, double v, int have);

#endif
