/* Per-device kernel parameters (see params.h). Every vendor quirk lives here. */
#include "params.h"

#include <clrt/clrt.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* case-insensitive substring test */
static int has_word(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; ++hay) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            ++i;
        if (i == n)
            return 1;
    }
    return 0;
}

enum { V_GENERIC, V_NVIDIA, V_AMD, V_INTEL };

static int gpu_vendor(const clrt_device_facts *d)
{
    const char *s[3] = { d->vendor, d->platform, d->name };
    for (int i = 0; i < 3; ++i) {
        if (has_word(s[i], "nvidia"))
            return V_NVIDIA;
        if (has_word(s[i], "advanced micro devices") || has_word(s[i], "amd"))
            return V_AMD;
        if (has_word(s[i], "intel"))
            return V_INTEL;
    }
    return V_GENERIC;
}

static int is_emulator(const clrt_device_facts *d)
{
    return d->emulator || has_word(d->name, "oclgrind") || has_word(d->platform, "oclgrind") ||
           has_word(d->name, "llvmpipe");
}

static void set_mm(clrt_matmul_params *p, int use_local, unsigned tm, unsigned tn, unsigned tk,
                   unsigned wgx, unsigned wgy, unsigned vw)
{
    p->use_local = use_local;
    p->tm = tm;
    p->tn = tn;
    p->tk = tk;
    p->wgx = wgx;
    p->wgy = wgy;
    p->vw = vw;
}

void clrt_matmul_params_default(const clrt_device_facts *dev, size_t elem_size,
                                clrt_matmul_params *out)
{
    const int dbl = elem_size == 8;
    if (is_emulator(dev)) {
        set_mm(out, 1, 2, 2, 8, 8, 8, 2);
    } else if (dev->type == CLRT_DEVICE_CPU) {
        if (dbl)
            set_mm(out, 0, 8, 16, 256, 1, 16, 8);
        else
            set_mm(out, 0, 8, 32, 256, 1, 16, 16);
    } else {
        switch (gpu_vendor(dev)) {
        case V_NVIDIA:
        case V_AMD:
            if (dbl)
                set_mm(out, 1, 4, 4, 16, 16, 16, 2);
            else
                set_mm(out, 1, 8, 8, 16, 16, 16, 4);
            break;
        default:
            if (dbl)
                set_mm(out, 1, 4, 4, 16, 16, 16, 2);
            else
                set_mm(out, 1, 4, 4, 16, 16, 16, 4);
            break;
        }
    }
    size_t wg = dev->max_work_group ? dev->max_work_group : 1;
    size_t lb = out->use_local ? (size_t)dev->local_mem : 0;
    if (out->use_local && lb == 0)
        lb = 0;
    (void)clrt_matmul_params_shrink(out, wg, out->use_local ? lb : (size_t)-1, elem_size);
}

void clrt_add_params_default(const clrt_device_facts *dev, size_t elem_size, clrt_add_params *out)
{
    (void)elem_size;
    if (dev->type == CLRT_DEVICE_CPU && !is_emulator(dev)) {
        out->vw = 16;
        out->items = 1;
        out->wg = 256;
    } else {
        out->vw = 4;
        out->items = 1;
        out->wg = 256;
    }
    (void)clrt_add_params_shrink(out, dev->max_work_group ? dev->max_work_group : 1);
}

static const char *real_name(size_t elem_size)
{
    return elem_size == 8 ? "double" : "float";
}

int clrt_matmul_options(const clrt_matmul_params *p, size_t elem_size, char *buf, size_t cap)
{
    int n = snprintf(buf, cap,
                     "-DREAL=%s%s -DUSE_LOCAL=%d -DTM=%u -DTN=%u -DTK=%u -DWGX=%u -DWGY=%u -DVW=%u",
                     real_name(elem_size), elem_size == 8 ? " -DCLRT_FP64=1" : "",
                     p->use_local ? 1 : 0, p->tm, p->tn, p->tk, p->wgx, p->wgy, p->vw);
    return (n < 0 || (size_t)n >= cap) ? -1 : 0;
}

int clrt_add_options(const clrt_add_params *p, size_t elem_size, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "-DREAL=%s%s -DVW=%u -DITEMS=%u -DWG=%u", real_name(elem_size),
                     elem_size == 8 ? " -DCLRT_FP64=1" : "", p->vw, p->items, p->wg);
    return (n < 0 || (size_t)n >= cap) ? -1 : 0;
}

size_t clrt_matmul_local_bytes(const clrt_matmul_params *p, size_t elem_size)
{
    if (!p->use_local)
        return 0;
    size_t bm = (size_t)p->wgy * p->tm, bn = (size_t)p->wgx * p->tn;
    return ((bm + bn) * p->tk) * elem_size;
}

static size_t ceil_div(size_t a, size_t b)
{
    return a / b + (a % b != 0);
}

void clrt_matmul_geometry(const clrt_matmul_params *p, size_t M, size_t N, size_t global[2],
                          size_t local[2])
{
    local[0] = p->wgx;
    local[1] = p->wgy;
    global[0] = ceil_div(ceil_div(N, p->tn), p->wgx) * p->wgx;
    global[1] = ceil_div(ceil_div(M, p->tm), p->wgy) * p->wgy;
}

void clrt_add_geometry(const clrt_add_params *p, size_t n, size_t global[1], size_t local[1])
{
    local[0] = p->wg;
    global[0] = ceil_div(ceil_div(n, (size_t)p->vw * p->items), p->wg) * p->wg;
}

int clrt_matmul_params_shrink(clrt_matmul_params *p, size_t kernel_wg, size_t local_budget,
                              size_t elem_size)
{
    (void)elem_size;
    int changed = 0;
    while ((size_t)p->wgx * p->wgy > kernel_wg) {
        if (p->wgx == 1 && p->wgy == 1)
            return -1;
        if (p->wgy >= p->wgx)
            p->wgy /= 2;
        else
            p->wgx /= 2;
        changed = 1;
    }
    (void)local_budget;
    return changed;
}

int clrt_add_params_shrink(clrt_add_params *p, size_t kernel_wg)
{
    int changed = 0;
    if (kernel_wg == 0)
        return -1;
    while (p->wg > kernel_wg) {
        p->wg /= 2;
        changed = 1;
    }
    return changed;
}
