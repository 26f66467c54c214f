/* clrt-train's refusals (docs/train.md): bad options, bad IDX files, a
 * --resume file from another network or version. Each must exit 2 with one
 * line on stderr naming the file (or option) and the problem, and write
 * nothing: a --save or --json file already there stays as it was. Every case
 * fails before a device is opened, so this suite needs none. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <zlib.h>

#include "common/test_util.h"

static char dir[256];

static void path(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", dir, name);
}

static void be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static void write_file(const char *name, const void *data, size_t n)
{
    char p[512];
    path(p, sizeof p, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* An IDX file of u8: magic 0000 08 dims, the dims, then count*rows*cols
 * bytes of `fill` (labels: i % 10), cut to `keep` bytes when keep != 0. */
static void idx(const char *name, unsigned dims, uint32_t count, uint32_t rows, uint32_t cols, size_t keep,
                uint32_t magic)
{
    size_t head = 4 + 4 * (size_t)dims, body = (size_t)count * (dims == 3 ? (size_t)rows * cols : 1);
    unsigned char *b = calloc(head + body, 1);
    assert_non_null(b);
    be32(b, magic ? magic : 0x800u | dims);
    be32(b + 4, count);
    if (dims == 3) {
        be32(b + 8, rows);
        be32(b + 12, cols);
    }
    for (size_t i = 0; i < body; i++)
        b[head + i] = (unsigned char)(dims == 1 ? i % 10 : (i * 7) % 256);
    write_file(name, b, keep ? keep : head + body);
    free(b);
}

/* A good dataset of 8 + 8 images in dir/<sub>, the files plain. */
static void good_set(const char *sub)
{
    char d[512];
    path(d, sizeof d, sub);
    mkdir(d, 0755);
    char n[4][300];
    snprintf(n[0], sizeof n[0], "%s/train-images-idx3-ubyte", sub);
    snprintf(n[1], sizeof n[1], "%s/train-labels-idx1-ubyte", sub);
    snprintf(n[2], sizeof n[2], "%s/t10k-images-idx3-ubyte", sub);
    snprintf(n[3], sizeof n[3], "%s/t10k-labels-idx1-ubyte", sub);
    idx(n[0], 3, 8, 28, 28, 0, 0);
    idx(n[1], 1, 8, 1, 1, 0, 0);
    idx(n[2], 3, 8, 28, 28, 0, 0);
    idx(n[3], 1, 8, 1, 1, 0, 0);
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
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' --no-progress %s '%s' --json '%s' %s >/dev/null 2>'%s'", dir,
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
        char tmp[600];
        snprintf(tmp, sizeof tmp, "%s.tmp", kept[i]);
        if (access(tmp, F_OK) == 0)
            fail_msg("clrt-train %s: left %s behind", args, tmp);
    }
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
    refused("--data good --profile-every 0", "--profile-every 0|must be 1 to");
    refused("--data good --profile-every x", "--profile-every x|not a whole number");
    refused("--data good --profile-every", "--profile-every|needs a value");
    refused("--data good --profile --bogus", "unknown option --bogus");
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

/* A gzip file whose stream is damaged: the plain file compressed, then bytes
 * in its middle changed (zlib's CRC or inflate then fails); and one cut short. */
static void test_gzip(void **state)
{
    (void)state;
    char p[512];
    good_set("g1");
    path(p, sizeof p, "g1/train-images-idx3-ubyte");
    remove(p);
    unsigned char *raw = calloc(16 + 8 * 784, 1);
    assert_non_null(raw);
    be32(raw, 0x803);
    be32(raw + 4, 8);
    be32(raw + 8, 28);
    be32(raw + 12, 28);
    for (size_t i = 16; i < 16 + 8 * 784; i++)
        raw[i] = (unsigned char)((i * 2654435761u) >> 13);
    uLongf clen = compressBound(16 + 8 * 784);
    unsigned char *z = malloc(clen + 18);
    assert_non_null(z);
    /* a gzip member around a raw deflate stream, written with gzopen for the header */
    path(p, sizeof p, "g1/train-images-idx3-ubyte.gz");
    gzFile gz = gzopen(p, "wb");
    assert_non_null(gz);
    assert_int_equal(gzwrite(gz, raw, 16 + 8 * 784), 16 + 8 * 784);
    assert_int_equal(gzclose(gz), Z_OK);
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    size_t n = fread(z, 1, clen + 18, f);
    fclose(f);
    assert_true(n > 60);
    good_set("g2");
    char q[512];
    path(q, sizeof q, "g2/train-images-idx3-ubyte");
    remove(q);
    write_file("g2/train-images-idx3-ubyte.gz", z, n / 2); /* cut short */
    for (size_t i = n / 3; i < n / 3 + 16; i++)
        z[i] ^= 0x5a;
    write_file("g1/train-images-idx3-ubyte.gz", z, n);
    refused("--data g1", "g1/train-images-idx3-ubyte.gz|");
    refused("--data g2", "g2/train-images-idx3-ubyte.gz|");
    free(raw);
    free(z);
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

int main(void)
{
    snprintf(dir, sizeof dir, "%s", "/tmp/clrt-train-cli-XXXXXX");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_idx),
        cmocka_unit_test(test_gzip),
        cmocka_unit_test(test_resume_files),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return failed;
}
