/* Kernel parameters in general (see kernels/params.h). */
#include "kernels/params.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clrt/clrt.h"

int clrt__refuse(char *why, size_t cap, const char *fmt, ...)
{
    if (why && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, cap, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int clrt__param_index(const clrt__kernel_def *def, const char *name, size_t len)
{
    for (size_t i = 0; i < def->nparams; i++)
        if (strlen(def->params[i].name) == len && strncmp(def->params[i].name, name, len) == 0)
            return (int)i;
    return -1;
}

int clrt__params_text(const clrt__kernel_def *def, const clrt__pvals *p, char *buf, size_t cap)
{
    size_t used = 0;
    if (cap)
        buf[0] = '\0';
    for (size_t i = 0; i < def->nparams; i++) {
        int w = snprintf(buf + used, cap - used, "%s%s=%u", i ? " " : "", def->params[i].name, p->v[i]);
        if (w < 0 || (size_t)w >= cap - used)
            return -1;
        used += (size_t)w;
    }
    return 0;
}

int clrt__params_parse(const clrt__kernel_def *def, const char *s, clrt__pvals *p, char *why, size_t cap)
{
    unsigned seen = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        const char *end = s + strcspn(s, " \t");
        const char *eq = memchr(s, '=', (size_t)(end - s));
        if (!eq)
            return clrt__refuse(why, cap, "expected key=value, found '%.*s'", (int)(end - s > 40 ? 40 : end - s), s);
        size_t klen = (size_t)(eq - s);
        int i = clrt__param_index(def, s, klen);
        if (i < 0)
            return clrt__refuse(why, cap, "unknown %s parameter '%.*s'", def->name, (int)(klen > 40 ? 40 : klen), s);
        if (seen & (1u << i))
            return clrt__refuse(why, cap, "%s given twice", def->params[i].name);
        seen |= 1u << i;
        const char *v = eq + 1;
        size_t vlen = (size_t)(end - v);
        unsigned long value = 0;
        int ok = vlen > 0 && vlen <= 6;
        for (size_t j = 0; ok && j < vlen; j++) {
            ok = v[j] >= '0' && v[j] <= '9';
            value = value * 10 + (unsigned long)(v[j] - '0');
        }
        if (!ok)
            return clrt__refuse(why, cap, "%s: '%.*s' is not a number from 0 to %d", def->params[i].name,
                                (int)(vlen > 20 ? 20 : vlen), v, CLRT__PARAM_MAX);
        if (value > CLRT__PARAM_MAX)
            return clrt__refuse(why, cap, "%s=%lu is above %d", def->params[i].name, value, CLRT__PARAM_MAX);
        p->v[i] = (unsigned)value;
        s = end;
    }
    if (!seen)
        return clrt__refuse(why, cap, "no parameters");
    return 0;
}

int clrt__params_check(const clrt__kernel_def *def, const clrt__device_facts *dev, size_t elem,
                       const clrt__pvals *p, char *why, size_t cap)
{
    for (size_t i = 0; i < def->nparams; i++) {
        const clrt__param_def *d = &def->params[i];
        if (p->v[i] < d->min || p->v[i] > d->max)
            return clrt__refuse(why, cap, "%s must be %u..%u (is %u)", d->name, d->min, d->max, p->v[i]);
    }
    return def->check ? def->check(dev, elem, p, why, cap) : 0;
}

int clrt__params_options(const clrt__kernel_def *def, const clrt__pvals *p, clrt__elem elem, int variant,
                         char *buf, size_t cap)
{
    static const char *const real[] = {"", "float", "double", "int", "float", "float"};
    const int store16 = elem == CLRT__ELEM_F16 || elem == CLRT__ELEM_BF16;
    int n = snprintf(buf, cap, "-DREAL=%s -DCLRT_DTYPE=%d%s", real[elem], store16 ? (int)CLRT__ELEM_F32 : (int)elem,
                     elem == CLRT__ELEM_F64 ? " -DCLRT_FP64=1" : "");
    if (store16 && n >= 0 && (size_t)n < cap)
        n += snprintf(buf + n, cap - (size_t)n, " -DCLRT_STORE=%d", (int)elem);
    size_t used = n < 0 ? cap : (size_t)n;
    for (size_t i = 0; i < def->nparams && used < cap; i++) {
        if (!def->params[i].define)
            continue;
        n = snprintf(buf + used, cap - used, " -D%s=%u", def->params[i].define, p->v[i]);
        used = n < 0 ? cap : used + (size_t)n;
    }
    if (def->variant_options && used < cap) {
        buf[used++] = ' ';
        if (used >= cap || def->variant_options(p, variant, buf + used, cap - used) != 0)
            return -1;
        if (buf[used] == '\0') /* no options for this variant: drop the space */
            buf[used - 1] = '\0';
        used = strlen(buf);
    }
    return used < cap ? 0 : -1;
}

size_t clrt__param_search(const clrt__kernel_def *def, const clrt__pvals *p, size_t i, unsigned *values,
                          size_t cap)
{
    int variant = 0;
    if (def->variant_param) {
        int vi = clrt__param_index(def, def->variant_param, strlen(def->variant_param));
        variant = vi >= 0 && p->v[vi] ? 1 : 0;
    }
    const char *s = def->params[i].search[variant];
    size_t n = 0;
    while (s && *s && n < cap) {
        char *end;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s)
            break;
        values[n++] = (unsigned)v;
        s = end;
    }
    return n;
}

int clrt__check_group(const clrt__device_facts *dev, size_t x, size_t y, char *why, size_t cap)
{
    if (dev->max_work_group && x * y > dev->max_work_group)
        return clrt__refuse(why, cap, "work-group %zux%zu exceeds the device's %zu work-items", x, y,
                            dev->max_work_group);
    if (dev->max_work_item[0] && x > dev->max_work_item[0])
        return clrt__refuse(why, cap, "work-group width %zu exceeds the device's %zu", x, dev->max_work_item[0]);
    if (dev->max_work_item[1] && y > dev->max_work_item[1])
        return clrt__refuse(why, cap, "work-group height %zu exceeds the device's %zu", y, dev->max_work_item[1]);
    return 0;
}

unsigned clrt__pick_vector_width(unsigned pv, unsigned floor)
{
    if (pv < 2)
        return 4;
    unsigned vw = pv >= 16 ? 16 : pv >= 8 ? 8 : pv >= 4 ? 4 : 2;
    return vw < floor ? floor : vw;
}

int clrt__wants_register_tiles(const clrt__device_facts *d)
{
    if (d->emulator)
        return 0;
    if (d->type == CLRT_DEVICE_CPU)
        return 1;
    if (d->type == CLRT_DEVICE_GPU)
        return 0;
    /* accelerator / other: local-memory tiles only where local memory is real */
    return d->local_mem == 0 || d->local_mem_is_global;
}
