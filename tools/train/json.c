/* --json's writer (see train/json.h); strings and numbers as clrt-bench
 * writes them (common/json.c). */
#include "json.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/json.h"

static FILE *open_tmp(const char *path, char *tmp, size_t tmpcap, char *err, size_t errcap)
{
    snprintf(tmp, tmpcap, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        snprintf(err, errcap, "%s: cannot write %s: %s", path, tmp, strerror(errno));
    return f;
}

/* Close f and move tmp to path; 0, or 2 with err set. */
static int close_tmp(FILE *f, const char *tmp, const char *path, char *err, size_t errcap)
{
    int ok = !ferror(f);
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        snprintf(err, errcap, "%s: cannot write: %s", path, strerror(e));
        return 2;
    }
    return 0;
}

/* path.tmp opened, and the members every report starts with written: its
 * device and data set. NULL with err set. */
static FILE *open_report(const char *path, char *tmp, size_t tmpcap, const char *device, const char *dataset,
                         char *err, size_t errcap)
{
    FILE *f = open_tmp(path, tmp, tmpcap, err, errcap);
    if (!f)
        return NULL;
    tool_json_key_str(f, "{", "device", device);
    tool_json_key_str(f, ", ", "dataset", dataset);
    return f;
}

int train_json_write(const char *path, const train_report *r, char *err, size_t errcap)
{
    char tmp[4200];
    FILE *f = open_report(path, tmp, sizeof tmp, r->device, r->dataset, err, errcap);
    if (!f)
        return 2;
    fprintf(f, ", \"epochs\": %u, \"batch\": %zu", r->epochs, r->batch);
    tool_json_key_num(f, ", ", "lr", r->lr, 1);
    tool_json_key_num(f, ", ", "momentum", r->momentum, 1);
    fprintf(f, ", \"seed\": %llu, \"train_images\": %zu, \"losses\": [", (unsigned long long)r->seed,
            r->train_images);
    for (size_t i = 0; i < r->nlosses; i++) {
        if (i)
            fputs(", ", f);
        tool_json_num(f, r->losses[i], 1);
    }
    fputc(']', f);
    tool_json_key_num(f, ", ", "test_accuracy",
                      r->test_total ? 100.0 * (double)r->test_correct / (double)r->test_total : 0, r->test_total > 0);
    fprintf(f, ", \"test_correct\": %zu, \"test_total\": %zu", r->test_correct, r->test_total);
    tool_json_key_num(f, ", ", "images_per_s", r->images_per_s, r->train_seconds > 0);
    tool_json_key_num(f, ", ", "train_seconds", r->train_seconds, 1);
    if (r->profile) {
        fputs(", \"profile\": ", f);
        train_profile_json(f, r->profile);
    }
    fputs("}\n", f);
    return close_tmp(f, tmp, path, err, errcap);
}

int train_json_write_predict(const char *path, const train_predict_report *r, char *err, size_t errcap)
{
    char tmp[4200];
    FILE *f = open_report(path, tmp, sizeof tmp, r->device, r->dataset, err, errcap);
    if (!f)
        return 2;
    tool_json_key_str(f, ", ", "images", r->images);
    fprintf(f, ", \"count\": %zu", r->count);
    tool_json_key_num(f, ", ", "test_accuracy", r->count ? 100.0 * (double)r->correct / (double)r->count : 0,
                      r->labelled && r->count);
    fprintf(f, ", \"test_correct\": %zu, \"test_total\": %zu", r->labelled ? r->correct : 0,
            r->labelled ? r->count : 0);
    tool_json_key_num(f, ", ", "images_per_s", r->images_per_s, r->seconds > 0);
    tool_json_key_num(f, ", ", "seconds", r->seconds, 1);
    fputs("}\n", f);
    return close_tmp(f, tmp, path, err, errcap);
}
