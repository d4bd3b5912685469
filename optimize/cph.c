/*
 * Call-proximity hit order: cliques of functions that call each other,
 * each no larger than the instruction cache, so that code which runs
 * together never evicts itself.
 *
 * The heaviest caller/callee pair whose two groups are both free starts a
 * clique.  The clique then grows through the callers and callees of its
 * members: the free group with the most calls to and from the clique comes
 * next, put at the end of the clique nearer to the member it calls most,
 * until the next candidate would make the clique larger than the cache.
 * Hot groups left over (no free partner) start cliques of their own and
 * grow the same way.  Cliques go hottest per byte first, so the hottest
 * code shares the fewest cache sets with anything else.
 */
#include "optimize/optimize.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

struct seed {
	uint32_t a, b;		/* a: the caller of the heavier direction */
	uint64_t w;
};

static int by_weight(const void *x, const void *y)
{
	const struct seed *p = x, *q = y;

	if (p->w != q->w)
		return p->w > q->w ? -1 : 1;
	uint32_t pa = p->a < p->b ? p->a : p->b, qa = q->a < q->b ? q->a : q->b;
	if (pa != qa)
		return pa < qa ? -1 : 1;
	uint32_t pb = p->a ^ p->b ^ pa, qb = q->a ^ q->b ^ qa;
	return (pb > qb) - (pb < qb);
}

struct grower {
	const struct opt_graph *g;
	const struct opt_adjacency *adj;
	uint64_t cap;
	uint8_t *placed;
	uint64_t *conn;		/* calls between a free group and the clique */
	uint32_t *cand;		/* free groups with conn > 0 */
	size_t ncand;
};

static int fits(const struct grower *s, const struct opt_cluster *c, uint32_t gr)
{
	return !s->cap || c->size + s->g->groups[gr].size <= s->cap;
}

/* Counts GR's calls to and from the clique for its free neighbours. */
static void note_member(struct grower *s, uint32_t gr)
{
	const struct opt_adjacency *a = s->adj;

	for (size_t k = a->start[gr]; k < a->start[gr + 1]; k++) {
		uint32_t x = a->nbr[k];
		if (s->placed[x] || !opt_group_hot(&s->g->groups[x]))
			continue;
		if (!s->conn[x])
			s->cand[s->ncand++] = x;
		s->conn[x] += a->weight[k];
	}
}

static void place(struct grower *s, struct opt_cluster *c, uint32_t gr, int at_front)
{
	s->placed[gr] = 1;
	opt_cluster_push(c, s->g, gr);
	if (at_front) {
		memmove(c->groups + 1, c->groups, (c->n - 1) * sizeof(*c->groups));
		c->groups[0] = gr;
	}
	note_member(s, gr);
}

static void grow(struct grower *s, struct opt_cluster *c)
{
	for (;;) {
		uint32_t best = OPT_NONE;
		for (size_t i = 0; i < s->ncand; i++) {
			uint32_t x = s->cand[i];
			if (s->placed[x] || !fits(s, c, x))
				continue;
			if (best == OPT_NONE || s->conn[x] > s->conn[best] ||
			    (s->conn[x] == s->conn[best] && x < best))
				best = x;
		}
		if (best == OPT_NONE)
			break;
		uint64_t wf = opt_adjacency_weight(s->adj, best, c->groups[0]);
		uint64_t wb = opt_adjacency_weight(s->adj, best, c->groups[c->n - 1]);
		place(s, c, best, wf > wb);
	}
	for (size_t i = 0; i < s->ncand; i++)
		s->conn[s->cand[i]] = 0;
	s->ncand = 0;
}

/* A qsort_r() comparator of group numbers; the context is the graph. */
static int by_heat(const void *x, const void *y, void *graph)
{
	const struct opt_graph *heat_graph = graph;
	const struct opt_group *a = &heat_graph->groups[*(const uint32_t *)x];
	const struct opt_group *b = &heat_graph->groups[*(const uint32_t *)y];

	if (a->heat != b->heat)
		return a->heat > b->heat ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return (*(const uint32_t *)x > *(const uint32_t *)y) - (*(const uint32_t *)x < *(const uint32_t *)y);
}

void cph_layout(const struct opt_graph *g, const struct opt_params *p, struct opt_layout *out)
{
	struct opt_adjacency adj;
	struct grower s = { g, &adj, p->cache_size, NULL, NULL, NULL, 0 };
	size_t n = g->ngroups;

	opt_adjacency_build(g, &adj);
	s.placed = xcalloc(n + 1, 1);
	s.conn = xcalloc(n + 1, sizeof(*s.conn));
	s.cand = xcalloc(n + 1, sizeof(*s.cand));

	/* One seed per pair of groups, the direction with more calls first. */
	struct seed *seeds = xcalloc(g->nedges + 1, sizeof(*seeds));
	size_t nseeds = 0;
	for (size_t i = 0; i < g->nedges; i++) {
		const struct opt_edge *e = &g->edges[i];
		uint64_t back = opt_adjacency_weight(&adj, e->from, e->to) - e->count;
		if (back > e->count || (back == e->count && e->to < e->from))
			continue;	/* the pair is seeded from the other direction */
		seeds[nseeds++] = (struct seed){ e->from, e->to, e->count + back };
	}
	qsort(seeds, nseeds, sizeof(*seeds), by_weight);

	for (size_t i = 0; i < nseeds; i++) {
		uint32_t a = seeds[i].a, b = seeds[i].b;
		if (s.placed[a] || s.placed[b])
			continue;
		if (!opt_group_hot(&g->groups[a]) || !opt_group_hot(&g->groups[b]))
			continue;
		struct opt_cluster *c = opt_layout_add(out);
		place(&s, c, a, 0);
		if (!fits(&s, c, b)) {
			/* The pair does not fit together: A alone, B seeds later. */
			grow(&s, c);
			continue;
		}
		place(&s, c, b, 0);
		grow(&s, c);
	}

	/* Hot groups without a free partner: their own cliques, hottest first. */
	uint32_t *rest = xcalloc(n + 1, sizeof(*rest));
	size_t nrest = 0;
	for (size_t i = 0; i < n; i++)
		if (!s.placed[i] && opt_group_hot(&g->groups[i]))
			rest[nrest++] = (uint32_t)i;
	qsort_r(rest, nrest, sizeof(*rest), by_heat, (void *)g);
	for (size_t i = 0; i < nrest; i++) {
		if (s.placed[rest[i]])
			continue;
		struct opt_cluster *c = opt_layout_add(out);
		place(&s, c, rest[i], 0);
		grow(&s, c);
	}

	opt_layout_sort_by_density(g, out);
	free(rest);
	free(seeds);
	free(s.placed);
	free(s.conn);
	free(s.cand);
	opt_adjacency_release(&adj);
}
