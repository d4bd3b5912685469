#include "model/unhooked.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void unhooked_add(struct unhooked *u, const char *object, enum unhooked_kind kind,
		  uint64_t weight)
{
	struct unhooked_object *o = NULL;

	u->samples += weight;
	if (kind == UNHOOKED_HOOKED) {
		u->hooked += weight;
		return;
	}
	for (size_t i = 0; i < u->nobjects; i++)
		if (!strcmp(u->objects[i].object, object))
			o = &u->objects[i];
	if (!o) {
		ALLOC_GROW(u->objects, u->nobjects + 1, u->objects_alloc);
		o = &u->objects[u->nobjects++];
		memset(o, 0, sizeof(*o));
		o->object = xstrdup(object);
	}
	if (kind == UNHOOKED_SEEN) {
		u->seen += weight;
		o->seen += weight;
	} else {
		u->unseen += weight;
		o->unseen += weight;
	}
}

static int by_time(const void *a, const void *b)
{
	const struct unhooked_object *x = a, *y = b;
	uint64_t tx = x->seen + x->unseen, ty = y->seen + y->unseen;

	return tx > ty ? -1 : tx < ty;
}

void unhooked_sort(struct unhooked *u)
{
	if (u->nobjects)
		qsort(u->objects, u->nobjects, sizeof(*u->objects), by_time);
}

void unhooked_free(struct unhooked *u)
{
	for (size_t i = 0; i < u->nobjects; i++) {
		free(u->objects[i].object);
		free(u->objects[i].hooked_build);
	}
	free(u->objects);
	memset(u, 0, sizeof(*u));
}
