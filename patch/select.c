#include "patch/select.h"

#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "patch/analyze.h"
#include "symbols/libraries.h"
#include "xalloc.h"

static struct patch_object_spec *object_of(struct patch_spec *s, const char *path, int later)
{
	char *real = realpath(path, NULL);
	const char *key = real ? real : path;

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->objects[i].path, key)) {
			free(real);
			return &s->objects[i];
		}
	if (strstr(key, "libcallscope"))
		usage_die("--patch cannot patch callscope's own runtime '%s'", key);
	ALLOC_GROW(s->objects, s->n + 1, s->alloc);
	struct patch_object_spec *o = &s->objects[s->n++];
	memset(o, 0, sizeof(*o));
	o->path = real ? real : xstrdup(path);
	o->later = later;
	return o;
}

/* The object NAME means: the program, a library it loads, or one found
 * in the library directories (loaded later).  NULL if none. */
static struct patch_object_spec *find_object(struct patch_spec *s, const char *name,
					     const char *prog, char **libs, size_t nlibs)
{
	if (library_name_matches(prog, name))
		return object_of(s, prog, 0);
	for (size_t i = 0; i < nlibs; i++)
		if (library_name_matches(libs[i], name))
			return object_of(s, libs[i], 0);
	char *found = library_find(name);
	if (!found)
		return NULL;
	struct patch_object_spec *o = object_of(s, found, 1);
	free(found);
	return o;
}

/* The ':' that ends OBJECT in OBJECT:NAME; a C++ name's '::' is not one. */
static char *object_colon(char *item)
{
	for (char *c = strchr(item, ':'); c; c = strchr(c + 1, ':')) {
		if (c[1] == ':') {
			c++;
			continue;
		}
		return c;
	}
	return NULL;
}

static void add_glob(struct patch_object_spec *o, const char *glob)
{
	ALLOC_GROW(o->globs, o->nglobs + 1, o->globs_alloc);
	o->globs[o->nglobs++] = xstrdup(glob);
}

void patch_spec_parse(const char *spec, const char *prog, struct patch_spec *out)
{
	size_t nlibs = 0;
	char **libs = NULL;

	memset(out, 0, sizeof(*out));
	if (!spec) {
		object_of(out, prog, 0)->whole = 1;
		return;
	}
	if (!*spec || spec[0] == ',' || spec[strlen(spec) - 1] == ',' || strstr(spec, ",,"))
		usage_die("--patch wants a comma-separated list of functions (luaH_*), objects "
			  "(libz) or OBJECT:FUNCTION, not '%s'", spec);
	libs = program_libraries(prog, &nlibs);
	char *copy = xstrdup(spec), *save = NULL;
	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *colon = object_colon(item);
		if (colon) {
			*colon = '\0';
			struct patch_object_spec *o = *item ? find_object(out, item, prog, libs, nlibs)
							    : NULL;
			if (!o)
				usage_die("--patch: '%s' names no object that '%s' loads, nor a library "
					  "in the library directories", item, prog);
			if (!colon[1])
				usage_die("--patch: '%s:' wants a function name after the ':'", item);
			add_glob(o, colon + 1);
			continue;
		}
		struct patch_object_spec *o = find_object(out, item, prog, libs, nlibs);
		if (o)
			o->whole = 1;
		else
			add_glob(object_of(out, prog, 0), item);
	}
	free(copy);
	for (size_t i = 0; i < nlibs; i++)
		free(libs[i]);
	free(libs);
}

void patch_spec_release(struct patch_spec *s)
{
	for (size_t i = 0; i < s->n; i++) {
		for (size_t k = 0; k < s->objects[i].nglobs; k++)
			free(s->objects[i].globs[k]);
		free(s->objects[i].globs);
		free(s->objects[i].path);
	}
	free(s->objects);
	memset(s, 0, sizeof(*s));
}

struct wanted_ctx {
	const struct patch_object_spec *o;
	unsigned *matched;	/* per glob */
};

static int wanted(void *ctx, const char *name)
{
	struct wanted_ctx *w = ctx;
	int yes = w->o->whole;

	for (size_t k = 0; name && k < w->o->nglobs; k++)
		if (!fnmatch(w->o->globs[k], name, 0)) {
			w->matched[k] = 1;
			yes = 1;
		}
	return yes;
}

void patch_spec_plan(const struct patch_spec *s, struct patch_plan *plan)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct patch_object_spec *o = &s->objects[i];
		struct wanted_ctx w = { o, xcalloc(o->nglobs ? o->nglobs : 1, sizeof(unsigned)) };
		if (patch_analyze_object(plan, o->path, wanted, &w) != 0)
			exit(EXIT_FATAL);
		for (size_t k = 0; k < o->nglobs; k++)
			if (!w.matched[k])
				die("--patch: no function of '%s' matches '%s'; check the name with nm",
				    o->path, o->globs[k]);
		free(w.matched);
	}
}
