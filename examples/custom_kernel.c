/* custom_kernel: your own OpenCL C kernels, on the device clrt picks.
 *
 * 1. SAXPY (y = a x + y) over a size that is not a multiple of the
 *    work-group, checked against the host.
 * 2. A Mandelbrot image over a 2-D range, checked against the host and
 *    written as a PGM file when a path is given.
 *
 *   ./custom_kernel                    default device ($CLRT_DEVICE, else the best)
 *   ./custom_kernel mandelbrot.pgm     also write the image
 *   CLRT_DEVICE=cpu ./custom_kernel
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <clrt/clrt.h>

/* OpenCL C, compiled at run time for the chosen device. Every kernel gets its
 * real sizes and skips the work-items beyond them, so that the launch may be
 * rounded up to whole work-groups. */
static const char kernels[] =
    "__kernel void saxpy(const uint n, const float a,\n"
    "                    __global const float *x, __global float *y)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        y[i] = a * x[i] + y[i];\n"
    "}\n"
    "\n"
    "/* Iterations before |z| > 2 for the pixel's c, as a gray level. */\n"
    "__kernel void mandelbrot(const uint width, const uint height, const uint max_iter,\n"
    "                         __global float *image)\n"
    "{\n"
    "    size_t px = get_global_id(0), py = get_global_id(1);\n"
    "    if (px >= width || py >= height)\n"
    "        return;\n"
    "    float cr = -2.0f + 3.0f * (float)px / (float)width;\n"
    "    float ci = -1.25f + 2.5f * (float)py / (float)height;\n"
    "    float zr = 0.0f, zi = 0.0f;\n"
    "    uint it = 0;\n"
    "    while (it < max_iter && zr * zr + zi * zi <= 4.0f) {\n"
    "        float t = zr * zr - zi * zi + cr;\n"
    "        zi = 2.0f * zr * zi + ci;\n"
    "        zr = t;\n"
    "        it++;\n"
    "    }\n"
    "    image[py * width + px] = (float)it;\n"
    "}\n";

static int check(int status, const char *what)
{
    if (status != CLRT_OK)
        fprintf(stderr, "custom_kernel: %s: %s\n%s\n", what, clrt_status_name(status), clrt_error_message());
    return status != CLRT_OK;
}

/* The host's iteration count for a pixel, in the same float arithmetic. */
static unsigned mandel_host(unsigned px, unsigned py, unsigned w, unsigned h, unsigned max_iter)
{
    float cr = -2.0f + 3.0f * (float)px / (float)w;
    float ci = -1.25f + 2.5f * (float)py / (float)h;
    float zr = 0.0f, zi = 0.0f;
    unsigned it = 0;
    while (it < max_iter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        it++;
    }
    return it;
}

/* The image as a greyscale PGM file: white outside the set, black inside.
 * Returns 0, or -1 after saying what failed. */
static int write_pgm(const char *path, const float *img, unsigned w, unsigned h, unsigned max_iter)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        return -1;
    }
    fprintf(f, "P5\n%u %u\n255\n", w, h);
    for (size_t i = 0; i < (size_t)w * h; i++)
        fputc((int)(255.0 * (1.0 - sqrt((double)img[i] / max_iter))), f);
    if (fclose(f) != 0) {
        perror(path);
        return -1;
    }
    printf("wrote %s\n", path);
    return 0;
}

int main(int argc, char **argv)
{
    const char *pgm = argc > 1 ? argv[1] : NULL;
    enum { N = 100003, W = 301, H = 200, MAX_ITER = 255 };
    clrt_context *ctx = NULL;
    clrt_queue *q = NULL;
    clrt_program *program = NULL;
    clrt_kernel *saxpy = NULL, *mandel = NULL;
    clrt_buffer *x = NULL, *y = NULL, *image = NULL;
    float *hx = malloc(N * sizeof *hx), *hy = malloc(N * sizeof *hy), *img = malloc(W * H * sizeof *img);
    int rc = 1;
    if (!hx || !hy || !img) {
        fprintf(stderr, "custom_kernel: out of host memory\n");
        goto done;
    }

    /* the device, and the program built for it (cached: built once per context) */
    if (check(clrt_context_create(&ctx, NULL), "clrt_context_create") ||
        check(clrt_queue_create(&q, ctx), "clrt_queue_create") ||
        check(clrt_program_create(&program, ctx, kernels, "-cl-std=CL1.2"), "clrt_program_create") ||
        check(clrt_kernel_create(&saxpy, program, "saxpy"), "clrt_kernel_create saxpy") ||
        check(clrt_kernel_create(&mandel, program, "mandelbrot"), "clrt_kernel_create mandelbrot"))
        goto done;
    clrt_device_info dev;
    clrt_context_device(ctx, &dev);
    printf("device: %s (%s)\n", dev.name, dev.platform);

    /* ---- 1. SAXPY: scalar and buffer arguments, a rounded 1-D launch */
    for (size_t i = 0; i < N; i++) {
        hx[i] = (float)(i % 1000) * 0.5f;
        hy[i] = 1.0f;
    }
    unsigned n = N; /* a uint argument is 4 bytes, like cl_uint */
    float a = 3.0f;
    size_t global = N, local = 64; /* N is not a multiple of 64: round up */
    if (local > clrt_kernel_work_group_size(saxpy))
        local = clrt_kernel_work_group_size(saxpy);
    if (check(clrt_buffer_create(&x, ctx, CLRT_FLOAT32, 1, N), "clrt_buffer_create") ||
        check(clrt_buffer_create(&y, ctx, CLRT_FLOAT32, 1, N), "clrt_buffer_create") ||
        check(clrt_buffer_write(q, x, hx, N), "clrt_buffer_write") ||
        check(clrt_buffer_write(q, y, hy, N), "clrt_buffer_write") ||
        check(clrt_kernel_set_scalar(saxpy, 0, sizeof n, &n), "set n") ||
        check(clrt_kernel_set_scalar(saxpy, 1, sizeof a, &a), "set a") ||
        check(clrt_kernel_set_buffer(saxpy, 2, x), "set x") ||
        check(clrt_kernel_set_buffer(saxpy, 3, y), "set y") ||
        check(clrt_kernel_launch_rounded(q, saxpy, 1, &global, &local), "launch saxpy") ||
        check(clrt_buffer_read(q, y, hy, N), "clrt_buffer_read"))
        goto done;
    size_t wrong = 0;
    for (size_t i = 0; i < N; i++) {
        float want = a * ((float)(i % 1000) * 0.5f) + 1.0f; /* exact in float */
        wrong += hy[i] != want;
    }
    printf("saxpy      n = %d, work-groups of %zu: %zu wrong\n", N, local, wrong);

    /* ---- 2. Mandelbrot: a 2-D launch, the local size left to clrt */
    unsigned w = W, h = H, max_iter = MAX_ITER;
    size_t range[2] = {W, H};
    if (check(clrt_buffer_create(&image, ctx, CLRT_FLOAT32, H, W), "clrt_buffer_create") ||
        check(clrt_kernel_set_scalar(mandel, 0, sizeof w, &w), "set width") ||
        check(clrt_kernel_set_scalar(mandel, 1, sizeof h, &h), "set height") ||
        check(clrt_kernel_set_scalar(mandel, 2, sizeof max_iter, &max_iter), "set max_iter") ||
        check(clrt_kernel_set_buffer(mandel, 3, image), "set image") ||
        check(clrt_kernel_launch_rounded(q, mandel, 2, range, NULL), "launch mandelbrot") ||
        check(clrt_buffer_read(q, image, img, W * H), "clrt_buffer_read"))
        goto done;
    /* OpenCL C may contract a * b + c into one rounding (an fma), which
     * moves a few pixels on the set's edge by some iterations: allow 1% of
     * the pixels to differ. */
    size_t differ = 0;
    for (unsigned py = 0; py < H; py++)
        for (unsigned px = 0; px < W; px++)
            differ += img[py * W + px] != (float)mandel_host(px, py, W, H, MAX_ITER);
    printf("mandelbrot %dx%d: %zu of %d pixels differ from the host\n", W, H, differ, W * H);

    if (pgm && write_pgm(pgm, img, W, H, MAX_ITER) != 0)
        goto done;
    rc = (wrong == 0 && differ <= (size_t)W * H / 100) ? 0 : 1;
    printf("%s\n", rc == 0 ? "OK: results match the host" : "FAILED: results differ from the host");

done:
    clrt_buffer_destroy(x);
    clrt_buffer_destroy(y);
    clrt_buffer_destroy(image);
    clrt_kernel_destroy(saxpy);
    clrt_kernel_destroy(mandel);
    clrt_program_destroy(program);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    free(hx);
    free(hy);
    free(img);
    return rc;
}
