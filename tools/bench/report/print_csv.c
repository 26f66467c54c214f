/* clrt-bench's CSV report: one row per (case, implementation) (see bench/report/print.h). */
#include "report/print.h"

#include <math.h>

static void csv_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
    fputc('"', f);
}

void bench_print_csv(FILE *f, const bench_report *r)
{
    fputs("device,device_name,op,dtype,m,n,k,trans,impl,median_s,min_s,max_s,reps,rate,unit,ratio_clrt_over_this,"
          "first_call_s,checked,wrong,failed,params,note,peak_share\n",
          f);
    for (size_t i = 0; i < r->ncases; i++) {
        const bench_case *c = &r->cases[i];
        for (int k = 0; k < IMPL_KINDS; k++) {
            const bench_result *x = &c->r[k];
            if (!x->present)
                continue;
            fprintf(f, "%zu,", r->devices[c->device].info.index);
            csv_str(f, r->devices[c->device].info.name);
            fprintf(f, ",%s,%s,%zu,%zu,%zu,%s,%s,", bench_op_name(c->op), bench_dtype_name(c->dbl), c->m, c->n,
                    c->k, c->op == BENCH_MATMUL ? (c->ta ? (c->tb ? "TT" : "TN") : (c->tb ? "NT" : "NN")) : "",
                    bench_impl_name[k]);
            if (bench_result_usable(x))
                fprintf(f, "%.9g,%.9g,%.9g,%d,%.6g,", x->st.median, x->st.min, x->st.max, x->st.reps, x->rate);
            else
                fputs(",,,0,,", f);
            fprintf(f, "%s,", bench_unit(c->op));
            double ratio = k == IMPL_CLRT ? 0 : bench_ratio(c, IMPL_CLRT, k);
            if (ratio > 0)
                fprintf(f, "%.4f", ratio);
            fputc(',', f);
            if (k == IMPL_CLRT && c->first_s >= 0)
                fprintf(f, "%.6f", c->first_s);
            fprintf(f, ",%zu,%zu,%d,", x->checked, x->wrong, x->failed);
            csv_str(f, k == IMPL_CLRT ? c->params : k == IMPL_CLRT_DEFAULT ? c->params_default : "");
            fputc(',', f);
            csv_str(f, x->note);
            fputc(',', f); /* last: the columns scripts read before keep their places */
            const double share = bench_peak_share(r, c, k);
            if (share > 0)
                fprintf(f, "%.4f", share);
            fputc('\n', f);
        }
    }
}
