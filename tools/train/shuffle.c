/* splitmix64 and Fisher-Yates (see train/shuffle.h). */
#include "shuffle.h"

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t train_shuffle_start(uint64_t seed)
{
    /* Not the seed itself: the weights' generator starts from the seed too. */
    uint64_t s = seed ^ 0x53485546464c4521ull; /* "SHUFFLE!" */
    next(&s);
    return s;
}

/* A uniform integer in [0, bound) without modulo bias: draws from the top
 * partial block of 2^64 values are rejected. */
static uint64_t below(uint64_t *s, uint64_t bound)
{
    const uint64_t reject_from = UINT64_MAX - UINT64_MAX % bound;
    for (;;) {
        uint64_t r = next(s);
        if (r < reject_from)
            return r % bound;
    }
}

void train_shuffle(size_t *order, size_t n, uint64_t *state)
{
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)below(state, i);
        size_t t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
}

int train_shuffle_state_at(uint64_t seed, size_t n, uint64_t epochs, uint64_t *state)
{
    /* about 5 ns a draw: a few seconds at most for a state file's claim */
    if (n > 1 && epochs > TRAIN_SHUFFLE_REPLAY_MAX / n)
        return -1;
    uint64_t s = train_shuffle_start(seed);
    for (uint64_t e = 0; e < epochs; e++)
        for (size_t i = n; i > 1; i--) /* train_shuffle's draws, without the permutation */
            (void)below(&s, i);
    *state = s;
    return 0;
}
