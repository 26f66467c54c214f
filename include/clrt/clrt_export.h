/* The one export macro. Symbols of the shared library are hidden unless marked
 * CLRT_API; a static build (CLRT_STATIC, set by the clrt_static target's users)
 * needs no marking. */
#ifndef CLRT_EXPORT_H
#define CLRT_EXPORT_H

/** @defgroup export Linking
 *  clrt comes as a shared library (CMake target clrt::clrt, pkg-config clrt)
 *  and a static one (clrt::clrt_static, pkg-config clrt-static). A program
 *  that links the static library defines CLRT_STATIC before including
 *  <clrt/clrt.h>; the clrt::clrt_static target and clrt-static.pc do it.
 *  @{ */
#ifdef CLRT_DOXYGEN
/** Marks the functions of the public API: exported from the shared library
 *  (hidden visibility is the default for everything else), imported by its
 *  users (on Windows), nothing with CLRT_STATIC. */
#define CLRT_API
/** Define when linking the static library. */
#define CLRT_STATIC
#elif defined(CLRT_STATIC)
#define CLRT_API
#elif defined(_WIN32)
#if defined(CLRT_BUILDING)
#define CLRT_API __declspec(dllexport)
#else
#define CLRT_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define CLRT_API __attribute__((visibility("default")))
#else
#define CLRT_API
#endif
/** @} */

#endif
