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
 */
#include "optimize/optimize.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

struct chain_pair {
	uint64_t key;		/* (low chain << 32) | high chain; 0 = empty slot */
	uint64_t w;
};

struct pair_table {
	struct chain_pair *slots;
	size_t mask;
};

static void table_add(struct pair_table *t, uint32_t a, uint32_t b, uint64_t w)
{
	uint64_t key = ((uint64_t)(a < b ? a : b) << 32 | (a < b ? b : a)) + 1;
	size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & t->mask;

	while (t->slots[h].key && t->slots[h].key != key)
		h = (h + 1) & t->mask;
	t->slots[h].key = key;
	t->slots[h].w += w;
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

void pettis_hansen_layout(const struct opt_graph *g, const struct opt_params *p,
			  struct opt_layout *out)
{
	size_t n = g->ngroups;
	uint32_t *chain_of = xcalloc(n + 1, sizeof(*chain_of));
	struct opt_cluster *ch = xcalloc(n + 1, sizeof(*ch));
	struct pair_table t;
	struct opt_adjacency adj;

	(void)p;
	opt_adjacency_build(g, &adj);
	t.mask = 1;
	while (t.mask < 2 * g->nedges + 2)
		t.mask <<= 1;
	t.slots = xcalloc(t.mask, sizeof(*t.slots));
	t.mask--;

	for (size_t i = 0; i < n; i++) {
		chain_of[i] = (uint32_t)i;
		if (opt_group_hot(&g->groups[i]))
			opt_cluster_push(&ch[i], g, (uint32_t)i);
	}
	for (;;) {
		memset(t.slots, 0, (t.mask + 1) * sizeof(*t.slots));
		for (size_t i = 0; i < g->nedges; i++) {
			const struct opt_edge *e = &g->edges[i];
			uint32_t a = chain_of[e->from], b = chain_of[e->to];
			if (a != b && ch[a].n && ch[b].n)
				table_add(&t, a, b, e->count);
		}
		uint64_t best_key = 0, best_w = 0;
		for (size_t i = 0; i <= t.mask; i++) {
			const struct chain_pair *s = &t.slots[i];
			if (s->key && (s->w > best_w || (s->w == best_w && s->key < best_key))) {
				best_key = s->key;
				best_w = s->w;
			}
		}
		if (!best_key)
			break;
		uint32_t a = (uint32_t)((best_key - 1) >> 32), b = (uint32_t)(best_key - 1);

		/* The heaviest single edge between the two chains. */
		uint32_t x = OPT_NONE, y = OPT_NONE;
		uint64_t xw = 0;
		for (size_t i = 0; i < g->nedges; i++) {
			const struct opt_edge *e = &g->edges[i];
			uint32_t ca = chain_of[e->from], cb = chain_of[e->to];
			if (!((ca == a && cb == b) || (ca == b && cb == a)))
				continue;
			uint64_t w = opt_adjacency_weight(&adj, e->from, e->to);
			if (w > xw) {
				xw = w;
				x = ca == a ? e->from : e->to;
				y = ca == a ? e->to : e->from;
			}
		}
		join(g, &ch[a], &ch[b], x, y);
		for (size_t i = 0; i < ch[b].n; i++)
			chain_of[ch[b].groups[i]] = a;
		free(ch[b].groups);
		memset(&ch[b], 0, sizeof(ch[b]));
	}

	for (size_t i = 0; i < n; i++) {
		if (!ch[i].n)
			continue;
		*opt_layout_add(out) = ch[i];
	}
	opt_layout_sort_by_density(g, out);
	free(t.slots);
	free(ch);
	free(chain_of);
	opt_adjacency_release(&adj);
}
