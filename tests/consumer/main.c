/* A program of an outside project, built against an installed clrt: a
 * matrix product, a user kernel and a raw OpenCL call, each checked; then it
 * tunes the device's add kernel with the public tuning API, stores the
 * result in a tuned file of its own, and checks that a new context runs with
 * what it stored. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <clrt/clrt.h>
#include <clrt/clrt_cl.h>
#include <clrt/clrt_tune.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        int s_ = (call);                                                                           \
        if (s_ != CLRT_OK) {                                                                       \
            fprintf(stderr, "consumer: %s: %s\n%s\n", #call, clrt_status_name(s_), clrt_error_message()); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

static const char scale_source[] =
    "__kernel void scale(const uint n, const float s, __global float *v)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        v[i] *= s;\n"
    "}\n";

/* Tunes the add kernel (one quick pass at a small size, as a user would with the
 * defaults' sizes), stores the winner in a tuned file of its own and checks that a
 * new context runs with it. 0, or 1 after saying what failed. */
static int tune_and_read_back(clrt_context *ctx, clrt_tune_result *r)
{
    clrt_tune_options o;
    clrt_tune_options_init(&o);
    o.quick = 1;
    o.passes = 1;
    o.size = 100000;
    CHECK(clrt_tune_run(ctx, "add", CLRT_FLOAT32, &o, r));
    if (r->tried < 2 || r->wrong != 0 || !r->best[0]) {
        fprintf(stderr, "consumer: the tuner tried %zu, %zu wrong, best '%s'\n", r->tried, r->wrong, r->best);
        return 1;
    }
    /* a folder of its own: clrt keeps a tuned file only where no other user may write (docs/tuning.md) */
    char dir[] = "/tmp/clrt-consumer-XXXXXX", path[64];
    if (!mkdtemp(dir))
        return 1;
    snprintf(path, sizeof path, "%s/add.tuned", dir);
    /* whatever won (the defaults when nothing did), stored and read back by a new context */
    CHECK(clrt_tune_file_store(ctx, path, "add", CLRT_FLOAT32, r->best, r->summary));
    setenv("CLRT_TUNED_FILE", path, 1);
    clrt_context *ctx2;
    char now[256];
    clrt_params_origin origin;
    CHECK(clrt_context_create(&ctx2, NULL));
    CHECK(clrt_tune_current(ctx2, "add", CLRT_FLOAT32, now, sizeof now, &origin));
    clrt_context_destroy(ctx2);
    unsetenv("CLRT_TUNED_FILE");
    unlink(path);
    rmdir(dir);
    if (origin != CLRT_PARAMS_TUNED || strcmp(now, r->best) != 0) {
        fprintf(stderr, "consumer: stored '%s', a new context runs '%s' (origin %d)\n", r->best, now, (int)origin);
        return 1;
    }
    return 0;
}

int main(void)
{
#ifdef CLRT_STATIC
    const char *linkage = "static";
#else
    const char *linkage = "shared";
#endif
#if defined(EXPECT_STATIC) != defined(CLRT_STATIC)
    fprintf(stderr, "consumer: CLRT_STATIC (%s) does not match the library asked for\n", linkage);
    return 1;
#endif
    char header_version[32];
    snprintf(header_version, sizeof header_version, "%d.%d.%d", CLRT_VERSION_MAJOR, CLRT_VERSION_MINOR,
             CLRT_VERSION_PATCH);
    if (strcmp(header_version, clrt_version()) != 0) {
        fprintf(stderr, "consumer: header version %s, library version %s\n", header_version, clrt_version());
        return 1;
    }

    enum { M = 7, K = 5, N = 3 };
    float a[M * K], b[K * N], c[M * N];
    for (int i = 0; i < M * K; i++)
        a[i] = (float)(i % 5) - 2.0f;
    for (int i = 0; i < K * N; i++)
        b[i] = (float)(i % 3) + 0.5f;

    clrt_context *ctx;
    clrt_queue *q;
    clrt_buffer *da, *db, *dc;
    CHECK(clrt_context_create(&ctx, NULL));
    CHECK(clrt_queue_create(&q, ctx));
    CHECK(clrt_buffer_create(&da, ctx, CLRT_FLOAT32, M, K));
    CHECK(clrt_buffer_create(&db, ctx, CLRT_FLOAT32, K, N));
    CHECK(clrt_buffer_create(&dc, ctx, CLRT_FLOAT32, M, N));
    CHECK(clrt_buffer_write(q, da, a, M * K));
    CHECK(clrt_buffer_write(q, db, b, K * N));

    /* c = a b, then c *= 2 with a user kernel */
    clrt_program *p;
    clrt_kernel *k;
    CHECK(clrt_matmul(q, dc, da, db));
    CHECK(clrt_program_create(&p, ctx, scale_source, NULL));
    CHECK(clrt_kernel_create(&k, p, "scale"));
    clrt_program_destroy(p);
    cl_uint n = M * N;
    cl_float two = 2.0f;
    CHECK(clrt_kernel_set_scalar(k, 0, sizeof n, &n));
    CHECK(clrt_kernel_set_scalar(k, 1, sizeof two, &two));
    CHECK(clrt_kernel_set_buffer(k, 2, dc));
    size_t global = M * N;
    CHECK(clrt_kernel_launch_rounded(q, k, 1, &global, NULL));
    CHECK(clrt_buffer_read(q, dc, c, M * N));
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float ref = 0;
            for (int kk = 0; kk < K; kk++)
                ref += a[i * K + kk] * b[kk * N + j];
            if (fabsf(c[i * N + j] - 2.0f * ref) > 1e-4f) {
                fprintf(stderr, "consumer: c[%d][%d] = %g, expected %g\n", i, j, (double)c[i * N + j],
                        2.0 * (double)ref);
                return 1;
            }
        }

    /* the raw OpenCL objects: the buffer's size, read back with plain OpenCL */
    size_t bytes = 0;
    float raw[M * N];
    if (clGetMemObjectInfo(clrt_buffer_cl(dc), CL_MEM_SIZE, sizeof bytes, &bytes, NULL) != CL_SUCCESS ||
        bytes != sizeof raw ||
        clEnqueueReadBuffer(clrt_queue_cl(q), clrt_buffer_cl(dc), CL_TRUE, 0, sizeof raw, raw, 0, NULL, NULL) !=
            CL_SUCCESS ||
        memcmp(raw, c, sizeof raw) != 0) {
        fprintf(stderr, "consumer: the raw cl_mem does not hold the result\n");
        return 1;
    }

    clrt_tune_result r;
    if (tune_and_read_back(ctx, &r) != 0)
        return 1;

    clrt_device_info dev;
    CHECK(clrt_context_device(ctx, &dev));
    printf("consumer OK: clrt %s (%s library), device %s; tuned add: %s (%s)\n", clrt_version(), linkage, dev.name,
           r.best, r.improved ? "better than the defaults" : "the defaults stayed");
    clrt_kernel_destroy(k);
    clrt_buffer_destroy(da);
    clrt_buffer_destroy(db);
    clrt_buffer_destroy(dc);
    clrt_queue_destroy(q);
    clrt_context_destroy(ctx);
    return 0;
}
