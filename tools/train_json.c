/* --json's writer (see train_json.h); strings and numbers as clrt-bench
 * writes them (bench_json.c). */
#include "train_json.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench_json.h"

int train_json_write(const char *path, const train_report *r, char *err, size_t errcap)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errcap, "%s: cannot write %s: %s", path, tmp, strerror(errno));
        return 2;
    }
    fputs("{\"device\": ", f);
    bench_json_str(f, r->device);
    fputs(", \"dataset\": ", f);
    bench_json_str(f, r->dataset);
    fprintf(f, ", \"epochs\": %u, \"batch\": %zu, \"lr\": ", r->epochs, r->batch);
    bench_json_num(f, r->lr, 1);
    fputs(", \"momentum\": ", f);
    bench_json_num(f, r->momentum, 1);
    fprintf(f, ", \"seed\": %llu, \"train_images\": %zu, \"losses\": [", (unsigned long long)r->seed,
            r->train_images);
    for (size_t i = 0; i < r->nlosses; i++) {
        if (i)
            fputs(", ", f);
        bench_json_num(f, r->losses[i], 1);
    }
    fputs("], \"test_accuracy\": ", f);
    bench_json_num(f, r->test_total ? 100.0 * (double)r->test_correct / (double)r->test_total : 0, r->test_total > 0);
    fprintf(f, ", \"test_correct\": %zu, \"test_total\": %zu, \"images_per_s\": ", r->test_correct, r->test_total);
    bench_json_num(f, r->images_per_s, r->train_seconds > 0);
    fputs(", \"train_seconds\": ", f);
    bench_json_num(f, r->train_seconds, 1);
    fputs("}\n", f);
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
