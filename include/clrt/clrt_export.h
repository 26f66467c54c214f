/* The one export macro. Symbols of the shared library are hidden unless marked
 * CLRT_API; a static build (CLRT_STATIC, set by the clrt_static target's users)
 * needs no marking. */
#ifndef CLRT_EXPORT_H
#define CLRT_EXPORT_H

#if defined(CLRT_STATIC)
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

#endif
