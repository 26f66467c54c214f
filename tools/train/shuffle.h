/* The order of the training images in each epoch, like PyTorch's
 * DataLoader(shuffle=True) in spirit (a fresh uniform permutation every
 * epoch) but from clrt-train's own generator, so that a run is the same on
 * every platform and a saved run resumes with the same order: splitmix64,
 * whose whole state is one 64-bit number, and Fisher-Yates. */
#ifndef CLRT_TOOLS_TRAIN_SHUFFLE_H
#define CLRT_TOOLS_TRAIN_SHUFFLE_H

#include <stddef.h>
#include <stdint.h>

/* The generator's state at the start of the first epoch, from --seed. */
uint64_t train_shuffle_start(uint64_t seed);

/* order[0..n) = a uniform permutation of 0..n-1 drawn from *state, which
 * advances (to the next epoch's state). */
void train_shuffle(size_t *order, size_t n, uint64_t *state);

/* Draws train_shuffle_state_at will replay at most (2^30: about 5 s). */
#define TRAIN_SHUFFLE_REPLAY_MAX (1ull << 30)

/* *state = the generator's state at the start of epoch `epochs` of a run
 * from seed over n images (what a --save file holds, to be checked): 0, or -1
 * when that takes more than TRAIN_SHUFFLE_REPLAY_MAX draws (not computed). */
int train_shuffle_state_at(uint64_t seed, size_t n, uint64_t epochs, uint64_t *state);

#endif
