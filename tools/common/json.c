/* JSON scalars and members (see json.h). */
#include "json.h"

#include <math.h>

void tool_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

/* a number, or null for "not measured" */
void tool_json_num(FILE *f, double v, int have)
{
    if (have && isfinite(v))
        fprintf(f, "%.9g", v);
    else
        fputs("null", f);
}

/* sep, then "key": */
static void put_key(FILE *f, const char *sep, const char *key)
{
    fprintf(f, "%s\"%s\": ", sep, key);
}

void tool_json_key_str(FILE *f, const char *sep, const char *key, const char *s)
{
    put_key(f, sep, key);
    tool_json_str(f, s);
}

void tool_json_key_num(FILE *f, const char *sep, const char *key, double v, int have)
{
    put_key(f, sep, key);
    tool_json_num(f, v, have);
}
