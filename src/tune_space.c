/* Valid kernel parameters (see tune_space.h). The kernel's own constraints
 * are those documented in cl/matmul.cl and cl/add.cl; the upper bounds keep
 * a work-item's register tile and the unrolled loops within what a compiler
 * builds in reasonable time (beyond them nothing is faster anyway). */
#include "tune_space.h"

#include <stdarg.h>
#include <stdio.h>

static int refuse(char *why, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int refuse(char *why, size_t cap, const char *fmt, ...)
{
    if (why && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, cap, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int is_vector_width(unsigned v) { return v == 1 || v == 2 || v == 4 || v == 8 || v == 16; }

/* The work-group limits of the device (0 = unknown: not checked). */
static int check_group(const clrt_device_facts *dev, size_t x, size_t y, char *why, size_t cap)
{
    if (dev->max_work_group && x * y > dev->max_work_group)
        return refuse(why, cap, "work-group %zux%zu exceeds the device's %zu work-items", x, y, dev->max_work_group);
    if (dev->max_work_item[0] && x > dev->max_work_item[0])
        return refuse(why, cap, "work-group width %zu exceeds the device's %zu", x, dev->max_work_item[0]);
    if (dev->max_work_item[1] && y > dev->max_work_item[1])
        return refuse(why, cap, "work-group height %zu exceeds the device's %zu", y, dev->max_work_item[1]);
    return 0;
}

int clrt__matmul_params_check(const clrt_device_facts *dev, size_t elem_size, const clrt_matmul_params *p,
                              char *why, size_t cap)
{
    if (p->use_local != 0 && p->use_local != 1)
        return refuse(why, cap, "use_local must be 0 or 1");
    if (!is_vector_width(p->vw))
        return refuse(why, cap, "vw must be 1, 2, 4, 8 or 16 (is %u)", p->vw);
    if (p->tm < 1 || p->tm > 64)
        return refuse(why, cap, "tm must be 1..64 (is %u)", p->tm);
    if (p->tn < 1 || p->tn > 256)
        return refuse(why, cap, "tn must be 1..256 (is %u)", p->tn);
    if (p->tn % p->vw)
        return refuse(why, cap, "tn (%u) must be a multiple of vw (%u)", p->tn, p->vw);
    if ((size_t)p->tm * p->tn > 1024)
        return refuse(why, cap, "a %ux%u tile per work-item is more than 1024 accumulators", p->tm, p->tn);
    if (p->tk < 1 || p->tk > 4096)
        return refuse(why, cap, "tk must be 1..4096 (is %u)", p->tk);
    if (p->use_local && p->tk % p->vw)
        return refuse(why, cap, "with local tiles tk (%u) must be a multiple of vw (%u)", p->tk, p->vw);
    if (p->wgx < 1 || p->wgy < 1 || p->wgx > 4096 || p->wgy > 4096)
        return refuse(why, cap, "work-group sides must be 1..4096 (are %ux%u)", p->wgx, p->wgy);
    if (check_group(dev, p->wgx, p->wgy, why, cap) != 0)
        return -1;
    /* with use_local=1 pack has no effect (the local tiles are the copy of B) */
    if (p->pack > 2)
        return refuse(why, cap, "pack must be 0, 1 or 2 (is %u)", p->pack);
    if (p->tkp > 4096)
        return refuse(why, cap, "tkp must be 0 (= tk) .. 4096 (is %u)", p->tkp);
    if (p->use_local) {
        size_t bytes = clrt_matmul_local_bytes(p, elem_size);
        if (dev->local_mem == 0 || bytes > dev->local_mem)
            return refuse(why, cap, "needs %zu bytes of local memory, the device has %llu", bytes,
                          (unsigned long long)dev->local_mem);
        /* the tiles are loaded in whole slots of the work-group: bounded unrolling */
        size_t wgs = (size_t)p->wgx * p->wgy;
        size_t a_slots = ((size_t)p->wgy * p->tm * (p->tk / p->vw) + wgs - 1) / wgs;
        size_t b_slots = ((size_t)p->tk * ((size_t)p->wgx * p->tn / p->vw) + wgs - 1) / wgs;
        if (a_slots > 256 || b_slots > 256)
            return refuse(why, cap, "tile loads of %zu and %zu vectors per work-item are too many", a_slots,
                          b_slots);
    }
    return 0;
}

int clrt__add_params_check(const clrt_device_facts *dev, size_t elem_size, const clrt_add_params *p, char *why,
                           size_t cap)
{
    (void)elem_size;
    if (!is_vector_width(p->vw))
        return refuse(why, cap, "vw must be 1, 2, 4, 8 or 16 (is %u)", p->vw);
    if (p->items < 1 || p->items > 1024)
        return refuse(why, cap, "items must be 1..1024 (is %u)", p->items);
    if (p->wg < 1 || p->wg > 65536)
        return refuse(why, cap, "wg must be 1..65536 (is %u)", p->wg);
    return check_group(dev, p->wg, 1, why, cap);
}
