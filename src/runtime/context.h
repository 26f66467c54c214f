/* Context lifetime for the other public entry points: a context outlives its
 * queues, buffers and programs, each of which holds a reference. */
#ifndef CLRT_RUNTIME_CONTEXT_H
#define CLRT_RUNTIME_CONTEXT_H

#include "runtime/handles.h"

void clrt__context_retain(clrt_context *ctx);
void clrt__context_release(clrt_context *ctx);

/* A queue's struct is freed when its user reference (clrt_queue_destroy) and
 * its events' references are all gone (runtime/queue.c); only the user's holds the
 * context, since each event holds it too. */
void clrt__queue_retain(clrt_queue *q);
void clrt__queue_release(clrt_queue *q);

/* A new context on the device of entry (runtime/context.c); func names the caller. */
int clrt__context_open(clrt_context **out, const clrt__device_entry *entry, const char *func);

#endif
