/* clrt-info --warm [SELECTOR]: fill the caches for a device (clrt_warm),
 * with progress on stderr. */
#ifndef CLRT_TOOLS_INFO_WARM_H
#define CLRT_TOOLS_INFO_WARM_H

/* The exit status: 0, 1 when a step failed, 2 for a selector that matches
 * no device. */
int info_warm(const char *selector);

#endif
