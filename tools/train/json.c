/* --json's writer (see train/json.h); strings and numbers as clrt-bench
 * writes them (common/json.c). */
#include "json.h"

#include <stdio.h>

#include "common/json.h"
#include "common/output.h"

/* path opened (common/output.h), and the members every report starts with
 * written: its device and data set. 0, or 2 with err set. */
static int open_report(tool_out *o, const char *path, const char *device, const char *dataset, char *err,
                       size_t errcap)
{
    if (tool_out_open(o, path, err, errcap) != 0)
        return 2;
    tool_json_key_str(o->f, "{", "device", device);
    tool_json_key_str(o->f, ", ", "dataset", dataset);
    return 0;
}

int train_json_write(const char *path, const train_report *r, char *err, size_t errcap)
{
    tool_out o;
    if (open_report(&o, path, r->device, r->dataset, err, errcap) != 0)
        return 2;
    FILE *f = o.f;
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
    return tool_out_close(&o, err, errcap);
}

int train_json_write_predict(const char *path, const train_predict_report *r, char *err, size_t errcap)
{
    tool_out o;
    if (open_report(&o, path, r->device, r->dataset, err, errcap) != 0)
        return 2;
    FILE *f = o.f;
    tool_json_key_str(f, ", ", "images", r->images);
    fprintf(f, ", \"count\": %zu", r->count);
    tool_json_key_num(f, ", ", "test_accuracy", r->count ? 100.0 * (double)r->correct / (double)r->count : 0,
                      r->labelled && r->count);
    fprintf(f, ", \"test_correct\": %zu, \"test_total\": %zu", r->labelled ? r->correct : 0,
            r->labelled ? r->count : 0);
    tool_json_key_num(f, ", ", "images_per_s", r->images_per_s, r->seconds > 0);
    tool_json_key_num(f, ", ", "seconds", r->seconds, 1);
    fputs("}\n", f);
    return tool_out_close(&o, err, errcap);
}
