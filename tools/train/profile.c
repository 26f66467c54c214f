/* clrt-train --profile (see train/profile.h). */
#include "profile.h"

#include "common/json.h"
#include "progress.h"

static const char *const part_names[TRAIN_PARTS] = {
    [TRAIN_PART_CONV1] = "conv1", [TRAIN_PART_POOL1] = "relu/pool1", [TRAIN_PART_CONV2] = "conv2",
    [TRAIN_PART_POOL2] = "relu/pool2", [TRAIN_PART_FC1] = "fc1", [TRAIN_PART_RELU] = "relu",
    [TRAIN_PART_FC2] = "fc2", [TRAIN_PART_LOSS] = "loss", [TRAIN_PART_SGD] = "optimizer (SGD)",
};

/* Rows of the table after the parts: the host's two shares. */
enum { ROW_HOST_STEP = TRAIN_PARTS, ROW_HOST_EPOCH, ROWS };

static const char *row_name(int r)
{
    if (r < TRAIN_PARTS)
        return part_names[r];
    return r == ROW_HOST_STEP ? "host: views, bookkeeping" : "host: shuffle + upload";
}

int train_profile_wanted(const train_profile *p, size_t done, size_t rows, size_t batch)
{
    /* a short last mini-batch would skew the means */
    return p && p->every && rows == batch && done % p->every == 1 % p->every;
}

int train_profile_begin(train_profile *p)
{
    int st = clrt_queue_finish(p->q);
    p->active = st == CLRT_OK;
    p->last = train_now();
    return st;
}

int train_profile_mark(void *arg, int part, int backward)
{
    train_profile *p = arg;
    if (!p->active)
        return CLRT_OK;
    int st = clrt_queue_finish(p->q);
    const double now = train_now();
    if (part >= 0 && part < TRAIN_PARTS)
        p->part[part][backward != 0] += now - p->last;
    else
        p->host_step += now - p->last;
    p->last = now;
    return st;
}

int train_profile_end(train_profile *p)
{
    if (!p->active)
        return CLRT_OK;
    int st = clrt_queue_finish(p->q);
    p->host_step += train_now() - p->last;
    p->active = 0;
    p->samples++;
    return st;
}

/* Row r's forward and backward ms per mini-batch (the host rows: forward
 * only); *have_bw: the row has a backward share. */
static void row_ms(const train_profile *p, int r, double *fw, double *bw, int *have_bw)
{
    const double per = p->samples ? 1000.0 / (double)p->samples : 0;
    *bw = 0;
    *have_bw = r < TRAIN_PARTS && r != TRAIN_PART_LOSS && r != TRAIN_PART_SGD;
    if (r < TRAIN_PARTS) {
        *fw = p->part[r][0] * per;
        *bw = p->part[r][1] * per;
    } else if (r == ROW_HOST_STEP)
        *fw = p->host_step * per;
    else
        *fw = p->epoch_steps ? 1000.0 * p->host_epoch / (double)p->epoch_steps : 0;
}

static double step_ms(const train_profile *p)
{
    double sum = 0;
    for (int r = 0; r < ROWS; r++) {
        double fw, bw;
        int have_bw;
        row_ms(p, r, &fw, &bw, &have_bw);
        sum += fw + bw;
    }
    return sum;
}

void train_profile_print(FILE *f, const train_profile *p, size_t batch)
{
    if (!p->samples) {
        fprintf(f, "profile: no mini-batch sampled (1 in %zu of full size, from the 2nd); lower --profile-every\n",
                p->every);
        return;
    }
    const double total = step_ms(p);
    fprintf(f, "profile: %zu mini-batch(es) of %zu images sampled (1 in %zu), the queue finished after each part;"
               " ms per mini-batch\n", p->samples, batch, p->every);
    fprintf(f, "%-26s %10s %10s %10s %7s\n", "part", "forward", "backward", "both", "%");
    for (int r = 0; r < ROWS; r++) {
        double fw, bw;
        int have_bw;
        row_ms(p, r, &fw, &bw, &have_bw);
        if (have_bw)
            fprintf(f, "%-26s %10.3f %10.3f %10.3f %6.1f%%\n", row_name(r), fw, bw, fw + bw,
                    total > 0 ? 100.0 * (fw + bw) / total : 0);
        else
            fprintf(f, "%-26s %10s %10s %10.3f %6.1f%%\n", row_name(r), "", "", fw,
                    total > 0 ? 100.0 * fw / total : 0);
    }
    fprintf(f, "%-26s %10s %10s %10.3f %6.1f%%\n", "step", "", "", total, 100.0);
}

void train_profile_json(FILE *f, const train_profile *p)
{
    const double total = step_ms(p);
    fprintf(f, "{\"every\": %zu, \"samples\": %zu", p->every, p->samples);
    tool_json_key_num(f, ", ", "step_ms", total, p->samples > 0);
    fputs(", \"parts\": [", f);
    for (int r = 0; r < ROWS; r++) {
        double fw, bw;
        int have_bw;
        row_ms(p, r, &fw, &bw, &have_bw);
        tool_json_key_str(f, r ? ", {" : "{", "name", row_name(r));
        tool_json_key_num(f, ", ", "forward_ms", fw, p->samples > 0 && have_bw);
        tool_json_key_num(f, ", ", "backward_ms", bw, p->samples > 0 && have_bw);
        tool_json_key_num(f, ", ", "ms", fw + bw, p->samples > 0);
        tool_json_key_num(f, ", ", "percent", total > 0 ? 100.0 * (fw + bw) / total : 0, p->samples > 0 && total > 0);
        fputs("}", f);
    }
    fputs("]}", f);
}
