/* Files the clrt-train suites make (see train_files.h). */
#include "train_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/temp_files.h"
#include "common/test_util.h"

char tf_dir[256];

int tf_init(const char *name) { return tu_temp_dir(tf_dir, sizeof tf_dir, name); }

void tf_done(void)
{
    if (tu_remove_tree(tf_dir) != 0)
        fprintf(stderr, "could not remove %s\n", tf_dir);
}

void tf_path(char *out, size_t cap, const char *name) { snprintf(out, cap, "%s/%s", tf_dir, name); }

void tf_write(const char *name, const void *data, size_t n)
{
    char p[512];
    tf_path(p, sizeof p, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

unsigned char *tf_read(const char *name, size_t *n)
{
    char p[512];
    tf_path(p, sizeof p, name);
    FILE *f = fopen(p, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    unsigned char *b = malloc(cap + 1);
    for (size_t got = 1; b && got > 0; len += got) {
        if (len == cap) {
            unsigned char *g = realloc(b, (cap *= 2) + 1);
            if (!g)
                free(b);
            b = g;
            if (!b)
                break;
        }
        got = fread(b + len, 1, cap - len, f);
    }
    fclose(f);
    if (b)
        b[len] = 0;
    *n = len;
    return b;
}

static void be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

unsigned char *tf_idx_bytes(unsigned dims, uint32_t count, uint32_t rows, uint32_t cols, uint32_t magic, size_t *n)
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
    *n = head + body;
    return b;
}

void tf_idx(const char *name, unsigned dims, uint32_t count, uint32_t rows, uint32_t cols, size_t keep,
            uint32_t magic)
{
    size_t n;
    unsigned char *b = tf_idx_bytes(dims, count, rows, cols, magic, &n);
    tf_write(name, b, keep ? keep : n);
    free(b);
}

void tf_dataset(const char *sub, uint32_t count)
{
    char d[512];
    tf_path(d, sizeof d, sub);
    mkdir(d, 0755);
    static const char *const names[4] = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                                         "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"};
    for (int i = 0; i < 4; i++) {
        char n[300];
        snprintf(n, sizeof n, "%s/%s", sub, names[i]);
        const unsigned dims = i % 2 ? 1 : 3;
        tf_idx(n, dims, count, 28, 28, 0, 0);
    }
}

int tf_run_limited(const char *cmd, long long fsize, const char **err)
{
    static char msg[8192];
    char errfile[512], full[8192];
    tf_path(errfile, sizeof errfile, "stderr.txt");
    snprintf(full, sizeof full, "cd '%s' && { %s ; } 2>'%s'", tf_dir, cmd, errfile);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (fsize > 0) { /* a write past it fails with EFBIG: SIGXFSZ ignored */
            signal(SIGXFSZ, SIG_IGN);
            struct rlimit lim = {(rlim_t)fsize, (rlim_t)fsize};
            setrlimit(RLIMIT_FSIZE, &lim);
        }
        execl("/bin/sh", "sh", "-c", full, (char *)NULL);
        _exit(127);
    }
    int rc = 0;
    assert_int_equal(waitpid(pid, &rc, 0), pid);
    msg[0] = 0;
    FILE *f = fopen(errfile, "r");
    if (f) {
        size_t n = fread(msg, 1, sizeof msg - 1, f);
        msg[n] = 0;
        fclose(f);
    }
    *err = msg;
    if (WIFSIGNALED(rc))
        return 128 + WTERMSIG(rc);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

int tf_run(const char *cmd, const char **err) { return tf_run_limited(cmd, 0, err); }
