/*
 * Call-chain clustering (C3), after Ottoni and Maher, "Optimizing Function
 * Placement for Large-Scale Data-Center Applications", CGO 2017, and the
 * variant callscope lays out with by default.
 *
 * Every hot group starts as a cluster of its own.  Taking groups in turn,
 * each one's cluster is appended to the cluster of its most frequent
 * caller, so a callee lands right after its caller's chain, unless
 *   - the merged cluster would be larger than the cap, or
 *   - the merged cluster's density (heat per byte) would fall below an
 *     eighth of the caller cluster's (the density rule that keeps a cold
 *     callee from diluting a hot cluster; lld uses the same factor).
 * Clusters are then laid out densest first.
 *
 * c3 is the paper's form: groups hottest first, clusters capped at the
 * cache size.
 *
 * dense-chains is what measured better on real programs (see
 * docs/optimize.md): groups densest first, so the code that runs most
 * per byte chooses its neighbours before large lukewarm functions do; a
 * group joins its caller only when that caller makes at least a tenth of
 * its calls (a rare caller is a poor neighbour: lld's rule too); the
 * cap at the cache size, where lld caps at 1 MiB; and the clusters laid
 * out next to the ones they call (opt_layout_link_by_calls).  Without a cap one
 * chain can swallow all the hot code (gawk's 200 KB became one), and
 * inside a chain code sits in merge order, not by density: the hottest
 * functions end up scattered through it instead of sharing the cache.
 */
#include "optimize/optimize.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define C3_MAX_DENSITY_DEGRADATION 8

/* qsort_r() comparators of group numbers; the context is the graph. */
static int by_heat(const void *x, const void *y, void *graph)
{
	const struct opt_graph *heat_graph = graph;
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	const struct opt_group *a = &heat_graph->groups[i], *b = &heat_graph->groups[j];

	if (a->heat != b->heat)
		return a->heat > b->heat ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return (i > j) - (i < j);
}

static double density(uint64_t heat, uint64_t size)
{
	return (double)heat / (double)(size ? size : 1);
}

static int by_density(const void *x, const void *y, void *graph)
{
	const struct opt_graph *heat_graph = graph;
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	const struct opt_group *a = &heat_graph->groups[i], *b = &heat_graph->groups[j];
	double da = density(a->heat, a->size), db = density(b->heat, b->size);

	if (da != db)
		return da > db ? -1 : 1;
	return by_heat(x, y, graph);
}

/* How the two forms differ. */
struct c3_rules {
	int densest_first;	/* take groups by heat per byte, not by heat */
	int likely_callers;	/* join a caller only if it makes >= 1/10 of the calls */
	int cache_cap;		/* cap clusters at the cache size */
	int linked;		/* place clusters by the calls between them, not by density alone */
};

static void c3_run(const struct opt_graph *g, const struct opt_params *p,
		   const struct c3_rules *rules, struct opt_layout *out)
{
	size_t n = g->ngroups;
	uint32_t *order = xcalloc(n + 1, sizeof(*order));
	uint32_t *caller = xcalloc(n + 1, sizeof(*caller));
	uint64_t *caller_calls = xcalloc(n + 1, sizeof(*caller_calls));
	uint64_t *calls_in = xcalloc(n + 1, sizeof(*calls_in));
	uint32_t *cluster_of = xcalloc(n + 1, sizeof(*cluster_of));
	struct opt_cluster *cl = xcalloc(n + 1, sizeof(*cl));
	size_t nhot = 0;

	for (size_t i = 0; i < n; i++) {
		caller[i] = OPT_NONE;
		cluster_of[i] = (uint32_t)i;
		if (opt_group_hot(&g->groups[i])) {
			order[nhot++] = (uint32_t)i;
			opt_cluster_push(&cl[i], g, (uint32_t)i);
		}
	}
	for (size_t i = 0; i < g->nedges; i++) {
		const struct opt_edge *e = &g->edges[i];
		if (!opt_group_hot(&g->groups[e->from]))
			continue;
		calls_in[e->to] += e->count;
		if (e->count > caller_calls[e->to] ||
		    (e->count == caller_calls[e->to] && e->from < caller[e->to])) {
			caller[e->to] = e->from;
			caller_calls[e->to] = e->count;
		}
	}
	qsort_r(order, nhot, sizeof(*order), rules->densest_first ? by_density : by_heat,
		(void *)g);

	for (size_t i = 0; i < nhot; i++) {
		uint32_t f = order[i];
		if (caller[f] == OPT_NONE)
			continue;
		if (rules->likely_callers && caller_calls[f] * 10 < calls_in[f])
			continue;
		uint32_t a = cluster_of[caller[f]], b = cluster_of[f];
		if (a == b)
			continue;
		struct opt_cluster *ca = &cl[a], *cb = &cl[b];
		if (rules->cache_cap && p->cache_size && ca->size + cb->size > p->cache_size)
			continue;
		if (density(ca->heat + cb->heat, ca->size + cb->size) <
		    density(ca->heat, ca->size) / C3_MAX_DENSITY_DEGRADATION)
			continue;
		for (size_t k = 0; k < cb->n; k++) {
			cluster_of[cb->groups[k]] = a;
			opt_cluster_push(ca, g, cb->groups[k]);
		}
		free(cb->groups);
		memset(cb, 0, sizeof(*cb));
	}

	for (size_t i = 0; i < n; i++) {
		if (!cl[i].n)
			continue;
		struct opt_cluster *c = opt_layout_add(out);
		*c = cl[i];
	}
	opt_layout_sort_by_density(g, out);
	if (rules->linked)
		opt_layout_link_by_calls(g, out);
	free(cl);
	free(cluster_of);
	free(calls_in);
	free(caller_calls);
	free(caller);
	free(order);
}

void c3_layout(const struct opt_graph *g, const struct opt_params *p, struct opt_layout *out)
{
	static const struct c3_rules paper = { 0, 0, 1, 0 };
	c3_run(g, p, &paper, out);
}

void dense_chains_layout(const struct opt_graph *g, const struct opt_params *p,
			 struct opt_layout *out)
{
	static const struct c3_rules measured = { 1, 1, 1, 1 };
	c3_run(g, p, &measured, out);
}
