/*
 * The optimizer's call graph (functions, groups, edges) and the layout
 * helpers every algorithm shares.  See optimize.h.
 */
#include "optimize/optimize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "optimize/clone_names.h"
#include "xalloc.h"

struct opt_graph *opt_graph_new(void)
{
	return xcalloc(1, sizeof(struct opt_graph));
}

void opt_graph_free(struct opt_graph *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->nfuncs; i++) {
		free(g->funcs[i].name);
		free(g->funcs[i].object);
	}
	for (size_t i = 0; i < g->ngroups; i++) {
		free(g->groups[i].section);
		free(g->groups[i].file);
		free(g->groups[i].members);
	}
	free(g->funcs);
	free(g->groups);
	free(g->arcs);
	free(g->edges);
	free(g);
}

uint32_t opt_graph_add_func(struct opt_graph *g, const char *name, const char *object,
			    uint64_t addr, uint64_t size, unsigned flags)
{
	if (g->finished)
		BUG("function added to a finished graph");
	ALLOC_GROW(g->funcs, g->nfuncs + 1, g->funcs_alloc);
	struct opt_func *f = &g->funcs[g->nfuncs];
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	f->object = xstrdup(object ? object : "");
	f->addr = addr;
	f->size = size;
	f->group = OPT_NONE;
	f->flags = flags | (size ? 0 : OPT_NO_SIZE);
	return (uint32_t)g->nfuncs++;
}

void opt_graph_add_calls(struct opt_graph *g, uint32_t caller, uint32_t callee, uint64_t count)
{
	if (caller >= g->nfuncs || callee >= g->nfuncs)
		BUG("call between unknown functions %u and %u", caller, callee);
	ALLOC_GROW(g->arcs, g->narcs + 1, g->arcs_alloc);
	g->arcs[g->narcs++] = (struct opt_arc){ caller, callee, count };
}

uint32_t opt_graph_add_group(struct opt_graph *g, const char *section, const char *file,
			     uint64_t addr, uint64_t size)
{
	ALLOC_GROW(g->groups, g->ngroups + 1, g->groups_alloc);
	struct opt_group *gr = &g->groups[g->ngroups];
	memset(gr, 0, sizeof(*gr));
	gr->section = section ? xstrdup(section) : NULL;
	gr->file = file ? xstrdup(file) : NULL;
	gr->addr = addr;
	gr->size = size;
	return (uint32_t)g->ngroups++;
}

void opt_graph_assign(struct opt_graph *g, uint32_t func, uint32_t group)
{
	if (func >= g->nfuncs || group >= g->ngroups)
		BUG("assigning function %u to group %u", func, group);
	if (g->funcs[func].group != OPT_NONE)
		BUG("function '%s' assigned twice", g->funcs[func].name);
	struct opt_group *gr = &g->groups[group];
	ALLOC_GROW(gr->members, gr->nmembers + 1, gr->members_alloc);
	gr->members[gr->nmembers++] = func;
	g->funcs[func].group = group;
}

int opt_group_hot(const struct opt_group *gr)
{
	return gr->calls > 0 || gr->heat > 0;
}

/* The qsort_r() comparators below take the graph as their context. */
static int by_address(const void *a, const void *b, void *graph)
{
	const struct opt_graph *sort_graph = graph;
	const struct opt_func *fa = &sort_graph->funcs[*(const uint32_t *)a];
	const struct opt_func *fb = &sort_graph->funcs[*(const uint32_t *)b];

	if (fa->addr != fb->addr)
		return fa->addr < fb->addr ? -1 : 1;
	return strcmp(fa->name, fb->name);
}

static int by_group_address(const void *a, const void *b, void *graph)
{
	const struct opt_graph *sort_graph = graph;
	const struct opt_group *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (!x->nmembers || !y->nmembers)
		return (y->nmembers > 0) - (x->nmembers > 0);
	int c = strcmp(sort_graph->funcs[x->members[0]].name, sort_graph->funcs[y->members[0]].name);
	if (c)
		return c;
	return strcmp(x->section ? x->section : "", y->section ? y->section : "");
}

static int by_ends(const void *a, const void *b)
{
	const struct opt_edge *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return 0;
}

void opt_graph_finish(struct opt_graph *g)
{
	if (g->finished)
		BUG("graph finished twice");
	for (size_t i = 0; i < g->nfuncs; i++) {
		struct opt_func *f = &g->funcs[i];
		g->total_heat += f->heat;
		g->total_calls += f->calls;
		if (f->group != OPT_NONE || (f->flags & (OPT_SHARED | OPT_STALE)))
			continue;
		opt_graph_assign(g, (uint32_t)i,
				 opt_graph_add_group(g, NULL, NULL, f->addr, f->size));
	}
	/* Groups in address order (then by first member's name), whatever
	 * order they were added in: the algorithms break ties by group index,
	 * so this makes the layout depend on the program, not on the input's
	 * order.  (qsort's array must not be NULL, even empty: a section of
	 * the map may hold no function of the profile, and the binary may
	 * hold none at all.) */
	for (size_t i = 0; i < g->ngroups; i++)
		if (g->groups[i].nmembers)
			qsort_r(g->groups[i].members, g->groups[i].nmembers, sizeof(uint32_t),
				by_address, g);
	if (g->ngroups)
		qsort_r(g->groups, g->ngroups, sizeof(*g->groups), by_group_address, g);
	for (size_t i = 0; i < g->ngroups; i++)
		for (size_t k = 0; k < g->groups[i].nmembers; k++)
			g->funcs[g->groups[i].members[k]].group = (uint32_t)i;
	for (size_t i = 0; i < g->ngroups; i++) {
		struct opt_group *gr = &g->groups[i];
		for (size_t k = 0; k < gr->nmembers; k++) {
			gr->calls += g->funcs[gr->members[k]].calls;
			gr->heat += g->funcs[gr->members[k]].heat;
		}
	}

	g->edges = xcalloc(g->narcs ? g->narcs : 1, sizeof(*g->edges));
	size_t n = 0;
	for (size_t i = 0; i < g->narcs; i++) {
		uint32_t a = g->funcs[g->arcs[i].caller].group;
		uint32_t b = g->funcs[g->arcs[i].callee].group;
		if (a == OPT_NONE || b == OPT_NONE || a == b || !g->arcs[i].count)
			continue;
		g->edges[n++] = (struct opt_edge){ a, b, g->arcs[i].count };
	}
	qsort(g->edges, n, sizeof(*g->edges), by_ends);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && g->edges[m - 1].from == g->edges[i].from && g->edges[m - 1].to == g->edges[i].to)
			g->edges[m - 1].count += g->edges[i].count;
		else
			g->edges[m++] = g->edges[i];
	}
	g->nedges = m;
	g->finished = 1;
}

void opt_layout_free(struct opt_layout *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->clusters[i].groups);
	free(l->clusters);
	memset(l, 0, sizeof(*l));
}

struct opt_cluster *opt_layout_add(struct opt_layout *l)
{
	ALLOC_GROW(l->clusters, l->n + 1, l->alloc);
	struct opt_cluster *c = &l->clusters[l->n++];
	memset(c, 0, sizeof(*c));
	return c;
}

void opt_cluster_push(struct opt_cluster *c, const struct opt_graph *g, uint32_t gr)
{
	ALLOC_GROW(c->groups, c->n + 1, c->alloc);
	c->groups[c->n++] = gr;
	c->size += g->groups[gr].size;
	c->calls += g->groups[gr].calls;
	c->heat += g->groups[gr].heat;
}

/* Heat per byte; a cluster of unknown size counts as one byte. */
static double density(const struct opt_cluster *c)
{
	return (double)c->heat / (double)(c->size ? c->size : 1);
}

static int by_density(const void *a, const void *b, void *graph)
{
	const struct opt_graph *sort_graph = graph;
	const struct opt_cluster *x = a, *y = b;
	double dx = density(x), dy = density(y);

	if (dx != dy)
		return dx > dy ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	uint64_t ax = x->n ? sort_graph->groups[x->groups[0]].addr : 0;
	uint64_t ay = y->n ? sort_graph->groups[y->groups[0]].addr : 0;
	if (ax != ay)
		return ax < ay ? -1 : 1;
	return x->n && y->n ? (x->groups[0] > y->groups[0]) - (x->groups[0] < y->groups[0]) : 0;
}

void opt_layout_sort_by_density(const struct opt_graph *g, struct opt_layout *l)
{
	if (l->n)	/* none when no function of the profile is in the binary */
		qsort_r(l->clusters, l->n, sizeof(*l->clusters), by_density, (void *)g);
}

/* 1 if every function of GR is a cold piece, or its section is unlikely code. */
static int group_cold(const struct opt_graph *g, const struct opt_group *gr)
{
	if (gr->section && !strncmp(gr->section, ".text.unlikely.", 15))
		return 1;
	for (size_t k = 0; k < gr->nmembers; k++)
		if (!clone_is_cold(g->funcs[gr->members[k]].name))
			return 0;
	return gr->nmembers > 0;
}

void opt_layout_sink_cold(const struct opt_graph *g, struct opt_layout *l)
{
	struct opt_cluster cold = { 0 };

	for (size_t i = 0; i < l->n; i++) {
		struct opt_cluster *c = &l->clusters[i], kept = { 0 };
		for (size_t k = 0; k < c->n; k++)
			opt_cluster_push(group_cold(g, &g->groups[c->groups[k]]) ? &cold : &kept, g,
					 c->groups[k]);
		free(c->groups);
		*c = kept;
	}
	size_t m = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (l->clusters[i].n)
			l->clusters[m++] = l->clusters[i];
		else
			free(l->clusters[i].groups);
	}
	l->n = m;
	if (cold.n)
		*opt_layout_add(l) = cold;
}

/*
 * The first is the default: the one that won on bench/optimize (see
 * docs/optimize.md for the numbers).
 */
const struct opt_algorithm opt_algorithms[] = {
	{ "cache-sort", cache_sort_layout,
	  "chains merged by the cache hits each merge gains, then joined to their callers "
	  "unless a hot function is larger than the cache" },
	{ "cache-sort-callers", cache_sort_callers_layout,
	  "cache-sort, joining each chain left to the chain that calls it most (C3's rule) always" },
	{ "dense-chains", dense_chains_layout,
	  "call chains taken densest first, from likely callers, linked by calls" },
	{ "c3", c3_layout, "call-chain clustering (Ottoni and Maher, CGO 2017)" },
	{ "cph", cph_layout, "call-proximity hit order: cache-sized cliques of callers and callees" },
	{ "pettis-hansen", pettis_hansen_layout, "Pettis and Hansen's chain merging (PLDI 1990)" },
	{ "executed", executed_layout, "the executed functions first, in their current order (a baseline)" },
};
const size_t opt_nalgorithms = sizeof(opt_algorithms) / sizeof(opt_algorithms[0]);

const struct opt_algorithm *opt_algorithm_find(const char *name)
{
	for (size_t i = 0; i < opt_nalgorithms; i++)
		if (!strcmp(opt_algorithms[i].name, name))
			return &opt_algorithms[i];
	return NULL;
}

struct pair {
	uint32_t a, b;
	uint64_t w;
};

static int by_pair(const void *x, const void *y)
{
	const struct pair *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return (p->b > q->b) - (p->b < q->b);
}

void opt_adjacency_build(const struct opt_graph *g, struct opt_adjacency *a)
{
	struct pair *pairs = xcalloc(2 * g->nedges + 1, sizeof(*pairs));
	size_t n = 0, m = 0;

	for (size_t i = 0; i < g->nedges; i++) {
		const struct opt_edge *e = &g->edges[i];
		pairs[n++] = (struct pair){ e->from, e->to, e->count };
		pairs[n++] = (struct pair){ e->to, e->from, e->count };
	}
	qsort(pairs, n, sizeof(*pairs), by_pair);
	for (size_t i = 0; i < n; i++) {
		if (m && pairs[m - 1].a == pairs[i].a && pairs[m - 1].b == pairs[i].b)
			pairs[m - 1].w += pairs[i].w;
		else
			pairs[m++] = pairs[i];
	}
	a->start = xcalloc(g->ngroups + 1, sizeof(*a->start));
	a->nbr = xcalloc(m + 1, sizeof(*a->nbr));
	a->weight = xcalloc(m + 1, sizeof(*a->weight));
	for (size_t i = 0; i < m; i++) {
		a->start[pairs[i].a + 1]++;
		a->nbr[i] = pairs[i].b;
		a->weight[i] = pairs[i].w;
	}
	for (size_t i = 0; i < g->ngroups; i++)
		a->start[i + 1] += a->start[i];
	free(pairs);
}

void opt_adjacency_release(struct opt_adjacency *a)
{
	free(a->start);
	free(a->nbr);
	free(a->weight);
	memset(a, 0, sizeof(*a));
}

uint64_t opt_adjacency_weight(const struct opt_adjacency *a, uint32_t x, uint32_t y)
{
	for (size_t k = a->start[x]; k < a->start[x + 1]; k++)
		if (a->nbr[k] == y)
			return a->weight[k];
	return 0;
}

const char *opt_algorithm_list(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (size_t i = 0; i < opt_nalgorithms && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s",
					 i == 0 ? "" : i + 1 == opt_nalgorithms ? " or " : ", ",
					 opt_algorithms[i].name, i == 0 ? " (default)" : "");
	return buf;
}
