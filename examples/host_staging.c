/* host_staging: whether pinned (driver-allocated, mapped) host memory makes
 * uploads faster than ordinary malloc'd memory on the default device (or
 * $CLRT_DEVICE): measured to decide whether clrt's asynchronous writes should
 * stage through it (docs/events.md has the numbers).
 *
 *   ./host_staging          64 MiB per upload
 *   ./host_staging 16       another size, in MiB
 *
 * On a discrete GPU, DMA from pageable memory goes through a driver bounce
 * buffer, and pinned memory is the classic 2-4x. Here each round uploads the
 * same bytes into one device buffer from (a) malloc'd memory and (b) the
 * mapped memory of a CL_MEM_ALLOC_HOST_PTR buffer, blocking, in turn; the
 * median GB/s of each and their ratio are printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clrt/clrt.h>
#include <clrt/clrt_cl.h>

#include "example_util.h"

enum { ROUNDS = 9 };

/* Seconds for one blocking upload of bytes from src, or a negative value. */
static double upload(cl_command_queue q, cl_mem dst, const void *src, size_t bytes)
{
    const double t0 = example_seconds();
    if (clEnqueueWriteBuffer(q, dst, CL_TRUE, 0, bytes, src, 0, NULL, NULL) != CL_SUCCESS)
        return -1;
    return example_seconds() - t0;
}

int main(int argc, char **argv)
{
    const long mib = argc > 1 ? atol(argv[1]) : 64;
    if (mib <= 0) {
        fprintf(stderr, "usage: host_staging [MiB]\n");
        return 2;
    }
    const size_t bytes = (size_t)mib << 20;
    clrt_context *ctx;
    clrt_queue *q;
    if (clrt_context_create(&ctx, NULL) != CLRT_OK || clrt_queue_create(&q, ctx) != CLRT_OK) {
        fprintf(stderr, "%s\n", clrt_error_message());
        return 1;
    }
    clrt_device_info dev;
    clrt_context_device(ctx, &dev);
    cl_context cl = clrt_context_cl(ctx);
    cl_command_queue cq = clrt_queue_cl(q);
    cl_int err;
    int status = 1;
    void *pinned = NULL;
    char *plain = malloc(bytes);
    cl_mem dst = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem host = err == CL_SUCCESS ? clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err)
                                    : NULL;
    if (err == CL_SUCCESS)
        pinned = clEnqueueMapBuffer(cq, host, CL_TRUE, CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS || !plain) {
        fprintf(stderr, "setup failed: OpenCL error %d\n", err);
        goto out;
    }
    memset(plain, 1, bytes); /* both touched first: no page faults in the timing */
    memset(pinned, 1, bytes);
    double tp[ROUNDS], tm[ROUNDS];
    upload(cq, dst, plain, bytes);
    upload(cq, dst, pinned, bytes);
    for (int r = 0; r < ROUNDS; r++) {
        const int pinned_first = r & 1;
        double a = upload(cq, dst, pinned_first ? pinned : plain, bytes);
        double b = upload(cq, dst, pinned_first ? plain : pinned, bytes);
        if (a < 0 || b < 0) {
            fprintf(stderr, "an upload failed\n");
            goto out;
        }
        tp[r] = pinned_first ? b : a;
        tm[r] = pinned_first ? a : b;
    }
    const double gp = (double)bytes / example_median(tp, ROUNDS) * 1e-9;
    const double gm = (double)bytes / example_median(tm, ROUNDS) * 1e-9;
    printf("device: %s (%s)\n", dev.name, dev.platform);
    printf("%ld MiB uploads, median of %d rounds\n", mib, ROUNDS);
    printf("  from malloc'd memory:          %7.2f GB/s\n", gp);
    printf("  from mapped ALLOC_HOST_PTR:    %7.2f GB/s\n", gm);
    printf("  pinned / malloc'd: %.3f\n", gm / gp);
    status = 0;
out:
    if (pinned)
        clEnqueueUnmapMemObject(cq, host, pinned, 0, NULL, NULL);
    clFinish(cq);
    if (host)
        clReleaseMemObject(host);
    if (dst)
        clReleaseMemObject(dst);
    free(plain);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    return status;
}
