/* OpenCL failures the library cannot provoke on a healthy driver, injected
 * through the clrt__fault seam (src/base/debug.h): each one must give its named
 * status, a message naming the OpenCL call and code, nothing leaked, and
 * after a late device error (finish, read, write, a lost queue) a context that
 * refuses every later call with CLRT_EDEVICE instead of crashing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fault_sweep.h"
#include "common/test_util.h"

#include "base/debug.h"
#include "base/error.h"
#include "kernels/table.h"
#include "runtime/handles.h"

/* A fault kind: the OpenCL call site, the code it returns, and the status the
 * caller must get. late: the context must be marked failed afterwards. */
typedef struct fault_kind {
    int site;
    cl_int code;
    int expect;
    int late;
} fault_kind;

/* Reported at the end: the distinct (call, code) pairs injected and checked. */
enum { MAX_KINDS = 128 };
static fault_kind seen[MAX_KINDS];
static unsigned kinds_checked;

static void count_kind(int site, cl_int code)
{
    for (unsigned i = 0; i < kinds_checked; i++)
        if (seen[i].site == site && seen[i].code == code)
            return;
    if (kinds_checked < MAX_KINDS)
        seen[kinds_checked++] = (fault_kind){site, code, 0, 0};
}

static int setup(void **state)
{
    (void)state;
    /* Builds must reach clCreateProgramWithSource/clBuildProgram, not the
     * disk cache, so that their fault sites are hit on every driver. */
    setenv("CLRT_CACHE", "off", 1);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    print_message("fault kinds checked: %u distinct (OpenCL call, error code) pairs\n", kinds_checked);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    clrt__debug_fault_clear();
    tu_assert_no_live_handles();
    return 0;
}

/* The message after an injected failure names the OpenCL call and the code. */
static void expect_cl_message(const fault_kind *f)
{
    const char *msg = clrt_error_message();
    if (!strstr(msg, tu_fault_site_call(f->site)) || !strstr(msg, clrt__cl_error_name(f->code)))
        fail_msg("fault %s -> %s: message \"%s\" does not name the call and the code", tu_fault_site_call(f->site),
                 clrt__cl_error_name(f->code), msg);
}

static void expect_status(int got, const fault_kind *f)
{
    if (got != f->expect)
        fail_msg("%s failing with %s gave %s, expected %s: %s", tu_fault_site_call(f->site),
                 clrt__cl_error_name(f->code), clrt_status_name(got), clrt_status_name(f->expect),
                 clrt_error_message());
    count_kind(f->site, f->code);
}

/* A matmul variant every driver runs (no local memory, 1x1 groups): this
 * suite is about error paths, not kernel tuning. */
static const char plain[] = "use_local=0 tm=1 tn=1 tk=1 wgx=1 wgy=1 vw=1 pack=0 tkp=0";
static const char *matmul_params = plain;

/* A context on the default device whose matmul runs with matmul_params. */
static int open_context(clrt_context **ctx)
{
    int s = clrt_context_create(ctx, NULL);
    if (s == CLRT_OK)
        s = clrt_tune_override(*ctx, "matmul", CLRT_FLOAT32, matmul_params);
    return s;
}

/* ---- a small workload with its own context, that cleans up after itself */

typedef struct rig {
    clrt_context *ctx;
    clrt_queue *q, *q2;
    clrt_buffer *a, *b, *c, *m;
    float ha[6], hb[6], hc[6], hm[9];
} rig;

static void rig_open(rig *r)
{
    memset(r, 0, sizeof *r);
    TU_OK(open_context(&r->ctx));
    TU_OK(clrt_queue_create(&r->q, r->ctx));
    TU_OK(clrt_queue_create(&r->q2, r->ctx));
    TU_OK(clrt_buffer_create(&r->a, r->ctx, CLRT_FLOAT32, 2, 3));
    TU_OK(clrt_buffer_create(&r->b, r->ctx, CLRT_FLOAT32, 2, 3));
    TU_OK(clrt_buffer_create(&r->c, r->ctx, CLRT_FLOAT32, 2, 3));
    TU_OK(clrt_buffer_create(&r->m, r->ctx, CLRT_FLOAT32, 3, 3));
    for (int i = 0; i < 6; i++) {
        r->ha[i] = (float)i;
        r->hb[i] = 10.0f * (float)i;
    }
    TU_OK(clrt_buffer_write(r->q, r->a, r->ha, 6));
    TU_OK(clrt_buffer_write(r->q, r->b, r->hb, 6));
    /* m is the 3x3 identity, so that a m == a exactly and matmul can be checked */
    for (int i = 0; i < 9; i++)
        r->hm[i] = i % 4 == 0 ? 1.0f : 0.0f;
    TU_OK(clrt_buffer_write(r->q, r->m, r->hm, 9));
}

/* c = a + b, read back and checked: the rig still works. */
static void rig_add_ok(rig *r)
{
    TU_OK(clrt_add(r->q, r->c, r->a, r->b));
    memset(r->hc, 0, sizeof r->hc);
    TU_OK(clrt_buffer_read(r->q, r->c, r->hc, 6));
    for (int i = 0; i < 6; i++)
        assert_true(r->hc[i] == r->ha[i] + r->hb[i]);
}

static void rig_close(rig *r)
{
    TU_DESTROY_BUFFERS(r->a, r->b, r->c, r->m);
    clrt_queue_destroy(r->q);
    clrt_queue_destroy(r->q2);
    clrt_context_destroy(r->ctx);
}

/* add (op 0) or matmul (op 1) with kind's fault armed for the first call at
 * its site: the status and the message it names. */
static void rig_op_fails(rig *r, int op, const fault_kind *kind)
{
    /* a failed build is retried with a smaller group: every build fails */
    if (kind->site == CLRT__FAULT_BUILD)
        clrt__debug_fault_arm_every(kind->site, kind->code);
    else
        clrt__debug_fault_arm(kind->site, 1, kind->code);
    int status = op == 0 ? clrt_add(r->q, r->c, r->a, r->b) : clrt_matmul(r->q, r->c, r->a, r->m);
    clrt__debug_fault_clear();
    expect_status(status, kind);
    expect_cl_message(kind);
}

/* Both ops run and finish again, each checked against the host: c = a + b,
 * then c = a I = a (overwriting the sum, so a matmul that did nothing shows). */
static void rig_ops_ok(rig *r)
{
    rig_add_ok(r);
    TU_OK(clrt_matmul(r->q, r->c, r->a, r->m));
    TU_OK(clrt_queue_finish(r->q));
    memset(r->hc, 0, sizeof r->hc);
    TU_OK(clrt_buffer_read(r->q, r->c, r->hc, 6));
    for (int i = 0; i < 6; i++)
        if (r->hc[i] != r->ha[i])
            fail_msg("matmul by the identity: c[%d] = %g, expected %g", i, (double)r->hc[i], (double)r->ha[i]);
}

/* ---- discovery and context creation */

static void context_creation_faults(void **state)
{
    (void)state;
    static const fault_kind kinds[] = {
        {CLRT__FAULT_CREATE_CONTEXT, CL_OUT_OF_HOST_MEMORY, CLRT_ENOMEM, 0},
        {CLRT__FAULT_CREATE_CONTEXT, CL_OUT_OF_RESOURCES, CLRT_ENOMEM, 0},
        {CLRT__FAULT_CREATE_CONTEXT, CL_DEVICE_NOT_AVAILABLE, CLRT_EDEVICE, 0},
        {CLRT__FAULT_CREATE_CONTEXT, CL_INVALID_VALUE, CLRT_EDEVICE, 0},
        {CLRT__FAULT_PLATFORM_IDS, CL_OUT_OF_HOST_MEMORY, CLRT_ENOMEM, 0},
        {CLRT__FAULT_PLATFORM_IDS, CL_INVALID_VALUE, CLRT_EOPENCL, 0},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        clrt_context *ctx = (clrt_context *)0x1;
        clrt__debug_fault_arm(kinds[i].site, 1, kinds[i].code);
        expect_status(clrt_context_create(&ctx, NULL), &kinds[i]);
        expect_cl_message(&kinds[i]);
        assert_null(ctx);
        tu_assert_no_live_handles();
    }
    /* clrt_device_list reports a platform listing failure the same way */
    size_t n = 0;
    clrt__debug_fault_arm(CLRT__FAULT_PLATFORM_IDS, 1, CL_OUT_OF_HOST_MEMORY);
    TU_REFUSED(CLRT_ENOMEM, NULL, clrt_device_list(NULL, 0, &n));
}

/* A platform whose device query fails is skipped, like one without devices,
 * so that one broken driver does not hide the others. */
static void device_query_fault_skips_platform(void **state)
{
    (void)state;
    size_t before = 0, after = 0;
    TU_OK(clrt_device_list(NULL, 0, &before));
    cl_platform_id first;
    cl_uint first_devices = 0;
    assert_int_equal(clGetPlatformIDs(1, &first, NULL), CL_SUCCESS);
    if (clGetDeviceIDs(first, CL_DEVICE_TYPE_ALL, 0, NULL, &first_devices) != CL_SUCCESS)
        first_devices = 0;
    clrt__debug_fault_arm(CLRT__FAULT_DEVICE_IDS, 1, CL_DEVICE_NOT_AVAILABLE);
    TU_OK(clrt_device_list(NULL, 0, &after));
    assert_int_equal(after, before - first_devices);
    if (after == 0) {
        /* a driver is registered but reported nothing: not the install advice */
        clrt_context *ctx;
        clrt__debug_fault_arm(CLRT__FAULT_DEVICE_IDS, 1, CL_DEVICE_NOT_AVAILABLE);
        TU_REFUSED(CLRT_ENODEVICE, "but none reported a device", clrt_context_create(&ctx, NULL));
        if (strstr(clrt_error_message(), "apt-get install"))
            fail_msg("install advice while a driver is registered: %s", clrt_error_message());
    }
    count_kind(CLRT__FAULT_DEVICE_IDS, CL_DEVICE_NOT_AVAILABLE);
}

/* ---- creation of queues and buffers */

static void queue_creation_faults(void **state)
{
    (void)state;
    static const fault_kind kinds[] = {
        {CLRT__FAULT_CREATE_QUEUE, CL_OUT_OF_HOST_MEMORY, CLRT_ENOMEM, 0},
        {CLRT__FAULT_CREATE_QUEUE, CL_OUT_OF_RESOURCES, CLRT_ENOMEM, 0},
        {CLRT__FAULT_CREATE_QUEUE, CL_DEVICE_NOT_AVAILABLE, CLRT_EDEVICE, 0},
        {CLRT__FAULT_CREATE_QUEUE, CL_INVALID_DEVICE, CLRT_EOPENCL, 0},
    };
    clrt_context *ctx;
    TU_OK(clrt_context_create(&ctx, NULL));
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        clrt_queue *q = (clrt_queue *)0x1;
        clrt__debug_fault_arm(kinds[i].site, 1, kinds[i].code);
        expect_status(clrt_queue_create(&q, ctx), &kinds[i]);
        expect_cl_message(&kinds[i]);
        assert_null(q);
        assert_int_equal(clrt__debug_live(CLRT__LIVE_QUEUE), 0);
        /* not a late error: the context still works */
        TU_OK(clrt_queue_create(&q, ctx));
        TU_OK(clrt_queue_finish(q));
        clrt_queue_destroy(q);
    }
    clrt_context_destroy(ctx);
}

static void buffer_creation_faults(void **state)
{
    (void)state;
    static const fault_kind kinds[] = {
        {CLRT__FAULT_CREATE_BUFFER, CL_MEM_OBJECT_ALLOCATION_FAILURE, CLRT_ENOMEM, 0},
        {CLRT__FAULT_CREATE_BUFFER, CL_OUT_OF_RESOURCES, CLRT_ENOMEM, 0},
        {CLRT__FAULT_CREATE_BUFFER, CL_OUT_OF_HOST_MEMORY, CLRT_ENOMEM, 0},
        {CLRT__FAULT_CREATE_BUFFER, CL_INVALID_BUFFER_SIZE, CLRT_ENOMEM, 0},
    };
    clrt_context *ctx;
    TU_OK(clrt_context_create(&ctx, NULL));
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        /* the third of three fails: the first two stay, nothing else */
        clrt_buffer *b[3] = {NULL, NULL, (clrt_buffer *)0x1};
        clrt__debug_fault_arm(kinds[i].site, 3, kinds[i].code);
        TU_OK(clrt_buffer_create(&b[0], ctx, CLRT_FLOAT32, 4, 4));
        TU_OK(clrt_buffer_create(&b[1], ctx, CLRT_FLOAT32, 4, 4));
        expect_status(clrt_buffer_create(&b[2], ctx, CLRT_FLOAT32, 4, 4), &kinds[i]);
        expect_cl_message(&kinds[i]);
        assert_null(b[2]);
        assert_int_equal(clrt__debug_live(CLRT__LIVE_BUFFER), 2);
        clrt_buffer_destroy(b[0]);
        clrt_buffer_destroy(b[1]);
    }
    clrt_context_destroy(ctx);
}

/* ---- building kernels: each case on a fresh context (programs are cached) */

static void build_faults(void **state)
{
    (void)state;
    static const fault_kind kinds[] = {
        {CLRT__FAULT_CREATE_PROGRAM, CL_OUT_OF_HOST_MEMORY, CLRT_ENOMEM, 0},
        {CLRT__FAULT_BUILD, CL_BUILD_PROGRAM_FAILURE, CLRT_EBUILD, 0},
        {CLRT__FAULT_BUILD, CL_COMPILER_NOT_AVAILABLE, CLRT_EBUILD, 0},
        {CLRT__FAULT_BUILD, CL_INVALID_BUILD_OPTIONS, CLRT_EBUILD, 0},
        {CLRT__FAULT_BUILD, CL_OUT_OF_HOST_MEMORY, CLRT_ENOMEM, 0},
        {CLRT__FAULT_CREATE_KERNEL, CL_OUT_OF_HOST_MEMORY, CLRT_ENOMEM, 0},
        {CLRT__FAULT_CREATE_KERNEL, CL_OUT_OF_RESOURCES, CLRT_ENOMEM, 0},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        for (int op = 0; op < 2; op++) {
            rig r;
            rig_open(&r);
            rig_op_fails(&r, op, &kinds[i]);
            assert_int_equal(clrt__debug_live(CLRT__LIVE_KERNEL), 0);
            if (kinds[i].site != CLRT__FAULT_CREATE_KERNEL) /* a failed build keeps no program */
                assert_int_equal(clrt__debug_live(CLRT__LIVE_PROGRAM), 0);
            /* a failed build is not a device failure: the next call builds again */
            rig_ops_ok(&r);
            rig_close(&r);
        }
    }
}

/* A built-in kernel whose build fails (a GPU compiler that cannot fit the
 * group's registers or local memory refuses rather than spills) is built
 * again with half the group, correct; with tuned parameters it falls back to
 * the defaults instead (device_tuned). Before, the first failed build was
 * the call's CLRT_EBUILD. */
static void failed_build_retries_a_smaller_group(void **state)
{
    (void)state;
    static const struct {
        const char *kernel, *params, *group_param;
        unsigned want;
    } cases[] = {
        {"add", "wg=64", "wg", 32},
        /* tn = vw: the rig's 3 columns take this kernel, not the narrow variant's */
        {"matmul", "use_local=0 tm=2 tn=2 vw=2 wgx=2 wgy=4 pack=0", "wgy", 2},
        {"matmul", "use_local=1 tm=2 tn=2 tk=4 vw=2 wgx=4 wgy=4", "wgy", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rig r;
        rig_open(&r);
        TU_OK(clrt_tune_override(r.ctx, cases[i].kernel, CLRT_FLOAT32, cases[i].params));
        clrt__debug_fault_arm(CLRT__FAULT_BUILD, 1, CL_BUILD_PROGRAM_FAILURE);
        clrt__debug_fault_build_log("ptxas error: Entry function uses too much shared data (resources)");
        int is_add = strcmp(cases[i].kernel, "add") == 0;
        TU_OK(is_add ? clrt_add(r.q, r.c, r.a, r.b) : clrt_matmul(r.q, r.c, r.a, r.m));
        assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_BUILD), 2);
        char now[256];
        clrt_params_origin origin;
        TU_OK(clrt_tune_current(r.ctx, cases[i].kernel, CLRT_FLOAT32, now, sizeof now, &origin));
        assert_int_equal(origin, CLRT_PARAMS_OVERRIDE);
        if ((unsigned)tu_param(now, cases[i].group_param) != cases[i].want)
            fail_msg("%s: ran with '%s', expected %s=%u", cases[i].kernel, now, cases[i].group_param, cases[i].want);
        rig_ops_ok(&r); /* checked against the host */
        rig_close(&r);
    }
}

/* A build that fails for a reason that is not the work-group's size (an
 * empty log, as POCL gives when it cannot write its cache; a log that names
 * no resource) is reported at once with its log: no cascade of smaller
 * groups, each failing the same way. */
static void failed_build_for_another_reason_is_not_retried(void **state)
{
    (void)state;
    static const char *const logs[] = {NULL, "error: expected ';' after expression"};
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        rig r;
        rig_open(&r);
        TU_OK(clrt_tune_override(r.ctx, "add", CLRT_FLOAT32, "wg=64"));
        clrt__debug_fault_arm(CLRT__FAULT_BUILD, 1, CL_BUILD_PROGRAM_FAILURE);
        clrt__debug_fault_build_log(logs[i]);
        TU_REFUSED(CLRT_EBUILD, "kernel build failed", clrt_add(r.q, r.c, r.a, r.b));
        assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_BUILD), 1);
        if (logs[i] && !strstr(clrt_error_message(), logs[i]))
            fail_msg("the build log is not in the message: %s", clrt_error_message());
        clrt__debug_fault_clear();
        rig_close(&r);
    }
}

/* A kernel whose group size is no build option (the neural-network kernels'
 * wg) would build the same program again with half the group: a failure that
 * blames resources is reported at once, built once, not retried with the same
 * options until the group reaches 1. Then, the fault cleared, the same call
 * builds and runs. */
static void failed_build_with_the_group_no_option_is_not_retried(void **state)
{
    (void)state;
    rig r;
    rig_open(&r);
    TU_OK(clrt_tune_override(r.ctx, "nn_act", CLRT_FLOAT32, "wg=64")); /* relu_backward's kernel */
    clrt__debug_fault_arm(CLRT__FAULT_BUILD, 1, CL_BUILD_PROGRAM_FAILURE);
    clrt__debug_fault_build_log("ptxas error: Entry function uses too much shared data (resources)");
    TU_REFUSED(CLRT_EBUILD, "kernel build failed", clrt_nn_relu_backward(r.q, r.c, r.b, r.a));
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_BUILD), 1);
    clrt__debug_fault_clear();
    TU_OK(clrt_nn_relu_backward(r.q, r.c, r.b, r.a));
    float got[6];
    TU_OK(clrt_buffer_read(r.q, r.c, got, 6));
    for (int i = 0; i < 6; i++)
        assert_true(got[i] == (r.ha[i] > 0.0f ? r.hb[i] : 0.0f));
    rig_close(&r);
}

/* ---- launching: resource errors are reported, a lost device fails the context */

static void launch_faults(void **state)
{
    (void)state;
    static const fault_kind kinds[] = {
        {CLRT__FAULT_SET_ARG, CL_OUT_OF_RESOURCES, CLRT_ENOMEM, 0},
        {CLRT__FAULT_SET_ARG, CL_OUT_OF_HOST_MEMORY, CLRT_ENOMEM, 0},
        {CLRT__FAULT_SET_ARG, CL_INVALID_MEM_OBJECT, CLRT_EOPENCL, 0},
        {CLRT__FAULT_ENQUEUE_KERNEL, CL_OUT_OF_RESOURCES, CLRT_EOPENCL, 0}, /* a group too big, not memory */
        {CLRT__FAULT_ENQUEUE_KERNEL, CL_MEM_OBJECT_ALLOCATION_FAILURE, CLRT_ENOMEM, 0},
        {CLRT__FAULT_ENQUEUE_KERNEL, CL_INVALID_WORK_GROUP_SIZE, CLRT_EOPENCL, 0},
        {CLRT__FAULT_ENQUEUE_KERNEL, CL_DEVICE_NOT_AVAILABLE, CLRT_EDEVICE, 1},
        {CLRT__FAULT_ENQUEUE_KERNEL, CL_INVALID_COMMAND_QUEUE, CLRT_EDEVICE, 1},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        for (int op = 0; op < 2; op++) {
            rig r;
            rig_open(&r);
            rig_op_fails(&r, op, &kinds[i]);
            if (kinds[i].code == CL_OUT_OF_RESOURCES && kinds[i].site == CLRT__FAULT_ENQUEUE_KERNEL)
                assert_non_null(strstr(clrt_error_message(), "not device memory"));
            if (kinds[i].late) {
                TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_add(r.q, r.c, r.a, r.b));
            } else {
                /* the kernel's launch lock was released: the same kernel runs again */
                rig_ops_ok(&r);
            }
            rig_close(&r);
        }
    }
}

/* ---- late failures: the context is failed for good */

/* Every call that does work on the failed context says CLRT_EDEVICE and why. */
static void expect_context_failed(rig *r, const fault_kind *f)
{
    const char *code = clrt__cl_error_name(f->code);
    float host[9] = {0};
    clrt_queue *q = (clrt_queue *)0x1;
    clrt_buffer *b = (clrt_buffer *)0x1;
    TU_REFUSED(CLRT_EDEVICE, code, clrt_queue_create(&q, r->ctx));
    assert_null(q);
    TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_buffer_create(&b, r->ctx, CLRT_FLOAT32, 2, 2));
    assert_null(b);
    clrt_queue *queues[] = {r->q, r->q2};
    for (int i = 0; i < 2; i++) {
        TU_REFUSED(CLRT_EDEVICE, code, clrt_queue_finish(queues[i]));
        TU_REFUSED(CLRT_EDEVICE, code, clrt_buffer_write(queues[i], r->a, host, 6));
        TU_REFUSED(CLRT_EDEVICE, code, clrt_buffer_read(queues[i], r->a, host, 6));
        TU_REFUSED(CLRT_EDEVICE, code, clrt_add(queues[i], r->c, r->a, r->b));
        TU_REFUSED(CLRT_EDEVICE, code, clrt_matmul(queues[i], r->c, r->a, r->m));
    }
    /* what it runs on can still be asked */
    clrt_device_info info;
    TU_OK(clrt_context_device(r->ctx, &info));
}

static void late_faults_fail_the_context(void **state)
{
    (void)state;
    static const fault_kind kinds[] = {
        {CLRT__FAULT_FINISH, CL_OUT_OF_RESOURCES, CLRT_EDEVICE, 1},
        {CLRT__FAULT_FINISH, CL_INVALID_COMMAND_QUEUE, CLRT_EDEVICE, 1}, /* NVIDIA: a killed kernel */
        {CLRT__FAULT_FINISH, CL_DEVICE_NOT_AVAILABLE, CLRT_EDEVICE, 1},
        {CLRT__FAULT_FINISH, CL_MEM_OBJECT_ALLOCATION_FAILURE, CLRT_ENOMEM, 1},
        {CLRT__FAULT_READ, CL_OUT_OF_RESOURCES, CLRT_EDEVICE, 1},
        {CLRT__FAULT_READ, CL_INVALID_COMMAND_QUEUE, CLRT_EDEVICE, 1},
        {CLRT__FAULT_READ, CL_MEM_OBJECT_ALLOCATION_FAILURE, CLRT_ENOMEM, 1},
        {CLRT__FAULT_WRITE, CL_OUT_OF_RESOURCES, CLRT_EDEVICE, 1},
        {CLRT__FAULT_WRITE, CL_MEM_OBJECT_ALLOCATION_FAILURE, CLRT_ENOMEM, 1},
    };
    /* another context, opened first, must not be affected */
    rig bystander;
    rig_open(&bystander);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        rig r;
        rig_open(&r);
        TU_OK(clrt_add(r.q, r.c, r.a, r.b));
        clrt__debug_fault_arm(kinds[i].site, 1, kinds[i].code);
        int status;
        if (kinds[i].site == CLRT__FAULT_FINISH)
            status = clrt_queue_finish(r.q);
        else if (kinds[i].site == CLRT__FAULT_READ)
            status = clrt_buffer_read(r.q, r.c, r.hc, 6);
        else
            status = clrt_buffer_write(r.q, r.a, r.ha, 6);
        expect_status(status, &kinds[i]);
        expect_cl_message(&kinds[i]);
        assert_non_null(strstr(clrt_error_message(), "this context is now failed"));
        expect_context_failed(&r, &kinds[i]);
        rig_close(&r); /* a failed context is still destroyed cleanly */
        assert_int_equal(clrt__debug_live(CLRT__LIVE_CONTEXT), 1);
        assert_int_equal(clrt__debug_live(CLRT__LIVE_BUFFER), 4);
        rig_add_ok(&bystander);
    }
    rig_close(&bystander);
}

/* clrt.h: arguments are checked before the device's state. On a failed
 * context every entry point must still name the bad argument (CLRT_EINVAL or
 * CLRT_ESHAPE), not answer CLRT_EDEVICE; each call below has exactly one
 * thing wrong. (clrt_kernel_launch with unset arguments said CLRT_EDEVICE.) */
static void failed_context_reports_argument_errors_first(void **state)
{
    (void)state;
    rig r;
    rig_open(&r);
    clrt_program *prog, *no_prog = NULL;
    clrt_kernel *k, *no_k = NULL;
    TU_OK(clrt_program_create(&prog, r.ctx, "__kernel void k(__global float *x, int n) { if (n) x[0] = 1; }", ""));
    TU_OK(clrt_kernel_create(&k, prog, "k"));
    clrt_buffer *sq; /* 3x3, for a product that could run */
    TU_OK(clrt_buffer_create(&sq, r.ctx, CLRT_FLOAT32, 3, 3));
    clrt__debug_fault_arm(CLRT__FAULT_FINISH, 1, CL_OUT_OF_RESOURCES);
    TU_REFUSED(CLRT_EDEVICE, "now failed", clrt_queue_finish(r.q));

    const size_t g = 1;
    float host[9] = {0};
    TU_REFUSED(CLRT_EINVAL, "not set", clrt_kernel_launch(r.q, k, 1, &g, NULL));
    TU_REFUSED(CLRT_EINVAL, "not set", clrt_kernel_launch_rounded(r.q, k, 1, &g, NULL));
    TU_OK(clrt_kernel_set_buffer(k, 0, r.a));
    const int one = 1;
    TU_OK(clrt_kernel_set_scalar(k, 1, sizeof one, &one));
    TU_REFUSED(CLRT_EINVAL, "dims", clrt_kernel_launch(r.q, k, 0, &g, NULL));
    TU_REFUSED(CLRT_EINVAL, "global is NULL", clrt_kernel_launch(r.q, k, 1, NULL, NULL));
    TU_REFUSED(CLRT_EINVAL, "source is empty", clrt_program_create(&no_prog, r.ctx, "", ""));
    TU_REFUSED(CLRT_EINVAL, "kernel name", clrt_kernel_create(&no_k, prog, NULL));
    TU_REFUSED(CLRT_EINVAL, "out is NULL", clrt_queue_create(NULL, r.ctx));
    clrt_buffer *b = NULL;
    TU_REFUSED(CLRT_EINVAL, "dimension is zero", clrt_buffer_create(&b, r.ctx, CLRT_FLOAT32, 0, 2));
    TU_REFUSED(CLRT_EINVAL, "count", clrt_buffer_write(r.q, r.a, host, 5));
    TU_REFUSED(CLRT_EINVAL, "host pointer is NULL", clrt_buffer_read(r.q, r.a, NULL, 6));
    TU_REFUSED(CLRT_ESHAPE, "shapes differ", clrt_add(r.q, r.c, r.a, sq));
    TU_REFUSED(CLRT_ESHAPE, "", clrt_matmul(r.q, r.c, r.a, r.b));
    TU_REFUSED(CLRT_EINVAL, "in place", clrt_gemm(r.q, CLRT_NO_TRANS, CLRT_NO_TRANS, 1, sq, sq, 0, sq));
    TU_REFUSED(CLRT_EINVAL, "", clrt_buffer_view(&b, r.a, 1, 0, 2, 3));
    TU_REFUSED(CLRT_EINVAL, "", clrt_tune_override(r.ctx, "matmul", CLRT_FLOAT32, "tm=nonsense"));
    /* ... and calls with nothing wrong get the device's state */
    TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_add(r.q, r.c, r.a, r.b));
    TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_kernel_launch(r.q, k, 1, &g, NULL));
    clrt_kernel_destroy(k);
    clrt_program_destroy(prog);
    clrt_buffer_destroy(sq);
    rig_close(&r);
}

/* ---- a sweep: fail the nth call of every site in turn */

/* One user's session, stopping at the first failure; always cleans up.
 * Returns the first failing status, or CLRT_OK with results checked. */
static int session(void)
{
    clrt_context *ctx = NULL;
    clrt_queue *q = NULL;
    clrt_buffer *a = NULL, *b = NULL, *c = NULL, *m = NULL;
    float ha[12], hm[16], hc[12];
    for (int i = 0; i < 12; i++)
        ha[i] = (float)(i % 5) - 2.0f;
    for (int i = 0; i < 16; i++)
        hm[i] = (i % 5 == 0) ? 1.0f : 0.0f; /* the 4x4 identity */
    int s = open_context(&ctx);
    if (s == CLRT_OK)
        s = clrt_queue_create(&q, ctx);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&a, ctx, CLRT_FLOAT32, 3, 4);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&b, ctx, CLRT_FLOAT32, 3, 4);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&c, ctx, CLRT_FLOAT32, 3, 4);
    if (s == CLRT_OK)
        s = clrt_buffer_create(&m, ctx, CLRT_FLOAT32, 4, 4);
    if (s == CLRT_OK)
        s = clrt_buffer_write(q, a, ha, 12);
    if (s == CLRT_OK)
        s = clrt_buffer_write(q, m, hm, 16);
    if (s == CLRT_OK)
        s = clrt_matmul(q, b, a, m); /* b = a */
    if (s == CLRT_OK)
        s = clrt_add(q, c, a, b); /* c = 2a */
    if (s == CLRT_OK)
        s = clrt_queue_finish(q);
    if (s == CLRT_OK)
        s = clrt_buffer_read(q, c, hc, 12);
    if (s == CLRT_OK)
        for (int i = 0; i < 12; i++)
            assert_true(hc[i] == 2.0f * ha[i]);
    TU_DESTROY_BUFFERS(a, b, c, m);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    return s;
}

/* The clCreateBuffer call (nth) whose failure the session survives with its
 * results intact (0: none). */
static unsigned long survivable_buffer_call;

/* Every site of a plain session is reached: otherwise the sweep would not test it. */
static void every_site_reached(const unsigned long calls[CLRT__FAULT_SITES])
{
    for (int site = 0; site < CLRT__FAULT_SESSION_SITES; site++)
        if (calls[site] == 0)
            fail_msg("the session never reaches %s: the sweep would not test it", tu_fault_site_call(site));
}

/* What call nth of site failing must give: tu_fault_expected's status, but
 * for the two failures the session survives. */
static int sweep_expect(int site, unsigned long nth, int got)
{
    /* a machine with several platforms still finds a device elsewhere */
    if (site == CLRT__FAULT_DEVICE_IDS && got == CLRT_OK)
        return CLRT_OK;
    if (site == CLRT__FAULT_CREATE_BUFFER && nth == survivable_buffer_call)
        return CLRT_OK;
    return tu_fault_expected(site);
}

/* Fail the nth call of every site of a plain session in turn; ok_buffer_call:
 * the survivable clCreateBuffer call, as survivable_buffer_call. */
static void sweep(unsigned long ok_buffer_call)
{
    survivable_buffer_call = ok_buffer_call;
    tu_fault_sweep(session, 0, CLRT__FAULT_SESSION_SITES, every_site_reached, sweep_expect);
    for (int site = 0; site < CLRT__FAULT_SESSION_SITES; site++) /* every one reached, and swept */
        count_kind(site, CL_OUT_OF_RESOURCES);
}

static void fault_sweep(void **state)
{
    (void)state;
    sweep(0);
}

/* The same with B packed first (pack_b into the queue's scratch, then matmul):
 * its extra kernel, buffer and launches fail like the rest, except the
 * scratch's clCreateBuffer (the 5th, after the session's 4 buffers): then the
 * product runs on b in place, with the same result. */
static void fault_sweep_packed(void **state)
{
    (void)state;
    matmul_params = "use_local=0 tm=1 tn=1 tk=1 wgx=1 wgy=1 vw=1 pack=2 tkp=0 pack_kib=0";
    clrt__debug_fault_clear();
    TU_OK(session());
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_CREATE_BUFFER), 5);
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 3); /* pack_b, matmul, add */
    sweep(5);
    matmul_params = plain;
}

/* The same with A packed as well (pack_a into the same scratch, after B's
 * panels): a third kernel and a third launch before the product. */
static void fault_sweep_packed_a(void **state)
{
    (void)state;
    matmul_params = "use_local=0 tm=1 tn=1 tk=1 wgx=1 wgy=1 vw=1 pack=2 tkp=0 pack_kib=0 pack_a=2";
    clrt__debug_fault_clear();
    TU_OK(session());
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_CREATE_BUFFER), 5);
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_CREATE_KERNEL), 4); /* matmul, pack_b, pack_a, add */
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_ENQUEUE_KERNEL), 4); /* pack_b, pack_a, matmul, add */
    sweep(5);
    matmul_params = plain;
}

int main(void)
{
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(context_creation_faults, teardown),
        cmocka_unit_test_teardown(device_query_fault_skips_platform, teardown),
        cmocka_unit_test_teardown(queue_creation_faults, teardown),
        cmocka_unit_test_teardown(buffer_creation_faults, teardown),
        cmocka_unit_test_teardown(build_faults, teardown),
        cmocka_unit_test_teardown(failed_build_retries_a_smaller_group, teardown),
        cmocka_unit_test_teardown(failed_build_for_another_reason_is_not_retried, teardown),
        cmocka_unit_test_teardown(failed_build_with_the_group_no_option_is_not_retried, teardown),
        cmocka_unit_test_teardown(launch_faults, teardown),
        cmocka_unit_test_teardown(late_faults_fail_the_context, teardown),
        cmocka_unit_test_teardown(failed_context_reports_argument_errors_first, teardown),
        cmocka_unit_test_teardown(fault_sweep, teardown),
        cmocka_unit_test_teardown(fault_sweep_packed, teardown),
        cmocka_unit_test_teardown(fault_sweep_packed_a, teardown),
    };
    return cmocka_run_group_tests(tests, setup, group_teardown);
}
