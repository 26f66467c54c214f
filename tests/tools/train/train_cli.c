/* clrt-train's refusals (docs/train.md): bad options, bad IDX files (plain
 * or gzip: truncation anywhere, a damaged trailer, bytes after the last
 * member), a --resume file from another network or version, or with fields
 * no run writes (crafted with a correct checksum). Each must exit 2 with one
 * line on stderr naming the file (or option) and the problem, and write
 * nothing: a --save or --json file already there stays as it was, and no
 * temporary file is left. Every case fails before a device is opened, so this
 * suite needs none; a file that is accepted gets as far as opening one. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <zlib.h>

#include "common/temp_files.h"
#include "common/test_util.h"

#include "shuffle.h"
#include "state.h"
#include "train_files.h"

/* The old names, for the cases below. */
#define path tf_path
#define write_file tf_write
#define idx tf_idx

static void good_set(const char *sub) { tf_dataset(sub, 8); }

static void count_temp(const char *p, void *n)
{
    if (strstr(p, ".tmp"))
        ++*(int *)n;
}

static const char sentinel[] = "untouched\n";

/* Run clrt-train with args (and --save/--json onto files that already hold
 * `sentinel`); assert exit 2, exactly one line on stderr containing every
 * word of want (a '|'-separated list), and the sentinel files unchanged. */
static void refused(const char *args, const char *want)
{
    char save[512], json[512], err[512], cmd[4096];
    path(save, sizeof save, "kept.state");
    path(json, sizeof json, "kept.json");
    path(err, sizeof err, "stderr.txt");
    write_file("kept.state", sentinel, strlen(sentinel));
    write_file("kept.json", sentinel, strlen(sentinel));
    /* --predict takes no --save: its output file is --out */
    const int predict = !strncmp(args, "--predict", 9);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' --no-progress %s '%s' --json '%s' %s >/dev/null 2>'%s'", tf_dir,
             CLRT_TRAIN_PATH, predict ? "--out" : "--save", save, json, args, err);
    int rc = system(cmd);
    assert_true(WIFEXITED(rc));
    char msg[2048] = "";
    FILE *f = fopen(err, "r");
    assert_non_null(f);
    size_t n = fread(msg, 1, sizeof msg - 1, f);
    fclose(f);
    msg[n] = 0;
    if (WEXITSTATUS(rc) != 2)
        fail_msg("clrt-train %s: exit %d, expected 2; stderr: %s", args, WEXITSTATUS(rc), msg);
    char *nl = strchr(msg, '\n');
    if (n < 12 || !nl || nl[1] != 0)
        fail_msg("clrt-train %s: stderr is not one line: \"%s\"", args, msg);
    char words[512];
    snprintf(words, sizeof words, "%s", want);
    for (char *w = strtok(words, "|"); w; w = strtok(NULL, "|"))
        if (!strstr(msg, w))
            fail_msg("clrt-train %s: stderr \"%s\" does not say \"%s\"", args, msg, w);
    const char *kept[] = {save, json};
    for (int i = 0; i < 2; i++) {
        char got[64] = "";
        f = fopen(kept[i], "r");
        assert_non_null(f);
        size_t k = fread(got, 1, sizeof got - 1, f);
        fclose(f);
        got[k] = 0;
        if (strcmp(got, sentinel))
            fail_msg("clrt-train %s: wrote over %s", args, kept[i]);
    }
    int temps = 0;
    tu_each_entry(tf_dir, count_temp, &temps);
    if (temps)
        fail_msg("clrt-train %s: left a temporary file behind", args);
}

/* Run clrt-train with args: the inputs were all accepted when it gets as far
 * as opening a device (ctest runs this suite without one: it says there is
 * none), or, run by hand on a machine with one, trains (exit 0). */
static void accepted(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' --no-progress %s >/dev/null", CLRT_TRAIN_PATH, args);
    const char *err;
    int rc = tf_run(cmd, &err);
    if (rc != 0 && !strstr(err, "no OpenCL platform"))
        fail_msg("clrt-train %s: exit %d, stopped before the device; stderr: %s", args, rc, err);
}

static void test_options(void **state)
{
    (void)state;
    good_set("good");
    refused("--data good --bogus", "unknown option --bogus");
    refused("--data good --batch 0", "--batch 0|must be 1 to");
    refused("--data good --batch four", "--batch four|not a whole number");
    refused("--data good --epochs -1", "--epochs -1|not a whole number");
    refused("--data good --lr -0.5", "--lr -0.5|must be 0 to");
    refused("--data good --lr nan", "--lr nan|must be");
    refused("--data good --momentum 1.5", "--momentum 1.5|must be 0 to 1");
    refused("--data good --print-every 0", "--print-every 0");
    refused("--data good --limit 99999999999999999999999", "--limit|out of range");
    refused("--data good --epochs", "--epochs|needs a value");
    refused("--data good --images x.idx", "--images x.idx|only goes with --predict");
    refused("--data good --profile-every 0", "--profile-every 0|must be at least 1");
    refused("--data good --profile-every x", "--profile-every x|not a whole number");
    refused("--data good --profile-every", "--profile-every|needs a value");
    refused("--data good --profile --bogus", "unknown option --bogus");
    refused("--data good --batch 65537", "--batch 65537|must be 1 to 65536");
    refused("--data good --epochs 100001", "--epochs 100001|must be 1 to 100000");
    refused("--data good --seed 18446744073709551616", "--seed 18446744073709551616|out of range");
    refused("--data good --limit 0", "--limit 0|must be at least 1");
    refused("--data good --test-limit 0", "--test-limit 0|must be at least 1");
    refused("--data good --stop-after 0", "--stop-after 0|must be at least 1");
    refused("--data good --limit 1.5", "--limit 1.5|not a whole number");
    refused("--data good --momentum x", "--momentum x|not a number");
    refused("--data good --out o.txt", "--out o.txt|only goes with --predict");
    refused("--data good --labels l.idx", "--labels l.idx|needs --images");
    refused("--data missing-dir", "missing-dir/train-images-idx3-ubyte|cannot open");
}

static void test_idx(void **state)
{
    (void)state;
    good_set("d1");
    idx("d1/train-images-idx3-ubyte", 3, 8, 28, 28, 16 + 5 * 784 + 3, 0);
    refused("--data d1", "d1/train-images-idx3-ubyte|truncated");
    good_set("d2");
    idx("d2/t10k-labels-idx1-ubyte", 1, 8, 1, 1, 0, 0x00000803u);
    refused("--data d2", "d2/t10k-labels-idx1-ubyte|wrong magic");
    good_set("d3");
    idx("d3/train-images-idx3-ubyte", 3, 8, 28, 28, 0, 0x08000803u);
    refused("--data d3", "d3/train-images-idx3-ubyte|wrong magic");
    good_set("d4");
    idx("d4/train-labels-idx1-ubyte", 1, 7, 1, 1, 0, 0);
    refused("--data d4", "d4/train-labels-idx1-ubyte|7 labels for the 8 images");
    good_set("d5");
    { /* a label of 10 */
        unsigned char b[8 + 8] = {0, 0, 8, 1, 0, 0, 0, 8, 0, 1, 2, 3, 10, 5, 6, 7};
        write_file("d5/t10k-labels-idx1-ubyte", b, sizeof b);
    }
    refused("--data d5", "d5/t10k-labels-idx1-ubyte|label 4 is 10|0 to 9");
    good_set("d6");
    idx("d6/t10k-images-idx3-ubyte", 3, 8, 27, 28, 0, 0);
    refused("--data d6", "d6/t10k-images-idx3-ubyte|27x28");
    good_set("d7");
    { /* data after the last label */
        unsigned char b[8 + 9] = {0, 0, 8, 1, 0, 0, 0, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8};
        write_file("d7/train-labels-idx1-ubyte", b, sizeof b);
    }
    refused("--data d7", "d7/train-labels-idx1-ubyte|more data than");
    good_set("d8");
    idx("d8/train-images-idx3-ubyte", 3, 0, 28, 28, 0, 0);
    refused("--data d8", "d8/train-images-idx3-ubyte|dimension 1 is 0");
}

/* raw as one gzip member (malloc'd, *n its size). */
static unsigned char *gz(const unsigned char *raw, size_t len, size_t *n)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    assert_int_equal(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = deflateBound(&zs, (uLong)len);
    unsigned char *out = malloc(cap);
    assert_non_null(out);
    zs.next_in = (Bytef *)(uintptr_t)raw;
    zs.avail_in = (uInt)len;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    *n = cap - zs.avail_out;
    deflateEnd(&zs);
    return out;
}

/* Dataset <sub> whose training images are the gzip bytes z (n of them). */
static void gz_set(const char *sub, const unsigned char *z, size_t n)
{
    good_set(sub);
    char name[300], p[600];
    snprintf(name, sizeof name, "%s/train-images-idx3-ubyte", sub);
    path(p, sizeof p, name);
    remove(p);
    snprintf(name, sizeof name, "%s/train-images-idx3-ubyte.gz", sub);
    write_file(name, z, n);
}

/* A gzip file whose stream is damaged in its middle (inflate or the CRC
 * fails), and one cut in half. */
static void test_gzip(void **state)
{
    (void)state;
    size_t rn, n;
    unsigned char *raw = tf_idx_bytes(3, 8, 28, 28, 0, &rn);
    for (size_t i = 16; i < rn; i++)
        raw[i] = (unsigned char)((i * 2654435761u) >> 13);
    unsigned char *z = gz(raw, rn, &n);
    assert_true(n > 60);
    gz_set("g2", z, n / 2); /* cut short */
    for (size_t i = n / 3; i < n / 3 + 16; i++)
        z[i] ^= 0x5a;
    gz_set("g1", z, n);
    refused("--data g1", "g1/train-images-idx3-ubyte.gz|gzip member 1");
    refused("--data g2", "g2/train-images-idx3-ubyte.gz|truncated");
    free(raw);
    free(z);
}

/* What only the 8-byte trailer (CRC-32, length) or the end of the file can
 * tell: cut inside the trailer (with or without a damaged byte before it),
 * a trailer that does not match, bytes after the last member. Several
 * members one after another are one file (as gunzip reads them). */
static void test_gzip_trailer(void **state)
{
    (void)state;
    size_t rn, n, n2;
    unsigned char *raw = tf_idx_bytes(3, 8, 28, 28, 0, &rn);
    unsigned char *z = gz(raw, rn, &n);
    unsigned char *buf = malloc(2 * n + 64);
    assert_non_null(buf);
    gz_set("t1", z, n - 1);
    refused("--data t1", "t1/train-images-idx3-ubyte.gz|gzip member 1 is truncated");
    gz_set("t2", z, n - 8);
    refused("--data t2", "t2/train-images-idx3-ubyte.gz|gzip member 1 is truncated");
    memcpy(buf, z, n);
    buf[n / 2] ^= 0x01; /* a stored byte changed: only the CRC could tell */
    gz_set("t3", buf, n - 8);
    refused("--data t3", "t3/train-images-idx3-ubyte.gz|truncated");
    memcpy(buf, z, n);
    buf[n - 6] ^= 0xff;
    gz_set("t4", buf, n);
    refused("--data t4", "t4/train-images-idx3-ubyte.gz|CRC-32 mismatch");
    memcpy(buf, z, n);
    buf[n - 2] ^= 0xff;
    gz_set("t5", buf, n);
    refused("--data t5", "t5/train-images-idx3-ubyte.gz|length");
    memcpy(buf, z, n);
    memcpy(buf + n, "trailing garbage", 16);
    gz_set("t6", buf, n + 16);
    refused("--data t6", "t6/train-images-idx3-ubyte.gz|trailing bytes after gzip member 1");
    buf[n] = 0;
    gz_set("t7", buf, n + 1);
    refused("--data t7", "t7/train-images-idx3-ubyte.gz|trailing bytes after gzip member 1");
    /* two members: the header and half the images, then the rest */
    unsigned char *a = gz(raw, rn / 2, &n), *b = gz(raw + rn / 2, rn - rn / 2, &n2);
    memcpy(buf, a, n);
    memcpy(buf + n, b, n2);
    gz_set("t8", buf, n + n2);
    accepted("--data t8");
    gz_set("t9", buf, n + n2 - 4);
    refused("--data t9", "t9/train-images-idx3-ubyte.gz|gzip member 2 is truncated");
    memcpy(buf + n + n2, "\x1f\x8b", 2);
    gz_set("t10", buf, n + n2 + 2);
    refused("--data t10", "t10/train-images-idx3-ubyte.gz|trailing bytes after gzip member 2");
    free(a);
    free(b);
    free(buf);
    free(z);
    free(raw);
}

/* --resume files: not ours, another version, another network, truncated. */
static void test_resume_files(void **state)
{
    (void)state;
    good_set("r");
    static const char sig[] =
        "conv 1->20 5x5, relu, maxpool 2, conv 20->50 5x5, relu, maxpool 2, fc 800->500, relu, fc 500->10";
    unsigned char b[512];
    size_t n = 0;
    memcpy(b, "clrttrn", 8);
    n = 8;
    b[n++] = 2; /* version 2 */
    b[n++] = 0;
    b[n++] = 0;
    b[n++] = 0;
    write_file("v2.state", b, n);
    refused("--data r --resume v2.state", "v2.state|version 2|version 1");
    b[8] = 1;
    const char other[] = "conv 1->6 5x5, relu, maxpool 2, fc 864->10";
    b[n++] = (unsigned char)strlen(other);
    b[n++] = 0;
    b[n++] = 0;
    b[n++] = 0;
    memcpy(b + n, other, strlen(other));
    write_file("other.state", b, n + strlen(other));
    refused("--data r --resume other.state", "other.state|another network");
    b[n - 4] = (unsigned char)strlen(sig);
    memcpy(b + n, sig, strlen(sig));
    n += strlen(sig);
    memset(b + n, 0, 6);
    b[n] = 1; /* float32, then the file ends within the seed */
    write_file("short.state", b, n + 6);
    refused("--data r --resume short.state", "short.state|truncated");
    write_file("text.state", "hello, world\n", 13);
    refused("--data r --resume text.state", "text.state|not a clrt-train state file");
    refused("--data r --resume absent.state", "absent.state|cannot open");
    refused("--predict text.state --data r", "text.state|not a clrt-train state file");
    refused("--predict text.state --profile", "--predict text.state|no --save, --resume, --stop-after or --profile");
}

/* A state file as clrt-train writes it (train_state_save: checksum and all)
 * for the 8-image set "r" at the default settings, with one field changed. */
static void craft_state(const char *name, void (*change)(train_state *))
{
    train_state s = {0};
    s.dt = CLRT_FLOAT32;
    s.seed = 0;
    s.batch = 4;
    s.ntrain = 8;
    s.lr = 0.001;
    s.momentum = 0.9;
    s.shuffle = train_shuffle_start(0);
    for (int t = 0; t < TRAIN_TENSORS; t++) {
        size_t r, c;
        train_net_tensor_shape(t, &r, &c);
        s.param[t] = calloc(r * c, sizeof(float));
        s.mom[t] = calloc(r * c, sizeof(float));
        assert_true(s.param[t] && s.mom[t]);
    }
    if (change)
        change(&s);
    char p[512], err[1024];
    path(p, sizeof p, name);
    assert_int_equal(train_state_save(p, &s, err, sizeof err), 0);
    train_state_free(&s);
}

static void index_wraps(train_state *s) { s->index = 0x4000000000000001ull; } /* * batch 4: 4 mod 2^64 */
static void epoch_past_u32(train_state *s) { s->epoch = 0x100000001ull; }    /* (unsigned): epoch 1 */
static void index_past_epoch(train_state *s) { s->index = 2; }                 /* 8 images: mini-batches 0, 1 */
static void batch_zero(train_state *s) { s->batch = 0; }
static void batch_huge(train_state *s) { s->batch = 1ull << 40; }
static void no_images(train_state *s) { s->ntrain = 0; }
static void lr_nan(train_state *s) { s->lr = NAN; }
static void lr_inf(train_state *s) { s->lr = INFINITY; }
static void momentum_two(train_state *s) { s->momentum = 2; }
static void running_negative(train_state *s) { s->running = -1; }
static void shuffle_wrong(train_state *s) { s->shuffle ^= 1; }
static void epoch_two(train_state *s)
{
    s->epoch = 2;
    assert_int_equal(train_shuffle_state_at(0, 8, 2, &s->shuffle), 0);
}

/* Checksums right, fields that no run writes: refused by name, never resumed. */
static void test_crafted_state(void **state)
{
    (void)state;
    good_set("r");
    craft_state("good.state", NULL);
    accepted("--data r --resume good.state");
    craft_state("epoch2.state", epoch_two);
    accepted("--data r --resume epoch2.state --epochs 3");
    static const struct {
        void (*change)(train_state *);
        const char *want;
    } cases[] = {
        {index_wraps, "mini-batch 4611686018427387905 of an epoch of 2"},
        {epoch_past_u32, "epoch 4294967297"},
        {index_past_epoch, "mini-batch 2 of an epoch of 2"},
        {batch_zero, "mini-batch size 0"},
        {batch_huge, "mini-batch size 1099511627776"},
        {no_images, "0 training images"},
        {lr_nan, "learning rate nan"},
        {lr_inf, "learning rate inf"},
        {momentum_two, "momentum 2"},
        {running_negative, "running loss -1"},
        {shuffle_wrong, "shuffle state"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char name[64], args[128], want[300];
        snprintf(name, sizeof name, "crafted%zu.state", i);
        craft_state(name, cases[i].change);
        snprintf(args, sizeof args, "--data r --resume %s", name);
        snprintf(want, sizeof want, "%s|corrupt|%s", name, cases[i].want);
        refused(args, want);
    }
}

int main(void)
{
    if (tf_init("train-cli") != 0) {
        fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),      cmocka_unit_test(test_idx),
        cmocka_unit_test(test_gzip),         cmocka_unit_test(test_gzip_trailer),
        cmocka_unit_test(test_resume_files), cmocka_unit_test(test_crafted_state),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    tf_done();
    return failed;
}
