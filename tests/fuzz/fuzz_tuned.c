/* libFuzzer target: the tuned-parameter file's parser (src/kernels/tuned.c,
 * clrt__tuned_parse) on arbitrary bytes, for a made-up device like POCL's.
 * The first byte picks a mode: odd, the rest gets a correct "check" line
 * appended (any it had is cut), so that the fuzzer explores the lines behind
 * the checksum; even, the bytes as they are. Beyond "no crash, no sanitizer
 * report": a file accepted must hold only parameters the kernel and device
 * take, and written out again (clrt__tuned_format) must parse back to the
 * same set; a file refused must say why. */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#define FUZZ_NAME "fuzz_tuned"
#include "fuzz_check.h"

#include "base/disk.h"
#include "common/fake_device.h"
#include "kernels/params.h"
#include "kernels/tuned.h"

static clrt_device_info info;
static clrt__device_facts facts;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    tu_fake_cpu_device(&info, &facts);
    return 0;
}

/* body (n bytes, no check line of its own) and a correct check line, in a
 * new buffer; *len its size. */
static char *with_check(const uint8_t *body, size_t n, size_t *len)
{
    char *t = malloc(n + 32);
    if (!t)
        return NULL;
    memcpy(t, body, n);
    int k = snprintf(t + n, 32, "check %016" PRIx64 "\n", clrt__hash(CLRT_HASH_INIT, t, n));
    *len = n + (size_t)k;
    return t;
}

/* Every entry of an accepted set: parameters the kernel takes on this device. */
static void check_set(const clrt__tuned_set *set)
{
    for (int op = 0; op < CLRT__K_COUNT; op++)
        for (int dt = 1; dt <= 2; dt++) {
            const clrt__tuned_entry *e = &set->e[op][dt - 1];
            if (!e->have)
                continue;
            char why[200];
            const clrt__kernel_def *def = clrt__kernel_at(op);
            CHECK(clrt__params_check(def, &facts, clrt__dtype_size(dt), &e->p, why, sizeof why) == 0,
                  "%s %s accepted with parameters it does not take: %s", def->name, clrt__dtype_word(dt), why);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > CLRT__TUNED_MAX_FILE)
        return 0;
    size_t len = size - 1;
    char *text = (data[0] & 1) ? with_check(data + 1, size - 1, &len) : malloc(size);
    if (!text)
        return 0;
    if (!(data[0] & 1))
        memcpy(text, data + 1, len);
    clrt__tuned_set set, back;
    char why[300] = "";
    int rc = clrt__tuned_parse(text, len, &info, &facts, &set, why, sizeof why);
    CHECK(rc == 0 || rc == -1 || rc == -2, "returned %d", rc);
    CHECK(rc == 0 || why[0] != '\0', "refused (%d) without saying why", rc);
    if (rc == 0) {
        check_set(&set);
        char *again = clrt__tuned_format(&info, &set);
        CHECK(again != NULL, "an accepted set cannot be written out");
        int rc2 = clrt__tuned_parse(again, strlen(again), &info, &facts, &back, why, sizeof why);
        CHECK(rc2 == 0, "written out, it does not parse back: %s", why);
        for (int op = 0; op < CLRT__K_COUNT; op++)
            for (int dt = 0; dt < 2; dt++) {
                CHECK(set.e[op][dt].have == back.e[op][dt].have, "entry %d/%d lost in the round trip", op, dt);
                CHECK(!set.e[op][dt].have || memcmp(&set.e[op][dt].p, &back.e[op][dt].p, sizeof set.e[op][dt].p) == 0,
                      "entry %d/%d changed in the round trip", op, dt);
            }
        free(again);
    }
    free(text);
    return 0;
}
