/*
 * Cache-directed sort: chains of groups merged by the cache hits each
 * merge is expected to gain, in the spirit of the ext-TSP and cdsort
 * orderings (Newell and Pupyrev; llvm's CodeLayout), with the cache's size
 * in the objective.
 *
 * Every hot group starts as a chain of its own.  Repeatedly, of all pairs
 * of chains that call each other and fit the cache together, the pair
 * whose concatenation (either way round) gains the most is merged, until
 * no merge gains anything.  The gain of putting chain Y right after X:
 *   - distance: each call between them, from the middle of the caller to
 *     the callee's entry, counts its calls times 1 - distance / cache size
 *     (code less than a cache apart cannot evict itself; the nearer, the
 *     more of it shares lines and pages);
 *   - frequency, a quarter as much: the change in the expected misses of a
 *     model cache of cache-size / 2 KiB pages, each chain taking pages in
 *     proportion to its heat per byte (merging a cold chain into a hot
 *     one spreads the hot code over more pages);
 * divided by the smaller chain's size, so small hot functions find their
 * neighbours before large ones do.  Unlike the call-chain clustering of
 * c3 and dense-chains, a group may join any chain it exchanges calls
 * with, not only its most frequent caller's, and a callee may go before
 * its caller.  The chains are capped at the cache size (one chain without
 * a cap swallows the hot code in merge order) and laid out as
 * dense-chains lays its clusters out: densest first, each followed by the
 * one it exchanges the most calls with.
 */
#include "optimize/optimize.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* The model cache's page, and the weight of the frequency term. */
#define CS_PAGE 2048.0
#define CS_FREQUENCY_SCALE 0.25

struct cs_chain {
	struct opt_cluster c;
	int alive;
};

/* One cross-chain call's contribution to the two ways of merging a pair. */
struct cs_term {
	uint32_t a, b;		/* chains, a < b */
	double ab, ba;		/* gain with a first, with b first */
};

static int by_chains(const void *x, const void *y)
{
	const struct cs_term *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return (p->b > q->b) - (p->b < q->b);
}

struct cs_state {
	const struct opt_graph *g;
	uint64_t cap;
	double cache, total_heat;
	uint32_t *chain_of;
	uint64_t *pos;		/* a group's offset in its chain */
	struct cs_chain *ch;
};

static double dist_weight(const struct cs_state *s, double d)
{
	return d < s->cache ? 1.0 - d / s->cache : 0.0;
}

/* The score of COUNT calls from group U (at FROM_BASE) to V (at TO_BASE). */
static double call_score(const struct cs_state *s, uint32_t u, uint64_t from_base, uint32_t v,
			 uint64_t to_base, uint64_t count)
{
	double src = (double)(from_base + s->pos[u]) + (double)s->g->groups[u].size / 2;
	double dst = (double)(to_base + s->pos[v]);

	return (double)count * dist_weight(s, dst > src ? dst - src : src - dst);
}

/* X to the power N by squaring: the tool links without libm. */
static double power(double x, uint64_t n)
{
	double r = 1;

	for (; n; n >>= 1, x *= x)
		if (n & 1)
			r *= x;
	return r;
}

static double miss_probability(const struct cs_state *s, double density)
{
	uint64_t entries = (uint64_t)(s->cache / CS_PAGE);
	double page_heat = density * CS_PAGE;

	if (page_heat >= s->total_heat)
		return 0;
	return power(1.0 - page_heat / s->total_heat, entries);
}

static double chain_density(const struct opt_cluster *c)
{
	return (double)c->heat / (double)(c->size ? c->size : 1);
}

static double freq_gain(const struct cs_state *s, const struct opt_cluster *x,
			const struct opt_cluster *y)
{
	double before = (double)x->heat * miss_probability(s, chain_density(x)) +
			(double)y->heat * miss_probability(s, chain_density(y));
	double heat = (double)(x->heat + y->heat), size = (double)(x->size + y->size);

	return before - heat * miss_probability(s, heat / (size ? size : 1));
}

static void append(struct cs_state *s, uint32_t into, uint32_t from)
{
	struct opt_cluster *x = &s->ch[into].c, *y = &s->ch[from].c;
	uint64_t base = x->size;

	for (size_t k = 0; k < y->n; k++) {
		uint32_t gr = y->groups[k];
		s->pos[gr] += base;
		s->chain_of[gr] = into;
		opt_cluster_push(x, s->g, gr);
	}
	free(y->groups);
	memset(y, 0, sizeof(*y));
	s->ch[from].alive = 0;
}

/* Merges the best pair; 0 when no merge gains. */
static int merge_best(struct cs_state *s, struct cs_term *terms)
{
	const struct opt_graph *g = s->g;
	size_t n = 0;

	for (size_t i = 0; i < g->nedges; i++) {
		const struct opt_edge *e = &g->edges[i];
		uint32_t cu = s->chain_of[e->from], cv = s->chain_of[e->to];
		if (cu == OPT_NONE || cv == OPT_NONE || cu == cv)
			continue;
		uint64_t su = s->ch[cu].c.size, sv = s->ch[cv].c.size;
		double u_first = call_score(s, e->from, 0, e->to, su, e->count);
		double v_first = call_score(s, e->from, sv, e->to, 0, e->count);
		if (cu < cv)
			terms[n++] = (struct cs_term){ cu, cv, u_first, v_first };
		else
			terms[n++] = (struct cs_term){ cv, cu, v_first, u_first };
	}
	qsort(terms, n, sizeof(*terms), by_chains);

	double best = 0;
	uint32_t first = OPT_NONE, second = OPT_NONE;
	for (size_t i = 0; i < n;) {
		struct cs_term t = terms[i];
		for (i++; i < n && terms[i].a == t.a && terms[i].b == t.b; i++) {
			t.ab += terms[i].ab;
			t.ba += terms[i].ba;
		}
		const struct opt_cluster *x = &s->ch[t.a].c, *y = &s->ch[t.b].c;
		if (x->size + y->size > s->cap)
			continue;
		double f = CS_FREQUENCY_SCALE * freq_gain(s, x, y);
		uint64_t small = x->size < y->size ? x->size : y->size;
		double ab = (t.ab + f) / (double)(small ? small : 1);
		double ba = (t.ba + f) / (double)(small ? small : 1);
		if (ab > best) {
			best = ab;
			first = t.a;
			second = t.b;
		}
		if (ba > best) {
			best = ba;
			first = t.b;
			second = t.a;
		}
	}
	if (first == OPT_NONE)
		return 0;
	append(s, first, second);
	return 1;
}

void cache_sort_layout(const struct opt_graph *g, const struct opt_params *p,
		       struct opt_layout *out)
{
	struct cs_state s = { .g = g, .cap = p->cache_size ? p->cache_size : 32768 };
	size_t n = g->ngroups;

	s.cache = (double)s.cap;
	s.chain_of = xcalloc(n + 1, sizeof(*s.chain_of));
	s.pos = xcalloc(n + 1, sizeof(*s.pos));
	s.ch = xcalloc(n + 1, sizeof(*s.ch));
	for (size_t i = 0; i < n; i++) {
		s.chain_of[i] = OPT_NONE;
		if (!opt_group_hot(&g->groups[i]))
			continue;
		s.chain_of[i] = (uint32_t)i;
		s.ch[i].alive = 1;
		opt_cluster_push(&s.ch[i].c, g, (uint32_t)i);
		s.total_heat += (double)g->groups[i].heat;
	}
	struct cs_term *terms = xcalloc(g->nedges + 1, sizeof(*terms));
	while (merge_best(&s, terms))
		;
	free(terms);
	for (size_t i = 0; i < n; i++)
		if (s.ch[i].alive)
			*opt_layout_add(out) = s.ch[i].c;
	opt_layout_sort_by_density(g, out);
	opt_layout_link_by_calls(g, out);
	free(s.ch);
	free(s.pos);
	free(s.chain_of);
}
