/* clrt-train's --save / --resume file: everything a run needs to continue
 * exactly as if it had never stopped. Layout (little-endian):
 *   8 bytes  "clrttrn\0"             magic
 *   u32      version (1)
 *   u32 n, n bytes                   the network's signature (TRAIN_NET_SIGNATURE)
 *   u32      dtype (1 float32, 2 float64)
 *   u64 seed, u64 batch, u64 train images, f64 lr, f64 momentum   the run's settings
 *   u64 epoch, u64 next mini-batch in it, u64 shuffle state at that epoch's start
 *   f64      running loss (sum of the losses since the last printed line)
 *   per tensor (8, PyTorch's order): u32 rows, u32 cols
 *   the 8 weight tensors, then the 8 momentum buffers, row-major, in dtype
 *   u64      FNV-1a hash of every byte before it
 * A file is written beside FILE, fsync'ed and renamed over it when complete
 * (tools/common/output.h: through a symbolic link its target is written). */
#ifndef CLRT_TOOLS_TRAIN_STATE_H
#define CLRT_TOOLS_TRAIN_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "net.h"

#define TRAIN_STATE_VERSION 1u

typedef struct train_state {
    clrt_dtype dt;
    uint64_t seed, batch, ntrain;
    double lr, momentum;
    uint64_t epoch;      /* 0-based epoch of the next mini-batch */
    uint64_t index;      /* the next mini-batch within that epoch */
    uint64_t shuffle;    /* train_shuffle's state at the start of that epoch */
    double running;      /* the running loss carried to the next printed line */
    void *param[TRAIN_TENSORS];   /* host copies, dtype dt */
    void *mom[TRAIN_TENSORS];
} train_state;

/* Copy n's weights and momentum into s (allocating), s->dt = n's dtype. */
int train_state_from_net(train_state *s, train_net *n);
/* Write s's weights and momentum into n (of s's dtype). */
int train_state_to_net(const train_state *s, train_net *n);

/* Write path (common/output.h); "problem naming the file" in err and 2 on failure. */
int train_state_save(const char *path, const train_state *s, char *err, size_t errcap);
/* Read path, checking magic, version, signature, sizes, hash, and every
 * setting and the position against the ranges clrt-train writes (a batch
 * 1..65536, an epoch at most 100000, a mini-batch within its epoch, a finite
 * lr and momentum...); "PATH: problem" in err and 2 on failure (s then holds
 * nothing). What must match this run (--batch, --seed, the images...) is the
 * caller's to check. */
int train_state_load(const char *path, train_state *s, char *err, size_t errcap);

/* The same for a file's len bytes in memory (path names it in messages):
 * the fuzz target's way in (tests/fuzz/fuzz_state.c). */
int train_state_parse(const char *path, const unsigned char *data, size_t len, train_state *s, char *err,
                      size_t errcap);

void train_state_free(train_state *s);

#endif
