#include "optimize/warnings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static void add(struct opt_warnings *w, enum opt_warning_kind kind, uint32_t index,
		uint64_t calls, uint64_t size)
{
	ALLOC_GROW(w->list, w->n + 1, w->alloc);
	w->list[w->n++] = (struct opt_warning){ kind, index, calls, size };
	w->count[kind]++;
	w->bytes[kind] += size;
}

static const char *name_of(const struct opt_graph *sort_graph, const struct opt_warning *w)
{
	if (w->kind == OPT_W_GROUP_TOO_BIG) {
		const struct opt_group *gr = &sort_graph->groups[w->index];
		return gr->section ? gr->section : "";
	}
	return sort_graph->funcs[w->index].name;
}

/* A qsort_r() comparator; the context is the graph. */
static int by_kind_calls(const void *a, const void *b, void *graph)
{
	const struct opt_warning *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	int c = strcmp(name_of(graph, x), name_of(graph, y));
	if (c)
		return c;
	return (x->index > y->index) - (x->index < y->index);
}

void opt_warnings_collect(const struct opt_graph *g, const struct opt_params *p,
			  struct opt_warnings *w)
{
	memset(w, 0, sizeof(*w));
	for (size_t i = 0; i < g->nfuncs; i++) {
		const struct opt_func *f = &g->funcs[i];
		int hot = f->calls || f->heat;
		if (f->flags & OPT_STALE)
			add(w, OPT_W_STALE, (uint32_t)i, f->calls, f->size);
		else if (f->flags & OPT_SHARED)
			add(w, OPT_W_SHARED, (uint32_t)i, f->calls, f->size);
		else if (!hot && (f->group == OPT_NONE || !opt_group_hot(&g->groups[f->group])))
			add(w, OPT_W_UNCALLED, (uint32_t)i, 0, f->size);	/* not moved with a hot group */
		else if (!hot)
			continue;
		else if (!f->size)
			add(w, OPT_W_NO_SIZE, (uint32_t)i, f->calls, 0);
		else if (p->cache_size && f->size > p->cache_size)
			add(w, OPT_W_FUNC_TOO_BIG, (uint32_t)i, f->calls, f->size);
	}
	for (size_t i = 0; i < g->ngroups; i++) {
		const struct opt_group *gr = &g->groups[i];
		if (gr->nmembers > 1 && opt_group_hot(gr) && p->cache_size &&
		    gr->size > p->cache_size)
			add(w, OPT_W_GROUP_TOO_BIG, (uint32_t)i, gr->calls, gr->size);
	}
	qsort_r(w->list, w->n, sizeof(*w->list), by_kind_calls, (void *)g);
}

void opt_warnings_release(struct opt_warnings *w)
{
	free(w->list);
	memset(w, 0, sizeof(*w));
}

const char *opt_warning_title(enum opt_warning_kind kind)
{
	switch (kind) {
	case OPT_W_FUNC_TOO_BIG: return "hot function larger than the cache";
	case OPT_W_GROUP_TOO_BIG: return "fixed group larger than the cache";
	case OPT_W_NO_SIZE: return "no size information";
	case OPT_W_STALE: return "not in the binary";
	case OPT_W_SHARED: return "in a shared library";
	case OPT_W_UNCALLED: return "not called";
	case OPT_W_KINDS: break;
	}
	return "?";
}

const char *opt_warning_subject(const struct opt_graph *g, const struct opt_warning *w,
				char *buf, size_t len)
{
	if (w->kind != OPT_W_GROUP_TOO_BIG)
		return g->funcs[w->index].name;
	const struct opt_group *gr = &g->groups[w->index];
	snprintf(buf, len, "%s (%s)", gr->section ? gr->section : "?", gr->file ? gr->file : "?");
	return buf;
}
