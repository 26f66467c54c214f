/* The C API's side of bench_vs_pyopencl.py's per-call overhead case: the same
 * tiny clrt_add, ops times, then one clrt_queue_finish, timed in C. The bench
 * compiles this against the libclrt the binding loaded and calls it through
 * ctypes once per round, so the C figure is taken in the same process and the
 * same rounds as the binding's. Returns seconds, or -1 when a call fails. */
#include <time.h>

#include <clrt/clrt.h>

double c_loop_add(clrt_queue *q, clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b, int ops);

double c_loop_add(clrt_queue *q, clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b, int ops)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < ops; i++)
        if (clrt_add(q, c, a, b) != CLRT_OK)
            return -1;
    if (clrt_queue_finish(q) != CLRT_OK)
        return -1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
}
