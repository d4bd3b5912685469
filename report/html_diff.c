#include "report/html_diff.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* Union function of function F of profile P, interning it if new. */
static uint32_t union_func(struct html_diff *d, const struct profile *p, uint32_t f,
			   uint32_t **side, uint32_t **other, size_t *alloc)
{
	uint32_t u = profile_intern_func(d->names, p->funcs[f].name, "", 0, 0, NULL, 0);

	if (u >= *alloc) {
		size_t old = *alloc, n = old ? old * 2 : 256;
		while (n <= u)
			n *= 2;
		*side = xrealloc(*side, n * sizeof(**side));
		*other = xrealloc(*other, n * sizeof(**other));
		memset(*side + old, 0xff, (n - old) * sizeof(**side));
		memset(*other + old, 0xff, (n - old) * sizeof(**other));
		*alloc = n;
	}
	(*side)[u] = f;
	return u;
}

/* Maps every node of SRC into the union tree (parents come before their
 * children in node order); returns the malloc'd map. */
static uint32_t *map_tree(struct html_diff *d, const struct profile *p,
			  const struct html_tree *src, int is_base, size_t *alloc)
{
	uint32_t *map = xmalloc(src->nnodes * sizeof(*map));
	uint32_t **side = is_base ? &d->base_func : &d->cur_func;
	uint32_t **other = is_base ? &d->cur_func : &d->base_func;
	uint32_t *fmap = xmalloc((p->nfuncs + 1) * sizeof(*fmap));

	/* Every function first, so both sides' tables cover all of them. */
	for (size_t f = 0; f < p->nfuncs; f++)
		fmap[f] = union_func(d, p, (uint32_t)f, side, other, alloc);
	map[HTML_NODE_ROOT] = HTML_NODE_ROOT;
	for (size_t i = 1; i < src->nnodes; i++) {
		const struct html_node *n = &src->nodes[i];
		map[i] = html_tree_child(d->tree, map[n->parent], fmap[n->func]);
	}
	free(fmap);
	return map;
}

/* Adds F's flat numbers to INTO, the sum of its run's functions of one
 * name (a program's static helper and a library's, say). */
static void func_add(struct func *into, const struct func *f)
{
	if (!into->name) {
		*into = *f;
		return;
	}
	if (f->calls && (!into->calls || f->min_ns < into->min_ns))
		into->min_ns = f->min_ns;
	if (f->max_ns > into->max_ns)
		into->max_ns = f->max_ns;
	into->calls += f->calls;
	into->self_ns += f->self_ns;
	into->total_ns += f->total_ns;
	into->sum_call_ns += f->sum_call_ns;
	into->virtual_returns += f->virtual_returns;
	into->unwound += f->unwound;
	into->thrown += f->thrown;
	into->self_samples += f->self_samples;
	into->samples += f->samples;
	if (into->cycle != f->cycle)
		into->cycle = 0;
}

/* The union's functions of one side, each the sum of its namesakes. */
static struct func *merge_funcs(struct html_diff *d, const struct profile *p)
{
	struct func *m = xcalloc(d->names->nfuncs + 1, sizeof(*m));

	for (size_t f = 0; f < p->nfuncs; f++)
		func_add(&m[profile_intern_func(d->names, p->funcs[f].name, "", 0, 0, NULL, 0)],
			 &p->funcs[f]);
	return m;
}

struct html_diff *html_diff_new(const struct profile *cur, const struct html_tree *cur_tree,
				const struct profile *base, const struct html_tree *base_tree)
{
	struct html_diff *d = xcalloc(1, sizeof(*d));
	size_t alloc = 0;

	d->names = profile_new();
	d->tree = html_tree_new(d->names, 0);
	uint32_t *cmap = map_tree(d, cur, cur_tree, 0, &alloc);
	uint32_t *bmap = map_tree(d, base, base_tree, 1, &alloc);
	size_t n = d->tree->nnodes;

	d->cur_funcs = merge_funcs(d, cur);
	d->base_funcs = merge_funcs(d, base);

	d->base_calls = xcalloc(n, sizeof(*d->base_calls));
	d->base_self_ns = xcalloc(n, sizeof(*d->base_self_ns));
	d->base_total_ns = xcalloc(n, sizeof(*d->base_total_ns));
	d->base_self_samples = xcalloc(n, sizeof(*d->base_self_samples));
	/* Summed, not assigned: functions of one name in two objects (a
	 * program's static helper and a library's) are one union function,
	 * so two paths of one run can land on one union path. */
	for (size_t i = 1; i < cur_tree->nnodes; i++) {
		struct html_node *u = &d->tree->nodes[cmap[i]];
		u->calls += cur_tree->nodes[i].calls;
		u->self_ns += cur_tree->nodes[i].self_ns;
		u->total_ns += cur_tree->nodes[i].total_ns;
		u->self_samples += cur_tree->nodes[i].self_samples;
	}
	for (size_t i = 1; i < base_tree->nnodes; i++) {
		d->base_calls[bmap[i]] += base_tree->nodes[i].calls;
		d->base_self_ns[bmap[i]] += base_tree->nodes[i].self_ns;
		d->base_total_ns[bmap[i]] += base_tree->nodes[i].total_ns;
		d->base_self_samples[bmap[i]] += base_tree->nodes[i].self_samples;
	}
	for (size_t i = 0; i < cur_tree->nthreads; i++) {
		ALLOC_GROW(d->tree->threads, d->tree->nthreads + 1, d->tree->threads_alloc);
		d->tree->threads[d->tree->nthreads++] = cur_tree->threads[i];
	}
	html_tree_finish(d->tree);
	/* The timeline is the current run's, its calls moved to the union's
	 * nodes; depths are equal, so the order holds. */
	d->tree->calls = xmalloc((cur_tree->ncalls + 1) * sizeof(*d->tree->calls));
	d->tree->ncalls = d->tree->calls_alloc = cur_tree->ncalls;
	for (size_t i = 0; i < cur_tree->ncalls; i++) {
		d->tree->calls[i] = cur_tree->calls[i];
		d->tree->calls[i].node = cmap[cur_tree->calls[i].node];
	}
	d->tree->max_calls = cur_tree->max_calls;
	d->tree->min_dur_ns = cur_tree->min_dur_ns;
	d->tree->calls_seen = cur_tree->calls_seen;
	free(cmap);
	free(bmap);
	return d;
}

void html_diff_free(struct html_diff *d)
{
	if (!d)
		return;
	html_tree_free(d->tree);
	profile_free(d->names);
	free(d->cur_func);
	free(d->base_func);
	free(d->cur_funcs);
	free(d->base_funcs);
	free(d->base_calls);
	free(d->base_self_ns);
	free(d->base_total_ns);
	free(d->base_self_samples);
	free(d);
}
