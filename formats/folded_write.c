/*
 * Folded stacks, the input of flamegraph.pl, inferno and speedscope: one
 * line per call path, the functions from the outermost down joined by
 * ';', a space, and the path's value.  The path is kept in one buffer
 * that grows and shrinks with the walk, so each line costs its length.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/export.h"
#include "model/cct_walk.h"
#include "xalloc.h"

struct folded_walk {
	FILE *out;
	const struct profile *p;
	enum folded_value value;
	char *path;
	size_t len, alloc;
	size_t *mark;		/* path length before each depth's name */
	size_t marks_alloc;
};

/* ';' separates frames and a newline ends the line: neither may appear
 * inside a name (C++ names never hold them; an odd symbol might). */
static void append_name(struct folded_walk *w, const char *name)
{
	size_t n = strlen(name);

	ALLOC_GROW(w->path, w->len + n + 2, w->alloc);
	if (w->len)
		w->path[w->len++] = ';';
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		w->path[w->len++] = (c == ';' || c == '\n' || c == '\r') ? '_' : c;
	}
	w->path[w->len] = '\0';
}

static void pre(void *ctx, const struct cct *t, uint32_t node)
{
	struct folded_walk *w = ctx;
	const struct cct_node *n = &t->nodes[node];

	ALLOC_GROW(w->mark, n->depth + 1, w->marks_alloc);
	w->mark[n->depth] = w->len;
	append_name(w, w->p->funcs[n->func].name);
	uint64_t v = w->value == FOLDED_CALLS ? n->calls : n->self[CCT_TIME];
	if (v)
		fprintf(w->out, "%s %llu\n", w->path, (unsigned long long)v);
}

static void post(void *ctx, const struct cct *t, uint32_t node)
{
	struct folded_walk *w = ctx;

	w->len = w->mark[t->nodes[node].depth];
	if (w->path)
		w->path[w->len] = '\0';
}

int folded_write(FILE *out, const struct profile *p, const struct cct *t,
		 enum folded_value v)
{
	struct folded_walk w = { out, p, v, NULL, 0, 0, NULL, 0 };

	cct_walk(t, pre, post, &w);
	free(w.path);
	free(w.mark);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
