/*
 * Naming a function on the command line (a "symspec", as gprof calls it).
 * The forms:
 *
 *   NAME            every function called NAME, in any object: its name
 *                   as shown, its linkage name, or (C++) its name without
 *                   the parameter list (symbols/demangle.h)
 *   OBJECT:NAME     NAME in the object whose file name (the last path
 *                   component, e.g. libz.so.1 or the program's name) is
 *                   OBJECT
 *   FILE:NAME, FILE:LINE   by source file: not available yet (the
 *                   profile does not keep source files); refused with
 *                   SYMSPEC_UNSUPPORTED
 *
 * A spec that is itself a function's name (C++ names hold "::") is taken
 * as a NAME first.  No I/O here: the caller words the messages.
 */
#ifndef CALLSCOPE_MODEL_SYMSPEC_H
#define CALLSCOPE_MODEL_SYMSPEC_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"

enum symspec_status {
	SYMSPEC_FOUND,		/* one or more functions match */
	SYMSPEC_NO_FUNCTION,	/* no function of that name (in that object) */
	SYMSPEC_NO_OBJECT,	/* OBJECT:NAME with no such object */
	SYMSPEC_UNSUPPORTED,	/* a source-file form */
	SYMSPEC_EMPTY,		/* an empty spec or part */
};

/*
 * Finds the functions of P that SPEC names.  On SYMSPEC_FOUND, *OUT gets
 * a malloc'd array of their indices (in index order) the caller frees and
 * *N its length; otherwise *OUT is NULL and *N 0.
 */
enum symspec_status symspec_match(const struct profile *p, const char *spec,
				  uint32_t **out, size_t *n);

/*
 * Whether SPEC could name F under one of its readings.  A quick filter
 * for use while a profile is still being built (before homonyms get their
 * tags: "f [prog]" may name f); symspec_match() over the finished profile
 * decides.
 */
int symspec_may_name(const struct func *f, const char *spec);

/* The last path component of OBJECT (OBJECT itself if it has no '/').
 * Borrowed: points into OBJECT. */
const char *symspec_object_base(const char *object);

#endif
