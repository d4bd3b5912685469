#include "cli/debug_packages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/debug_files.h"
#include "xalloc.h"

/* Whether PATH is safe to hand to a shell in single quotes. */
static int quotable(const char *path)
{
	return !strchr(path, '\'') && !strchr(path, '\n');
}

/* The package `dpkg-query -S` names for PATH, or NULL. */
static char *dpkg_owner(const char *path)
{
	char line[512];

	if (!quotable(path))
		return NULL;
	char *cmd = xasprintf("dpkg-query -S '%s' 2>/dev/null", path);
	FILE *f = popen(cmd, "r");
	free(cmd);
	if (!f)
		return NULL;
	char *package = NULL;
	/* "liblzma5:amd64: /lib/x86_64-linux-gnu/liblzma.so.5" */
	if (fgets(line, sizeof(line), f)) {
		char *end = strstr(line, ": ");
		if (end) {
			*end = '\0';
			char *arch = strchr(line, ':');
			if (arch)
				*arch = '\0';
			if (!strchr(line, ','))	/* a diversion lists several */
				package = xstrdup(line);
		}
	}
	pclose(f);
	return package;
}

/* The package of PATH, also under its other name on a merged /usr
 * (dpkg knows /lib/x.so where the loader mapped /usr/lib/x.so, or the
 * other way round). */
static char *package_of(const char *path)
{
	char *pkg = dpkg_owner(path);
	if (pkg)
		return pkg;
	if (!strncmp(path, "/usr/", 5))
		return dpkg_owner(path + 4);
	char *other = xasprintf("/usr%s", path);
	pkg = dpkg_owner(other);
	free(other);
	return pkg;
}

struct unsymbolled_object *unsymbolled_objects(const struct profile *p, size_t *n)
{
	struct unsymbolled_object *objs = NULL;
	size_t alloc = 0;
	char **checked = NULL;
	size_t nchecked = 0, checked_alloc = 0;

	*n = 0;
	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct func *f = &p->funcs[i];
		if ((!f->samples && !f->calls) || !f->object || f->object[0] != '/')
			continue;
		int done = 0;
		for (size_t k = 0; k < nchecked && !done; k++)
			done = !strcmp(checked[k], f->object);
		if (done)
			continue;
		ALLOC_GROW(checked, nchecked + 1, checked_alloc);
		checked[nchecked++] = f->object;
		if (object_symbols(f->object, NULL) != OBJECT_DYNAMIC_ONLY)
			continue;
		ALLOC_GROW(objs, *n + 1, alloc);
		objs[*n].path = xstrdup(f->object);
		objs[*n].package = package_of(f->object);
		(*n)++;
	}
	free(checked);
	return objs;
}

void unsymbolled_objects_free(struct unsymbolled_object *objs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(objs[i].path);
		free(objs[i].package);
	}
	free(objs);
}
