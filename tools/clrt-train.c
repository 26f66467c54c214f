/* clrt-train: the source article's CNN trained on any OpenCL device
 * (DESIGN.md section 2c; docs/train.md). */
#include <stdio.h>

#include "train_opts.h"
#include "train_run.h"

int main(int argc, char **argv)
{
    train_opts o;
    int st = train_opts_parse(&o, argc, argv);
    if (st == 1)
        return 0;
    if (st)
        return st;
    return o.predict ? train_predict(&o) : train_run(&o);
}
