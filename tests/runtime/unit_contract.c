/* The public API contract (the names and meanings outside programs are
 * written against), pinned at compile time:
 * every function's exact type, every struct field's type, the status codes'
 * and enums' values. Programs written against the design compile against
 * clrt.h unchanged only while all of this holds; a change here is a change of
 * contract and fails the build of this test (a _Static_assert, whatever the
 * warning flags). What needs running (NULL handles, the status names) is in
 * unit_args. */
#include "common/test_util.h"

/* expr has exactly type T (arrays: compare sizeof separately, they decay). */
#define PIN(expr, T) _Static_assert(_Generic((expr), T: 1, default: 0), #expr " must be " #T)

/* status codes: the nine names, 0 for success, distinct negatives else */
_Static_assert(CLRT_OK == 0, "CLRT_OK is 0");
#define NEGATIVE(code) _Static_assert((code) < 0, #code " is negative")
NEGATIVE(CLRT_EINVAL);
NEGATIVE(CLRT_ESHAPE);
NEGATIVE(CLRT_ENODEVICE);
NEGATIVE(CLRT_ENOMEM);
NEGATIVE(CLRT_EBUILD);
NEGATIVE(CLRT_EUNSUPPORTED);
NEGATIVE(CLRT_EDEVICE);
NEGATIVE(CLRT_EOPENCL);
/* distinct: a switch with every code as a case label does not compile otherwise */
static int code_index(int status)
{
    switch (status) {
    case CLRT_OK:
        return 0;
    case CLRT_EINVAL:
        return 1;
    case CLRT_ESHAPE:
        return 2;
    case CLRT_ENODEVICE:
        return 3;
    case CLRT_ENOMEM:
        return 4;
    case CLRT_EBUILD:
        return 5;
    case CLRT_EUNSUPPORTED:
        return 6;
    case CLRT_EDEVICE:
        return 7;
    case CLRT_EOPENCL:
        return 8;
    }
    return -1;
}
PIN(&clrt_status_name, const char *(*)(int));
PIN(&clrt_status_string, const char *(*)(int));
PIN(&clrt_error_message, const char *(*)(void));
PIN(&clrt_live_objects, long (*)(void));

/* devices */
#define INFO(field) (((clrt_device_info *)0)->field)
PIN(INFO(index), size_t);
PIN(INFO(platform_index), unsigned);
PIN(INFO(device_index), unsigned);
PIN(INFO(type), int);
PIN(INFO(compute_units), unsigned);
PIN(INFO(global_mem), uint64_t);
PIN(INFO(max_alloc), uint64_t);
PIN(INFO(local_mem), uint64_t);
PIN(INFO(max_work_group), size_t);
PIN(INFO(has_fp64), int);
PIN(INFO(name), char *);
PIN(INFO(vendor), char *);
PIN(INFO(platform), char *);
PIN(INFO(driver), char *);
_Static_assert(sizeof INFO(name) == 256 && sizeof INFO(vendor) == 256 && sizeof INFO(platform) == 256 &&
                   sizeof INFO(driver) == 256,
               "the device info strings are char[256]");
_Static_assert(CLRT_DEVICE_CPU != CLRT_DEVICE_GPU && CLRT_DEVICE_CPU != CLRT_DEVICE_ACCELERATOR &&
                   CLRT_DEVICE_CPU != CLRT_DEVICE_OTHER && CLRT_DEVICE_GPU != CLRT_DEVICE_ACCELERATOR &&
                   CLRT_DEVICE_GPU != CLRT_DEVICE_OTHER && CLRT_DEVICE_ACCELERATOR != CLRT_DEVICE_OTHER,
               "the four device types are distinct");
PIN(&clrt_device_list, int (*)(clrt_device_info *, size_t, size_t *));

/* contexts */
PIN(&clrt_context_create, int (*)(clrt_context **, const char *));
PIN(&clrt_context_destroy, void (*)(clrt_context *));
PIN(&clrt_context_device, int (*)(const clrt_context *, clrt_device_info *));

/* queues */
PIN(&clrt_queue_create, int (*)(clrt_queue **, clrt_context *));
PIN(&clrt_queue_finish, int (*)(clrt_queue *));
PIN(&clrt_queue_destroy, void (*)(clrt_queue *));

/* buffers */
_Static_assert(CLRT_FLOAT32 == 1 && CLRT_FLOAT64 == 2, "dtype values");
PIN(&clrt_buffer_create, int (*)(clrt_buffer **, clrt_context *, clrt_dtype, size_t, size_t));
PIN(&clrt_buffer_destroy, void (*)(clrt_buffer *));
PIN(&clrt_buffer_rows, size_t (*)(const clrt_buffer *));
PIN(&clrt_buffer_cols, size_t (*)(const clrt_buffer *));
PIN(&clrt_buffer_dtype, clrt_dtype (*)(const clrt_buffer *));
PIN(&clrt_buffer_write, int (*)(clrt_queue *, clrt_buffer *, const void *, size_t));
PIN(&clrt_buffer_read, int (*)(clrt_queue *, const clrt_buffer *, void *, size_t));

/* math */
PIN(&clrt_add, int (*)(clrt_queue *, clrt_buffer *, const clrt_buffer *, const clrt_buffer *));
PIN(&clrt_matmul, int (*)(clrt_queue *, clrt_buffer *, const clrt_buffer *, const clrt_buffer *));

/* builds: the log */
PIN(&clrt_set_log, void (*)(clrt_log_fn, void *));
_Static_assert(CLRT_BUILD_COMPILED == 1 && CLRT_BUILD_CACHED == 2 && CLRT_BUILD_DRIVER_CACHED == 3, "build sources");
#define EVENT(field) (((clrt_build_event *)0)->field)
PIN(EVENT(kernel), const char *);
PIN(EVENT(dtype), const char *);
PIN(EVENT(variant), const char *);
PIN(EVENT(device), const char *);
PIN(EVENT(cache_dir), const char *);
PIN(EVENT(seconds), double);
PIN(EVENT(source), clrt_build_source);
PIN(EVENT(uncached), const char *);

static void status_codes_distinct(void **state)
{
    (void)state;
    const int codes[] = {CLRT_OK,     CLRT_EINVAL,       CLRT_ESHAPE,  CLRT_ENODEVICE, CLRT_ENOMEM,
                         CLRT_EBUILD, CLRT_EUNSUPPORTED, CLRT_EDEVICE, CLRT_EOPENCL};
    for (int i = 0; i < (int)(sizeof codes / sizeof codes[0]); i++)
        assert_int_equal(code_index(codes[i]), i);
    assert_int_equal(code_index(1), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(status_codes_distinct),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
