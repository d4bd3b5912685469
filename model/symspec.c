#include "model/symspec.h"

#include <stdlib.h>
#include <string.h>

#include "symbols/demangle.h"
#include "xalloc.h"

const char *symspec_object_base(const char *object)
{
	const char *slash = strrchr(object, '/');
	return slash ? slash + 1 : object;
}

/* The first ':' that is not part of a C++ "::", or NULL. */
static const char *single_colon(const char *s)
{
	for (const char *c = strchr(s, ':'); c; c = strchr(c, ':')) {
		if (c[1] == ':') {
			c += 2;
			continue;
		}
		return c;
	}
	return NULL;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* Whether NAME looks like a source file rather than an object: a known
 * source suffix.  Objects are executables and .so files. */
static int looks_like_source(const char *name)
{
	static const char *const suffixes[] = {
		".c", ".h", ".cc", ".cpp", ".cxx", ".c++", ".C", ".hh", ".hpp", ".hxx",
		".s", ".S", ".f", ".f90", ".rs", ".go", ".m", ".mm", ".d",
	};
	const char *dot = strrchr(name, '.');

	if (!dot)
		return 0;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (!strcmp(dot, suffixes[i]))
			return 1;
	return 0;
}

/* Collects the functions named NAME, in OBJECT's basename if OBJECT is
 * not NULL (OBJECT has length OBJLEN). */
static size_t collect(const struct profile *p, const char *name, const char *object,
		      size_t objlen, uint32_t **out, int *object_seen)
{
	size_t n = 0, alloc = 0;

	*out = NULL;
	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct func *f = &p->funcs[i];
		if (object) {
			const char *base = symspec_object_base(f->object);
			if (strlen(base) != objlen || strncmp(base, object, objlen))
				continue;
			*object_seen = 1;
		}
		if (!demangled_name_matches(f->symbol, f->name, name))
			continue;
		ALLOC_GROW(*out, n + 1, alloc);
		(*out)[n++] = (uint32_t)i;
	}
	return n;
}

enum symspec_status symspec_match(const struct profile *p, const char *spec,
				  uint32_t **out, size_t *n)
{
	int object_seen = 0;
	const char *colon;

	*out = NULL;
	*n = 0;
	if (!*spec)
		return SYMSPEC_EMPTY;
	*n = collect(p, spec, NULL, 0, out, &object_seen);
	if (*n)
		return SYMSPEC_FOUND;
	colon = single_colon(spec);
	if (!colon)
		return SYMSPEC_NO_FUNCTION;
	if (colon == spec || !colon[1])
		return SYMSPEC_EMPTY;
	*n = collect(p, colon + 1, spec, (size_t)(colon - spec), out, &object_seen);
	if (*n)
		return SYMSPEC_FOUND;
	if (object_seen)
		return all_digits(colon + 1) ? SYMSPEC_UNSUPPORTED : SYMSPEC_NO_FUNCTION;
	char *prefix = xstrndup(spec, (size_t)(colon - spec));
	int source = looks_like_source(prefix) || all_digits(colon + 1);
	free(prefix);
	return source ? SYMSPEC_UNSUPPORTED : SYMSPEC_NO_OBJECT;
}

/* The length of SPEC without the tag in brackets that tells a homonym
 * apart ("main [make]", model/homonyms.c), or 0 when it has none. */
static size_t untagged_length(const char *spec)
{
	size_t n = strlen(spec);
	const char *open = n ? strrchr(spec, '[') : NULL;

	if (!open || spec[n - 1] != ']' || open == spec || open[-1] != ' ')
		return 0;
	return (size_t)(open - 1 - spec);
}

int symspec_may_name(const struct func *f, const char *spec)
{
	const char *colon;
	size_t untagged = untagged_length(spec);

	if (demangled_name_matches(f->symbol, f->name, spec))
		return 1;
	if (untagged) {	/* the tag comes once the profile is whole */
		char *name = xstrndup(spec, untagged);
		int may = demangled_name_matches(f->symbol, f->name, name);
		free(name);
		if (may)
			return 1;
	}
	colon = single_colon(spec);
	if (!colon || !demangled_name_matches(f->symbol, f->name, colon + 1))
		return 0;
	const char *base = symspec_object_base(f->object);
	return strlen(base) == (size_t)(colon - spec) && !strncmp(base, spec, (size_t)(colon - spec));
}
