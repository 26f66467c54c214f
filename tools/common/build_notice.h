/* The tools' word to their user when clrt compiles kernels, so that a first
 * run on empty caches is not taken for a hang. Through clrt's build log
 * (clrt_set_log), on stderr:
 *   clrt: compiling kernels for <device> (first run only; cached in <folder>): matmul float32 took 0.81 s
 * the first time a build compiles for noticeably long; then, at most every
 * few seconds while compiles go on, what was compiled and for how long
 * (the builds' own time, not the time since the notice):
 *   clrt: compiled 3 more programs in 2.4 s (elementwise float32, reduce float32, nn_conv float32); 4 so far
 * While the tool waits on work that may still compile (tool_build_notice_wait:
 * clrt-train's first mini-batch, whose kernels' first launches are where
 * POCL makes their machine code), a line every few seconds says how long it
 * has been, and one line when the wait ends says it is over:
 *   clrt: still compiling: the kernels' first launches, 5 s so far
 *   clrt: kernels ready: 6 programs compiled in 3.9 s, 11.2 s since the notice
 * A build that a cache served prints nothing, however long it took under
 * load: when clrt reports where the build is kept (the driver's cache folder
 * or clrt's), a build counts as compiled only if something new was stored
 * there while it ran. */
#ifndef CLRT_TOOLS_COMMON_BUILD_NOTICE_H
#define CLRT_TOOLS_COMMON_BUILD_NOTICE_H

#include <stddef.h>

/* Start listening (once per process; later calls do nothing). quiet: count
 * only, never print. */
void tool_build_notice_install(int quiet);

/* Builds so far that compiled for noticeably long rather than came from a
 * cache. */
size_t tool_build_notice_compiles(void);

/* on: the tool now waits on work that may still compile (a timer line every
 * few seconds once the notice was given); off: the wait is over (one line
 * saying so, when the notice was given). Calls in pairs; off without on does
 * nothing. */
void tool_build_notice_wait(int on);

#endif
