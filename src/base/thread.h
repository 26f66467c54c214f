/* A mutex, so that the rest of src/ does not depend on one threads API. */
#ifndef CLRT_BASE_THREAD_H
#define CLRT_BASE_THREAD_H

#include <pthread.h>

typedef pthread_mutex_t clrt_mutex;
#define CLRT_MUTEX_INITIALIZER PTHREAD_MUTEX_INITIALIZER

static inline void clrt_mutex_init(clrt_mutex *m) { pthread_mutex_init(m, NULL); }
/* One its holder may lock again (each lock undone by an unlock). */
static inline void clrt_mutex_init_recursive(clrt_mutex *m)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(m, &a);
    pthread_mutexattr_destroy(&a);
}
static inline void clrt_mutex_destroy(clrt_mutex *m) { pthread_mutex_destroy(m); }
static inline void clrt_mutex_lock(clrt_mutex *m) { pthread_mutex_lock(m); }
static inline void clrt_mutex_unlock(clrt_mutex *m) { pthread_mutex_unlock(m); }

#endif
