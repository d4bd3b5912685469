/*
 * The baseline every layout is compared with: the executed functions
 * first, in the order they already have in the binary, then the rest.
 * Most of an ordering's gain over the default layout comes from this
 * alone (the hot code becomes contiguous); a clustering algorithm earns
 * its keep only by beating it.
 */
#include "optimize/optimize.h"

#include <stdlib.h>

#include "xalloc.h"

/* A qsort_r() comparator of group numbers; the context is the graph. */
static int by_address(const void *x, const void *y, void *graph)
{
	const struct opt_graph *addr_graph = graph;
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	uint64_t a = addr_graph->groups[i].addr, b = addr_graph->groups[j].addr;

	if (a != b)
		return a < b ? -1 : 1;
	return (i > j) - (i < j);
}

void executed_layout(const struct opt_graph *g, const struct opt_params *p,
		     struct opt_layout *out)
{
	uint32_t *hot = xcalloc(g->ngroups + 1, sizeof(*hot));
	size_t n = 0;

	(void)p;
	for (size_t i = 0; i < g->ngroups; i++)
		if (opt_group_hot(&g->groups[i]))
			hot[n++] = (uint32_t)i;
	qsort_r(hot, n, sizeof(*hot), by_address, (void *)g);
	if (n) {
		struct opt_cluster *c = opt_layout_add(out);
		for (size_t i = 0; i < n; i++)
			opt_cluster_push(c, g, hot[i]);
	}
	free(hot);
}
