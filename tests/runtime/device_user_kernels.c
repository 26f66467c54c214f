/* User kernels (clrt_program_*, clrt_kernel_*) and OpenCL interop
 * (clrt_cl.h) on a real device: results, every documented error, lifetimes,
 * injected OpenCL failures, threads. Every test ends with no live handle. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

#include <clrt/clrt_cl.h>

#include "base/debug.h"
#include "base/error.h"
#include "kernels/table.h"
#include "runtime/handles.h"

static const char source[] =
    "__kernel void saxpy(const uint n, const float a, __global const float *x, __global float *y)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        y[i] = a * x[i] + y[i];\n"
    "}\n"
    "__kernel void ids(const uint nx, const uint ny, const uint nz, __global float *out)\n"
    "{\n"
    "    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "    if (x < nx && y < ny && z < nz)\n"
    "        out[(z * ny + y) * nx + x] = (float)((z * ny + y) * nx + x);\n"
    "}\n"
    "__kernel void block_sum(__global const float *in, __global float *out, __local float *tmp)\n"
    "{\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    tmp[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t s = n / 2; s > 0; s /= 2) {\n"
    "        if (l < s)\n"
    "            tmp[l] += tmp[l + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0)\n"
    "        out[get_group_id(0)] = tmp[0];\n"
    "}\n"
    "__kernel void scalars(const char c, const short s, const int i, const long l, const float f,\n"
    "                      const float4 v, const uchar u, __global float *out)\n"
    "{\n"
    "    if (get_global_id(0) == 0) {\n"
    "        out[0] = c; out[1] = s; out[2] = i; out[3] = (float)l; out[4] = f;\n"
    "        out[5] = v.w; out[6] = u;\n"
    "    }\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(4, 1, 1))) void fixed(__global float *out)\n"
    "{\n"
    "    out[get_global_id(0)] = (float)get_local_size(0);\n"
    "}\n"
    "__kernel void noargs(void)\n"
    "{\n"
    "}\n";

/* The suite's context and queue (tu_fixture), and the program of `source`. */
typedef struct fixture {
    tu_fixture *tu;
    clrt_program *p;
} fixture;

static int setup(void **state)
{
    void *base = NULL;
    if (tu_fixture_setup(&base) != 0)
        return -1;
    fixture *f = calloc(1, sizeof *f);
    if (f) {
        f->tu = base;
        if (clrt_program_create(&f->p, f->tu->ctx, source, NULL) == CLRT_OK) {
            *state = f;
            return 0;
        }
    }
    fprintf(stderr, "setup: %s\n", f ? clrt_error_message() : "out of host memory");
    free(f);
    tu_fixture_teardown(&base); /* nothing left behind */
    return -1;
}

static int teardown(void **state)
{
    fixture *f = *state;
    void *base = f->tu;
    clrt__debug_fault_clear();
    clrt_program_destroy(f->p);
    free(f);
    return tu_fixture_teardown(&base); /* also asserts that no handle is live */
}

static int is_oclgrind(const fixture *f) { return strstr(f->tu->dev.platform, "Oclgrind") != NULL; }
/* Drivers known to describe kernel arguments (-cl-kernel-arg-info), also for
 * programs loaded from clrt's disk cache. */
static int describes_args(const fixture *f)
{
    return strstr(f->tu->dev.platform, "Portable Computing Language") || strstr(f->tu->dev.platform, "Oclgrind") ||
           strstr(f->tu->dev.platform, "rusticl");
}

static clrt_kernel *kernel(fixture *f, const char *name)
{
    clrt_kernel *k = NULL;
    TU_OK(clrt_kernel_create(&k, f->p, name));
    assert_non_null(k);
    return k;
}

static clrt_buffer *vector(fixture *f, size_t n, const float *init)
{
    clrt_buffer *b = NULL;
    TU_OK(clrt_buffer_create(&b, f->tu->ctx, CLRT_FLOAT32, 1, n));
    if (init)
        TU_OK(clrt_buffer_write(f->tu->q, b, init, n));
    return b;
}

/* The largest power of two <= min(limit, the kernel's work-group size). */
static size_t pow2_local(const clrt_kernel *k, size_t limit)
{
    size_t wg = clrt_kernel_work_group_size(k), l = 1;
    while (l * 2 <= wg && l * 2 <= limit)
        l *= 2;
    return l;
}

/* Set saxpy's four arguments. */
static void set_saxpy(clrt_kernel *k, cl_uint n, float a, clrt_buffer *x, clrt_buffer *y)
{
    TU_OK(clrt_kernel_set_scalar(k, 0, sizeof n, &n));
    TU_OK(clrt_kernel_set_scalar(k, 1, sizeof a, &a));
    TU_OK(clrt_kernel_set_buffer(k, 2, x));
    TU_OK(clrt_kernel_set_buffer(k, 3, y));
}

/* y = a x + y at sizes that are not multiples of the work-group, with the
 * values exact in float so that the check can be exact. */
static void saxpy_results(void **state)
{
    fixture *f = *state;
    clrt_kernel *k = kernel(f, "saxpy");
    assert_int_equal(clrt_kernel_num_args(k), 4);
    assert_true(clrt_kernel_work_group_size(k) >= 1);
    const size_t sizes[] = {1, 7, 37, 1000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        if (tu_small() && n > 64)
            continue;
        float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
        assert_non_null(x);
        assert_non_null(y);
        for (size_t i = 0; i < n; i++) {
            x[i] = (float)i;
            y[i] = 1.0f;
        }
        clrt_buffer *bx = vector(f, n, x), *by = vector(f, n, y);
        set_saxpy(k, (cl_uint)n, 2.0f, bx, by);
        size_t global = n, local = pow2_local(k, 16);
        TU_OK(clrt_kernel_launch_rounded(f->tu->q, k, 1, &global, &local)); /* y = 2x + 1 */
        TU_OK(clrt_kernel_launch_rounded(f->tu->q, k, 1, &global, NULL));   /* clrt picks: 4x + 1 */
        TU_OK(clrt_kernel_launch(f->tu->q, k, 1, &global, NULL));           /* the driver picks: 6x + 1 */
        TU_OK(clrt_buffer_read(f->tu->q, by, y, n));
        for (size_t i = 0; i < n; i++)
            if (y[i] != 6.0f * (float)i + 1.0f)
                fail_msg("n = %zu: y[%zu] = %g, expected %g", n, i, (double)y[i], 6.0 * (double)i + 1.0);
        clrt_buffer_destroy(bx);
        clrt_buffer_destroy(by);
        free(x);
        free(y);
    }
    clrt_kernel_destroy(k);
}

/* Each work-item of a 1-, 2- and 3-D range writes its linear id. */
static void ids_over_dims(void **state)
{
    fixture *f = *state;
    clrt_kernel *k = kernel(f, "ids");
    static const size_t shapes[][3] = {{13, 1, 1}, {8, 4, 1}, {5, 3, 2}, {4, 4, 4}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const size_t *g = shapes[s];
        unsigned dims = g[2] > 1 ? 3 : g[1] > 1 ? 2 : 1;
        size_t n = g[0] * g[1] * g[2];
        cl_uint nx = (cl_uint)g[0], ny = (cl_uint)g[1], nz = (cl_uint)g[2];
        clrt_buffer *out = vector(f, n, NULL);
        TU_OK(clrt_kernel_set_scalar(k, 0, sizeof nx, &nx));
        TU_OK(clrt_kernel_set_scalar(k, 1, sizeof ny, &ny));
        TU_OK(clrt_kernel_set_scalar(k, 2, sizeof nz, &nz));
        TU_OK(clrt_kernel_set_buffer(k, 3, out));
        for (int pass = 0; pass < 3; pass++) {
            float *zero = calloc(n, sizeof *zero), *host = malloc(n * sizeof *host);
            assert_non_null(zero);
            assert_non_null(host);
            TU_OK(clrt_buffer_write(f->tu->q, out, zero, n));
            size_t local[3] = {2, 2, 2};
            if (pass == 0) {
                TU_OK(clrt_kernel_launch(f->tu->q, k, dims, g, NULL));
            } else if (pass == 1) {
                TU_OK(clrt_kernel_launch_rounded(f->tu->q, k, dims, g, local)); /* 2 x 2 x 2 <= every limit */
            } else {
                size_t divisor[3] = {1, 1, 1};
                for (unsigned d = 0; d < dims; d++)
                    divisor[d] = g[d] % 2 == 0 ? 2 : 1;
                TU_OK(clrt_kernel_launch(f->tu->q, k, dims, g, divisor));
            }
            TU_OK(clrt_buffer_read(f->tu->q, out, host, n));
            for (size_t i = 0; i < n; i++)
                if (host[i] != (float)i)
                    fail_msg("%zux%zux%zu pass %d: out[%zu] = %g", g[0], g[1], g[2], pass, i, (double)host[i]);
            free(zero);
            free(host);
        }
        clrt_buffer_destroy(out);
    }
    clrt_kernel_destroy(k);
}

/* A __local argument: per-group sums at every power-of-two group size. */
static void local_memory_reduction(void **state)
{
    fixture *f = *state;
    clrt_kernel *k = kernel(f, "block_sum");
    size_t groups = 3;
    for (size_t local = 1; local <= pow2_local(k, tu_small() ? 16 : 256); local *= 2) {
        size_t n = groups * local;
        float *in = malloc(n * sizeof *in), out[3];
        assert_non_null(in);
        for (size_t i = 0; i < n; i++)
            in[i] = (float)(i % 7);
        clrt_buffer *bin = vector(f, n, in), *bout = vector(f, groups, NULL);
        TU_OK(clrt_kernel_set_buffer(k, 0, bin));
        TU_OK(clrt_kernel_set_buffer(k, 1, bout));
        TU_OK(clrt_kernel_set_local(k, 2, local * sizeof(float)));
        TU_OK(clrt_kernel_launch(f->tu->q, k, 1, &n, &local));
        TU_OK(clrt_buffer_read(f->tu->q, bout, out, groups));
        for (size_t g = 0; g < groups; g++) {
            float want = 0;
            for (size_t i = g * local; i < (g + 1) * local; i++)
                want += in[i];
            if (out[g] != want)
                fail_msg("local %zu: group %zu sums to %g, expected %g", local, g, (double)out[g], (double)want);
        }
        clrt_buffer_destroy(bin);
        clrt_buffer_destroy(bout);
        free(in);
    }
    clrt_kernel_destroy(k);
}

/* Scalars of every size reach the kernel intact. */
static void scalar_types(void **state)
{
    fixture *f = *state;
    clrt_kernel *k = kernel(f, "scalars");
    cl_char c = -5;
    cl_short s = -300;
    cl_int i = 70000;
    cl_long l = 1LL << 40;
    cl_float fl = 0.25f;
    cl_float4 v = {{1, 2, 3, 4}};
    cl_uchar u = 200;
    clrt_buffer *out = vector(f, 7, NULL);
    TU_OK(clrt_kernel_set_scalar(k, 0, sizeof c, &c));
    TU_OK(clrt_kernel_set_scalar(k, 1, sizeof s, &s));
    TU_OK(clrt_kernel_set_scalar(k, 2, sizeof i, &i));
    TU_OK(clrt_kernel_set_scalar(k, 3, sizeof l, &l));
    TU_OK(clrt_kernel_set_scalar(k, 4, sizeof fl, &fl));
    TU_OK(clrt_kernel_set_scalar(k, 5, sizeof v, &v));
    TU_OK(clrt_kernel_set_scalar(k, 6, sizeof u, &u));
    TU_OK(clrt_kernel_set_buffer(k, 7, out));
    size_t one = 1;
    TU_OK(clrt_kernel_launch(f->tu->q, k, 1, &one, NULL));
    float host[7];
    TU_OK(clrt_buffer_read(f->tu->q, out, host, 7));
    /* (v.w alone: Oclgrind 21.10's uninitialised-value check crashes on a
     * sum of a float4's components) */
    const float want[7] = {-5, -300, 70000, (float)(1LL << 40), 0.25f, 4, 200};
    for (int j = 0; j < 7; j++)
        if (host[j] != want[j])
            fail_msg("out[%d] = %g, expected %g", j, (double)host[j], (double)want[j]);
    clrt_buffer_destroy(out);
    clrt_kernel_destroy(k);
}

/* A kernel with reqd_work_group_size: NULL local uses it; another is refused. */
static void required_work_group_size(void **state)
{
    fixture *f = *state;
    clrt_kernel *k = kernel(f, "fixed");
    clrt_buffer *out = vector(f, 8, NULL);
    TU_OK(clrt_kernel_set_buffer(k, 0, out));
    size_t global = 8, four = 4, two = 2, six = 6;
    static const float zero[8];
    float host[8];
    /* each launch on a zeroed buffer, read back on its own: NULL local (the
     * attribute's 4), 4 given, and a 2-D range with NULL local (4 x 1) */
    TU_OK(clrt_buffer_write(f->tu->q, out, zero, 8));
    TU_OK(clrt_kernel_launch(f->tu->q, k, 1, &global, NULL));
    TU_OK(clrt_buffer_read(f->tu->q, out, host, 8));
    for (int i = 0; i < 8; i++)
        if (host[i] != 4.0f)
            fail_msg("local NULL: out[%d] = %g, expected 4", i, (double)host[i]);
    TU_OK(clrt_buffer_write(f->tu->q, out, zero, 8));
    TU_OK(clrt_kernel_launch(f->tu->q, k, 1, &global, &four));
    TU_OK(clrt_buffer_read(f->tu->q, out, host, 8));
    for (int i = 0; i < 8; i++)
        assert_true(host[i] == 4.0f);
    TU_REFUSED(CLRT_EINVAL, "reqd_work_group_size", clrt_kernel_launch(f->tu->q, k, 1, &global, &two));
    TU_REFUSED(CLRT_EINVAL, "not a multiple", clrt_kernel_launch(f->tu->q, k, 1, &six, NULL));
    size_t g2[2] = {8, 2}, l2[2] = {4, 2};
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_launch(f->tu->q, k, 2, g2, l2));
    TU_OK(clrt_buffer_write(f->tu->q, out, zero, 8));
    TU_OK(clrt_kernel_launch(f->tu->q, k, 2, g2, NULL)); /* 4 x 1 */
    TU_OK(clrt_buffer_read(f->tu->q, out, host, 8));
    for (int i = 0; i < 8; i++)
        if (host[i] != 4.0f)
            fail_msg("2-D, local NULL: out[%d] = %g, expected 4", i, (double)host[i]);
    clrt_kernel_destroy(k);
    clrt_buffer_destroy(out);
    /* a kernel without arguments */
    k = kernel(f, "noargs");
    assert_int_equal(clrt_kernel_num_args(k), 0);
    TU_OK(clrt_kernel_launch(f->tu->q, k, 1, &global, NULL));
    TU_OK(clrt_queue_finish(f->tu->q));
    clrt_kernel_destroy(k);
}

/* Same source and options: one build, one cl_program; the compiled program
 * stays cached after its handles are gone. */
static void program_cache(void **state)
{
    fixture *f = *state;
    clrt_program *p2 = NULL, *p3 = NULL, *p4 = NULL;
    long programs = clrt__debug_live(CLRT__LIVE_PROGRAM);
    clrt__debug_fault_clear();
    TU_OK(clrt_program_create(&p2, f->tu->ctx, source, NULL));
    TU_OK(clrt_program_create(&p3, f->tu->ctx, source, "")); /* NULL and "" are the same options */
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_CREATE_PROGRAM), 0);
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_BUILD), 0);
    assert_ptr_equal(clrt_program_cl(p2), clrt_program_cl(f->p));
    assert_ptr_equal(clrt_program_cl(p3), clrt_program_cl(f->p));
    assert_int_equal(clrt__debug_live(CLRT__LIVE_PROGRAM), programs + 2); /* two more handles */
    /* other options: another program */
    TU_OK(clrt_program_create(&p4, f->tu->ctx, source, "-DUNUSED=1"));
    assert_ptr_not_equal(clrt_program_cl(p4), clrt_program_cl(f->p));
    assert_int_equal(clrt__debug_live(CLRT__LIVE_PROGRAM), programs + 4); /* + handle + cached program */
    clrt_program_destroy(p2);
    clrt_program_destroy(p3);
    clrt_program_destroy(p4);
    /* gone as handles, kept in the cache */
    assert_int_equal(clrt__debug_live(CLRT__LIVE_PROGRAM), programs + 1);
    clrt__debug_fault_clear();
    TU_OK(clrt_program_create(&p4, f->tu->ctx, source, "-DUNUSED=1"));
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_BUILD), 0);
    clrt_program_destroy(p4);
    /* the user's -cl-kernel-arg-info is not added twice (a source whose
     * kernels all take arguments: one without fails NVIDIA's compiler then) */
    static const char with_args[] = "__kernel void twice(__global float *x) { x[get_global_id(0)] *= 2.0f; }\n";
    TU_OK(clrt_program_create(&p4, f->tu->ctx, with_args, "-cl-kernel-arg-info"));
    TU_OK(clrt_program_create(&p3, f->tu->ctx, with_args, NULL));
    assert_ptr_equal(clrt_program_cl(p4), clrt_program_cl(p3));
    clrt_program_destroy(p3);
    clrt_program_destroy(p4);
}

/* A build that fails only with the argument-info option clrt adds (NVIDIA's
 * compiler, for a program holding a kernel without arguments) is built again
 * with the caller's options: the program works, and a value of the wrong
 * size is still refused. Injected here, so that every driver runs the path. */
static void arg_info_build_failure_falls_back(void **state)
{
    fixture *f = *state;
    clrt_program *p = NULL;
    clrt__debug_fault_clear();
    clrt__debug_fault_arm(CLRT__FAULT_BUILD, 1, CL_BUILD_PROGRAM_FAILURE);
    /* without the second build this is the injected CLRT_EBUILD (how many
     * clBuildProgram calls it takes depends on clrt's disk cache: a binary
     * found there is not built from source) */
    TU_OK(clrt_program_create(&p, f->tu->ctx, source, "-DFALLBACK=1"));
    assert_true(clrt__debug_fault_calls(CLRT__FAULT_BUILD) >= 1);
    clrt__debug_fault_clear();
    clrt_kernel *k = NULL;
    TU_OK(clrt_kernel_create(&k, p, "saxpy"));
    const float x[5] = {1, 2, 3, 4, 5};
    float y[5] = {10, 20, 30, 40, 50};
    clrt_buffer *bx = vector(f, 5, x), *by = vector(f, 5, y);
    double wrong = 1.0;
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_set_scalar(k, 1, sizeof wrong, &wrong));
    set_saxpy(k, 5, 3.0f, bx, by);
    size_t global = 5;
    TU_OK(clrt_kernel_launch(f->tu->q, k, 1, &global, NULL));
    TU_OK(clrt_buffer_read(f->tu->q, by, y, 5));
    for (int i = 0; i < 5; i++)
        if (y[i] != 3.0f * x[i] + 10.0f * (float)(i + 1))
            fail_msg("y[%d] = %g, expected %g", i, (double)y[i], 3.0 * x[i] + 10.0 * (i + 1));
    clrt_buffer_destroy(bx);
    clrt_buffer_destroy(by);
    clrt_kernel_destroy(k);
    clrt_program_destroy(p);
}

static void program_errors(void **state)
{
    fixture *f = *state;
    clrt_program *p = (clrt_program *)0x1;
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_program_create(NULL, f->tu->ctx, source, NULL));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_program_create(&p, NULL, source, NULL));
    assert_null(p);
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_program_create(&p, (clrt_context *)f->tu->q, source, NULL)); /* foreign */
    TU_REFUSED(CLRT_EINVAL, "source is NULL", clrt_program_create(&p, f->tu->ctx, NULL, NULL));
    TU_REFUSED(CLRT_EINVAL, "empty", clrt_program_create(&p, f->tu->ctx, "", NULL));
    assert_null(p);

    /* a compile error: CLRT_EBUILD with the whole build log */
    TU_REFUSED(CLRT_EBUILD, NULL, clrt_program_create(&p, f->tu->ctx,
                                               "__kernel void k(__global float *x) { x[0] = not_declared_here; }",
                                               NULL));
    assert_null(p);
    assert_non_null(strstr(clrt_error_message(), "clrt_program_create"));
    assert_non_null(strstr(clrt_error_message(), "Build log"));
    assert_non_null(strstr(clrt_error_message(), "not_declared_here"));
    /* the build options are in the message too */
    TU_REFUSED(CLRT_EBUILD, "-DBROKEN=+",
               clrt_program_create(&p, f->tu->ctx, "__kernel void k(void) { int x = BROKEN; }", "-DBROKEN=+"));
    /* options the compiler rejects: CLRT_EBUILD too, naming the option */
    p = (clrt_program *)0x1;
    TU_REFUSED(CLRT_EBUILD, "-cl-no-such-option", clrt_program_create(&p, f->tu->ctx, source, "-cl-no-such-option"));
    assert_null(p);

    /* injected OpenCL failures leave nothing behind */
    long before = clrt__debug_live_total();
    clrt__debug_fault_arm(CLRT__FAULT_CREATE_PROGRAM, 1, CL_OUT_OF_HOST_MEMORY);
    TU_REFUSED(CLRT_ENOMEM, NULL, clrt_program_create(&p, f->tu->ctx, source, "-DFAULT=1"));
    assert_null(p);
    clrt__debug_fault_arm_every(CLRT__FAULT_BUILD, CL_BUILD_PROGRAM_FAILURE);
    TU_REFUSED(CLRT_EBUILD, NULL, clrt_program_create(&p, f->tu->ctx, source, "-DFAULT=2"));
    assert_null(p);
    assert_int_equal(clrt__debug_fault_calls(CLRT__FAULT_BUILD), 2); /* with arg info, then without */
    clrt__debug_fault_clear();
    assert_int_equal(clrt__debug_live_total(), before);

    /* a context the caller destroyed takes no new programs */
    clrt_context *c;
    clrt_buffer *keep;
    c = tu_context_on(&f->tu->dev);
    TU_OK(clrt_buffer_create(&keep, c, CLRT_FLOAT32, 1, 1));
    clrt_context_destroy(c); /* reported: the buffer is still live */
    TU_REFUSED(CLRT_EINVAL, "destroyed", clrt_program_create(&p, c, source, NULL));
    clrt_buffer_destroy(keep);
}

static void program_destroy_rules(void **state)
{
    fixture *f = *state;
    clrt_program_destroy(NULL); /* no-op */
    clrt_program *p;
    clrt_kernel *k, *k2 = (clrt_kernel *)0x1;
    TU_OK(clrt_program_create(&p, f->tu->ctx, source, NULL));
    TU_OK(clrt_kernel_create(&k, p, "saxpy"));
    clrt_program_destroy(p); /* the kernel keeps it alive, but it is given up */
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_create(&k2, p, "saxpy"));
    assert_null(k2);
    assert_non_null(strstr(clrt_error_message(), "destroyed"));
    assert_null(clrt_program_cl(p));
    clrt_program_destroy(p); /* twice: reported, ignored */
    assert_non_null(strstr(clrt_error_message(), "twice"));
    clrt_kernel_destroy(k); /* the program goes with it */
    clrt_program_destroy((clrt_program *)f->tu->q); /* not a program: reported, ignored */
    assert_non_null(strstr(clrt_error_message(), "not a live clrt program"));
    clrt_kernel_destroy(NULL); /* no-op */
    clrt_kernel_destroy((clrt_kernel *)f->tu->q);
    assert_non_null(strstr(clrt_error_message(), "not a live clrt kernel"));
}

/* A kernel outlives its program, and a program its context: everything goes
 * when the last user does. */
static void lifetimes(void **state)
{
    fixture *f = *state;
    clrt_context *c;
    clrt_queue *q;
    clrt_program *p;
    clrt_kernel *k;
    clrt_buffer *bx, *by;
    float x[5] = {1, 2, 3, 4, 5}, y[5] = {1, 1, 1, 1, 1}, r[5];
    c = tu_context_on(&f->tu->dev);
    TU_OK(clrt_queue_create(&q, c));
    TU_OK(clrt_program_create(&p, c, source, NULL));
    TU_OK(clrt_kernel_create(&k, p, "saxpy"));
    TU_OK(clrt_buffer_create(&bx, c, CLRT_FLOAT32, 1, 5));
    TU_OK(clrt_buffer_create(&by, c, CLRT_FLOAT32, 1, 5));
    TU_OK(clrt_buffer_write(q, bx, x, 5));
    TU_OK(clrt_buffer_write(q, by, y, 5));
    clrt_program_destroy(p);
    clrt_context_destroy(c); /* reported: its queue, buffers and program live on */
    assert_non_null(strstr(clrt_error_message(), "still live"));
    assert_int_equal(clrt__debug_live(CLRT__LIVE_CONTEXT), 2);

    /* the kernel still works */
    set_saxpy(k, 5, 3.0f, bx, by);
    size_t n = 5;
    TU_OK(clrt_kernel_launch(q, k, 1, &n, NULL));
    /* a buffer destroyed while set as an argument stays alive for the kernel */
    clrt_buffer_destroy(bx);
    TU_OK(clrt_kernel_launch(q, k, 1, &n, NULL));
    TU_OK(clrt_buffer_read(q, by, r, 5));
    for (int i = 0; i < 5; i++)
        assert_true(r[i] == 6.0f * x[i] + 1.0f);
    clrt_buffer_destroy(by);
    clrt_queue_destroy(q);
    assert_int_equal(clrt__debug_live(CLRT__LIVE_CONTEXT), 2);
    clrt_kernel_destroy(k); /* the last user of program and context */
    assert_int_equal(clrt__debug_live(CLRT__LIVE_CONTEXT), 1);

    /* replacing an argument releases the old buffer; destroying the kernel the rest */
    k = kernel(f, "saxpy");
    bx = vector(f, 5, x);
    by = vector(f, 5, y);
    set_saxpy(k, 5, 1.0f, bx, by);
    clrt_buffer *bz = vector(f, 5, y);
    TU_OK(clrt_kernel_set_buffer(k, 2, bz));
    TU_OK(clrt_kernel_set_buffer(k, 2, bz)); /* the same again */
    float two = 2.0f;
    TU_OK(clrt_kernel_set_scalar(k, 1, sizeof two, &two));
    clrt_buffer_destroy(bx);
    clrt_buffer_destroy(bz);
    TU_OK(clrt_kernel_launch(f->tu->q, k, 1, &n, NULL)); /* y = 2 * 1 + 1 */
    TU_OK(clrt_buffer_read(f->tu->q, by, r, 5));
    for (int i = 0; i < 5; i++)
        assert_true(r[i] == 3.0f);
    clrt_buffer_destroy(by);
    clrt_kernel_destroy(k);
    TU_OK(clrt_queue_finish(f->tu->q));
}

static void kernel_create_errors(void **state)
{
    fixture *f = *state;
    clrt_kernel *k = (clrt_kernel *)0x1;
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_create(NULL, f->p, "saxpy"));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_create(&k, NULL, "saxpy"));
    assert_null(k);
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_create(&k, (clrt_program *)f->tu->ctx, "saxpy"));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_create(&k, f->p, NULL));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_create(&k, f->p, ""));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_create(&k, f->p, "sxapy"));
    assert_null(k);
    const char *msg = clrt_error_message();
    assert_non_null(strstr(msg, "no kernel named 'sxapy'"));
    assert_non_null(strstr(msg, "saxpy"));
    assert_non_null(strstr(msg, "block_sum"));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_create(&k, f->p, "sax")); /* a prefix is not a name */
    assert_int_equal(clrt_kernel_num_args(NULL), 0);
    assert_int_equal(clrt_kernel_work_group_size(NULL), 0);

    /* an OpenCL failure at each step of creation leaves nothing behind */
    long before = clrt__debug_live_total();
    int failures = 0;
    for (unsigned nth = 1; nth <= 8; nth++) {
        clrt__debug_fault_arm(CLRT__FAULT_CREATE_KERNEL, nth, CL_OUT_OF_HOST_MEMORY);
        int status = clrt_kernel_create(&k, f->p, "block_sum");
        clrt__debug_fault_clear();
        if (status == CLRT_OK) {
            assert_non_null(k);
            clrt_kernel_destroy(k);
        } else {
            assert_int_equal(status, CLRT_ENOMEM);
            assert_null(k);
            failures++;
        }
        assert_int_equal(clrt__debug_live_total(), before);
    }
    assert_true(failures >= 2); /* clCreateKernel and the queries after it */
}

static void argument_errors(void **state)
{
    fixture *f = *state;
    clrt_kernel *k = kernel(f, "saxpy"), *bs = kernel(f, "block_sum");
    if (describes_args(f)) /* then the checks below all apply */
        assert_true(k->arg_info && bs->arg_info);
    clrt_buffer *b = vector(f, 4, NULL);
    float a = 1.0f;
    double d = 1.0;

    /* the kernel and the index */
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_set_buffer(NULL, 2, b));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_set_scalar(NULL, 1, sizeof a, &a));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_set_local(NULL, 0, 4));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_set_buffer((clrt_kernel *)b, 2, b));
    TU_REFUSED(CLRT_EINVAL, "out of range", clrt_kernel_set_buffer(k, 4, b));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_set_scalar(k, 4, sizeof a, &a));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_set_local(k, UINT_MAX, 4));
    /* values */
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_set_scalar(k, 1, sizeof a, NULL));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_set_scalar(k, 1, 0, &a));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_set_buffer(k, 2, NULL));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_set_local(bs, 2, 0));
    if (k->arg_info) {
        TU_REFUSED(CLRT_EINVAL, "4 bytes", clrt_kernel_set_scalar(k, 1, sizeof d, &d)); /* a float given 8 bytes */
        /* a pointer given a value */
        TU_REFUSED(CLRT_EINVAL, "clrt_kernel_set_buffer", clrt_kernel_set_scalar(k, 2, sizeof d, &d));
        TU_REFUSED(CLRT_EINVAL, "clrt_kernel_set_scalar", clrt_kernel_set_buffer(k, 1, b)); /* a value given a buffer */
        TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_set_local(k, 3, 16)); /* a __global pointer given local memory */
        /* a __local pointer given a buffer */
        TU_REFUSED(CLRT_EINVAL, "clrt_kernel_set_local", clrt_kernel_set_buffer(bs, 2, b));
        TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_set_scalar(bs, 2, sizeof a, &a));
        if (f->tu->dev.has_fp64) {
            clrt_buffer *b64;
            TU_OK(clrt_buffer_create(&b64, f->tu->ctx, CLRT_FLOAT64, 1, 4));
            TU_REFUSED(CLRT_ESHAPE, "points to float", clrt_kernel_set_buffer(k, 2, b64));
            /* and the other way: a double pointer given a float32 buffer */
            clrt_program *dp;
            clrt_kernel *dk;
            TU_OK(clrt_program_create(&dp, f->tu->ctx,
                                      "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                                      "__kernel void twice(__global double *x) { x[get_global_id(0)] *= 2.0; }\n",
                                      NULL));
            TU_OK(clrt_kernel_create(&dk, dp, "twice"));
            clrt_program_destroy(dp);
            if (describes_args(f))
                assert_non_null(dk->arg_info);
            if (dk->arg_info) {
                TU_REFUSED(CLRT_ESHAPE, "points to double", clrt_kernel_set_buffer(dk, 0, b));
                TU_OK(clrt_kernel_set_buffer(dk, 0, b64));
            }
            clrt_kernel_destroy(dk);
            clrt_buffer_destroy(b64);
        }
    }
    /* more local memory than the device has */
    TU_REFUSED(CLRT_ENOMEM, NULL, clrt_kernel_set_local(bs, 2, (size_t)f->tu->dev.local_mem + 1));

    /* a buffer of another context */
    clrt_context *other;
    clrt_buffer *ob;
    other = tu_context_on(&f->tu->dev);
    TU_OK(clrt_buffer_create(&ob, other, CLRT_FLOAT32, 1, 4));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_kernel_set_buffer(k, 2, ob));
    clrt_buffer_destroy(ob);
    clrt_context_destroy(other);

    /* nothing of that was set: launching names the missing arguments */
    size_t n = 4;
    TU_OK(clrt_kernel_set_buffer(k, 3, b));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_launch(f->tu->q, k, 1, &n, NULL));
    {
        const char *msg = clrt_error_message();
        assert_non_null(strstr(msg, "3 argument(s) not set"));
        assert_non_null(strstr(msg, "argument 0"));
        assert_non_null(strstr(msg, "argument 2"));
        assert_null(strstr(msg, "argument 3"));
        if (k->arg_info)
            assert_non_null(strstr(msg, "'x'"));
    }
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_launch_rounded(f->tu->q, bs, 1, &n, NULL));

    /* an OpenCL failure while setting leaves the argument unset */
    set_saxpy(k, 4, a, b, b);
    clrt__debug_fault_arm(CLRT__FAULT_SET_ARG, 1, CL_OUT_OF_HOST_MEMORY);
    TU_REFUSED(CLRT_ENOMEM, "clSetKernelArg", clrt_kernel_set_buffer(k, 2, b));
    TU_REFUSED(CLRT_EINVAL, "1 argument(s) not set", clrt_kernel_launch(f->tu->q, k, 1, &n, NULL));
    TU_OK(clrt_kernel_set_buffer(k, 2, b));
    TU_OK(clrt_kernel_launch(f->tu->q, k, 1, &n, NULL));
    TU_OK(clrt_queue_finish(f->tu->q));
    clrt_buffer_destroy(b);
    clrt_kernel_destroy(k);
    clrt_kernel_destroy(bs);
}

/* A buffer argument's element type against the buffer's dtype, by the type
 * name the driver gives: float (and its vectors) takes float32, double
 * float64, int and uint int32; a mismatch is CLRT_ESHAPE (an int32 buffer
 * read as float was accepted when only the element sizes were compared);
 * types no dtype names (uchar) are not judged. A matching int32 kernel runs. */
static const char dtype_source[] =
    "__kernel void on_float(__global float *x) { x[get_global_id(0)] += 1.0f; }\n"
    "__kernel void on_float4(__global float4 *x) { x[get_global_id(0)] += 1.0f; }\n"
    "__kernel void on_int(__global const int *x, __global int *y) { y[get_global_id(0)] = 3 * x[get_global_id(0)]; }\n"
    "__kernel void on_uint2(__constant uint2 *x) { }\n"
    "__kernel void on_bytes(__global uchar *x) { }\n";

static void buffer_dtypes(void **state)
{
    fixture *f = *state;
    clrt_program *p;
    TU_OK(clrt_program_create(&p, f->tu->ctx, dtype_source, NULL));
    clrt_kernel *kf, *kf4, *ki, *ku, *kb;
    TU_OK(clrt_kernel_create(&kf, p, "on_float"));
    TU_OK(clrt_kernel_create(&kf4, p, "on_float4"));
    TU_OK(clrt_kernel_create(&ki, p, "on_int"));
    TU_OK(clrt_kernel_create(&ku, p, "on_uint2"));
    TU_OK(clrt_kernel_create(&kb, p, "on_bytes"));
    clrt_program_destroy(p);
    if (describes_args(f))
        assert_true(kf->arg_info && ki->arg_info && ku->arg_info);
    clrt_buffer *f32, *i32, *i32out, *f64 = NULL;
    TU_OK(clrt_buffer_create(&f32, f->tu->ctx, CLRT_FLOAT32, 1, 8));
    TU_OK(clrt_buffer_create(&i32, f->tu->ctx, CLRT_INT32, 1, 8));
    TU_OK(clrt_buffer_create(&i32out, f->tu->ctx, CLRT_INT32, 1, 8));
    if (f->tu->dev.has_fp64)
        TU_OK(clrt_buffer_create(&f64, f->tu->ctx, CLRT_FLOAT64, 1, 8));
    if (kf->arg_info) {
        TU_REFUSED(CLRT_ESHAPE, "points to float elements (a float32 buffer), but the buffer is int32",
                   clrt_kernel_set_buffer(kf, 0, i32));
        TU_REFUSED(CLRT_ESHAPE, "but the buffer is int32", clrt_kernel_set_buffer(kf4, 0, i32));
        TU_REFUSED(CLRT_ESHAPE, "points to int or uint elements (a int32 buffer), but the buffer is float32",
                   clrt_kernel_set_buffer(ki, 0, f32));
        TU_REFUSED(CLRT_ESHAPE, "but the buffer is float32", clrt_kernel_set_buffer(ku, 0, f32));
        if (f64) {
            TU_REFUSED(CLRT_ESHAPE, "but the buffer is float64", clrt_kernel_set_buffer(kf, 0, f64));
            TU_REFUSED(CLRT_ESHAPE, "but the buffer is float64", clrt_kernel_set_buffer(ki, 1, f64));
        }
    }
    /* matching types, and a type no dtype names, pass */
    TU_OK(clrt_kernel_set_buffer(kf, 0, f32));
    TU_OK(clrt_kernel_set_buffer(kf4, 0, f32));
    TU_OK(clrt_kernel_set_buffer(ku, 0, i32));
    TU_OK(clrt_kernel_set_buffer(kb, 0, i32));
    TU_OK(clrt_kernel_set_buffer(kb, 0, f32));
    /* and an int32 kernel computes on int32 buffers */
    const int32_t in[8] = {-4, -1, 0, 1, 2, 1000, INT32_MAX / 3, -(INT32_MAX / 3)};
    int32_t out[8];
    TU_OK(clrt_buffer_write(f->tu->q, i32, in, 8));
    TU_OK(clrt_kernel_set_buffer(ki, 0, i32));
    TU_OK(clrt_kernel_set_buffer(ki, 1, i32out));
    const size_t n = 8;
    TU_OK(clrt_kernel_launch(f->tu->q, ki, 1, &n, NULL));
    TU_OK(clrt_buffer_read(f->tu->q, i32out, out, 8));
    for (int i = 0; i < 8; i++)
        assert_int_equal(out[i], 3 * in[i]);
    clrt_buffer *bufs[] = {f32, i32, i32out, f64};
    tu_destroy_buffers(bufs, f64 ? 4 : 3);
    clrt_kernel *ks[] = {kf, kf4, ki, ku, kb};
    for (int i = 0; i < 5; i++)
        clrt_kernel_destroy(ks[i]);
}

/* __local arguments that each fit (set_local accepts them) but together exceed
 * the device's local memory: refused at launch, before OpenCL */
static void local_memory_total(fixture *f)
{
    clrt_program *lp;
    clrt_kernel *lk;
    TU_OK(clrt_program_create(&lp, f->tu->ctx,
                              "__kernel void two_locals(__global float *out, __local float *a, __local float *b)\n"
                              "{\n"
                              "    a[0] = 1.0f;\n"
                              "    b[0] = 2.0f;\n"
                              "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                              "    out[0] = a[0] + b[0];\n"
                              "}\n",
                              NULL));
    TU_OK(clrt_kernel_create(&lk, lp, "two_locals"));
    clrt_program_destroy(lp);
    clrt_buffer *sum = vector(f, 1, NULL);
    size_t part = (size_t)(f->tu->dev.local_mem * 6 / 10) / sizeof(float) * sizeof(float), single = 1;
    TU_OK(clrt_kernel_set_buffer(lk, 0, sum));
    TU_OK(clrt_kernel_set_local(lk, 1, part));
    TU_OK(clrt_kernel_set_local(lk, 2, part));
    TU_REFUSED(CLRT_ENOMEM, "bytes of local memory per work-group",
               clrt_kernel_launch(f->tu->q, lk, 1, &single, &single));
    TU_REFUSED(CLRT_ENOMEM, "bytes of local memory per work-group",
               clrt_kernel_launch_rounded(f->tu->q, lk, 1, &single, NULL));
    /* the same kernel with room for both runs */
    TU_OK(clrt_kernel_set_local(lk, 2, sizeof(float)));
    float got = 0.0f;
    TU_OK(clrt_kernel_launch(f->tu->q, lk, 1, &single, &single));
    TU_OK(clrt_buffer_read(f->tu->q, sum, &got, 1));
    assert_true(got == 3.0f);
    clrt_buffer_destroy(sum);
    clrt_kernel_destroy(lk);
}

static void launch_errors(void **state)
{
    fixture *f = *state;
    clrt_kernel *k = kernel(f, "ids");
    clrt_buffer *out = vector(f, 64, NULL);
    cl_uint one = 1, four = 4;
    TU_OK(clrt_kernel_set_scalar(k, 0, sizeof four, &four));
    TU_OK(clrt_kernel_set_scalar(k, 1, sizeof four, &four));
    TU_OK(clrt_kernel_set_scalar(k, 2, sizeof one, &one));
    TU_OK(clrt_kernel_set_buffer(k, 3, out));
    size_t g[3] = {4, 4, 1}, l[3] = {2, 2, 1}, zero[3] = {0, 4, 1};

    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_launch(NULL, k, 2, g, l));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_launch(f->tu->q, NULL, 2, g, l));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_launch(f->tu->q, (clrt_kernel *)f->tu->q, 2, g, l));
    TU_REFUSED(CLRT_EINVAL, "1, 2 or 3", clrt_kernel_launch(f->tu->q, k, 0, g, l));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_launch(f->tu->q, k, 4, g, l));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_launch_rounded(f->tu->q, k, 4, g, NULL));
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_launch(f->tu->q, k, 2, NULL, l));
    TU_REFUSED(CLRT_EINVAL, "global[0] is 0", clrt_kernel_launch(f->tu->q, k, 2, zero, l));
    TU_REFUSED(CLRT_EINVAL, "local[0] is 0", clrt_kernel_launch(f->tu->q, k, 2, g, zero));
    /* the OpenCL 1.2 rule, unless rounding is asked for */
    size_t g3[2] = {4, 3};
    TU_REFUSED(CLRT_EINVAL, "global[1] = 3 is not a multiple of local[1] = 2",
               clrt_kernel_launch(f->tu->q, k, 2, g3, l));
    assert_non_null(strstr(clrt_error_message(), "clrt_kernel_launch_rounded"));
    TU_OK(clrt_kernel_launch_rounded(f->tu->q, k, 2, g3, l));
    size_t huge = SIZE_MAX, l3 = 2;
    if (clrt_kernel_work_group_size(k) >= 2) {
        TU_REFUSED(CLRT_EINVAL, "overflows", clrt_kernel_launch_rounded(f->tu->q, k, 1, &huge, &l3));
    }
    /* global sizes whose product, the work-items, is not a size_t (2^70, 2^66):
     * refused before a driver counts them */
    size_t wrap2[2] = {(size_t)1 << 40, (size_t)1 << 30}, wrap3[3] = {(size_t)1 << 22, (size_t)1 << 22, (size_t)1 << 22};
    TU_REFUSED(CLRT_EINVAL, "1099511627776 x 1073741824 work-items overflow size_t",
               clrt_kernel_launch(f->tu->q, k, 2, wrap2, NULL));
    TU_REFUSED(CLRT_EINVAL, "4194304 x 4194304 x 4194304 work-items overflow size_t",
               clrt_kernel_launch(f->tu->q, k, 3, wrap3, NULL));
    TU_REFUSED(CLRT_EINVAL, "work-items overflow size_t", clrt_kernel_launch_rounded(f->tu->q, k, 3, wrap3, NULL));
    /* limits of the device and the kernel */
    size_t wg = clrt_kernel_work_group_size(k);
    size_t over[3] = {k->max_items[0] + 1, 1, 1}, big_g[3] = {over[0] * 2, 1, 1};
    TU_REFUSED(CLRT_EUNSUPPORTED, "local[0]", clrt_kernel_launch(f->tu->q, k, 1, big_g, over));
    if (k->max_items[1] >= 2 && wg <= k->max_items[0]) {
        size_t group[2] = {wg, 2}, gg[2] = {wg, 2};
        TU_REFUSED(CLRT_EUNSUPPORTED, "clrt_kernel_work_group_size", clrt_kernel_launch(f->tu->q, k, 2, gg, group));
    }
    /* a queue of another context */
    clrt_context *other;
    clrt_queue *oq;
    other = tu_context_on(&f->tu->dev);
    TU_OK(clrt_queue_create(&oq, other));
    TU_REFUSED(CLRT_EINVAL, "different contexts", clrt_kernel_launch(oq, k, 2, g, l));
    clrt_queue_destroy(oq);
    clrt_context_destroy(other);

    if (f->tu->dev.local_mem >= 64)
        local_memory_total(f);

    /* injected enqueue failures */
    clrt__debug_fault_arm(CLRT__FAULT_ENQUEUE_KERNEL, 1, CL_OUT_OF_RESOURCES);
    TU_REFUSED(CLRT_EOPENCL, "not device memory", clrt_kernel_launch(f->tu->q, k, 2, g, l));
    clrt__debug_fault_arm(CLRT__FAULT_ENQUEUE_KERNEL, 1, CL_INVALID_WORK_GROUP_SIZE);
    TU_REFUSED(CLRT_EINVAL, NULL, clrt_kernel_launch(f->tu->q, k, 2, g, l));
    clrt__debug_fault_clear();
    TU_OK(clrt_kernel_launch(f->tu->q, k, 2, g, l));
    TU_OK(clrt_queue_finish(f->tu->q));
    clrt_buffer_destroy(out);
    clrt_kernel_destroy(k);
}

/* After a late device failure the context refuses user kernels too. */
static void failed_context(void **state)
{
    fixture *f = *state;
    clrt_context *c;
    clrt_queue *q;
    clrt_program *p, *p2 = (clrt_program *)0x1;
    clrt_kernel *k, *k2 = (clrt_kernel *)0x1;
    c = tu_context_on(&f->tu->dev);
    TU_OK(clrt_queue_create(&q, c));
    TU_OK(clrt_program_create(&p, c, source, NULL));
    TU_OK(clrt_kernel_create(&k, p, "noargs"));
    clrt__debug_fault_arm(CLRT__FAULT_ENQUEUE_KERNEL, 1, CL_INVALID_COMMAND_QUEUE);
    size_t one = 1;
    TU_REFUSED(CLRT_EDEVICE, NULL, clrt_kernel_launch(q, k, 1, &one, NULL));
    clrt__debug_fault_clear();
    TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_kernel_launch(q, k, 1, &one, NULL));
    TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_kernel_launch_rounded(q, k, 1, &one, NULL));
    TU_REFUSED(CLRT_EDEVICE, "failed earlier", clrt_kernel_launch_rounded(q, k, 1, &one, &one));
    TU_REFUSED(CLRT_EDEVICE, NULL, clrt_program_create(&p2, c, source, NULL));
    assert_null(p2);
    TU_REFUSED(CLRT_EDEVICE, NULL, clrt_kernel_create(&k2, p, "noargs"));
    assert_null(k2);
    clrt_kernel_destroy(k);
    clrt_program_destroy(p);
    clrt_queue_destroy(q);
    clrt_context_destroy(c);
}

/* The raw OpenCL objects are the ones clrt uses. */
static void interop(void **state)
{
    fixture *f = *state;
    clrt_buffer *b;
    TU_OK(clrt_buffer_create(&b, f->tu->ctx, CLRT_FLOAT32, 3, 5));
    cl_context cx = clrt_context_cl(f->tu->ctx);
    cl_device_id dev = clrt_context_cl_device(f->tu->ctx);
    cl_command_queue cq = clrt_queue_cl(f->tu->q);
    cl_mem mem = clrt_buffer_cl(b);
    cl_program prog = clrt_program_cl(f->p);
    assert_non_null(cx);
    assert_non_null(dev);
    assert_non_null(cq);
    assert_non_null(mem);
    assert_non_null(prog);

    cl_context qc = NULL, mc = NULL, pc = NULL;
    cl_device_id qd = NULL;
    size_t bytes = 0;
    assert_int_equal(clGetCommandQueueInfo(cq, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL), CL_SUCCESS);
    assert_int_equal(clGetCommandQueueInfo(cq, CL_QUEUE_DEVICE, sizeof qd, &qd, NULL), CL_SUCCESS);
    assert_int_equal(clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof mc, &mc, NULL), CL_SUCCESS);
    assert_int_equal(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof bytes, &bytes, NULL), CL_SUCCESS);
    assert_int_equal(clGetProgramInfo(prog, CL_PROGRAM_CONTEXT, sizeof pc, &pc, NULL), CL_SUCCESS);
    assert_ptr_equal(qc, cx);
    assert_ptr_equal(mc, cx);
    assert_ptr_equal(pc, cx);
    assert_ptr_equal(qd, dev);
    assert_int_equal(bytes, 3 * 5 * sizeof(float));
    char name[256] = "";
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL), CL_SUCCESS);
    assert_string_equal(name, f->tu->dev.name);

    /* raw OpenCL and clrt on one in-order queue: clrt's read sees the raw write */
    float in[15], out[15];
    for (int i = 0; i < 15; i++)
        in[i] = (float)i * 0.5f;
    assert_int_equal(clEnqueueWriteBuffer(cq, mem, CL_FALSE, 0, sizeof in, in, 0, NULL, NULL), CL_SUCCESS);
    TU_OK(clrt_add(f->tu->q, b, b, b));
    TU_OK(clrt_buffer_read(f->tu->q, b, out, 15));
    for (int i = 0; i < 15; i++)
        assert_true(out[i] == 2.0f * in[i]);

    /* retained by the caller, it outlives the clrt handle */
    assert_int_equal(clRetainMemObject(mem), CL_SUCCESS);
    clrt_buffer_destroy(b);
    assert_int_equal(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof bytes, &bytes, NULL), CL_SUCCESS);
    assert_int_equal(clReleaseMemObject(mem), CL_SUCCESS);

    /* NULL and foreign handles */
    assert_null(clrt_context_cl(NULL));
    assert_non_null(strstr(clrt_error_message(), "context is NULL"));
    assert_null(clrt_context_cl((const clrt_context *)f->tu->q));
    assert_non_null(strstr(clrt_error_message(), "not a live clrt context"));
    assert_null(clrt_context_cl_device(NULL));
    assert_null(clrt_queue_cl(NULL));
    assert_null(clrt_queue_cl((const clrt_queue *)f->tu->ctx));
    assert_null(clrt_buffer_cl(NULL));
    assert_null(clrt_buffer_cl((const clrt_buffer *)f->tu->q));
    assert_null(clrt_program_cl(NULL));
    assert_null(clrt_program_cl((const clrt_program *)f->tu->q));
}

/* Threads: each with its own kernel of one shared program, and several
 * launching one kernel whose arguments were set once. */
enum { THREADS = 4, ROUNDS = 8, TN = 257 };

typedef struct job {
    fixture *f;
    clrt_kernel *shared;
    int ok;
    char error[512];
} job;

static void *own_kernel_worker(void *arg)
{
    job *j = arg;
    clrt_queue *q = NULL;
    clrt_kernel *k = NULL;
    clrt_buffer *bx = NULL, *by = NULL;
    float x[TN], y[TN];
    for (int i = 0; i < TN; i++) {
        x[i] = (float)i;
        y[i] = 0;
    }
    int s = clrt_queue_create(&q, j->f->tu->ctx);
    if (!s)
        s = clrt_kernel_create(&k, j->f->p, "saxpy");
    if (!s)
        s = clrt_buffer_create(&bx, j->f->tu->ctx, CLRT_FLOAT32, 1, TN);
    if (!s)
        s = clrt_buffer_create(&by, j->f->tu->ctx, CLRT_FLOAT32, 1, TN);
    if (!s)
        s = clrt_buffer_write(q, bx, x, TN);
    if (!s)
        s = clrt_buffer_write(q, by, y, TN);
    cl_uint n = TN;
    float a = 1.0f;
    if (!s)
        s = clrt_kernel_set_scalar(k, 0, sizeof n, &n);
    if (!s)
        s = clrt_kernel_set_scalar(k, 1, sizeof a, &a);
    if (!s)
        s = clrt_kernel_set_buffer(k, 2, bx);
    if (!s)
        s = clrt_kernel_set_buffer(k, 3, by);
    size_t global = TN;
    for (int r = 0; r < ROUNDS && !s; r++)
        s = clrt_kernel_launch_rounded(q, k, 1, &global, NULL);
    if (!s)
        s = clrt_buffer_read(q, by, y, TN);
    j->ok = s == CLRT_OK;
    if (!s)
        for (int i = 0; i < TN; i++)
            if (y[i] != (float)(ROUNDS * i)) {
                snprintf(j->error, sizeof j->error, "y[%d] = %g, expected %d", i, (double)y[i], ROUNDS * i);
                j->ok = 0;
                break;
            }
    if (s)
        snprintf(j->error, sizeof j->error, "%s: %s", clrt_status_name(s), clrt_error_message());
    clrt_buffer_destroy(bx);
    clrt_buffer_destroy(by);
    clrt_kernel_destroy(k);
    clrt_queue_destroy(q);
    return NULL;
}

static void *shared_kernel_worker(void *arg)
{
    job *j = arg;
    clrt_queue *q = NULL;
    int s = clrt_queue_create(&q, j->f->tu->ctx);
    size_t g[2] = {16, 4};
    for (int r = 0; r < ROUNDS && !s; r++)
        s = clrt_kernel_launch(q, j->shared, 2, g, NULL);
    if (!s)
        s = clrt_queue_finish(q);
    j->ok = s == CLRT_OK;
    if (s)
        snprintf(j->error, sizeof j->error, "%s: %s", clrt_status_name(s), clrt_error_message());
    clrt_queue_destroy(q);
    return NULL;
}

static void threads(void **state)
{
    fixture *f = *state;
    if (is_oclgrind(f)) {
        /* Oclgrind runs one kernel at a time per process (see tests/CMakeLists.txt) */
        print_message("skipped on Oclgrind\n");
        skip();
    }
    job jobs[THREADS];
    for (int i = 0; i < THREADS; i++)
        jobs[i] = (job){.f = f};
    tu_run_threads(THREADS, own_kernel_worker, jobs, sizeof *jobs);
    for (int i = 0; i < THREADS; i++)
        if (!jobs[i].ok)
            fail_msg("thread %d: %s", i, jobs[i].error);

    clrt_kernel *k = kernel(f, "ids");
    clrt_buffer *out = vector(f, 64, NULL);
    cl_uint nx = 16, ny = 4, nz = 1;
    TU_OK(clrt_kernel_set_scalar(k, 0, sizeof nx, &nx));
    TU_OK(clrt_kernel_set_scalar(k, 1, sizeof ny, &ny));
    TU_OK(clrt_kernel_set_scalar(k, 2, sizeof nz, &nz));
    TU_OK(clrt_kernel_set_buffer(k, 3, out));
    for (int i = 0; i < THREADS; i++)
        jobs[i] = (job){.f = f, .shared = k};
    tu_run_threads(THREADS, shared_kernel_worker, jobs, sizeof *jobs);
    for (int i = 0; i < THREADS; i++)
        if (!jobs[i].ok)
            fail_msg("thread %d: %s", i, jobs[i].error);
    float host[64];
    TU_OK(clrt_buffer_read(f->tu->q, out, host, 64));
    for (int i = 0; i < 64; i++)
        assert_true(host[i] == (float)i);
    clrt_buffer_destroy(out);
    clrt_kernel_destroy(k);
}

int main(void)
{
    tu_require_device();
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(saxpy_results),      T(ids_over_dims),   T(local_memory_reduction), T(scalar_types),
        T(required_work_group_size), T(program_cache), T(arg_info_build_failure_falls_back), T(program_errors),   T(program_destroy_rules),
        T(lifetimes),          T(kernel_create_errors), T(argument_errors), T(buffer_dtypes), T(launch_errors),
        T(failed_context),     T(interop),         T(threads),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
