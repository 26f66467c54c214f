/* JSON scalars for the tools' --json output (clrt-bench, clrt-train). */
#ifndef CLRT_TOOLS_COMMON_JSON_H
#define CLRT_TOOLS_COMMON_JSON_H

#include <stdio.h>

/* s as a JSON string, quoted and escaped. */
void tool_json_str(FILE *f, const char *s);
/* v as a JSON number, or null when !have or v is not finite ("not measured"). */
void tool_json_num(FILE *f, double v, int have);

#endif
