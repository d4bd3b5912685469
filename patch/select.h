/*
 * record --patch[=SPEC]: which functions of which objects to patch.  SPEC
 * is a comma-separated list of
 *
 *     NAME            functions of the main executable (a glob: luaH_*)
 *     OBJECT          every function of a library (libz, libz.so.1, a path)
 *     OBJECT:NAME     functions of that object (libz:deflate*)
 *
 * An OBJECT is a library the program loads at start, the program itself
 * (by its file name), or a library found in the library directories that
 * the program will dlopen later: the runtime patches it when it loads.
 * No SPEC means every function of the main executable.
 */
#ifndef CALLSCOPE_PATCH_SELECT_H
#define CALLSCOPE_PATCH_SELECT_H

#include <stddef.h>

#include "patch/plan.h"

struct patch_object_spec {
	char *path;		/* owned */
	int whole;		/* every function */
	char **globs;		/* owned */
	size_t nglobs, globs_alloc;
	int later;		/* not loaded at start: dlopen */
};

struct patch_spec {
	struct patch_object_spec *objects;
	size_t n, alloc;
};

/* Parses SPEC (NULL: the main executable whole) for the program PROG;
 * a bad SPEC is a usage error (one line). */
void patch_spec_parse(const char *spec, const char *prog, struct patch_spec *out);
void patch_spec_release(struct patch_spec *s);

/* Analyzes every object of S into PLAN.  Dies with one line when an
 * object cannot be read or a NAME selects no function. */
void patch_spec_plan(const struct patch_spec *s, struct patch_plan *plan);

#endif
