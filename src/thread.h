/* A mutex, so that the rest of src/ does not depend on one threads API. */
#ifndef CLRT_THREAD_H
#define CLRT_THREAD_H

#include <pthread.h>

typedef pthread_mutex_t clrt_mutex;
#define CLRT_MUTEX_INITIALIZER PTHREAD_MUTEX_INITIALIZER

static inline void clrt_mutex_init(clrt_mutex *m) { pthread_mutex_init(m, NULL); }
static inline void clrt_mutex_destroy(clrt_mutex *m) { pthread_mutex_destroy(m); }
static inline void clrt_mutex_lock(clrt_mutex *m) { pthread_mutex_lock(m); }
static inline void clrt_mutex_unlock(clrt_mutex *m) { pthread_mutex_unlock(m); }

#endif
