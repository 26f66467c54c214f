/*
 * clrt — events, asynchronous transfers, device-side timing, and splitting
 * one job across several devices. Included by <clrt/clrt.h>.
 *
 * A clrt_event marks a point in a queue's work: it completes when everything
 * enqueued on that queue before it has completed. With events a program can
 * keep a device busy while data moves: upload the next slice on one queue
 * while a second queue of the same context computes on the current one,
 * ordered by clrt_queue_wait() instead of clrt_queue_finish(). docs/events.md
 * has a worked example and the measurements behind the choices made here.
 */
#ifndef CLRT_CLRT_EVENT_H
#define CLRT_CLRT_EVENT_H

#include <stddef.h>

#include "clrt/clrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup event Events and asynchronous transfers
 *  Rules:
 *    - An event belongs to the queue it was recorded on and to that queue's
 *      context. It may be waited for on the host from any thread, and by any
 *      queue of the same context. Using it after its queue was destroyed, or
 *      with a queue of another context, is CLRT_EINVAL.
 *    - A device failure seen through an event (clrt_event_wait,
 *      clrt_event_done, clrt_event_elapsed) is a late failure, as at
 *      clrt_queue_finish: CLRT_EDEVICE (or CLRT_ENOMEM), the context is marked
 *      failed, and every later call that does work on it returns CLRT_EDEVICE.
 *    - The caller owns each event it gets and destroys it with
 *      clrt_event_destroy(). An event holds its context: events still live
 *      when the context is destroyed are reported like live buffers are.
 *    - Destroying an event does not wait for, nor cancel, the work it marks.
 *    - Events may be used from several threads: one event may be waited for
 *      and polled by many threads at once.
 *  @{ */
/** A point in a queue's work (a marker, or the end of an asynchronous transfer). */
typedef struct clrt_event clrt_event;

/** Flags of clrt_queue_create_with(). */
enum clrt_queue_flags {
    /** Record device timestamps, for clrt_event_elapsed(). Off by default: on
     *  POCL it adds about 0.7 us to every command (measured: docs/events.md). */
    CLRT_QUEUE_PROFILING = 1
};

/** clrt_queue_create() with flags (0 or CLRT_QUEUE_PROFILING). Other bits
 *  are CLRT_EINVAL. */
CLRT_API int clrt_queue_create_with(clrt_queue **out, clrt_context *ctx, unsigned flags);

/** A new event on q that completes when all the work enqueued on q so far has
 *  completed. The queue is flushed, so the work starts without a later call
 *  having to push it (polling clrt_event_done() then terminates). */
CLRT_API int clrt_event_record(clrt_event **out, clrt_queue *q);

/** Block until ev has completed. A device failure of the work it marks is
 *  returned here (see the rules above). */
CLRT_API int clrt_event_wait(clrt_event *ev);

/** Make q's later work wait until ev has completed, without blocking the
 *  host. ev may come from another queue of q's context (CLRT_EINVAL for
 *  another context's, or one whose queue was destroyed). */
CLRT_API int clrt_queue_wait(clrt_queue *q, const clrt_event *ev);

/** *done = 1 when ev has completed, else 0; never blocks. */
CLRT_API int clrt_event_done(const clrt_event *ev, int *done);

/** *seconds = the device time from the completion of start to the
 *  completion of end (negative when end completed first). Both must come from
 *  queues created with CLRT_QUEUE_PROFILING, of the same context (else
 *  CLRT_EINVAL). Waits for both on the host first. CLRT_EUNSUPPORTED where the
 *  driver's timestamps are placeholders rather than a clock (rusticl in
 *  Mesa 22.3 answers 0, 1, 2, 3 ns for every command). */
CLRT_API int clrt_event_elapsed(double *seconds, clrt_event *start, clrt_event *end);

/** Release the event. NULL is a no-op. */
CLRT_API void clrt_event_destroy(clrt_event *ev);

/** Enqueue a copy of count = rows*cols elements from host memory into dst,
 *  and return at once. Like cudaMemcpyAsync and PyOpenCL's
 *  enqueue_copy(is_blocking=False): the copy reads src at some later time, so
 *  the caller must not modify nor free src until the copy has completed,
 *  that is until *done (or any later event of q) completes, or
 *  clrt_queue_finish(q) returns. done may be NULL (then only the queue tells).
 *  Same arguments and checks as clrt_buffer_write(). On success *done is a
 *  new event to destroy; on failure it is set to NULL. */
CLRT_API int clrt_buffer_write_async(clrt_queue *q, clrt_buffer *dst, const void *src, size_t count,
                                     clrt_event **done);

/** Enqueue a copy of src's count = rows*cols elements into host memory, and
 *  return at once. The caller must not read, modify nor free dst until the
 *  copy has completed: until *done (or any later event of q) completes, or
 *  clrt_queue_finish(q) returns; before that dst holds unspecified values. A
 *  device failure of the copy shows when it is waited for. done may be NULL.
 *  Same arguments and checks as clrt_buffer_read(). */
CLRT_API int clrt_buffer_read_async(clrt_queue *q, const clrt_buffer *src, void *dst, size_t count,
                                    clrt_event **done);
/** @} */

/** @defgroup split Splitting one job across devices
 *  One product C = A B over several devices: each device gets a block of
 *  rows of A and C (and all of B), sized by its measured speed. Each device
 *  has its own context and queue; the host enqueues every device's part
 *  (clrt_buffer_write_async, clrt_matmul, clrt_buffer_read_async) before it
 *  waits for any, so the devices work at the same time. clrt-bench
 *  --op split runs it (docs/events.md).
 *  @{ */
/** Split rows into parts blocks, block i about weights[i] / sum(weights) of
 *  them (weights: e.g. each device's measured rows per second), every block a
 *  multiple of align rows except the last non-empty one, which takes the
 *  remainder. counts[i] receives block i's rows; they sum to rows. A
 *  block may be 0 (a device too slow to be worth its share). Any sizes and
 *  finite weights (up to SIZE_MAX rows, weights up to DBL_MAX) take one pass
 *  over the parts; each block is its share rounded down or up, to the
 *  precision of doubles. CLRT_EINVAL for NULL pointers, parts or align 0, a
 *  weight that is negative or not finite, or weights that are all 0. */
CLRT_API int clrt_split_rows(size_t *counts, size_t parts, size_t rows, const double *weights, size_t align);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* CLRT_CLRT_EVENT_H */
