/* clrt-bench: a raw OpenCL program's first kernel (see bench/measure/first_raw.h). */
#include "measure/first_raw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <clrt/clrt_cl.h>

#include "common/output.h"
#include "measure/child.h"
#include "measure/timing.h"
#include "report/progress.h"

#define RAW_ITEMS 64

static const char raw_source[] =
    "__kernel void first(__global float *x) { x[get_global_id(0)] = (float)get_global_id(0); }";

/* platform pi, device di (the "P:D" of clrt-info); NULL if there is none */
static cl_device_id raw_device(unsigned pi, unsigned di)
{
    cl_platform_id plats[64];
    cl_uint np = 0;
    if (clGetPlatformIDs(64, plats, &np) != CL_SUCCESS || pi >= np)
        return NULL;
    cl_device_id devs[64];
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[pi], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS || di >= nd)
        return NULL;
    return devs[di];
}

/* The program: from the binary in file bin when there is one (the floor: a
 * program that keeps its own binaries), else from source (the driver's own
 * cache, as most programs have it). *from_binary says which. */
static cl_program raw_program(cl_context ctx, cl_device_id dev, const char *bin, int *from_binary, cl_int *err)
{
    *from_binary = 0;
    FILE *f = bin ? fopen(bin, "rb") : NULL;
    if (f) {
        static unsigned char data[1 << 22];
        size_t n = fread(data, 1, sizeof data, f);
        fclose(f);
        if (n > 0 && n < sizeof data) {
            const unsigned char *p = data;
            *from_binary = 1;
            return clCreateProgramWithBinary(ctx, 1, &dev, &n, &p, NULL, err);
        }
    }
    const char *src = raw_source;
    return clCreateProgramWithSource(ctx, 1, &src, NULL, err);
}

/* Store prog's binary in file bin, for the next child (untimed); a binary
 * that cannot be written leaves the next child to build from source. */
static void raw_store_binary(cl_program prog, const char *bin)
{
    size_t n = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof n, &n, NULL) != CL_SUCCESS || n == 0)
        return;
    unsigned char *data = malloc(n);
    char err[700];
    if (data && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof data, &data, NULL) == CL_SUCCESS)
        (void)tool_out_write(bin, data, n, err, sizeof err);
    free(data);
}

/* Everything after the loader: 0 when the kernel's result reads back right,
 * -1 when an OpenCL call failed (said on stdout), -2 for a wrong result.
 * *t_done: when the result was back. */
static int raw_first_kernel(cl_device_id dev, const char *bin, int *from_binary, double *t_done)
{
    cl_int err = CL_SUCCESS;
    int ok = 0;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = err == CL_SUCCESS ? clCreateCommandQueue(ctx, dev, 0, &err) : NULL;
    cl_mem x = err == CL_SUCCESS ? clCreateBuffer(ctx, CL_MEM_READ_WRITE, RAW_ITEMS * sizeof(float), NULL, &err)
                                 : NULL;
    cl_program prog = err == CL_SUCCESS ? raw_program(ctx, dev, bin, from_binary, &err) : NULL;
    if (err == CL_SUCCESS)
        err = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    cl_kernel k = err == CL_SUCCESS ? clCreateKernel(prog, "first", &err) : NULL;
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 0, sizeof x, &x);
    size_t global = RAW_ITEMS;
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    float back[RAW_ITEMS];
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(q, x, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL);
    *t_done = bench_now();
    if (err == CL_SUCCESS) {
        ok = 1;
        for (int i = 0; i < RAW_ITEMS; i++)
            ok &= back[i] == (float)i;
        if (bin && !*from_binary)
            raw_store_binary(prog, bin);
    }
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    if (x)
        clReleaseMemObject(x);
    if (q)
        clReleaseCommandQueue(q);
    if (ctx)
        clReleaseContext(ctx);
    if (err != CL_SUCCESS) {
        printf("ERROR an OpenCL call failed with %d\n", (int)err);
        return -1;
    }
    return ok ? 0 : -2;
}

int bench_first_raw_child(const bench_opts *o, double t_main)
{
    unsigned pi = 0, di = 0;
    if (sscanf(o->child_device, "%u:%u", &pi, &di) != 2)
        return 1;
    double t0 = bench_now();
    cl_uint np = 0;
    clGetPlatformIDs(0, NULL, &np); /* the loader starts: timed apart, as in the first matmul */
    double t_loader = bench_now();
    cl_device_id dev = raw_device(pi, di);
    if (!dev) {
        printf("ERROR no OpenCL device %u:%u\n", pi, di);
        return 1;
    }
    int from_binary = 0;
    double t_done = 0;
    int st = raw_first_kernel(dev, o->child_raw_binary, &from_binary, &t_done);
    if (st == 0)
        printf("RAW %.9f %.9f %.9f %.9f %d\n", t_main, t0, t_loader, t_done, from_binary);
    else if (st == -2)
        printf("ERROR the one-line kernel's result read back wrong\n");
    fflush(stdout);
    return st == 0 ? 0 : 1;
}

/* One child: 0 and its times (from main(): total, loader) on success;
 * *from_binary: whether it loaded the binary in bin. */
static int spawn_raw(const char *pd, const char *bin, double *total, double *loader, int *from_binary, char *why,
                     size_t cap)
{
    char *argv[] = {"clrt-bench", "--child-raw-first", (char *)pd, (char *)bin, NULL};
    char out[1024];
    double t_spawn;
    if (bench_child_run(argv, BENCH_CACHES_AS_IS, out, sizeof out, &t_spawn, why, cap) != 0)
        return -1;
    double t_main, t0, t_loader, t_done;
    const char *line = strstr(out, "RAW ");
    if (!line || sscanf(line, "RAW %lf %lf %lf %lf %d", &t_main, &t0, &t_loader, &t_done, from_binary) != 5) {
        bench_child_why(out, why, cap);
        return -1;
    }
    *total = t_done - t_main;
    *loader = t_loader - t0;
    return 0;
}

/* The median of three children (after one that warms the caches: the
 * driver's, and the binary file when bin is not "-"); 0 on success. */
static int median_raw(const char *pd, const char *bin, double *total, double *loader, int *from_binary, char *why,
                      size_t cap)
{
    double tt[3], ll[3];
    if (spawn_raw(pd, bin, &tt[0], &ll[0], from_binary, why, cap) != 0)
        return -1;
    for (int i = 0; i < 3; i++)
        if (spawn_raw(pd, bin, &tt[i], &ll[i], from_binary, why, cap) != 0)
            return -1;
    int m = bench_median_of3(tt);
    *total = tt[m];
    *loader = ll[m];
    return 0;
}

void bench_first_raw_measure(bench_device *dev, const bench_session *s)
{
    bench_raw_first *r = &dev->raw_first;
    memset(r, 0, sizeof *r);
    char pd[32];
    snprintf(pd, sizeof pd, "%u:%u", s->info.platform_index, s->info.device_index);
    bench_progress("device %zu: a raw OpenCL program's first kernel in a new process", s->info.index);
    int from_binary = 0;
    if (median_raw(pd, "-", &r->total, &r->loader, &from_binary, r->note, sizeof r->note) != 0)
        return;
    r->measured = 1;
    /* the same from a binary the program stored itself, in a new empty file of
     * ours (mkstemp: nobody else's file or link), which the first child fills */
    const char *tmp = getenv("TMPDIR");
    char bin[512];
    snprintf(bin, sizeof bin, "%s/clrt-bench-raw-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(bin);
    if (fd < 0) {
        snprintf(r->note, sizeof r->note, "no temporary file for the binary: from source only");
        return;
    }
    close(fd);
    if (median_raw(pd, bin, &r->binary_total, &r->binary_loader, &from_binary, r->note, sizeof r->note) == 0 &&
        from_binary)
        r->binary_measured = 1;
    else if (!r->note[0])
        snprintf(r->note, sizeof r->note, "the driver gave no binary that it would load again");
    remove(bin);
}
