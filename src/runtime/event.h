/* Events for the other entry points that hand one out (runtime/buffer.c's
 * asynchronous transfers). */
#ifndef CLRT_RUNTIME_EVENT_H
#define CLRT_RUNTIME_EVENT_H

#include "runtime/handles.h"

/* The struct, allocated before the OpenCL call that makes the cl_event so
 * that no allocation can fail after it; NULL when out of host memory. */
clrt_event *clrt__event_alloc(void);
/* Make ev a live event of q for cl (whose reference it takes over). */
void clrt__event_publish(clrt_event *ev, clrt_queue *q, cl_event cl);

#endif
