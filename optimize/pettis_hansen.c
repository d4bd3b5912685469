/*
 * Pettis and Hansen, "Profile Guided Code Positioning", PLDI 1990,
 * procedure ordering.
 *
 * Every hot group starts as a chain of its own.  The two chains joined by
 * the most calls (both directions, summed over all their members) are
 * merged, repeatedly, until no calls join two chains.  Of the four ways to
 * join chains A and B (A B, A reversed B, A B reversed, both reversed) the
 * one that puts the two ends of the heaviest single edge between them
 * closest in bytes wins.  There is no size cap: the original algorithm has
 * none, which is what makes it a useful point of comparison.  Chains are
 * laid out densest first.
 *
 * The calls between chains are kept up to date as chains merge (the pair
 * weights in a table, the candidates in a heap whose outdated entries are
 * skipped), so a program with tens of thousands of hot functions is not
 * rescanned edge by edge for every merge.
 */
#include "optimize/optimize.h"

#include <stdlib.h>
#include <string.h>

#include "binheap.h"
#include "partition.h"
#include "u64map.h"
#include "xalloc.h"

/* The calls between two live chains, LOW < HIGH, keyed by the pair. */
struct pair_weights {
	struct u64map index;	/* u64map_pair(low, high) -> slot in w */
	uint64_t *w;
	size_t n, alloc;
};

static uint64_t *weight_slot(struct pair_weights *t, uint32_t a, uint32_t b, int create)
{
	uint64_t key = a < b ? u64map_pair(a, b) : u64map_pair(b, a);
	uint32_t at;

	if (u64map_get(&t->index, key, &at))
		return &t->w[at];
	if (!create)
		return NULL;
	ALLOC_GROW(t->w, t->n + 1, t->alloc);
	t->w[t->n] = 0;
	u64map_put(&t->index, key, (uint32_t)t->n);
	return &t->w[t->n++];
}

/* The chains one chain has calls with; numbers of merged chains go stale. */
struct chain_list {
	uint32_t *ids;
	size_t n, alloc;
};

static void chain_list_add(struct chain_list *l, uint32_t id)
{
	ALLOC_GROW(l->ids, l->n + 1, l->alloc);
	l->ids[l->n++] = id;
}

/* A candidate merge: heaviest first, then the lowest pair (low << 32 | high). */
struct candidate {
	uint64_t w, key;
};

static int before(const void *x, const void *y)
{
	const struct candidate *a = x, *b = y;

	return a->w != b->w ? a->w > b->w : a->key < b->key;
}

/* Offset of group GR from the start of chain C, in bytes. */
static uint64_t offset_in(const struct opt_graph *g, const struct opt_cluster *c, uint32_t gr)
{
	uint64_t off = 0;

	for (size_t i = 0; i < c->n && c->groups[i] != gr; i++)
		off += g->groups[c->groups[i]].size;
	return off;
}

static void reverse(struct opt_cluster *c)
{
	for (size_t i = 0, j = c->n ? c->n - 1 : 0; i < j; i++, j--) {
		uint32_t t = c->groups[i];
		c->groups[i] = c->groups[j];
		c->groups[j] = t;
	}
}

/*
 * Joins chain B after chain A (reversing either as needed) so that X in A
 * and Y in B end up closest.
 */
static void join(const struct opt_graph *g, struct opt_cluster *a, struct opt_cluster *b,
		 uint32_t x, uint32_t y)
{
	uint64_t ox = offset_in(g, a, x), oy = offset_in(g, b, y);
	uint64_t sx = g->groups[x].size, sy = g->groups[y].size;
	/* Bytes between the end of X and the start of Y for each way. */
	uint64_t d[4] = {
		(a->size - ox - sx) + oy,		/* A B */
		(a->size - ox - sx) + (b->size - oy - sy),	/* A rev(B) */
		ox + oy,				/* rev(A) B */
		ox + (b->size - oy - sy),		/* rev(A) rev(B) */
	};
	int best = 0;

	for (int i = 1; i < 4; i++)
		if (d[i] < d[best])
			best = i;
	if (best >= 2)
		reverse(a);
	if (best & 1)
		reverse(b);
	for (size_t i = 0; i < b->n; i++)
		opt_cluster_push(a, g, b->groups[i]);
}

/* 1 if the graph has an edge FROM -> TO (the edges are sorted by their ends). */
static int has_edge(const struct opt_graph *g, uint32_t from, uint32_t to)
{
	size_t lo = PARTITION_POINT(g->nedges, mid,
				    g->edges[mid].from < from ||
					    (g->edges[mid].from == from && g->edges[mid].to < to));
	return lo < g->nedges && g->edges[lo].from == from && g->edges[lo].to == to;
}

/*
 * The heaviest single edge between chains A and B, as X in A and Y in B;
 * of equally heavy ones, the first in the edge list.  Scans the smaller
 * chain's neighbours only.
 */
static void heaviest_edge(const struct opt_graph *g, const struct opt_adjacency *adj,
			  const uint32_t *chain_of, const struct opt_cluster *ch, uint32_t a,
			  uint32_t b, uint32_t *x, uint32_t *y)
{
	uint32_t small = ch[a].n <= ch[b].n ? a : b, other = small == a ? b : a;
	uint64_t best_w = 0, best_from = 0, best_to = 0;

	*x = *y = OPT_NONE;
	for (size_t i = 0; i < ch[small].n; i++) {
		uint32_t u = ch[small].groups[i];
		for (size_t k = adj->start[u]; k < adj->start[u + 1]; k++) {
			uint32_t v = adj->nbr[k];
			if (chain_of[v] != other)
				continue;
			/* The first of the pair's directed edges in the edge list. */
			uint32_t from = u < v ? u : v, to = u < v ? v : u;
			if (!has_edge(g, from, to)) {
				uint32_t t = from;
				from = to;
				to = t;
			}
			uint64_t w = adj->weight[k];
			if (w > best_w || (w == best_w && (from < best_from ||
							   (from == best_from && to < best_to)))) {
				best_w = w;
				best_from = from;
				best_to = to;
				*x = chain_of[from] == a ? from : to;
				*y = chain_of[from] == a ? to : from;
			}
		}
	}
}

/* The chain a chain's old number now belongs to (merged chains forward). */
static uint32_t live_chain(uint32_t *merged_into, uint32_t c)
{
	uint32_t root = c;

	while (merged_into[root] != root)
		root = merged_into[root];
	while (merged_into[c] != root) {
		uint32_t next = merged_into[c];
		merged_into[c] = root;
		c = next;
	}
	return root;
}

void pettis_hansen_layout(const struct opt_graph *g, const struct opt_params *p,
			  struct opt_layout *out)
{
	size_t n = g->ngroups;
	uint32_t *chain_of = xcalloc(n + 1, sizeof(*chain_of));
	uint32_t *merged_into = xcalloc(n + 1, sizeof(*merged_into));
	struct opt_cluster *ch = xcalloc(n + 1, sizeof(*ch));
	struct chain_list *nbrs = xcalloc(n + 1, sizeof(*nbrs));
	struct pair_weights t = { 0 };
	struct binheap heap;
	struct opt_adjacency adj;

	(void)p;
	opt_adjacency_build(g, &adj);
	binheap_init(&heap, sizeof(struct candidate), before);
	u64map_init(&t.index);
	for (size_t i = 0; i < n; i++) {
		chain_of[i] = (uint32_t)i;
		merged_into[i] = (uint32_t)i;
		if (opt_group_hot(&g->groups[i]))
			opt_cluster_push(&ch[i], g, (uint32_t)i);
	}
	for (size_t i = 0; i < g->nedges; i++) {
		const struct opt_edge *e = &g->edges[i];
		if (!ch[e->from].n || !ch[e->to].n)
			continue;
		uint64_t *w = weight_slot(&t, e->from, e->to, 1);
		if (!*w) {
			chain_list_add(&nbrs[e->from], e->to);
			chain_list_add(&nbrs[e->to], e->from);
		}
		*w += e->count;
	}
	for (size_t i = 0; i < t.index.mask + 1; i++)
		if (t.index.values[i])
			binheap_push(&heap, &(struct candidate){ t.w[t.index.values[i] - 1], t.index.keys[i] });

	struct candidate c;
	while (binheap_pop(&heap, &c)) {
		uint32_t a = (uint32_t)(c.key >> 32), b = (uint32_t)c.key;
		uint64_t *w = weight_slot(&t, a, b, 0);
		if (!w || *w != c.w)
			continue;	/* outdated: the pair merged or gained calls */

		uint32_t x, y;
		heaviest_edge(g, &adj, chain_of, ch, a, b, &x, &y);
		join(g, &ch[a], &ch[b], x, y);
		for (size_t i = 0; i < ch[b].n; i++)
			chain_of[ch[b].groups[i]] = a;
		free(ch[b].groups);
		memset(&ch[b], 0, sizeof(ch[b]));
		merged_into[b] = a;
		*w = 0;

		/* B's calls with every other chain become A's. */
		for (size_t i = 0; i < nbrs[b].n; i++) {
			uint32_t other = live_chain(merged_into, nbrs[b].ids[i]);
			if (other == a)
				continue;
			uint64_t *from_b = weight_slot(&t, b, other, 0);
			if (!from_b || !*from_b)
				continue;
			uint64_t moved = *from_b;
			*from_b = 0;
			uint64_t *to_a = weight_slot(&t, a, other, 1);
			if (!*to_a) {
				chain_list_add(&nbrs[a], other);
				chain_list_add(&nbrs[other], a);
			}
			*to_a += moved;
			binheap_push(&heap, &(struct candidate){ *to_a, a < other ? u64map_pair(a, other) :
										 u64map_pair(other, a) });
		}
		free(nbrs[b].ids);
		memset(&nbrs[b], 0, sizeof(nbrs[b]));
	}

	for (size_t i = 0; i < n; i++) {
		if (!ch[i].n)
			continue;
		*opt_layout_add(out) = ch[i];
	}
	opt_layout_sort_by_density(g, out);
	for (size_t i = 0; i < n; i++)
		free(nbrs[i].ids);
	free(nbrs);
	binheap_release(&heap);
	free(t.w);
	u64map_release(&t.index);
	free(ch);
	free(merged_into);
	free(chain_of);
	opt_adjacency_release(&adj);
}
