/*
 * Functions that share a name, told apart where they are shown.
 *
 * Every report names a function by its name alone, so two functions of
 * one name read as one function listed twice: the `main` of each program
 * in a recording of a build (make, sh, cc1, as), a static helper of the
 * same name in two source files, the variants of a C++ constructor or
 * destructor (complete, base, deleting), which demangle alike.  Each gets
 * a tag in brackets, the first of these that tells it from the others of
 * its name: its object's file name, as callgrind_annotate tags names
 * ("main [make]"); a constructor's or destructor's variant ("V::~V()
 * [deleting]"); its linkage name; its address, as nm gives it (two static
 * functions of one name, "helper [0x11b9]").  The brackets keep the name
 * a name: a C++ name's parameter list still ends it, so `--focus=ns::f`
 * still names "ns::f(int) [prog]" (model/symspec.h).
 */
#include "model/profile.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/symspec.h"
#include "xalloc.h"

static int by_name(const void *x, const void *y, void *ctx)
{
	const struct func *funcs = ctx;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	int c = strcmp(funcs[a].name, funcs[b].name);

	return c ? c : (a > b) - (a < b);
}

static int same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* How many of the N functions GROUP[] share F's value of what KEY gives. */
static size_t sharing(const struct profile *p, const uint32_t *group, size_t n,
		      const struct func *f, const char *(*key)(const struct func *))
{
	size_t same = 0;

	for (size_t i = 0; i < n; i++)
		same += same_text(key(&p->funcs[group[i]]), key(f));
	return same;
}

static const char *object_of(const struct func *f)
{
	return symspec_object_base(f->object);
}

static const char *symbol_of(const struct func *f)
{
	return f->symbol;
}

/*
 * Which variant of a C++ constructor or destructor F is, in words, or
 * NULL: the Itanium ABI's code closing the nested name ("_ZN1VD0Ev"),
 * which the demangled name leaves out.
 */
static const char *variant_of(const struct func *f)
{
	static const struct {
		const char code[4];
		const char *word;
	} variants[] = {
		{ "C1E", "complete" }, { "C2E", "base" },     { "C3E", "allocating" },
		{ "D0E", "deleting" }, { "D1E", "complete" }, { "D2E", "base" },
	};
	const char *found = NULL, *word = NULL;

	if (strncmp(f->symbol, "_ZN", 3))
		return NULL;
	for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
		for (const char *c = strstr(f->symbol, variants[i].code); c;
		     c = strstr(c + 1, variants[i].code))
			if (c > found) {
				found = c;
				word = variants[i].word;
			}
	return word;
}

/* F's tag among the N functions GROUP[] that share its name; malloc'd. */
static char *tag_of(const struct profile *p, const uint32_t *group, size_t n,
		    const struct func *f)
{
	const char *object = object_of(f);
	char *detail;

	if (*object && sharing(p, group, n, f, object_of) == 1)
		return xstrdup(object);
	if (variant_of(f) && sharing(p, group, n, f, variant_of) == 1)
		detail = xstrdup(variant_of(f));
	else if (strcmp(f->symbol, f->name) && sharing(p, group, n, f, symbol_of) == 1)
		detail = xstrdup(f->symbol);
	else
		detail = xasprintf("0x%" PRIx64, f->addr);
	/* the object too, when the name spans several */
	if (sharing(p, group, n, f, object_of) == n || !*object)
		return detail;
	char *tag = xasprintf("%s, %s", object, detail);
	free(detail);
	return tag;
}

void profile_name_homonyms(struct profile *p)
{
	uint32_t *order = xcalloc(p->nfuncs ? p->nfuncs : 1, sizeof(*order));

	for (size_t i = 0; i < p->nfuncs; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, p->nfuncs, sizeof(*order), by_name, p->funcs);
	for (size_t start = 0, end; start < p->nfuncs; start = end) {
		const char *name = p->funcs[order[start]].name;
		for (end = start + 1; end < p->nfuncs && !strcmp(p->funcs[order[end]].name, name);)
			end++;
		if (end - start < 2)
			continue;
		char **tags = xcalloc(end - start, sizeof(*tags));
		for (size_t i = start; i < end; i++)
			tags[i - start] = tag_of(p, order + start, end - start, &p->funcs[order[i]]);
		/* all tags first: each is chosen against the names as they were */
		for (size_t i = start; i < end; i++) {
			struct func *f = &p->funcs[order[i]];
			char *named = xasprintf("%s [%s]", f->name, tags[i - start]);
			free(f->name);
			f->name = named;
			free(tags[i - start]);
		}
		free(tags);
	}
	free(order);
}
