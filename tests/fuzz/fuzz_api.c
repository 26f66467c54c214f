/* libFuzzer target: argument validation of every public entry point, against
 * a model of the contract in clrt.h that predicts the exact status of each
 * call from the arguments alone.
 *
 * The first input byte picks a mode:
 *   even: made-up handles (any tag, dtype, shape, context, failed or destroyed
 *         flags) built from the input; only calls the model says must be
 *         refused are made, since an accepted call would reach OpenCL with
 *         fake objects. Needs no device.
 *   odd:  a sequence of calls on a real context (the first device, skipped
 *         without one) over a table of real buffers, every call made. The
 *         context's max_alloc is capped at 64 KiB, so the library itself
 *         refuses anything big before allocating: no huge buffers on POCL.
 * After each input, everything is destroyed and the live-handle counts must
 * be back to the context and its queue. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/debug.h"
#include "base/error.h"
#include "kernels/table.h"
#include "runtime/handles.h"

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_api: %s: ", #cond);                                              \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\nlast message: %s\n", clrt_error_message());                         \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

enum { CAP = 1 << 16, SLOTS = 6 };

static clrt_context *real_ctx;
static clrt_queue *real_q;
static double host[CAP / sizeof(double)]; /* big enough for any buffer the cap allows */

/* ---- reading the input */

typedef struct input {
    const uint8_t *p;
    size_t n;
} input;

static unsigned u8(input *in)
{
    if (!in->n)
        return 0;
    in->n--;
    return *in->p++;
}

/* A dimension: mostly small, sometimes 0, large, or near SIZE_MAX. */
static size_t dim(input *in)
{
    unsigned k = u8(in);
    switch (k >> 5) {
    case 0:
        return k & 1 ? 0 : 1;
    case 5: {
        size_t hi = u8(in); /* two statements: the order of reads is defined */
        return hi << 8 | u8(in);
    }
    case 6:
        return SIZE_MAX >> (k & 31);
    case 7:
        return (size_t)1 << (k & 63);
    default:
        return 1 + (k & 63);
    }
}

static clrt_dtype dtype_of(unsigned k)
{
    static const int dtypes[] = {CLRT_FLOAT32, CLRT_FLOAT64, CLRT_FLOAT16, CLRT_INT32, 0, CLRT_BFLOAT16, 6, -1};
    return (clrt_dtype)dtypes[k & 7];
}

/* ---- the model: what clrt.h says each call must return */

static int is16(clrt_dtype d) { return d == CLRT_FLOAT16 || d == CLRT_BFLOAT16; }

static size_t elem_of(clrt_dtype d)
{
    return d == CLRT_FLOAT32 || d == CLRT_INT32 ? 4 : d == CLRT_FLOAT64 ? 8 : is16(d) ? 2 : 0;
}

static int ctx_live(const clrt_context *c) { return c && c->tag == CLRT__TAG_CONTEXT; }

static int expect_create(void *out, const clrt_context *c, clrt_dtype d, size_t rows, size_t cols)
{
    if (!out || !ctx_live(c) || atomic_load(&c->destroyed))
        return CLRT_EINVAL;
    size_t elem = elem_of(d), n, bytes;
    if (!elem || rows == 0 || cols == 0 || __builtin_mul_overflow(rows, cols, &n) ||
        __builtin_mul_overflow(n, elem, &bytes))
        return CLRT_EINVAL;
    if (d == CLRT_FLOAT64 && !c->info.has_fp64)
        return CLRT_EUNSUPPORTED;
    if (bytes > c->info.max_alloc)
        return CLRT_ENOMEM;
    return atomic_load(&c->failed) ? CLRT_EDEVICE : CLRT_OK;
}

/* Every argument is checked first; only a call whose arguments are all right
 * is refused for a context that failed late (CLRT_EDEVICE). */
static int usable(const clrt_context *c) { return atomic_load(&c->failed) ? CLRT_EDEVICE : CLRT_OK; }

static int expect_queue(const clrt_queue *q) { return (!q || q->tag != CLRT__TAG_QUEUE) ? CLRT_EINVAL : CLRT_OK; }

static int buf_live(const clrt_buffer *b) { return b && b->tag == CLRT__TAG_BUFFER; }

static int expect_transfer(const clrt_queue *q, const clrt_buffer *b, const void *h, size_t count)
{
    int s = expect_queue(q);
    if (s != CLRT_OK)
        return s;
    if (!buf_live(b) || b->ctx != q->ctx || !h || count != b->rows * b->cols)
        return CLRT_EINVAL;
    return usable(q->ctx);
}

static int expect_operands(const clrt_queue *q, const clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b,
                           int no_alias)
{
    int s = expect_queue(q);
    if (s != CLRT_OK)
        return s;
    if (!buf_live(c) || !buf_live(a) || !buf_live(b))
        return CLRT_EINVAL;
    if (no_alias && (c == a || c == b))
        return CLRT_EINVAL;
    if (a->ctx != q->ctx || b->ctx != q->ctx || c->ctx != q->ctx)
        return CLRT_EINVAL;
    /* a and b share a dtype; c is it, or float32 where a and b are 16-bit (computed in float32) */
    if (a->dtype != b->dtype || (a->dtype != c->dtype && !(is16(a->dtype) && c->dtype == CLRT_FLOAT32)))
        return CLRT_ESHAPE;
    return CLRT_OK;
}

/* A 16-bit operand that runs widened has a float32 copy of its shape, which the
 * device must be able to hold (CLRT_ENOMEM otherwise). */
static int widened_fits(const clrt_queue *q, const clrt_buffer *x)
{
    return !is16(x->dtype) || x->rows * x->cols <= q->ctx->info.max_alloc / sizeof(float);
}

static int expect_add(const clrt_queue *q, const clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b)
{
    int s = expect_operands(q, c, a, b, 0);
    if (s != CLRT_OK)
        return s;
    if (a->dtype == CLRT_INT32)
        return CLRT_EUNSUPPORTED; /* no arithmetic on int32 */
    if (!(a->rows == b->rows && a->cols == b->cols && c->rows == a->rows && c->cols == a->cols))
        return CLRT_ESHAPE;
    s = usable(q->ctx);
    /* operands all of one 16-bit dtype run in one pass (nothing widened); 16-bit
     * inputs with a float32 c are widened (b has a's shape) */
    if (s == CLRT_OK && c->dtype != a->dtype && !widened_fits(q, a))
        return CLRT_ENOMEM;
    return s;
}

static int expect_matmul(const clrt_queue *q, const clrt_buffer *c, const clrt_buffer *a, const clrt_buffer *b)
{
    int s = expect_operands(q, c, a, b, 1);
    if (s != CLRT_OK)
        return s;
    if (a->dtype == CLRT_INT32)
        return CLRT_EUNSUPPORTED;
    if (a->cols != b->rows || c->rows != a->rows || c->cols != b->cols)
        return CLRT_ESHAPE;
    if (a->rows > UINT_MAX || a->cols > UINT_MAX || b->cols > UINT_MAX)
        return CLRT_EUNSUPPORTED;
    s = usable(q->ctx);
    if (s == CLRT_OK && (!widened_fits(q, a) || !widened_fits(q, b) || !widened_fits(q, c)))
        return CLRT_ENOMEM;
    return s;
}

/* The call returned what the model says; a refusal names its function. */
static void verdict(int got, int want, const char *func, const char *what)
{
    CHECK(got == want, "%s: %s returned %s, the contract says %s", func, what, clrt_status_name(got),
          clrt_status_name(want));
    if (got != CLRT_OK) {
        size_t n = strlen(func);
        const char *msg = clrt_error_message();
        CHECK(strncmp(msg, func, n) == 0 && msg[n] == ':', "%s: message does not name the function", func);
    }
}

/* ---- mode 0: made-up handles, refusals only */

typedef struct fake {
    clrt_context ctx[2];
    clrt_queue q[2];
    clrt_buffer buf[4];
} fake;

static void fake_init(fake *f, input *in)
{
    memset(f, 0, sizeof *f);
    for (int i = 0; i < 2; i++) {
        unsigned flags = u8(in);
        f->ctx[i].tag = (flags & 7) == 7 ? CLRT__TAG_DEAD : CLRT__TAG_CONTEXT;
        atomic_init(&f->ctx[i].refs, 1);
        atomic_init(&f->ctx[i].destroyed, (flags >> 3) & 1);
        atomic_init(&f->ctx[i].failed, (flags >> 4) & 1);
        f->ctx[i].info.has_fp64 = (flags >> 5) & 1;
        f->ctx[i].info.max_alloc = (uint64_t)1 << (u8(in) & 63);
        f->q[i].tag = (flags >> 6) == 3 ? CLRT__TAG_DEAD : CLRT__TAG_QUEUE;
        f->q[i].ctx = &f->ctx[i];
    }
    for (int i = 0; i < 4; i++) {
        unsigned k = u8(in);
        clrt_buffer *b = &f->buf[i];
        b->tag = (k & 15) == 15 ? CLRT__TAG_DEAD : CLRT__TAG_BUFFER;
        b->ctx = &f->ctx[(k >> 4) & 1];
        b->dtype = dtype_of(k >> 5);
        b->rows = dim(in);
        b->cols = dim(in);
        /* a real buffer never has a zero dimension or an overflowing size */
        size_t n;
        if (b->rows == 0 || b->cols == 0 || __builtin_mul_overflow(b->rows, b->cols, &n) || n > SIZE_MAX / 8)
            b->rows = b->cols = 1;
        b->ld = b->cols;
        b->elem = 8;
        b->cl = (cl_mem)(uintptr_t)(0x1000 + 0x100 * (unsigned)i); /* memory of its own: no overlaps */
    }
}

static clrt_queue *fake_queue(fake *f, unsigned k) { return (k & 3) == 3 ? NULL : &f->q[k & 1]; }
static clrt_buffer *fake_buf(fake *f, unsigned k) { return (k & 7) >= 4 && (k & 7) != 4 ? NULL : &f->buf[k & 3]; }

static void run_fake(input *in)
{
    fake f;
    fake_init(&f, in);
    while (in->n) {
        unsigned op = u8(in) % 6;
        clrt_queue *q = fake_queue(&f, u8(in));
        clrt_buffer *c = fake_buf(&f, u8(in)), *a = fake_buf(&f, u8(in)), *b = fake_buf(&f, u8(in));
        int want;
        switch (op) {
        case 0: {
            clrt_context *ctx = (u8(in) & 3) == 3 ? NULL : &f.ctx[u8(in) & 1];
            clrt_dtype d = dtype_of(u8(in));
            size_t rows = dim(in), cols = dim(in);
            clrt_buffer *out = (clrt_buffer *)&f, **outp = (u8(in) & 7) == 7 ? NULL : &out;
            want = expect_create(outp, ctx, d, rows, cols);
            if (want != CLRT_OK) {
                verdict(clrt_buffer_create(outp, ctx, d, rows, cols), want, "clrt_buffer_create", "create");
                CHECK(!outp || out == NULL, "a refused create left a handle");
            }
            break;
        }
        case 1:
        case 2: {
            /* one off either way, exact, or any size for a missing buffer */
            size_t count = c ? c->rows * c->cols + u8(in) % 3 - 1 : dim(in);
            const void *h = (u8(in) & 7) == 7 ? NULL : host;
            want = expect_transfer(q, c, h, count);
            if (want != CLRT_OK) {
                clrt_event *ev = (clrt_event *)&f; /* the asynchronous copies check the same */
                if (op == 1) {
                    verdict(clrt_buffer_write(q, c, h, count), want, "clrt_buffer_write", "write");
                    verdict(clrt_buffer_write_async(q, c, h, count, &ev), want, "clrt_buffer_write_async",
                            "write_async");
                } else {
                    verdict(clrt_buffer_read(q, c, (void *)h, count), want, "clrt_buffer_read", "read");
                    verdict(clrt_buffer_read_async(q, c, (void *)h, count, &ev), want, "clrt_buffer_read_async",
                            "read_async");
                }
                CHECK(ev == NULL, "a refused asynchronous copy left an event");
            }
            break;
        }
        case 3:
            want = expect_add(q, c, a, b);
            if (want != CLRT_OK)
                verdict(clrt_add(q, c, a, b), want, "clrt_add", "add");
            break;
        case 4:
            want = expect_matmul(q, c, a, b);
            if (want != CLRT_OK)
                verdict(clrt_matmul(q, c, a, b), want, "clrt_matmul", "matmul");
            break;
        default: {
            clrt_queue *out = (clrt_queue *)&f;
            clrt_context *ctx = (u8(in) & 3) == 3 ? NULL : &f.ctx[u8(in) & 1];
            want = !ctx_live(ctx) || atomic_load(&ctx->destroyed) ? CLRT_EINVAL
                   : atomic_load(&ctx->failed)                  ? CLRT_EDEVICE
                                                                : CLRT_OK;
            if (want != CLRT_OK) {
                verdict(clrt_queue_create(&out, ctx), want, "clrt_queue_create", "queue_create");
                CHECK(out == NULL, "a refused queue_create left a handle");
            }
            want = expect_queue(q) != CLRT_OK ? CLRT_EINVAL : usable(q->ctx);
            if (want != CLRT_OK) {
                verdict(clrt_queue_finish(q), want, "clrt_queue_finish", "finish");
                clrt_event *ev = (clrt_event *)&f;
                verdict(clrt_event_record(&ev, q), want, "clrt_event_record", "event_record");
                CHECK(ev == NULL, "a refused event_record left an event");
            }
            /* getters on anything: never a crash, 0 for a dead handle */
            if (c && c->tag != CLRT__TAG_BUFFER)
                CHECK(clrt_buffer_rows(c) == 0 && clrt_buffer_cols(c) == 0 && clrt_buffer_dtype(c) == 0,
                      "a dead buffer reports a shape");
            break;
        }
        }
    }
}

/* ---- mode 1: real buffers on a real context */

static void run_real(input *in)
{
    clrt_buffer *slot[SLOTS] = {NULL};
    unsigned ops = 0;
    while (in->n && ops++ < 64) {
        unsigned op = u8(in) % 8;
        unsigned k = u8(in);
        clrt_buffer *c = slot[k % SLOTS], *a = slot[(k / SLOTS) % SLOTS], *b = slot[u8(in) % SLOTS];
        switch (op) {
        case 0: {
            unsigned s = k % SLOTS;
            clrt_dtype d = dtype_of(u8(in));
            size_t rows = dim(in), cols = dim(in);
            clrt_buffer_destroy(slot[s]);
            slot[s] = NULL;
            int want = expect_create(&slot[s], real_ctx, d, rows, cols);
            verdict(clrt_buffer_create(&slot[s], real_ctx, d, rows, cols), want, "clrt_buffer_create", "create");
            CHECK((want == CLRT_OK) == (slot[s] != NULL), "create's handle does not match its status");
            if (slot[s]) /* defined contents, so kernels read no garbage */
                verdict(clrt_buffer_write(real_q, slot[s], host, rows * cols), CLRT_OK, "clrt_buffer_write",
                        "write");
            break;
        }
        case 1:
            clrt_buffer_destroy(slot[k % SLOTS]);
            slot[k % SLOTS] = NULL;
            break;
        case 2:
        case 3: {
            /* the exact count, one off either way, or anything */
            unsigned m = u8(in) & 3;
            size_t exact = c ? c->rows * c->cols : 1;
            size_t count = m == 0 ? exact - 1 : m == 1 ? exact + 1 : m == 2 ? exact : dim(in);
            int want = expect_transfer(real_q, c, host, count);
            clrt_event *ev = NULL;
            if (op == 2) {
                verdict(clrt_buffer_write(real_q, c, host, count), want, "clrt_buffer_write", "write");
                verdict(clrt_buffer_write_async(real_q, c, host, count, &ev), want, "clrt_buffer_write_async",
                        "write_async");
            } else {
                verdict(clrt_buffer_read(real_q, c, host, count), want, "clrt_buffer_read", "read");
                verdict(clrt_buffer_read_async(real_q, c, host, count, &ev), want, "clrt_buffer_read_async",
                        "read_async");
            }
            CHECK((want == CLRT_OK) == (ev != NULL), "an asynchronous copy's event does not match its status");
            if (ev) /* host is read and written by the next calls: done with it first */
                verdict(clrt_event_wait(ev), CLRT_OK, "clrt_event_wait", "event_wait");
            clrt_event_destroy(ev);
            break;
        }
        case 4:
            verdict(clrt_add(real_q, c, a, b), expect_add(real_q, c, a, b), "clrt_add", "add");
            break;
        case 5:
            verdict(clrt_matmul(real_q, c, a, b), expect_matmul(real_q, c, a, b), "clrt_matmul", "matmul");
            break;
        case 6:
            verdict(clrt_queue_finish(real_q), CLRT_OK, "clrt_queue_finish", "finish");
            break;
        default: {
            /* a short selector: a device or CLRT_ENODEVICE, never anything else */
            char sel[9];
            size_t n = k % sizeof sel;
            for (size_t i = 0; i < n; i++)
                sel[i] = (char)u8(in);
            sel[n] = '\0';
            clrt_context *ctx = NULL;
            int s = clrt_context_create(&ctx, sel);
            CHECK(s == CLRT_OK || s == CLRT_ENODEVICE, "selector gave %s", clrt_status_name(s));
            CHECK((s == CLRT_OK) == (ctx != NULL), "context handle does not match its status");
            clrt_context_destroy(ctx);
            break;
        }
        }
    }
    for (int i = 0; i < SLOTS; i++)
        clrt_buffer_destroy(slot[i]);
    verdict(clrt_queue_finish(real_q), CLRT_OK, "clrt_queue_finish", "finish");
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("CLRT_CACHE", "off", 1); /* no disk writes per input */
    size_t n = 0;
    if (clrt_device_list(NULL, 0, &n) != CLRT_OK || n == 0 || clrt_context_create(&real_ctx, "0") != CLRT_OK ||
        clrt_queue_create(&real_q, real_ctx) != CLRT_OK) {
        fprintf(stderr, "fuzz_api: no device (%s); only made-up handles are fuzzed\n", clrt_error_message());
        clrt_context_destroy(real_ctx);
        real_ctx = NULL;
        return 0;
    }
    /* The library refuses above max_alloc before any allocation: capping it
     * here keeps every accepted buffer small. */
    if (real_ctx->info.max_alloc > CAP)
        real_ctx->info.max_alloc = CAP;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input in = {data, size};
    if (size == 0)
        return 0;
    if (u8(&in) & 1) {
        if (real_ctx)
            run_real(&in);
    } else {
        run_fake(&in);
    }
    long want_ctx = real_ctx ? 1 : 0;
    CHECK(clrt__debug_live(CLRT__LIVE_CONTEXT) == want_ctx && clrt__debug_live(CLRT__LIVE_QUEUE) == want_ctx &&
              clrt__debug_live(CLRT__LIVE_BUFFER) == 0,
          "live handles after an input: %ld contexts, %ld queues, %ld buffers", clrt__debug_live(CLRT__LIVE_CONTEXT),
          clrt__debug_live(CLRT__LIVE_QUEUE), clrt__debug_live(CLRT__LIVE_BUFFER));
    return 0;
}
