/* The shared libraries a program loads at start, as its dynamic loader finds them. */
#ifndef CALLSCOPE_SYMBOLS_LIBRARIES_H
#define CALLSCOPE_SYMBOLS_LIBRARIES_H

#include <stddef.h>

/*
 * Asks PROG's own dynamic loader (its PT_INTERP, with --list, which loads
 * nothing of PROG's code) which files it would map, with the caller's
 * environment (LD_LIBRARY_PATH).  Returns their paths as a malloc'd array
 * of malloc'd strings the caller frees, *N their number; an empty list
 * when PROG has no loader or it cannot be run.
 */
char **program_libraries(const char *prog, size_t *n);

/*
 * Finds a library named NAME ("libz", "libz.so.1") that is not loaded at
 * start, in LD_LIBRARY_PATH and the system's library directories.  Returns
 * a malloc'd path, or NULL.
 */
char *library_find(const char *name);

/* Whether the object at PATH is the one NAME means: its file name is NAME,
 * or NAME followed by '.' or '-' (libz matches libz.so.1), or PATH itself. */
int library_name_matches(const char *path, const char *name);

#endif
