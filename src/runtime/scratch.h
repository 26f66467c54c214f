/* A queue's scratch: device memory that operations use between their own
 * launches (matmul's packed panels, a reduction's partial results, the
 * neural-network calls' intermediates), kept between calls because a fresh
 * buffer costs its first-touch page faults on every call (measured on POCL:
 * ~30 ms for 64 MiB) and grown to the largest size asked.
 *
 * One lock per queue guards every slot. An operation holds it from its first
 * use of a slot to the last enqueue that reads it (clrt__scratch_begin /
 * clrt__scratch_end), so that another thread's operation on the same
 * (in-order) queue cannot come in between and overwrite it. The lock is
 * recursive: a convolution holding it calls clrt_gemm, which takes it again
 * for the packing slot. */
#ifndef CLRT_RUNTIME_SCRATCH_H
#define CLRT_RUNTIME_SCRATCH_H

#include <stddef.h>

#include "runtime/handles.h"

/* The slots. MATH: matmul's packed B and A (B's slice first, A's after it on
 * a 4 KiB boundary) and a reduction's partials, never both at once. COLS,
 * PLANES, SMALL: the neural-network calls' column matrices (im2col), planes
 * in the convolution's layout, and small per-row or per-channel vectors. */
enum { CLRT__SCRATCH_MATH, CLRT__SCRATCH_COLS, CLRT__SCRATCH_PLANES, CLRT__SCRATCH_SMALL, CLRT__SCRATCH_SLOTS };

void clrt__scratch_begin(clrt_queue *q);
void clrt__scratch_end(clrt_queue *q);

/* The slot's memory, grown to at least `bytes` (to at least `least` when it
 * has to be made anew, so that a slot whose sizes vary is seldom replaced;
 * least is capped by the device's largest allocation). Commands already
 * queued keep a replaced buffer alive until they finish. Under an emulator a
 * new buffer is zeroed from the host (clrt__zero_on_emulator says why).
 * CLRT_OK with *mem set; CLRT_ENOMEM (message set) when the device does not
 * give the memory: the slot is then empty and the context still usable (a
 * size above the device's largest buffer is refused first, the slot as it
 * was); a
 * late failure (the context has failed) when zeroing it failed. The caller
 * holds the lock. */
int clrt__scratch_mem(clrt_queue *q, int slot, size_t bytes, size_t least, const char *func, cl_mem *mem);

/* A contiguous rows x cols matrix of dtype over the slot (its contents
 * undefined), valid until clrt__scratch_end; a handle of the queue's, not to
 * be destroyed. Statuses as clrt__scratch_mem, and CLRT_ESHAPE when the size
 * overflows. */
int clrt__scratch_matrix(clrt_queue *q, int slot, clrt_dtype dtype, size_t rows, size_t cols, const char *func,
                         clrt_buffer **out);

/* At the queue's destruction, its work done. */
void clrt__scratch_free(clrt_queue *q);

#endif
