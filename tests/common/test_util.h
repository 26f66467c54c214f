/* Helpers shared by the device test suites: the device under test and the
 * suite's fixture, host references and tolerances, host arrays of any dtype,
 * buffers made, filled, run through an operation and destroyed in one call,
 * worker threads, and the zero-live-handles check. The fault sweep is in
 * fault_sweep.h, scratch folders and files in temp_files.h. */
#ifndef CLRT_TOOLS___TEST_UTIL_H
#define CLRT_TOOLS___TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <clrt/clrt.h>
#include <clrt/clrt_tune.h>

/* The host reference every suite checks against: clrt__ref_fill for inputs,
 * clrt__ref_gemm_wrong for products. */
#include "hostref/ref.h"

/* src/base/error.c: empty this thread's message. */
void clrt__error_clear(void);

/* Exit 77 (ctest: skipped) when no OpenCL platform exists, unless
 * $CLRT_TEST_REQUIRE_DEVICE is set (per-driver runs set it: a driver that
 * failed to load must fail the run, not skip it). Call first in main(). */
void tu_require_device(void);

/* Nonzero when $CLRT_TEST_SMALL is set: runs under Oclgrind use small sizes. */
int tu_small(void);

/* Fail the test unless |got[i] - ref[i]| <= tol * (absref[i] + 1e-300) for
 * every i < n, absref[i] a bound on the magnitudes summed into ref[i] (tol 0:
 * equal), naming what, how many are wrong and the first of them. */
void tu_expect_close(const char *what, const double *got, const double *ref, const double *absref, size_t n,
                     double tol);

/* Check c = a b (a M x K, b K x N, c M x N, all of dtype, row-major) against
 * the host reference in double (hostref/ref.h: within the dot product's error
 * bound), printing the first wrong elements. The shared
 * "matmul against the host" step of every suite that multiplies.
 * tu_matmul_check asserts nothing, for worker threads (cmocka's asserts are
 * not thread-safe): it returns the number of wrong elements, or SIZE_MAX when
 * the reference cannot be allocated. tu_assert_matmul fails the test, naming
 * the shape, unless every element is right (main thread only). */
size_t tu_matmul_check(const void *c, const void *a, const void *b, clrt_dtype dtype, size_t M, size_t N,
                       size_t K);
void tu_assert_matmul(const void *c, const void *a, const void *b, clrt_dtype dtype, size_t M, size_t N,
                      size_t K);

/* A rows x cols buffer of dtype on ctx, holding host's rows * cols elements
 * (host NULL: as made); fails the test on any error. */
clrt_buffer *tu_upload(clrt_context *ctx, clrt_queue *q, clrt_dtype dtype, size_t rows, size_t cols,
                       const void *host);
/* c = a + b (n elements of dtype) and c = a b (a M x K, b K x N, c M x N)
 * through clrt_add and clrt_matmul on ctx and q, on device buffers made for
 * the call and destroyed after it; fails the test on any error. The results
 * are left for the caller to check. */
void tu_device_add(clrt_context *ctx, clrt_queue *q, clrt_dtype dtype, void *c, const void *a, const void *b,
                   size_t n);
void tu_device_matmul(clrt_context *ctx, clrt_queue *q, clrt_dtype dtype, void *c, const void *a, const void *b,
                      size_t M, size_t N, size_t K);

/* A new context on dev's device (selector "N", its clrt_device_list index),
 * failing the test when it cannot be made: for tests that need a second
 * context on the device under test. */
clrt_context *tu_context_on(const clrt_device_info *dev);

/* A device buffer of rows x cols with `canary` extra elements after it that no
 * kernel may touch: the buffer's memory is allocated larger than its shape. */
clrt_buffer *tu_padded_buffer(clrt_context *ctx, clrt_queue *q, clrt_dtype dtype, size_t rows,
                              size_t cols, size_t canary);
/* 1 when the canary after buf is intact. */
int tu_canary_intact(clrt_queue *q, const clrt_buffer *buf, size_t canary);

/* A context and queue on the default device, shared by a suite's tests:
 * cmocka group setup/teardown, and a per-test teardown asserting that only
 * the fixture's own context and queue are live (their cached programs and
 * kernels go with the group teardown, which asserts that nothing is). */
typedef struct tu_fixture {
    clrt_context *ctx;
    clrt_queue *q;
    clrt_device_info dev;
} tu_fixture;
int tu_fixture_setup(void **state);
int tu_fixture_teardown(void **state);
int tu_only_fixture_live(void **state);
/* The running suite's fixture, for its tests and helpers: set by
 * tu_fixture_setup, NULL again after tu_fixture_teardown. */
extern tu_fixture *tu_fx;

/* A new context on the fixture's device, and a queue on it in *q: for tests
 * that force kernel parameters, so that the fixture's kernels stay as they are. */
clrt_context *tu_fresh_context(clrt_queue **q);
/* A rows x cols buffer of dtype on the fixture's context, failing the test
 * when it cannot be made. */
clrt_buffer *tu_buffer(clrt_dtype dtype, size_t rows, size_t cols);

/* The float dtypes the fixture's device runs: tu_n_dtypes() of them (2 with
 * float64, else 1), tu_dtype_at(0) float32 and tu_dtype_at(1) float64. */
int tu_n_dtypes(void);
clrt_dtype tu_dtype_at(int i);
/* "f32", "f64" or "i32", for messages. */
const char *tu_dtype_name(clrt_dtype dtype);
/* The gap between 1 and the next value of a float dtype (2^-23, 2^-52). */
double tu_epsilon(clrt_dtype dtype);
/* Element i of a host array of dtype, as a double; tu_put stores v there,
 * rounded to (float32) or truncated to (int32) the dtype. */
double tu_get(const void *p, clrt_dtype dtype, size_t i);
void tu_put(void *p, clrt_dtype dtype, size_t i, double v);
/* n values in [-1, 1) from seed (clrt__ref_fill), as doubles that dtype holds
 * exactly; malloc'ed, never NULL (the test fails first). */
double *tu_random_doubles(size_t n, unsigned seed, clrt_dtype dtype);
/* Write the n doubles h to buf, converted to its dtype; read n elements of buf
 * into h as doubles. */
void tu_write_doubles(clrt_queue *q, clrt_buffer *buf, const double *h, size_t n);
void tu_read_doubles(clrt_queue *q, const clrt_buffer *buf, double *h, size_t n);

/* A test of a fixture suite, ending with only the fixture's context and queue
 * live (tu_only_fixture_live). */
#define TU_FIXTURE_TEST(test) cmocka_unit_test_teardown(test, tu_only_fixture_live)
/* main() of a fixture suite: exit 77 without a device (tu_require_device),
 * else run the tests between tu_fixture_setup and tu_fixture_teardown; the
 * number of failed tests. */
int tu_run_fixture_suite(const struct CMUnitTest *tests, size_t count);
#define TU_RUN_FIXTURE_SUITE(tests) tu_run_fixture_suite(tests, sizeof(tests) / sizeof *(tests))

/* The value of key in a parameter text ("tm=8 tn=48 ..."), or -1 when it is absent. */
long tu_param(const char *params, const char *key);
/* Force params (clrt_tune_override, every parameter it does not name keeps its
 * default) on ctx's kernel, failing the test when refused; then assert that
 * the kernel runs with them (tu_assert_ran). */
void tu_override(clrt_context *ctx, const char *kernel, clrt_dtype dtype, const char *params);
/* Assert that ctx's kernel (built now if needed) runs with every parameter
 * want names, except that a work-group (wgx, wgy, wg) may be smaller, and
 * only when the built kernel cannot take the one asked for (llvmpipe: 32
 * work-items for some kernels). */
void tu_assert_ran(clrt_context *ctx, const char *kernel, clrt_dtype dtype, const char *want);

/* Destroy every buffer listed; NULL ones are passed over (as
 * clrt_buffer_destroy does). */
void tu_destroy_buffers(clrt_buffer *const *bufs, size_t n);
#define TU_DESTROY_BUFFERS(...)                                                                    \
    tu_destroy_buffers((clrt_buffer *[]){__VA_ARGS__},                                             \
                       sizeof((clrt_buffer *[]){__VA_ARGS__}) / sizeof(clrt_buffer *))

/* free() every host pointer listed. */
void tu_free_all(void *const *ptrs, size_t n);
#define TU_FREE_ALL(...) tu_free_all((void *[]){__VA_ARGS__}, sizeof((void *[]){__VA_ARGS__}) / sizeof(void *))

/* Run fn on count threads at once, thread i on element i of jobs (an array of
 * job_size-byte elements), and wait for them all; fails the test when a
 * thread cannot be started or joined. The threads must not call cmocka's
 * asserts (not thread-safe): they leave their outcome in their job. */
void tu_run_threads(size_t count, void *(*fn)(void *), void *jobs, size_t job_size);

/* Assert that no context, queue, buffer, program or kernel is alive. */
void tu_assert_no_live_handles(void);

size_t tu_dtype_size(clrt_dtype dtype);

/* Assert status == expected, printing clrt_error_message() when it is not. */
#define TU_STATUS(expected, call)                                                                  \
    do {                                                                                           \
        int tu_s_ = (call);                                                                        \
        if (tu_s_ != (expected))                                                                   \
            fail_msg("%s returned %s, expected %s: %s", #call, clrt_status_name(tu_s_),           \
                     clrt_status_name(expected), clrt_error_message());                            \
    } while (0)
#define TU_OK(call) TU_STATUS(CLRT_OK, call)

/* A refusal: status == expected, and clrt_error_message() starts with the
 * name of the function called ("clrt_add: ...") and contains `phrase`, so
 * that every documented error also says something useful. */
void tu_check_refusal(int status, int expected, const char *call, const char *phrase);
/* The message is emptied first, so a refusal that does not set one fails. */
#define TU_REFUSED(expected, phrase, call) \
    (clrt__error_clear(), tu_check_refusal((call), (expected), #call, (phrase)))

/* Per-test teardown for suites without a fixture: zero live handles. */
int tu_teardown_no_live(void **state);

#endif
