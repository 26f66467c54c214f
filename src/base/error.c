/* Status names and sentences (from the one X-macro in clrt.h) and the
 * per-thread failure message. */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

const char *clrt_version(void)
{
#define CLRT_STR2_(x) #x
#define CLRT_STR_(x) CLRT_STR2_(x)
    return CLRT_STR_(CLRT_VERSION_MAJOR) "." CLRT_STR_(CLRT_VERSION_MINOR) "." CLRT_STR_(
        CLRT_VERSION_PATCH);
}

const char *clrt_status_name(int status)
{
    switch (status) {
#define CLRT_STATUS_NAME_(name, value, text) \
    case value:                              \
        return #name;
        CLRT_STATUS_MAP(CLRT_STATUS_NAME_)
#undef CLRT_STATUS_NAME_
    }
    return "CLRT_UNKNOWN";
}

const char *clrt_status_string(int status)
{
    switch (status) {
#define CLRT_STATUS_TEXT_(name, value, text) \
    case value:                              \
        return text;
        CLRT_STATUS_MAP(CLRT_STATUS_TEXT_)
#undef CLRT_STATUS_TEXT_
    }
    return "CLRT_UNKNOWN"; /* as clrt_status_name: one name for both (clrt.h) */
}

/* The message lives on the heap, per thread: build logs can be long, and a
 * large static TLS block can fail to load in a dlopen'ed library. Every
 * thread's message is also on one list, so that unloading the library can
 * free them all. */
typedef struct message {
    char *text;
    size_t len, cap;
    struct message *prev, *next;
} message;

static pthread_key_t message_key;
static pthread_once_t message_once = PTHREAD_ONCE_INIT;
/* 0 when the key could not be made (the process ran out of keys) or was
 * deleted at unload: then there is no message, never someone else's key. */
static atomic_int message_key_ok;
static pthread_mutex_t messages_lock = PTHREAD_MUTEX_INITIALIZER;
static message *messages;
static int messages_gone; /* the unload freed them all (under messages_lock) */

/* At thread exit (the key's destructor). */
static void message_free(void *p)
{
    message *m = p;
    if (!m)
        return;
    pthread_mutex_lock(&messages_lock);
    int gone = messages_gone;
    if (!gone) {
        if (m->prev)
            m->prev->next = m->next;
        else
            messages = m->next;
        if (m->next)
            m->next->prev = m->prev;
    }
    pthread_mutex_unlock(&messages_lock);
    if (!gone) {
        free(m->text);
        free(m);
    }
}

static void message_key_create(void)
{
    atomic_store(&message_key_ok, pthread_key_create(&message_key, message_free) == 0);
}

#if defined(__GNUC__)
/* When the library is unloaded (dlclose) or the process exits. The key goes,
 * so that a thread exiting later does not call message_free, which left with
 * the library, and so that loading the library again and again does not use
 * up the process's keys; every thread's message goes with it (like any
 * text the library returned, it does not outlive the library). */
__attribute__((destructor)) static void message_key_delete(void)
{
    if (!atomic_exchange(&message_key_ok, 0))
        return;
    pthread_setspecific(message_key, NULL);
    pthread_key_delete(message_key);
    pthread_mutex_lock(&messages_lock);
    while (messages) {
        message *next = messages->next;
        free(messages->text);
        free(messages);
        messages = next;
    }
    messages_gone = 1;
    pthread_mutex_unlock(&messages_lock);
}
#endif

static message *message_get(void)
{
    pthread_once(&message_once, message_key_create);
    if (!atomic_load(&message_key_ok))
        return NULL;
    message *m = pthread_getspecific(message_key);
    if (!m) {
        m = calloc(1, sizeof *m);
        if (!m || pthread_setspecific(message_key, m) != 0) {
            free(m);
            return NULL;
        }
        pthread_mutex_lock(&messages_lock);
        m->next = messages;
        if (messages)
            messages->prev = m;
        messages = m;
        pthread_mutex_unlock(&messages_lock);
    }
    return m;
}

CLRT__PRINTF(2, 0) static void message_vappend(message *m, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n < 0) {
        va_end(again);
        return;
    }
    size_t need = m->len + (size_t)n + 1;
    if (need > m->cap) {
        size_t cap = m->cap ? m->cap : 256;
        while (cap < need)
            cap *= 2;
        char *text = realloc(m->text, cap);
        if (!text) {
            va_end(again);
            return; /* keep the old message rather than fail the caller */
        }
        m->text = text;
        m->cap = cap;
    }
    vsnprintf(m->text + m->len, m->cap - m->len, fmt, again);
    m->len += (size_t)n;
    va_end(again);
}

CLRT__PRINTF(2, 3) static void message_append(message *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message_vappend(m, fmt, ap);
    va_end(ap);
}

static message *message_reset(void)
{
    message *m = message_get();
    if (m) {
        m->len = 0;
        if (m->text)
            m->text[0] = '\0';
    }
    return m;
}

void clrt__error_stash(clrt__stashed_message *s)
{
    message *m = message_get();
    *s = (clrt__stashed_message){NULL, 0, 0};
    if (!m)
        return;
    s->text = m->text;
    s->len = m->len;
    s->cap = m->cap;
    m->text = NULL;
    m->len = m->cap = 0;
}

void clrt__error_unstash(clrt__stashed_message *s)
{
    message *m = message_get();
    if (!m) { /* stash made it: only a thread without one gets here, with nothing */
        free(s->text);
        return;
    }
    free(m->text);
    m->text = s->text;
    m->len = s->len;
    m->cap = s->cap;
}

const char *clrt_error_message(void)
{
    message *m = message_get();
    return (m && m->text) ? m->text : "";
}

/* A fresh message "<func>: <formatted text>"; NULL when there is no memory. */
CLRT__PRINTF(2, 0) static message *message_start(const char *func, const char *fmt, va_list ap)
{
    message *m = message_reset();
    if (m) {
        message_append(m, "%s: ", func);
        message_vappend(m, fmt, ap);
    }
    return m;
}

int clrt__fail(int status, const char *func, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message_start(func, fmt, ap);
    va_end(ap);
    return status;
}

int clrt__fail_cl(int status, const char *func, cl_int code, const char *clcall,
                  const clrt_device_info *dev, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message *m = message_start(func, fmt, ap);
    va_end(ap);
    if (!m)
        return status;
    message_append(m, " (%s returned %s (%d)", clcall, clrt__cl_error_name(code), (int)code);
    if (dev)
        message_append(m, " on device '%s', %s", dev->name, dev->platform);
    message_append(m, ")");
    return status;
}

void clrt__report(const char *func, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message_start(func, fmt, ap);
    va_end(ap);
    fprintf(stderr, "clrt: %s\n", clrt_error_message());
}

void clrt__error_clear(void) { (void)message_reset(); }

void clrt__error_append(const char *text)
{
    message *m = message_get();
    if (m)
        message_append(m, "%s", text);
}

int clrt__status_from_cl(cl_int code)
{
    switch (code) {
    case CL_OUT_OF_HOST_MEMORY:
    case CL_OUT_OF_RESOURCES:
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_INVALID_BUFFER_SIZE:
        return CLRT_ENOMEM;
    case CL_BUILD_PROGRAM_FAILURE:
    case CL_COMPILER_NOT_AVAILABLE:
    case CL_INVALID_BUILD_OPTIONS:
        return CLRT_EBUILD;
    case CL_DEVICE_NOT_AVAILABLE:
    case CL_INVALID_COMMAND_QUEUE:
    case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST:
        return CLRT_EDEVICE;
    default:
        return CLRT_EOPENCL;
    }
}

/* At enqueue CL_OUT_OF_RESOURCES is the launch asking more than the device
 * has per work-group (NVIDIA: registers x work-items), not a lack of memory:
 * saying "out of memory" would send the user after the wrong problem. */
int clrt__launch_status(cl_int code)
{
    return code == CL_OUT_OF_RESOURCES ? CLRT_EOPENCL : clrt__status_from_cl(code);
}

const char *clrt__launch_why(cl_int code)
{
    return code == CL_OUT_OF_RESOURCES
               ? "cannot launch: the device lacks the resources for this work-group (registers, local or "
                 "private memory per group; not device memory): a smaller work-group may run"
               : "cannot launch";
}
