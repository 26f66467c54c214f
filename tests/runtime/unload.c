/* clrt as a plugin: libclrt.so loaded with dlopen, used, unloaded, many
 * times. A thread that got a clrt error and exits after the library is gone
 * must not crash, and the cycles must neither run out of thread-specific keys
 * nor touch the application's own ones. Needs no device: the error is an
 * argument check. CLRT_SO_PATH is the built shared library. */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

typedef int (*create_fn)(void **out, const char *selector);
typedef const char *(*message_fn)(void);

typedef struct api {
    void *lib;
    create_fn create;
    message_fn message;
} api;

static void load(api *a)
{
    a->lib = dlopen(CLRT_SO_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!a->lib)
        fail_msg("dlopen %s: %s", CLRT_SO_PATH, dlerror());
    /* through a union: ISO C has no cast from void * to a function pointer */
    union {
        void *p;
        create_fn f;
    } c = {dlsym(a->lib, "clrt_context_create")};
    union {
        void *p;
        message_fn f;
    } m = {dlsym(a->lib, "clrt_error_message")};
    assert_non_null(c.p);
    assert_non_null(m.p);
    a->create = c.f;
    a->message = m.f;
}

/* Unload, and check that the library really left the process (else the
 * tests below would prove nothing). */
static void unload(api *a)
{
    assert_int_equal(dlclose(a->lib), 0);
    void *still = dlopen(CLRT_SO_PATH, RTLD_NOW | RTLD_NOLOAD);
    if (still) {
        dlclose(still);
        fail_msg("%s stayed loaded after dlclose", CLRT_SO_PATH);
    }
    a->lib = NULL;
}

/* ---- a thread with a clrt error message outlives the library */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int stage; /* 1: the thread got its error; 2: the library is unloaded */
static int thread_ok;

static void *erring_thread(void *arg)
{
    api *a = arg;
    int status = a->create(NULL, NULL);
    const char *msg = a->message();
    int ok = status != 0 && strstr(msg, "out is NULL") != NULL;
    pthread_mutex_lock(&lock);
    thread_ok = ok;
    stage = 1;
    pthread_cond_broadcast(&cond);
    while (stage != 2)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    return NULL; /* thread exit: its thread-specific data is cleaned up now */
}

static void thread_exits_after_unload(void **state)
{
    (void)state;
    api a;
    load(&a);
    pthread_t t;
    stage = 0;
    assert_int_equal(pthread_create(&t, NULL, erring_thread, &a), 0);
    pthread_mutex_lock(&lock);
    while (stage != 1)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    assert_true(thread_ok);

    unload(&a);
    pthread_mutex_lock(&lock);
    stage = 2;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    assert_int_equal(pthread_join(t, NULL), 0);
}

/* ---- many load/error/unload cycles */

static void many_cycles(void **state)
{
    (void)state;
    /* the application's own key, made before any clrt (likely key 0) */
    pthread_key_t mine;
    static int sentinel;
    assert_int_equal(pthread_key_create(&mine, NULL), 0);
    assert_int_equal(pthread_setspecific(mine, &sentinel), 0);
    for (int i = 0; i < 1100; i++) {
        api a;
        load(&a);
        int status = a.create(NULL, NULL);
        const char *msg = a.message();
        if (status == 0 || !strstr(msg, "out is NULL"))
            fail_msg("cycle %d: status %d, message \"%s\"", i, status, msg);
        if (pthread_getspecific(mine) != &sentinel)
            fail_msg("cycle %d: clrt wrote into the application's thread-specific data", i);
        unload(&a);
    }
    assert_ptr_equal(pthread_getspecific(mine), &sentinel);
    /* keys are not used up: the application can still make one */
    pthread_key_t more;
    assert_int_equal(pthread_key_create(&more, NULL), 0);
    pthread_key_delete(more);
    pthread_key_delete(mine);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        /* first: before any cycle could have used up the keys */
        cmocka_unit_test(thread_exits_after_unload),
        cmocka_unit_test(many_cycles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
