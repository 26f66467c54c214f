/* JSON scalars (see json.h). */
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
