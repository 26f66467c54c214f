/* JSON scalars for clrt-bench's printers (bench_print_json.c, bench_targets.c). */
#ifndef CLRT_BENCH_JSON_H
#define CLRT_BENCH_JSON_H

#include <stdio.h>

/* s as a JSON string, quoted and escaped. */
void bench_json_str(FILE *f, const char *s);
/* v as a JSON number, or null when !have or v is not finite ("not measured"). */
void bench_json_num(FILE *f, double v, int have);

#endif
