/*
 * Clusters laid out next to the clusters they call.  Density alone
 * scatters the clusters of one phase of the program (the code a loop runs
 * spans several cache-sized clusters) across all the hot code, where their
 * lines fall into the cache's sets as if at random; next to each other
 * they take consecutive lines, which share sets only once a loop's code
 * exceeds the cache.
 */
#include "optimize/optimize.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* The calls between two clusters, one way of each pair. */
struct cluster_arc {
	uint32_t from, to;
	uint64_t calls;
};

static int by_ends(const void *x, const void *y)
{
	const struct cluster_arc *a = x, *b = y;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return (a->to > b->to) - (a->to < b->to);
}

void opt_layout_link_by_calls(const struct opt_graph *g, struct opt_layout *l)
{
	size_t n = l->n, narcs = 0;

	/* no cluster when no function of the profile is in the binary (and
	 * then no array for memcpy() below) */
	if (!n)
		return;
	uint32_t *of = xcalloc(g->ngroups + 1, sizeof(*of));
	struct cluster_arc *arcs = xcalloc(2 * g->nedges + 1, sizeof(*arcs));

	for (size_t i = 0; i < g->ngroups; i++)
		of[i] = UINT32_MAX;
	for (size_t c = 0; c < n; c++)
		for (size_t k = 0; k < l->clusters[c].n; k++)
			of[l->clusters[c].groups[k]] = (uint32_t)c;
	for (size_t i = 0; i < g->nedges; i++) {
		uint32_t a = of[g->edges[i].from], b = of[g->edges[i].to];
		if (a == UINT32_MAX || b == UINT32_MAX || a == b)
			continue;
		arcs[narcs++] = (struct cluster_arc){ a, b, g->edges[i].count };
		arcs[narcs++] = (struct cluster_arc){ b, a, g->edges[i].count };
	}
	qsort(arcs, narcs, sizeof(*arcs), by_ends);
	/* Sum the calls of each pair; start[c] is where cluster c's arcs begin. */
	size_t m = 0;
	for (size_t i = 0; i < narcs; i++) {
		if (m && arcs[m - 1].from == arcs[i].from && arcs[m - 1].to == arcs[i].to)
			arcs[m - 1].calls += arcs[i].calls;
		else
			arcs[m++] = arcs[i];
	}
	size_t *start = xcalloc(n + 1, sizeof(*start));
	for (size_t i = 0; i < m; i++)
		start[arcs[i].from + 1]++;
	for (size_t c = 0; c < n; c++)
		start[c + 1] += start[c];

	char *placed = xcalloc(n + 1, 1);
	struct opt_cluster *linked = xcalloc(n + 1, sizeof(*linked));
	size_t densest = 0, last = 0;
	for (size_t k = 0; k < n; k++) {
		size_t pick = SIZE_MAX;
		uint64_t most = 0;
		for (size_t i = k ? start[last] : 0; k && i < start[last + 1]; i++)
			if (!placed[arcs[i].to] && (arcs[i].calls > most ||
						    (arcs[i].calls == most && arcs[i].to < pick))) {
				most = arcs[i].calls;
				pick = arcs[i].to;
			}
		if (pick == SIZE_MAX) {
			while (placed[densest])
				densest++;
			pick = densest;
		}
		placed[pick] = 1;
		linked[k] = l->clusters[pick];
		last = pick;
	}
	memcpy(l->clusters, linked, n * sizeof(*linked));
	free(linked);
	free(placed);
	free(start);
	free(arcs);
	free(of);
}
