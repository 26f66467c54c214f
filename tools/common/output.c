/* The tools' output files (see common/output.h). */
#include "output.h"

enum { FLAGS = CLRT__OUT_FOLLOW | CLRT__OUT_DEFER_SIGNALS };

int tool_out_check(const char *path, char *err, size_t errcap)
{
    return clrt__outfile_check(path, FLAGS, err, errcap) == 0 ? 0 : 2;
}

int tool_out_open(tool_out *o, const char *path, char *err, size_t errcap)
{
    if (clrt__outfile_open(o, path, FLAGS) == 0)
        return 0;
    snprintf(err, errcap, "%s", o->why);
    return 2;
}

int tool_out_close(tool_out *o, char *err, size_t errcap)
{
    if (clrt__outfile_commit(o) == 0)
        return 0;
    snprintf(err, errcap, "%s", o->why);
    return 2;
}

int tool_out_write(const char *path, const void *data, size_t len, char *err, size_t errcap)
{
    return clrt__outfile_write_all(path, data, len, FLAGS, err, errcap) == 0 ? 0 : 2;
}

void tool_stdout_watch(void) { clrt__stdout_watch(); }

int tool_stdout_close(const char *prog)
{
    char why[400];
    if (clrt__stdout_close(why, sizeof why) == 0)
        return 0;
    fprintf(stderr, "%s: %s\n", prog, why);
    return 2;
}
