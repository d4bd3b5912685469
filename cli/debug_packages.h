/*
 * Which objects of a profile have no symbols beyond the dynamic ones
 * (symbols/debug_files.h), and which Debian package each came from, so
 * that `info` can say what to install for their function names.
 */
#ifndef CALLSCOPE_CLI_DEBUG_PACKAGES_H
#define CALLSCOPE_CLI_DEBUG_PACKAGES_H

#include <stddef.h>

#include "model/profile.h"

struct unsymbolled_object {
	char *path;		/* owned */
	char *package;		/* owned; the package dpkg says owns it, or NULL */
};

/*
 * The objects that P's functions lie in (those with samples or calls)
 * whose files have no symbol table of their own and no separate debug
 * file.  Returns a malloc'd array of *N entries; free it with
 * unsymbolled_objects_free().
 */
struct unsymbolled_object *unsymbolled_objects(const struct profile *p, size_t *n);
void unsymbolled_objects_free(struct unsymbolled_object *objs, size_t n);

#endif
