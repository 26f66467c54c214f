/* The tools' word to their user when clrt compiles kernels: through clrt's
 * build log (clrt_set_log), one line on stderr the first time a build takes
 * noticeably long ("clrt: compiling kernels for <device> (first run only;
 * cached in <folder>)"), so that a first run on empty caches is not taken for
 * a hang, then "clrt: still compiling kernels: N more programs in S s" at most
 * every 5 s while compiles go on; and a count of builds for a progress line
 * to show. */
#ifndef CLRT_TOOLS_COMMON_BUILD_NOTICE_H
#define CLRT_TOOLS_COMMON_BUILD_NOTICE_H

#include <stddef.h>

/* Start listening (once per process; later calls do nothing). quiet: count
 * only, never print. */
void tool_build_notice_install(int quiet);

/* Builds so far that took long enough to be compiles rather than cache hits. */
size_t tool_build_notice_compiles(void);

#endif
