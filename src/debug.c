/* Live-handle counters and the fault-injection seam (see debug.h). Both cost
 * one relaxed atomic operation per call when unused. */
#include "debug.h"

#include <stdatomic.h>

#include "thread.h"

static atomic_long live[CLRT_LIVE_KINDS];

void clrt__live(int kind, int delta) { atomic_fetch_add_explicit(&live[kind], delta, memory_order_relaxed); }

long clrt_debug_live(int kind)
{
    if (kind < 0 || kind >= CLRT_LIVE_KINDS)
        return -1;
    return atomic_load(&live[kind]);
}

long clrt_debug_live_total(void)
{
    long total = 0;
    for (int k = 0; k < CLRT_LIVE_KINDS; k++)
        total += atomic_load(&live[k]);
    return total;
}

static atomic_int armed_site = -1;
static atomic_long armed_left;
static atomic_int armed_code;
static atomic_ulong calls[CLRT_FAULT_SITES];

void clrt_debug_fault_arm(int site, unsigned nth, cl_int code)
{
    for (int s = 0; s < CLRT_FAULT_SITES; s++)
        atomic_store(&calls[s], 0);
    atomic_store(&armed_code, code);
    atomic_store(&armed_left, (long)nth);
    atomic_store(&armed_site, site);
}

void clrt_debug_fault_clear(void)
{
    atomic_store(&armed_site, -1);
    for (int s = 0; s < CLRT_FAULT_SITES; s++)
        atomic_store(&calls[s], 0);
}

unsigned long clrt_debug_fault_calls(int site)
{
    return (site >= 0 && site < CLRT_FAULT_SITES) ? atomic_load(&calls[site]) : 0;
}

cl_int clrt__fault(int site)
{
    atomic_fetch_add_explicit(&calls[site], 1, memory_order_relaxed);
    if (atomic_load_explicit(&armed_site, memory_order_relaxed) != site)
        return CL_SUCCESS;
    if (atomic_fetch_sub(&armed_left, 1) != 1)
        return CL_SUCCESS;
    atomic_store(&armed_site, -1);
    return atomic_load(&armed_code);
}

static clrt_mutex override_lock = CLRT_MUTEX_INITIALIZER;
static int have_matmul, have_add;
static clrt_matmul_params matmul_override;
static clrt_add_params add_override;

void clrt_debug_override_matmul(const clrt_matmul_params *p)
{
    clrt_mutex_lock(&override_lock);
    have_matmul = p != NULL;
    if (p)
        matmul_override = *p;
    clrt_mutex_unlock(&override_lock);
}

void clrt_debug_override_add(const clrt_add_params *p)
{
    clrt_mutex_lock(&override_lock);
    have_add = p != NULL;
    if (p)
        add_override = *p;
    clrt_mutex_unlock(&override_lock);
}

int clrt__override_matmul(clrt_matmul_params *out)
{
    clrt_mutex_lock(&override_lock);
    int have = have_matmul;
    if (have)
        *out = matmul_override;
    clrt_mutex_unlock(&override_lock);
    return have;
}

int clrt__override_add(clrt_add_params *out)
{
    clrt_mutex_lock(&override_lock);
    int have = have_add;
    if (have)
        *out = add_override;
    clrt_mutex_unlock(&override_lock);
    return have;
}

static atomic_size_t pack_scratch_max;

void clrt_debug_pack_scratch_max(size_t bytes) { atomic_store(&pack_scratch_max, bytes); }

size_t clrt__pack_scratch_max(const clrt_device_facts *dev)
{
    size_t v = atomic_load_explicit(&pack_scratch_max, memory_order_relaxed);
    return v ? v : clrt_matmul_pack_scratch_max(dev);
}

static atomic_ulong cache_outcomes[3];

void clrt__cache_count(int outcome) { atomic_fetch_add(&cache_outcomes[outcome], 1); }

void clrt_debug_cache_stats(unsigned long *hits, unsigned long *misses, unsigned long *rejected)
{
    *hits = atomic_load(&cache_outcomes[0]);
    *misses = atomic_load(&cache_outcomes[1]);
    *rejected = atomic_load(&cache_outcomes[2]);
}
