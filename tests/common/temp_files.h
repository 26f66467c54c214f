/* Scratch folders and files for the suites that give clrt a cache folder,
 * tuned files or headers of their own (device_cache*, device_fifo,
 * unit_includes). */
#ifndef CLRT_TESTS_COMMON_TEMP_FILES_H
#define CLRT_TESTS_COMMON_TEMP_FILES_H

#include <stddef.h>

/* Make a new folder /tmp/clrt-<name>-XXXXXX (mkdtemp) and put its path in
 * dir (cap bytes): 0, or -1 when it cannot be made. */
int tu_temp_dir(char *dir, size_t cap, const char *name);

/* Remove path and, for a folder, everything below it (links and FIFOs are
 * removed, not followed or opened): 0 when path is gone afterwards. */
int tu_remove_tree(const char *path);

/* Call fn(path, arg) on every entry of folder dir whose name does not start
 * with '.' (path: "<dir>/<name>"; fn NULL: none): how many there are, 0 when
 * dir cannot be opened. */
size_t tu_each_entry(const char *dir, void (*fn)(const char *path, void *arg), void *arg);

/* Remove the entries of folder dir, but for those whose names start with '.'
 * (not recursive; the folder stays): 0, or -1 when dir cannot be opened. */
int tu_clear_dir(const char *dir);

/* Write text to <dir>/<name>, making the folder that name puts it in (one
 * level: "sub/x.h") when missing; fails the test when it cannot. */
void tu_write_file(const char *dir, const char *name, const char *text);

#endif
