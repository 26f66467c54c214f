/* clrt-train's hooks for one process, and the main() both programs share
 * (see hooks.h). */
#include "hooks.h"

#include "common/build_notice.h"
#include "common/output.h"
#include "train_device.h"
#include "run.h"

static int keep_options(train_opts *o)
{
    (void)o;
    return 0;
}

static int same_status(int rc) { return rc; }

const train_hooks train_single_process = {keep_options, train_device_open, train_net_step, same_status};

int train_main(int argc, char **argv, const train_hooks *h)
{
    train_opts o;
    int st = train_opts_parse(&o, argc, argv);
    if (st == 1)
        return 0;
    if (st)
        return st;
    if ((st = h->begin(&o)) != 0)
        return st;
    /* a first run on empty caches compiles for a while: say so, once */
    tool_build_notice_install(0);
    tool_stdout_watch();
    st = h->end(o.predict ? train_predict(&o, h) : train_run(&o, h));
    /* the loss lines and classes on stdout are output too: checked */
    if (tool_stdout_close("clrt-train") != 0 && st == 0)
        st = 2;
    return st;
}
