/* clrt-bench: per-operation overhead (see bench/overhead.h). */
#include "overhead.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clrt/clrt_cl.h>
#include <clrt/clrt_tune.h>

#include "progress.h"
#include "timing.h"

/* One operation and a wait for it, many times, clrt's and the raw pair's in
 * turn: what a caller that needs each result at once pays. Fills o->trip_*. */
static void round_trips(bench_overhead *o, const bench_opts *opts, bench_session *s, clrt_buffer *a, clrt_buffer *b,
                        clrt_buffer *c, cl_kernel kernel, const size_t *global, const size_t *local, int *failed,
                        cl_int *e)
{
    enum { MAX_TRIPS = 1000 };
    double tc[MAX_TRIPS], tr[MAX_TRIPS];
    const int trips = opts->quick ? 200 : MAX_TRIPS;
    cl_command_queue cq = clrt_queue_cl(s->q);
    for (int i = 0; i < trips; i++) {
        double t0 = bench_now();
        *failed = clrt_add(s->q, c, a, b) != CLRT_OK || clrt_queue_finish(s->q) != CLRT_OK;
        tc[i] = bench_now() - t0;
        t0 = bench_now();
        *e = clEnqueueNDRangeKernel(cq, kernel, 2, NULL, global, local, 0, NULL, NULL);
        if (*e == CL_SUCCESS)
            *e = clFinish(cq);
        tr[i] = bench_now() - t0;
        if (*failed || *e != CL_SUCCESS)
            return;
    }
    bench_stats sc, sr;
    bench_stats_of(tc, trips, &sc); /* sorts tc: the 90th percentile is read from it */
    bench_stats_of(tr, trips, &sr);
    o->trips = trips;
    o->trip_clrt_median = sc.median;
    o->trip_clrt_min = sc.min;
    o->trip_clrt_p90 = tc[trips * 9 / 10];
    o->trip_raw_median = sr.median;
}

void bench_overhead_measure(bench_overhead *o, const bench_opts *opts, bench_session *s)
{
    memset(o, 0, sizeof *o);
    o->n = opts->overhead_n;
    o->ops = opts->overhead_ops;
    bench_progress("device %zu: tiny-add overhead", s->info.index);
    clrt_buffer *a = NULL, *b = NULL, *c = NULL;
    float *h = calloc(o->n, sizeof *h);
    int st = h ? clrt_buffer_create(&a, s->ctx, CLRT_FLOAT32, 1, o->n) : CLRT_ENOMEM;
    if (st == CLRT_OK)
        st = clrt_buffer_create(&b, s->ctx, CLRT_FLOAT32, 1, o->n);
    if (st == CLRT_OK)
        st = clrt_buffer_create(&c, s->ctx, CLRT_FLOAT32, 1, o->n);
    if (st == CLRT_OK)
        st = clrt_buffer_write(s->q, a, h, o->n);
    if (st == CLRT_OK)
        st = clrt_buffer_write(s->q, b, h, o->n);
    if (st == CLRT_OK)
        st = clrt_add(s->q, c, a, b);
    if (st == CLRT_OK)
        st = clrt_queue_finish(s->q);
    if (st != CLRT_OK) {
        snprintf(o->note, sizeof o->note, "%s: %.120s", clrt_status_name(st), clrt_error_message());
        goto done;
    }
    /* The very same compiled kernel, as a second cl_kernel of clrt's program,
     * so that the raw calls leave the argument state of clrt's own alone. */
    cl_kernel own = clrt_context_kernel_cl(s->ctx, "elementwise", CLRT_FLOAT32);
    cl_program program = NULL;
    cl_int e = own ? clGetKernelInfo(own, CL_KERNEL_PROGRAM, sizeof program, &program, NULL) : CL_INVALID_KERNEL;
    cl_kernel kernel = e == CL_SUCCESS ? clCreateKernel(program, "elementwise", &e) : NULL;
    if (!kernel) {
        snprintf(o->note, sizeof o->note, "cannot make a raw kernel (%d)", (int)e);
        goto done;
    }
    cl_command_queue cq = clrt_queue_cl(s->q);
    cl_mem ma = clrt_buffer_cl(a), mb = clrt_buffer_cl(b), mc = clrt_buffer_cl(c);
    /* the arguments and launch rule of cl/elementwise.cl for c = a + b as one row of n
     * (the flat path; the kernel clrt_context_kernel_cl gives is the add):
     * global = roundup(ceil(n / (vw*items)), wg) x 1, local = wg x 1 */
    const cl_ulong rows = 1, n = o->n, zero = 0;
    const float scalar = 0;
    const size_t arg_sizes[13] = {sizeof rows, sizeof n,    sizeof mc, sizeof zero, sizeof n,
                                  sizeof ma,   sizeof zero, sizeof n,  sizeof mb,   sizeof zero,
                                  sizeof zero, sizeof scalar, sizeof scalar};
    const void *const arg_values[13] = {&rows, &n, &mc, &zero, &n, &ma, &zero, &n, &mb, &zero, &zero, &scalar, &scalar};
    char params[256];
    unsigned vw = 0, items = 0, wg = 0;
    if (clrt_tune_current(s->ctx, "elementwise", CLRT_FLOAT32, params, sizeof params, NULL) != CLRT_OK ||
        sscanf(params, "vw=%u items=%u wg=%u", &vw, &items, &wg) != 3 || !vw || !items || !wg) {
        clReleaseKernel(kernel);
        snprintf(o->note, sizeof o->note, "cannot read the elementwise kernel's parameters");
        goto done;
    }
    size_t local[2] = {wg, 1}, per = (size_t)vw * items;
    size_t global[2] = {((o->n + per - 1) / per + wg - 1) / wg * wg, 1};

    /* Blocks of ops operations, clrt and raw in turn, many rounds: the
     * per-round ratios cancel the machine's drift; their median is reported. */
    enum { MAX_ROUNDS = 31 };
    int rounds = opts->quick ? 7 : MAX_ROUNDS;
    double tc[MAX_ROUNDS], tr[MAX_ROUNDS], ta[MAX_ROUNDS], ratio[MAX_ROUNDS];
    int failed = 0;
    for (cl_uint i = 0; i < 13 && e == CL_SUCCESS; i++)
        e = clSetKernelArg(kernel, i, arg_sizes[i], arg_values[i]);
    for (int round = 0; round < rounds && !failed && e == CL_SUCCESS; round++) {
        double t0 = bench_now();
        for (int i = 0; i < o->ops && !failed; i++)
            failed = clrt_add(s->q, c, a, b) != CLRT_OK;
        failed |= clrt_queue_finish(s->q) != CLRT_OK;
        tc[round] = (bench_now() - t0) / o->ops;

        /* raw, arguments set once */
        t0 = bench_now();
        for (int i = 0; i < o->ops && e == CL_SUCCESS; i++)
            e = clEnqueueNDRangeKernel(cq, kernel, 2, NULL, global, local, 0, NULL, NULL);
        e |= clFinish(cq);
        tr[round] = (bench_now() - t0) / o->ops;

        /* raw, arguments set for every operation */
        t0 = bench_now();
        for (int i = 0; i < o->ops && e == CL_SUCCESS; i++) {
            for (cl_uint j = 0; j < 13 && e == CL_SUCCESS; j++)
                e = clSetKernelArg(kernel, j, arg_sizes[j], arg_values[j]);
            e |= clEnqueueNDRangeKernel(cq, kernel, 2, NULL, global, local, 0, NULL, NULL);
        }
        e |= clFinish(cq);
        ta[round] = (bench_now() - t0) / o->ops;
        ratio[round] = tr[round] > 0 ? tc[round] / tr[round] : 0;
    }
    if (!failed && e == CL_SUCCESS)
        round_trips(o, opts, s, a, b, c, kernel, global, local, &failed, &e);
    clReleaseKernel(kernel);
    if (e != CL_SUCCESS) {
        snprintf(o->note, sizeof o->note, "a raw OpenCL call failed (%d)", (int)e);
    } else if (failed) {
        snprintf(o->note, sizeof o->note, "clrt_add failed: %.120s", clrt_error_message());
    } else {
        bench_stats sc, sr, sa, sq;
        bench_stats_of(tc, rounds, &sc);
        bench_stats_of(tr, rounds, &sr);
        bench_stats_of(ta, rounds, &sa);
        bench_stats_of(ratio, rounds, &sq);
        o->clrt_op = sc.median;
        o->raw_op = sr.median;
        o->raw_args_op = sa.median;
        o->ratio = sq.median;
        o->rounds = rounds;
        o->measured = 1;
    }
done:
    clrt_buffer_destroy(a);
    clrt_buffer_destroy(b);
    clrt_buffer_destroy(c);
    free(h);
}
