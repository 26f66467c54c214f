/* Proof that the Oclgrind harness (run_oclgrind.cmake) catches what it is
 * there to catch: runs one deliberately broken kernel, chosen by
 * $CLRT_SELFTEST_BUG (race, uninit, oob, api), and exits 0 itself. ctest
 * expects the harness to fail with the matching report (PASS_REGULAR_EXPRESSION),
 * so a harness that silently stops checking turns this test red.
 * Plain OpenCL on purpose: the library must not be able to hide the bug. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char source[] =
    /* work-items of one group all update x[0]: a write-write data race */
    "__kernel void race(__global int *x) { x[0] += (int)get_global_id(0); }\n"
    /* reads a buffer nothing ever wrote (created without host data) */
    "__kernel void uninit(__global float *out, __global const float *in) {\n"
    "    out[get_global_id(0)] = in[get_global_id(0)] * 2.0f;\n"
    "}\n"
    /* the last work-item writes one past the end */
    "__kernel void oob(__global float *x) { x[get_global_id(0) + 1] = 1.0f; }\n";

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cl_int e_ = (call);                                                                        \
        if (e_ != CL_SUCCESS) {                                                                    \
            fprintf(stderr, "%s failed: %d\n", #call, (int)e_);                                    \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(void)
{
    const char *bug = getenv("CLRT_SELFTEST_BUG");
    if (!bug || !(strcmp(bug, "race") == 0 || strcmp(bug, "uninit") == 0 || strcmp(bug, "oob") == 0 ||
                  strcmp(bug, "api") == 0)) {
        fprintf(stderr, "set CLRT_SELFTEST_BUG to race, uninit, oob or api\n");
        return 2;
    }
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    const char *src = source;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(prog, 1, &device, "", NULL, NULL));
    float zeros[8] = {0};
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zeros, zeros, &err);
    CHECK(err);
    /* the api case launches a correct kernel with a bad geometry */
    cl_kernel k = clCreateKernel(prog, strcmp(bug, "api") == 0 ? "oob" : bug, &err);
    CHECK(err);
    CHECK(clSetKernelArg(k, 0, sizeof buf, &buf));
    cl_mem fresh = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof zeros, NULL, &err);
    CHECK(err);
    if (strcmp(bug, "uninit") == 0)
        CHECK(clSetKernelArg(k, 1, sizeof fresh, &fresh));
    size_t global = strcmp(bug, "oob") == 0 ? 8 : 4, local = 4;
    if (strcmp(bug, "api") == 0) {
        global = 6; /* not a multiple of the local size: CL_INVALID_WORK_GROUP_SIZE */
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
        printf("enqueue with a bad work-group size returned %d\n", (int)err);
    } else {
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    }
    CHECK(clFinish(q));
    clReleaseKernel(k);
    clReleaseMemObject(buf);
    clReleaseMemObject(fresh);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    printf("ran the '%s' kernel\n", bug);
    return 0;
}
