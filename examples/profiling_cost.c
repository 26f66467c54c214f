/* profiling_cost: what CL_QUEUE_PROFILING_ENABLE costs on the default device
 * (or $CLRT_DEVICE), measured to decide whether clrt turns it on for every
 * queue (docs/events.md has the numbers).
 *
 *   ./profiling_cost            2000 commands per round
 *   ./profiling_cost 5000       another count
 *
 * Two raw OpenCL queues on one clrt context, one with profiling and one
 * without, take turns running the same round: many small commands (a tiny
 * kernel and a small write, alternately), then clFinish. The median round
 * time of each, and their ratio, are printed. Small commands are where a
 * per-command timestamp would show; a large kernel hides it.
 */
#include <stdio.h>
#include <stdlib.h>

#include <clrt/clrt.h>
#include <clrt/clrt_cl.h>

#include "example_util.h"

enum { ROUNDS = 9 };

static const char *source = "__kernel void bump(__global float *x) { x[get_global_id(0)] += 1.0f; }";

/* One round: n commands on q, then wait; seconds, or a negative value on failure. */
static double round_time(cl_command_queue q, cl_kernel k, cl_mem buf, const float *host, int n)
{
    const size_t global = 64;
    double t0 = example_seconds();
    for (int i = 0; i < n; i++) {
        cl_int err = (i & 1) ? clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, 64 * sizeof(float), host, 0, NULL, NULL)
                             : clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            return -1;
    }
    if (clFinish(q) != CL_SUCCESS)
        return -1;
    return example_seconds() - t0;
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 2000;
    if (n <= 0) {
        fprintf(stderr, "usage: profiling_cost [commands per round]\n");
        return 2;
    }
    clrt_context *ctx;
    if (clrt_context_create(&ctx, NULL) != CLRT_OK) {
        fprintf(stderr, "%s\n", clrt_error_message());
        return 1;
    }
    clrt_device_info dev;
    clrt_context_device(ctx, &dev);
    cl_context cl = clrt_context_cl(ctx);
    cl_device_id device = clrt_context_cl_device(ctx);
    cl_int err;
    cl_program prog = clCreateProgramWithSource(cl, 1, &source, NULL, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(prog, 1, &device, "", NULL, NULL);
    cl_kernel k = err == CL_SUCCESS ? clCreateKernel(prog, "bump", &err) : NULL;
    cl_mem buf = err == CL_SUCCESS ? clCreateBuffer(cl, CL_MEM_READ_WRITE, 64 * sizeof(float), NULL, &err) : NULL;
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 0, sizeof buf, &buf);
    cl_command_queue plain = err == CL_SUCCESS ? clCreateCommandQueue(cl, device, 0, &err) : NULL;
    cl_command_queue prof =
        err == CL_SUCCESS ? clCreateCommandQueue(cl, device, CL_QUEUE_PROFILING_ENABLE, &err) : NULL;
    int status = 1;
    if (err != CL_SUCCESS) {
        fprintf(stderr, "setup failed: OpenCL error %d\n", err);
        goto out;
    }
    float host[64] = {0};
    double t_plain[ROUNDS], t_prof[ROUNDS];
    round_time(plain, k, buf, host, n); /* warm up both */
    round_time(prof, k, buf, host, n);
    for (int r = 0; r < ROUNDS; r++) {
        /* alternate which goes first, so a drift in machine load hits both */
        if (r & 1) {
            t_prof[r] = round_time(prof, k, buf, host, n);
            t_plain[r] = round_time(plain, k, buf, host, n);
        } else {
            t_plain[r] = round_time(plain, k, buf, host, n);
            t_prof[r] = round_time(prof, k, buf, host, n);
        }
        if (t_plain[r] < 0 || t_prof[r] < 0) {
            fprintf(stderr, "a round failed\n");
            goto out;
        }
    }
    const double a = example_median(t_plain, ROUNDS), b = example_median(t_prof, ROUNDS);
    printf("device: %s (%s)\n", dev.name, dev.platform);
    printf("%d small commands per round, median of %d rounds\n", n, ROUNDS);
    printf("  profiling off: %8.2f ms  (%.2f us/command)\n", 1e3 * a, 1e6 * a / n);
    printf("  profiling on:  %8.2f ms  (%.2f us/command)\n", 1e3 * b, 1e6 * b / n);
    printf("  on / off: %.3f\n", b / a);
    status = 0;
out:
    if (prof)
        clReleaseCommandQueue(prof);
    if (plain)
        clReleaseCommandQueue(plain);
    if (buf)
        clReleaseMemObject(buf);
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    clrt_context_destroy(ctx);
    return status;
}
