/* Live-handle counters, fault injection and cache counts (see base/debug.h). */
#include "base/debug.h"

#include "clrt/clrt.h"

#include <stdatomic.h>

static atomic_long live[CLRT__LIVE_KINDS];

void clrt__live(int kind, int delta) { atomic_fetch_add_explicit(&live[kind], delta, memory_order_relaxed); }

long clrt__debug_live(int kind)
{
    if (kind < 0 || kind >= CLRT__LIVE_KINDS)
        return -1;
    return atomic_load(&live[kind]);
}

long clrt__debug_live_total(void)
{
    long total = 0;
    for (int k = 0; k < CLRT__LIVE_KINDS; k++)
        total += atomic_load(&live[k]);
    return total;
}

long clrt_live_objects(void) { return clrt__debug_live_total(); }

static atomic_int armed_site = -1;
static atomic_long armed_left;
static atomic_int armed_code;
static atomic_ulong calls[CLRT__FAULT_SITES];

static atomic_int armed_every;
/* the build log a failed build injected at CLRT__FAULT_BUILD reports (a test
 * sets it with the fault; clear empties it) */
static _Atomic(const char *) armed_log;

void clrt__debug_fault_build_log(const char *log) { atomic_store(&armed_log, log); }

const char *clrt__fault_build_log(void) { return atomic_load(&armed_log); }

void clrt__debug_fault_arm(int site, unsigned nth, cl_int code)
{
    for (int s = 0; s < CLRT__FAULT_SITES; s++)
        atomic_store(&calls[s], 0);
    atomic_store(&armed_every, 0);
    atomic_store(&armed_code, code);
    atomic_store(&armed_left, (long)nth);
    atomic_store(&armed_site, site);
}

void clrt__debug_fault_arm_every(int site, cl_int code)
{
    clrt__debug_fault_arm(site, 1, code);
    atomic_store(&armed_every, 1);
}

void clrt__debug_fault_clear(void)
{
    atomic_store(&armed_site, -1);
    atomic_store(&armed_log, NULL);
    for (int s = 0; s < CLRT__FAULT_SITES; s++)
        atomic_store(&calls[s], 0);
}

unsigned long clrt__debug_fault_calls(int site)
{
    return (site >= 0 && site < CLRT__FAULT_SITES) ? atomic_load(&calls[site]) : 0;
}

cl_int clrt__fault(int site)
{
    atomic_fetch_add_explicit(&calls[site], 1, memory_order_relaxed);
    if (atomic_load_explicit(&armed_site, memory_order_relaxed) != site)
        return CL_SUCCESS;
    if (atomic_load(&armed_every))
        return atomic_load(&armed_code);
    if (atomic_fetch_sub(&armed_left, 1) != 1)
        return CL_SUCCESS;
    atomic_store(&armed_site, -1);
    return atomic_load(&armed_code);
}

static atomic_ulong cache_outcomes[3];

void clrt__cache_count(int outcome) { atomic_fetch_add(&cache_outcomes[outcome], 1); }

void clrt__debug_cache_stats(unsigned long *hits, unsigned long *misses, unsigned long *rejected)
{
    *hits = atomic_load(&cache_outcomes[CLRT__CACHE_HIT]);
    *misses = atomic_load(&cache_outcomes[CLRT__CACHE_MISS]);
    *rejected = atomic_load(&cache_outcomes[CLRT__CACHE_REJECTED]);
}

static atomic_ulong tuned_outcomes[3];

void clrt__tuned_count(int outcome) { atomic_fetch_add(&tuned_outcomes[outcome], 1); }

void clrt__debug_tuned_stats(unsigned long *used, unsigned long *ignored, unsigned long *fallbacks)
{
    if (used)
        *used = atomic_load(&tuned_outcomes[CLRT__TUNED_USED]);
    if (ignored)
        *ignored = atomic_load(&tuned_outcomes[CLRT__TUNED_IGNORED]);
    if (fallbacks)
        *fallbacks = atomic_load(&tuned_outcomes[CLRT__TUNED_FALLBACK]);
}
