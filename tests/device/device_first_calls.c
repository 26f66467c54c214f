/* The first clrt calls of a process, made by many threads at once: platform
 * and device discovery runs in every one of them, and the drivers do not all
 * take concurrent discovery (POCL 3.1 crashed, or the loader said no platform
 * was installed). Only a new process has a first call, so the program runs
 * itself as a child RUNS times; each child starts THREADS threads that call
 * clrt_context_create together and must all succeed. */
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/test_util.h"

extern char **environ;

enum { THREADS = 8, RUNS = 6 };

static pthread_barrier_t start;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int done;

typedef struct result {
    int status;
    char message[512];
} result;

static void *first_call(void *arg)
{
    result *r = arg;
    pthread_barrier_wait(&start);
    clrt_context *ctx = NULL;
    r->status = clrt_context_create(&ctx, NULL);
    snprintf(r->message, sizeof r->message, "%s", r->status ? clrt_error_message() : "");
    if (ctx) {
        clrt_queue *q;
        clrt_buffer *b;
        float x[3] = {1, 2, 3}, y[3];
        /* and the first use, also from all threads at once */
        if (r->status == CLRT_OK && (r->status = clrt_queue_create(&q, ctx)) == CLRT_OK) {
            if ((r->status = clrt_buffer_create(&b, ctx, CLRT_FLOAT32, 1, 3)) == CLRT_OK) {
                if ((r->status = clrt_buffer_write(q, b, x, 3)) == CLRT_OK &&
                    (r->status = clrt_add(q, b, b, b)) == CLRT_OK &&
                    (r->status = clrt_buffer_read(q, b, y, 3)) == CLRT_OK && (y[0] != 2 || y[2] != 6))
                    r->status = -1000;
                clrt_buffer_destroy(b);
            }
            clrt_queue_destroy(q);
        }
        if (r->status != CLRT_OK && r->status != -1000)
            snprintf(r->message, sizeof r->message, "%s", clrt_error_message());
        clrt_context_destroy(ctx);
    }
    /* Report, then never exit: the child ends with _exit once every thread
     * has reported. A thread whose first kernel build registered LLVM's
     * signal handlers carries LLVM's malloc'd alternate signal stack, which
     * AddressSanitizer tries to munmap at thread exit (a CHECK failure in
     * the ASan run that is neither clrt's nor the driver's fault). */
    pthread_mutex_lock(&lock);
    done++;
    pthread_cond_broadcast(&cond);
    for (;;)
        pthread_cond_wait(&cond, &lock);
    return NULL; /* not reached */
}

/* One child: THREADS first calls at once; exit 0 when all succeeded. */
_Noreturn static void child(void)
{
    pthread_t t[THREADS];
    static result r[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (int i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, first_call, &r[i]) != 0)
            _exit(2);
    pthread_mutex_lock(&lock);
    while (done < THREADS)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    int bad = 0;
    for (int i = 0; i < THREADS; i++) {
        if (r[i].status != CLRT_OK) {
            fprintf(stderr, "thread %d: %s (%d): %s\n", i,
                    r[i].status == -1000 ? "wrong sum" : clrt_status_name(r[i].status), r[i].status,
                    r[i].message);
            bad = 1;
        }
    }
    fflush(NULL);
    _exit(bad);
}

static void concurrent_first_calls(void **state)
{
    (void)state;
    for (int run = 0; run < RUNS; run++) {
        char self[] = "/proc/self/exe", arg[] = "child";
        char *argv[] = {self, arg, NULL};
        pid_t pid;
        assert_int_equal(posix_spawn(&pid, self, NULL, NULL, argv, environ), 0);
        int st = 0;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        if (WIFSIGNALED(st))
            fail_msg("run %d: the child died of signal %d", run, WTERMSIG(st));
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            fail_msg("run %d: a first call failed (exit %d)", run, WEXITSTATUS(st));
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0)
        child();
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(concurrent_first_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
