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
 * Then C3's rule joins the chains the gains left apart: hottest per byte
 * first, each chain is appended to the chain that calls it the most, if
 * the two fit the cache together, however few the calls.  The gains merge
 * the pairs with the most calls per byte first, so a part of the program
 * the training ran rarely (an interpreter whose loop makes few calls,
 * beside a compiler that makes millions) is merged last, into whatever
 * chains still have room; the rule keeps each such chain with its callers.
 *
 * cache-sort skips the joins when a hot group is larger than the cache
 * (an interpreter's loop of 40 KB, say): its hot lines then take sets all
 * over the cache, where the rest of the hot code lands against it decides
 * the misses, and a join shifts every chain laid out after the one it
 * grew by kilobytes.  Measured, the joins lost SQLite's whole win over
 * lld's C3 (sqlite3VdbeExec, 39.5 KB) and a fifth of Tcl's (TEBCresume,
 * 54 KB), and turned jq's loss into a draw and kept Lua's win, which have
 * no such function (bench/RESULTS.md).  cache-sort-callers always joins.
 *
 * The merges that gain wait in a priority queue, best first.  A merge
 * weighs again only the pairs of the chain it made, from that chain's own
 * calls, and leaves the entries of the two chains it consumed in the
 * queue: an entry records the versions of its chains, and one whose chain
 * has changed since is dropped when it comes to the top.  So a merge costs
 * the calls of the chain it made (at most a cache's worth of code) and a
 * logarithm, not a pass over every pair of the program.
 */
#include "optimize/optimize.h"

#include <stdlib.h>
#include <string.h>

#include "binheap.h"
#include "xalloc.h"

/* The model cache's page, and the weight of the frequency term. */
#define CS_PAGE 2048.0
#define CS_FREQUENCY_SCALE 0.25

struct cs_chain {
	struct opt_cluster c;
	int alive;
};

/*
 * A merge that gains GAIN: chain SECOND appended to chain FIRST.  It stands
 * while neither chain has changed since (their versions then).
 */
struct cs_merge {
	double gain;
	uint32_t first, second, v_first, v_second;
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
	struct binheap queue;	/* of struct cs_merge, the best first */
	size_t compact_at;	/* the queue's length at which its stale entries go */
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
			if (sx + sz > s->cap)
				continue;	/* the two do not fit the cache together */
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
		double f = CS_FREQUENCY_SCALE * freq_gain(s, cx, cz);
		uint64_t small = cx->size < cz->size ? cx->size : cz->size;
		xf = (xf + f) / (double)(small ? small : 1);
		zf = (zf + f) / (double)(small ? small : 1);
		/* The pair's other way round can never come first: it stands
		 * as long as this one, and gains less (or as much, the higher
		 * chain first, which loses the tie). */
		struct cs_merge m = { xf, x, z, s->version[x], s->version[z] };
		if (zf > xf || (zf == xf && z < x))
			m = (struct cs_merge){ zf, z, x, s->version[z], s->version[x] };
		if (m.gain > 0)
			binheap_push(&s->queue, &m);
	}
}

/* 1 if merge X goes before Y: the larger gain (ties: lower chains, the lower one first). */
static int merge_before(const void *x, const void *y)
{
	const struct cs_merge *a = x, *b = y;

	if (a->gain != b->gain)
		return a->gain > b->gain;
	uint32_t alo = a->first < a->second ? a->first : a->second;
	uint32_t ahi = a->first < a->second ? a->second : a->first;
	uint32_t blo = b->first < b->second ? b->first : b->second;
	uint32_t bhi = b->first < b->second ? b->second : b->first;
	if (alo != blo)
		return alo < blo;
	if (ahi != bhi)
		return ahi < bhi;
	return a->first < a->second && b->first > b->second;
}

/* 1 while neither chain of merge M has changed since it was weighed. */
static int merge_stands(const void *m, void *state)
{
	const struct cs_merge *p = m;
	const struct cs_state *s = state;

	return p->v_first == s->version[p->first] && p->v_second == s->version[p->second];
}

/* Merges the best pair; 0 when no merge gains. */
static int merge_best(struct cs_state *s)
{
	struct cs_merge m;

	do
		if (!binheap_pop(&s->queue, &m))
			return 0;
	while (!merge_stands(&m, s));
	append(s, m.first, m.second);
	s->version[m.first]++;
	s->version[m.second]++;
	weigh_pairs(s, m.first, 0);
	/* Each merge leaves the entries of its two chains behind: drop them
	 * once they could be half the queue, so it stays a few times the
	 * pairs that stand. */
	if (s->queue.n >= s->compact_at) {
		binheap_filter(&s->queue, merge_stands, s);
		s->compact_at = 2 * s->queue.n > 1024 ? 2 * s->queue.n : 1024;
	}
	return 1;
}

/* qsort_r() comparator of chain numbers: hottest per byte first. */
static int by_density(const void *x, const void *y, void *state)
{
	const struct cs_state *s = state;
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	double di = chain_density(&s->ch[i].c), dj = chain_density(&s->ch[j].c);

	if (di != dj)
		return di > dj ? -1 : 1;
	return (i > j) - (i < j);
}

/* The chain that makes the most calls into chain X (ties: the lower), or OPT_NONE. */
static uint32_t heaviest_caller(struct cs_state *s, uint32_t x, uint64_t *calls_from)
{
	const struct opt_cluster *cx = &s->ch[x].c;
	uint32_t best = OPT_NONE;
	size_t ntouched = 0;

	for (size_t k = 0; k < cx->n; k++) {
		uint32_t u = cx->groups[k];
		for (size_t i = s->arc_start[u]; i < s->arc_start[u + 1]; i++) {
			const struct opt_edge *e = &s->g->edges[s->arc[i]];
			uint32_t z = s->chain_of[e->from];
			if (e->to != u || z == OPT_NONE || z == x)
				continue;
			if (!s->seen[z]) {
				s->seen[z] = 1;
				s->touched[ntouched++] = z;
			}
			calls_from[z] += e->count;
		}
	}
	for (size_t t = 0; t < ntouched; t++) {
		uint32_t z = s->touched[t];
		if (best == OPT_NONE || calls_from[z] > calls_from[best] ||
		    (calls_from[z] == calls_from[best] && z < best))
			best = z;
	}
	for (size_t t = 0; t < ntouched; t++) {
		calls_from[s->touched[t]] = 0;
		s->seen[s->touched[t]] = 0;
	}
	return best;
}

/*
 * C3's rule for the chains the gains left apart: hottest per byte first,
 * each goes after the chain that calls it the most if the two fit.
 */
static void join_callers(struct cs_state *s, size_t n)
{
	uint32_t *order = xcalloc(n + 1, sizeof(*order));
	uint64_t *calls_from = xcalloc(n + 1, sizeof(*calls_from));
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (s->ch[i].alive)
			order[m++] = (uint32_t)i;
	qsort_r(order, m, sizeof(*order), by_density, s);
	for (size_t k = 0; k < m; k++) {
		uint32_t x = order[k];
		if (!s->ch[x].alive)
			continue;
		uint32_t z = heaviest_caller(s, x, calls_from);
		if (z != OPT_NONE && s->ch[z].c.size + s->ch[x].c.size <= s->cap)
			append(s, z, x);
	}
	free(calls_from);
	free(order);
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

/* When the chains the gains left apart join their callers. */
enum cs_joins {
	CS_JOIN_UNLESS_LARGER_THAN_CACHE,	/* unless a hot group is larger than the cache */
	CS_JOIN_ALWAYS,
};

/* 1 if a hot group is larger than the cache (it is then a chain of its own). */
static int hot_group_larger_than(const struct opt_graph *g, uint64_t cap)
{
	for (size_t i = 0; i < g->ngroups; i++)
		if (opt_group_hot(&g->groups[i]) && g->groups[i].size > cap)
			return 1;
	return 0;
}

static void cache_sort(const struct opt_graph *g, const struct opt_params *p,
		       struct opt_layout *out, enum cs_joins joins)
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
	binheap_init(&s.queue, sizeof(struct cs_merge), merge_before);
	s.compact_at = 1024;
	for (size_t i = 0; i < n; i++)
		if (s.ch[i].alive)
			weigh_pairs(&s, (uint32_t)i, 1);
	while (merge_best(&s))
		;
	if (joins == CS_JOIN_ALWAYS || !hot_group_larger_than(g, s.cap))
		join_callers(&s, n);
	for (size_t i = 0; i < n; i++)
		if (s.ch[i].alive)
			*opt_layout_add(out) = s.ch[i].c;
	opt_layout_sort_by_density(g, out);
	opt_layout_link_by_calls(g, out);
	binheap_release(&s.queue);
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

void cache_sort_layout(const struct opt_graph *g, const struct opt_params *p,
		       struct opt_layout *out)
{
	cache_sort(g, p, out, CS_JOIN_UNLESS_LARGER_THAN_CACHE);
}

void cache_sort_callers_layout(const struct opt_graph *g, const struct opt_params *p,
			       struct opt_layout *out)
{
	cache_sort(g, p, out, CS_JOIN_ALWAYS);
}
