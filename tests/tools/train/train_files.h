/* Files the clrt-train suites make (train_cli, train_outputs, train_signals):
 * IDX files and small datasets of them, in a scratch folder, and a run of a
 * tool with its exit status and stderr. */
#ifndef CLRT_TESTS_TOOLS_TRAIN_FILES_H
#define CLRT_TESTS_TOOLS_TRAIN_FILES_H

#include <stddef.h>
#include <stdint.h>

/* The suite's scratch folder (made by tf_init, removed by tf_done). */
extern char tf_dir[256];
int tf_init(const char *name);
void tf_done(void);

/* "<tf_dir>/<name>" into out. */
void tf_path(char *out, size_t cap, const char *name);

/* Write n bytes to <tf_dir>/<name>; fails the test when it cannot. */
void tf_write(const char *name, const void *data, size_t n);
/* The bytes of <tf_dir>/<name> (malloc'd, NUL after them; *n their count):
 * NULL when it cannot be read. */
unsigned char *tf_read(const char *name, size_t *n);

/* The bytes of an IDX file of u8 (magic 00 00 08 dims, or `magic` when
 * nonzero; the dims; count*rows*cols bytes, labels i % 10), malloc'd, *n
 * their count. */
unsigned char *tf_idx_bytes(unsigned dims, uint32_t count, uint32_t rows, uint32_t cols, uint32_t magic, size_t *n);
/* The same written to <tf_dir>/<name>, cut to keep bytes when keep != 0. */
void tf_idx(const char *name, unsigned dims, uint32_t count, uint32_t rows, uint32_t cols, size_t keep,
            uint32_t magic);
/* A good dataset of `count` training and test images in <tf_dir>/<sub>, plain. */
void tf_dataset(const char *sub, uint32_t count);

/* Run the shell command line cmd in tf_dir (a list: "a & b; wait $!"),
 * its stderr into *err (static, one run's); the exit status, or 128 + the
 * signal that ended it. */
int tf_run(const char *cmd, const char **err);
/* The same with RLIMIT_FSIZE at fsize bytes (0: none) and SIGXFSZ ignored:
 * a write past it fails with EFBIG, as on a full disk. */
int tf_run_limited(const char *cmd, long long fsize, const char **err);

#endif
