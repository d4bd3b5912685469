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
 *
 * The gains are kept per pair of chains; a merge weighs again only the
 * pairs of the chain it made, from that chain's own calls, so laying out
 * thousands of hot functions takes a fraction of a second.
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

/*
 * A merge that gains: chains A < B, with A first or B first.  It stands
 * while neither chain has changed since (their versions then).
 */
struct cs_pair {
	uint32_t a, b, va, vb;
	double ab, ba;
};

struct cs_state {
	const struct opt_graph *g;
	uint64_t cap;
	double cache, total_heat;
	uint32_t *chain_of;
	uint64_t *pos;		/* a group's offset in its chain */
	struct cs_chain *ch;
	uint32_t *version;	/* of each chain: bumped by every merge into it */
	size_t *arc_start;	/* the edges at group G: arc[arc_start[G] ..] */
	uint32_t *arc;
	struct cs_pair *pairs;
	size_t npairs, pairs_alloc;
	double *x_first, *z_first;	/* per chain, while weighing one chain's pairs */
	uint32_t *touched;
	unsigned char *seen;
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

/*
 * Weighs merging chain X with every chain it exchanges calls with (only
 * those numbered above X when ABOVE_ONLY), keeping the merges that gain.
 * Only X's own edges are read, so a merge costs the calls of the merged
 * chain, not of the whole program.
 */
static void weigh_pairs(struct cs_state *s, uint32_t x, int above_only)
{
	const struct opt_graph *g = s->g;
	const struct opt_cluster *cx = &s->ch[x].c;
	size_t ntouched = 0;

	for (size_t k = 0; k < cx->n; k++) {
		uint32_t u = cx->groups[k];
		for (size_t i = s->arc_start[u]; i < s->arc_start[u + 1]; i++) {
			const struct opt_edge *e = &g->edges[s->arc[i]];
			uint32_t w = e->from == u ? e->to : e->from, z = s->chain_of[w];
			if (z == OPT_NONE || z == x || (above_only && z < x))
				continue;
			uint64_t sx = cx->size, sz = s->ch[z].c.size;
			if (!s->seen[z]) {
				s->seen[z] = 1;
				s->touched[ntouched++] = z;
			}
			if (e->from == u) {
				s->x_first[z] += call_score(s, u, 0, w, sx, e->count);
				s->z_first[z] += call_score(s, u, sz, w, 0, e->count);
			} else {
				s->x_first[z] += call_score(s, w, sx, u, 0, e->count);
				s->z_first[z] += call_score(s, w, 0, u, sz, e->count);
			}
		}
	}
	for (size_t t = 0; t < ntouched; t++) {
		uint32_t z = s->touched[t];
		const struct opt_cluster *cz = &s->ch[z].c;
		double xf = s->x_first[z], zf = s->z_first[z];
		s->x_first[z] = s->z_first[z] = 0;
		s->seen[z] = 0;
		if (cx->size + cz->size > s->cap)
			continue;
		double f = CS_FREQUENCY_SCALE * freq_gain(s, cx, cz);
		uint64_t small = cx->size < cz->size ? cx->size : cz->size;
		xf = (xf + f) / (double)(small ? small : 1);
		zf = (zf + f) / (double)(small ? small : 1);
		if (xf <= 0 && zf <= 0)
			continue;
		if (s->npairs == s->pairs_alloc) {
			s->pairs_alloc = s->pairs_alloc ? 2 * s->pairs_alloc : 256;
			s->pairs = xrealloc(s->pairs, s->pairs_alloc * sizeof(*s->pairs));
		}
		s->pairs[s->npairs++] = x < z ?
			(struct cs_pair){ x, z, s->version[x], s->version[z], xf, zf } :
			(struct cs_pair){ z, x, s->version[z], s->version[x], zf, xf };
	}
}

/* 1 if merging A then B with GAIN beats the best so far (ties: lower chains, A first). */
static int better(double gain, uint32_t a, uint32_t b, double best, uint32_t ba, uint32_t bb)
{
	if (gain != best)
		return gain > best;
	uint32_t lo = a < b ? a : b, hi = a < b ? b : a, blo = ba < bb ? ba : bb, bhi = ba < bb ? bb : ba;
	if (lo != blo)
		return lo < blo;
	if (hi != bhi)
		return hi < bhi;
	return a < b && ba > bb;
}

/* Merges the best pair; 0 when no merge gains. */
static int merge_best(struct cs_state *s)
{
	double best = 0;
	uint32_t first = OPT_NONE, second = OPT_NONE;
	size_t kept = 0;

	for (size_t i = 0; i < s->npairs; i++) {
		const struct cs_pair *p = &s->pairs[i];
		if (p->va != s->version[p->a] || p->vb != s->version[p->b])
			continue;	/* one of the chains has changed since */
		s->pairs[kept++] = *p;
		if (p->ab > 0 && better(p->ab, p->a, p->b, best, first, second)) {
			best = p->ab;
			first = p->a;
			second = p->b;
		}
		if (p->ba > 0 && better(p->ba, p->b, p->a, best, first, second)) {
			best = p->ba;
			first = p->b;
			second = p->a;
		}
	}
	s->npairs = kept;
	if (first == OPT_NONE)
		return 0;
	append(s, first, second);
	s->version[first]++;
	s->version[second]++;
	weigh_pairs(s, first, 0);
	return 1;
}

/* For each group, the edges that start or end at it. */
static void index_arcs(struct cs_state *s)
{
	const struct opt_graph *g = s->g;

	s->arc_start = xcalloc(g->ngroups + 2, sizeof(*s->arc_start));
	s->arc = xcalloc(2 * g->nedges + 1, sizeof(*s->arc));
	for (size_t i = 0; i < g->nedges; i++) {
		s->arc_start[g->edges[i].from + 2]++;
		s->arc_start[g->edges[i].to + 2]++;
	}
	for (size_t i = 2; i < g->ngroups + 2; i++)
		s->arc_start[i] += s->arc_start[i - 1];
	for (size_t i = 0; i < g->nedges; i++) {
		s->arc[s->arc_start[g->edges[i].from + 1]++] = (uint32_t)i;
		s->arc[s->arc_start[g->edges[i].to + 1]++] = (uint32_t)i;
	}
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
	s.version = xcalloc(n + 1, sizeof(*s.version));
	s.x_first = xcalloc(n + 1, sizeof(*s.x_first));
	s.z_first = xcalloc(n + 1, sizeof(*s.z_first));
	s.touched = xcalloc(n + 1, sizeof(*s.touched));
	s.seen = xcalloc(n + 1, 1);
	index_arcs(&s);
	for (size_t i = 0; i < n; i++)
		if (s.ch[i].alive)
			weigh_pairs(&s, (uint32_t)i, 1);
	while (merge_best(&s))
		;
	for (size_t i = 0; i < n; i++)
		if (s.ch[i].alive)
			*opt_layout_add(out) = s.ch[i].c;
	opt_layout_sort_by_density(g, out);
	opt_layout_link_by_calls(g, out);
	free(s.pairs);
	free(s.arc);
	free(s.arc_start);
	free(s.seen);
	free(s.touched);
	free(s.z_first);
	free(s.x_first);
	free(s.version);
	free(s.ch);
	free(s.pos);
	free(s.chain_of);
}
