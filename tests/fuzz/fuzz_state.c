/* libFuzzer target: clrt-train's --resume / --predict file reader
 * (tools/train/state.c, train_state_parse) on arbitrary bytes. The first
 * byte picks the mode: bit 1 appends zero tensors (float32 ones; bit 2:
 * float64) after the rest, so that a short input is a whole file; bit 0 then
 * sets a correct checksum in the last 8 bytes, so the fuzzer reaches the
 * field checks behind it. Beyond "no crash, no sanitizer report": a file
 * accepted has every field in the ranges clrt-train writes, and a refusal
 * names the file. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#define FUZZ_NAME "fuzz_state"
#include "fuzz_check.h"

#include "opts.h"
#include "state.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

/* Bytes of the 8 weight tensors and their 8 momentum buffers, of esize each. */
static size_t tensor_bytes(size_t esize)
{
    size_t n = 0;
    for (int t = 0; t < TRAIN_TENSORS; t++) {
        size_t r, c;
        train_net_tensor_shape(t, &r, &c);
        n += 2 * r * c * esize;
    }
    return n;
}

/* The checksum the file format puts last: FNV-1a of the bytes before it. */
static void set_checksum(uint8_t *b, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n - 8; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    for (int k = 0; k < 8; k++)
        b[n - 8 + (size_t)k] = (uint8_t)(h >> (8 * k));
}

static void check_fields(const train_state *s)
{
    CHECK(s->dt == CLRT_FLOAT32 || s->dt == CLRT_FLOAT64, "dtype %d", (int)s->dt);
    CHECK(s->batch >= 1 && s->batch <= TRAIN_BATCH_MAX, "batch %llu", (unsigned long long)s->batch);
    CHECK(s->ntrain >= 1 && s->ntrain <= UINT32_MAX, "%llu images", (unsigned long long)s->ntrain);
    CHECK(isfinite(s->lr) && s->lr >= 0 && s->lr <= TRAIN_LR_MAX, "lr %g", s->lr);
    CHECK(isfinite(s->momentum) && s->momentum >= 0 && s->momentum <= 1, "momentum %g", s->momentum);
    CHECK(s->epoch <= TRAIN_EPOCHS_MAX, "epoch %llu", (unsigned long long)s->epoch);
    CHECK(s->index < (s->ntrain + s->batch - 1) / s->batch, "mini-batch %llu of %llu images in batches of %llu",
          (unsigned long long)s->index, (unsigned long long)s->ntrain, (unsigned long long)s->batch);
    CHECK(!(s->running < 0), "running loss %g", s->running);
    for (int t = 0; t < TRAIN_TENSORS; t++)
        CHECK(s->param[t] && s->mom[t], "tensor %d missing", t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const size_t extra = (data[0] & 2) ? tensor_bytes((data[0] & 4) ? 8 : 4) + 8 : 0;
    const size_t n = size - 1 + extra;
    uint8_t *b = calloc(n ? n : 1, 1);
    if (!b)
        return 0;
    memcpy(b, data + 1, size - 1);
    if ((data[0] & 1) && n >= 8)
        set_checksum(b, n);
    train_state s;
    char err[700] = "";
    int rc = train_state_parse("fuzz.state", b, n, &s, err, sizeof err);
    CHECK(rc == 0 || rc == 2, "returned %d", rc);
    if (rc == 0) {
        check_fields(&s);
        train_state_free(&s);
    } else {
        CHECK(strncmp(err, "fuzz.state: ", 12) == 0 && err[12], "a refusal that does not name the file: %s", err);
    }
    free(b);
    return 0;
}
