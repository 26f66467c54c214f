/* clrt-bench: per-operation overhead (see bench/measure/overhead.h). */
#include "measure/overhead.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clrt/clrt_cl.h>
#include <clrt/clrt_tune.h>

#include "measure/timing.h"
#include "report/progress.h"

enum { NARGS = 13, MAX_ROUNDS = 31, MAX_TRIPS = 1000 };

/* The measurement: clrt's three buffers of n floats, and the raw pair's
 * cl_kernel with its arguments and launch sizes. */
typedef struct tiny_add {
    bench_overhead *o;
    const bench_opts *opts;
    bench_session *s;
    clrt_buffer *a, *b, *c;
    cl_kernel kernel;
    cl_command_queue cq;
    cl_mem ma, mb, mc;
    cl_ulong rows, n, zero;
    float scalar;
    size_t arg_sizes[NARGS];
    const void *arg_values[NARGS];
    size_t global[2], local[2];
    int failed; /* a clrt call failed */
    cl_int e;   /* the first raw call that failed */
} tiny_add;

/* clrt's buffers, written, and one add run (its kernel built); a clrt status. */
static int make_buffers(tiny_add *t, const float *h)
{
    bench_session *s = t->s;
    const size_t n = t->o->n;
    int st = h ? clrt_buffer_create(&t->a, s->ctx, CLRT_FLOAT32, 1, n) : CLRT_ENOMEM;
    if (st == CLRT_OK)
        st = clrt_buffer_create(&t->b, s->ctx, CLRT_FLOAT32, 1, n);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&t->c, s->ctx, CLRT_FLOAT32, 1, n);
    if (st == CLRT_OK)
        st = clrt_buffer_write(s->q, t->a, h, n);
    if (st == CLRT_OK)
        st = clrt_buffer_write(s->q, t->b, h, n);
    if (st == CLRT_OK)
        st = clrt_add(s->q, t->c, t->a, t->b);
    if (st == CLRT_OK)
        st = clrt_queue_finish(s->q);
    return st;
}

/* The very same compiled kernel, as a second cl_kernel of clrt's program,
 * so that the raw calls leave the argument state of clrt's own alone. */
static int make_raw_kernel(tiny_add *t)
{
    cl_kernel own = clrt_context_kernel_cl(t->s->ctx, "elementwise", CLRT_FLOAT32);
    cl_program program = NULL;
    char name[64] = ""; /* the add's function: a program may hold every op's (one per op on CPUs) */
    cl_int e = own ? clGetKernelInfo(own, CL_KERNEL_PROGRAM, sizeof program, &program, NULL) : CL_INVALID_KERNEL;
    if (e == CL_SUCCESS)
        e = clGetKernelInfo(own, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
    t->kernel = e == CL_SUCCESS ? clCreateKernel(program, name, &e) : NULL;
    if (!t->kernel) {
        snprintf(t->o->note, sizeof t->o->note, "cannot make a raw kernel (%d)", (int)e);
        return -1;
    }
    return 0;
}

/* The arguments and launch rule of cl/elementwise.cl for c = a + b as one
 * row of n (the flat path; the kernel clrt_context_kernel_cl gives is the
 * add): global = roundup(ceil(n / (vw*items)), wg) x 1, local = wg x 1. */
static int raw_launch(tiny_add *t)
{
    t->cq = clrt_queue_cl(t->s->q);
    t->ma = clrt_buffer_cl(t->a);
    t->mb = clrt_buffer_cl(t->b);
    t->mc = clrt_buffer_cl(t->c);
    t->rows = 1;
    t->n = t->o->n;
    t->zero = 0;
    t->scalar = 0;
    const size_t sizes[NARGS] = {sizeof t->rows, sizeof t->n,    sizeof t->mc,     sizeof t->zero,  sizeof t->n,
                                 sizeof t->ma,   sizeof t->zero, sizeof t->n,      sizeof t->mb,    sizeof t->zero,
                                 sizeof t->zero, sizeof t->scalar, sizeof t->scalar};
    const void *const values[NARGS] = {&t->rows, &t->n,    &t->mc,   &t->zero,   &t->n,      &t->ma,    &t->zero,
                                       &t->n,    &t->mb,   &t->zero, &t->zero,   &t->scalar, &t->scalar};
    memcpy(t->arg_sizes, sizes, sizeof sizes);
    memcpy(t->arg_values, values, sizeof values);
    char params[256];
    unsigned vw = 0, items = 0, wg = 0;
    if (clrt_tune_current(t->s->ctx, "elementwise", CLRT_FLOAT32, params, sizeof params, NULL) != CLRT_OK ||
        sscanf(params, "vw=%u items=%u wg=%u", &vw, &items, &wg) != 3 || !vw || !items || !wg) {
        snprintf(t->o->note, sizeof t->o->note, "cannot read the elementwise kernel's parameters");
        return -1;
    }
    const size_t per = (size_t)vw * items;
    t->local[0] = wg;
    t->local[1] = 1;
    t->global[0] = ((t->o->n + per - 1) / per + wg - 1) / wg * wg;
    t->global[1] = 1;
    return 0;
}

static cl_int set_raw_args(const tiny_add *t)
{
    cl_int e = CL_SUCCESS;
    for (cl_uint j = 0; j < NARGS && e == CL_SUCCESS; j++)
        e = clSetKernelArg(t->kernel, j, t->arg_sizes[j], t->arg_values[j]);
    return e;
}

static cl_int enqueue_raw(const tiny_add *t)
{
    return clEnqueueNDRangeKernel(t->cq, t->kernel, 2, NULL, t->global, t->local, 0, NULL, NULL);
}

/* One round: ops operations of clrt, of the raw kernel with its arguments
 * set once, and with them set for every operation; seconds per operation
 * of each in tc, tr, ta. */
static void one_round(tiny_add *t, double *tc, double *tr, double *ta)
{
    const int ops = t->o->ops;
    double t0 = bench_now();
    for (int i = 0; i < ops && !t->failed; i++)
        t->failed = clrt_add(t->s->q, t->c, t->a, t->b) != CLRT_OK;
    t->failed |= clrt_queue_finish(t->s->q) != CLRT_OK;
    *tc = (bench_now() - t0) / ops;

    t0 = bench_now();
    for (int i = 0; i < ops && t->e == CL_SUCCESS; i++)
        t->e = enqueue_raw(t);
    t->e |= clFinish(t->cq);
    *tr = (bench_now() - t0) / ops;

    t0 = bench_now();
    for (int i = 0; i < ops && t->e == CL_SUCCESS; i++) {
        t->e = set_raw_args(t);
        t->e |= enqueue_raw(t);
    }
    t->e |= clFinish(t->cq);
    *ta = (bench_now() - t0) / ops;
}

/* The pipelined rounds' medians, per operation. */
typedef struct per_op {
    double clrt, raw, raw_args, ratio;
    int rounds;
} per_op;

/* Blocks of ops operations, clrt and raw in turn, many rounds: the
 * per-round ratios cancel the machine's drift; their medians in *m. */
static void pipelined(tiny_add *t, per_op *m)
{
    const int rounds = t->opts->quick ? 7 : MAX_ROUNDS;
    double tc[MAX_ROUNDS], tr[MAX_ROUNDS], ta[MAX_ROUNDS], ratio[MAX_ROUNDS];
    t->e = set_raw_args(t);
    for (int round = 0; round < rounds && !t->failed && t->e == CL_SUCCESS; round++) {
        one_round(t, &tc[round], &tr[round], &ta[round]);
        ratio[round] = tr[round] > 0 ? tc[round] / tr[round] : 0;
    }
    if (t->failed || t->e != CL_SUCCESS)
        return;
    bench_stats sc, sr, sa, sq;
    bench_stats_of(tc, rounds, &sc);
    bench_stats_of(tr, rounds, &sr);
    bench_stats_of(ta, rounds, &sa);
    bench_stats_of(ratio, rounds, &sq);
    *m = (per_op){sc.median, sr.median, sa.median, sq.median, rounds};
}

/* One operation and a wait for it, many times, clrt's and the raw pair's in
 * turn: what a caller that needs each result at once pays. Fills o->trip_*. */
static void round_trips(tiny_add *t)
{
    double tc[MAX_TRIPS], tr[MAX_TRIPS];
    const int trips = t->opts->quick ? 200 : MAX_TRIPS;
    for (int i = 0; i < trips; i++) {
        double t0 = bench_now();
        t->failed = clrt_add(t->s->q, t->c, t->a, t->b) != CLRT_OK || clrt_queue_finish(t->s->q) != CLRT_OK;
        tc[i] = bench_now() - t0;
        t0 = bench_now();
        t->e = enqueue_raw(t);
        if (t->e == CL_SUCCESS)
            t->e = clFinish(t->cq);
        tr[i] = bench_now() - t0;
        if (t->failed || t->e != CL_SUCCESS)
            return;
    }
    bench_stats sc, sr;
    bench_stats_of(tc, trips, &sc); /* sorts tc: the 90th percentile is read from it */
    bench_stats_of(tr, trips, &sr);
    bench_overhead *o = t->o;
    o->trips = trips;
    o->trip_clrt_median = sc.median;
    o->trip_clrt_min = sc.min;
    o->trip_clrt_p90 = tc[trips * 9 / 10];
    o->trip_raw_median = sr.median;
}

/* Both measurements with the raw kernel made; what failed, in o->note. */
static void measure(tiny_add *t)
{
    per_op m = {0};
    pipelined(t, &m);
    if (!t->failed && t->e == CL_SUCCESS)
        round_trips(t);
    bench_overhead *o = t->o;
    if (t->e != CL_SUCCESS) {
        snprintf(o->note, sizeof o->note, "a raw OpenCL call failed (%d)", (int)t->e);
    } else if (t->failed) {
        snprintf(o->note, sizeof o->note, "clrt_add failed: %.120s", clrt_error_message());
    } else {
        o->clrt_op = m.clrt;
        o->raw_op = m.raw;
        o->raw_args_op = m.raw_args;
        o->ratio = m.ratio;
        o->rounds = m.rounds;
        o->measured = 1;
    }
}

void bench_overhead_measure(bench_overhead *o, const bench_opts *opts, bench_session *s)
{
    memset(o, 0, sizeof *o);
    o->n = opts->overhead_n;
    o->ops = opts->overhead_ops;
    bench_progress("device %zu: tiny-add overhead", s->info.index);
    tiny_add t = {.o = o, .opts = opts, .s = s};
    float *h = calloc(o->n, sizeof *h);
    const int st = make_buffers(&t, h);
    if (st != CLRT_OK)
        snprintf(o->note, sizeof o->note, "%s: %.120s", clrt_status_name(st), clrt_error_message());
    else if (make_raw_kernel(&t) == 0) {
        if (raw_launch(&t) == 0)
            measure(&t);
        clReleaseKernel(t.kernel);
    }
    clrt_buffer_destroy(t.a);
    clrt_buffer_destroy(t.b);
    clrt_buffer_destroy(t.c);
    free(h);
}
