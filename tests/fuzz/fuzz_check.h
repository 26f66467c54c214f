/* The fuzz targets' contract check: a violated condition is a finding, so it
 * aborts (libFuzzer then keeps the input) after saying which, in the target's
 * name. FUZZ_NAME names the target; define it before including this. */
#ifndef CLRT_TESTS_FUZZ_CHECK_H
#define CLRT_TESTS_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, FUZZ_NAME ": %s: ", #cond);                                            \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

#endif
