/*
 * Cycles of the call graph: its strongly connected components of more than
 * one function, found with Tarjan's algorithm.
 *
 * The depth-first search keeps its own stack instead of recursing: a call
 * graph can be a chain of 100k functions (a generated parser, a linked
 * list walked by mutual recursion), and each level of a recursive search
 * would cost a C stack frame.  Self-arcs are left out of the graph (a
 * function calling itself is not a cycle, gprof shows it as "calls+self")
 * and so are the spontaneous arcs, whose caller FUNC_NONE is no function.
 *
 * Numbering follows the address order of the members, as gprof numbers
 * cycles by the address order of their heads: cycle 1 holds the lowest
 * address.  Ties (addresses unknown, or equal in different objects) are
 * broken by name, then object, then function index, so the numbering is
 * the same on every run.
 */
#include "model/profile.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "xalloc.h"

#define UNVISITED UINT32_MAX

/* The graph without self-arcs and spontaneous arcs, as compressed rows:
 * the callees of F are adj[off[F]] .. adj[off[F + 1] - 1]. */
struct callee_rows {
	size_t *off;
	uint32_t *adj;
};

static void rows_build(struct callee_rows *g, const struct profile *p)
{
	size_t n = p->nfuncs;

	g->off = xcalloc(n + 1, sizeof(*g->off));
	for (size_t i = 0; i < p->narcs; i++) {
		const struct arc *a = &p->arcs[i];
		if (a->caller == FUNC_NONE || a->caller == a->callee)
			continue;
		if (a->caller >= n || a->callee >= n)
			BUG("arc %zu refers to function %u of %zu", i,
			    a->caller >= n ? a->caller : a->callee, n);
		g->off[a->caller + 1]++;
	}
	for (size_t f = 0; f < n; f++)
		g->off[f + 1] += g->off[f];
	g->adj = xmalloc(g->off[n] * sizeof(*g->adj));

	size_t *fill = xmalloc((n ? n : 1) * sizeof(*fill));
	memcpy(fill, g->off, n * sizeof(*fill));
	for (size_t i = 0; i < p->narcs; i++) {
		const struct arc *a = &p->arcs[i];
		if (a->caller == FUNC_NONE || a->caller == a->callee)
			continue;
		g->adj[fill[a->caller]++] = a->callee;
	}
	free(fill);
}

static void rows_release(struct callee_rows *g)
{
	free(g->off);
	free(g->adj);
}

/* One level of the explicit depth-first stack: a function and the next
 * of its callees to look at. */
struct dfs_frame {
	uint32_t func;
	size_t next;
};

/*
 * Tarjan's algorithm.  Sets comp[F] to a component number for every
 * function and returns how many components there are; components are
 * numbered in the order they complete, which the caller does not rely on.
 */
static uint32_t strong_components(const struct profile *p,
				  const struct callee_rows *g, uint32_t *comp)
{
	size_t n = p->nfuncs;
	uint32_t *order = xmalloc((n ? n : 1) * sizeof(*order));	/* discovery index */
	uint32_t *low = xmalloc((n ? n : 1) * sizeof(*low));
	unsigned char *on_stack = xcalloc(n ? n : 1, 1);
	uint32_t *scc_stack = xmalloc((n ? n : 1) * sizeof(*scc_stack));
	struct dfs_frame *dfs = xmalloc((n ? n : 1) * sizeof(*dfs));
	size_t scc_depth = 0, dfs_depth = 0;
	uint32_t counter = 0, ncomp = 0;

	for (size_t f = 0; f < n; f++)
		order[f] = UNVISITED;

	for (size_t root = 0; root < n; root++) {
		if (order[root] != UNVISITED)
			continue;
		/* Each function is pushed on dfs[] at most once at a time, so
		 * n frames are enough. */
		order[root] = low[root] = counter++;
		scc_stack[scc_depth++] = (uint32_t)root;
		on_stack[root] = 1;
		dfs[dfs_depth++] = (struct dfs_frame){ (uint32_t)root, g->off[root] };

		while (dfs_depth) {
			struct dfs_frame *top = &dfs[dfs_depth - 1];
			uint32_t v = top->func;

			if (top->next < g->off[v + 1]) {
				uint32_t w = g->adj[top->next++];
				if (order[w] == UNVISITED) {
					order[w] = low[w] = counter++;
					scc_stack[scc_depth++] = w;
					on_stack[w] = 1;
					dfs[dfs_depth++] = (struct dfs_frame){ w, g->off[w] };
				} else if (on_stack[w] && order[w] < low[v]) {
					low[v] = order[w];
				}
				continue;
			}

			/* All callees of v done: v roots a component if
			 * nothing below reached further up. */
			dfs_depth--;
			if (low[v] == order[v]) {
				uint32_t w;
				do {
					w = scc_stack[--scc_depth];
					on_stack[w] = 0;
					comp[w] = ncomp;
				} while (w != v);
				ncomp++;
			}
			if (dfs_depth) {
				uint32_t u = dfs[dfs_depth - 1].func;
				if (low[v] < low[u])
					low[u] = low[v];
			}
		}
	}

	free(order);
	free(low);
	free(on_stack);
	free(scc_stack);
	free(dfs);
	return ncomp;
}

/* The numbering order of functions: address, then name, object, index. */
static int func_order(const struct profile *p, uint32_t a, uint32_t b)
{
	const struct func *fa = &p->funcs[a], *fb = &p->funcs[b];
	int c;

	if (fa->addr != fb->addr)
		return fa->addr < fb->addr ? -1 : 1;
	if ((c = strcmp(fa->name, fb->name)))
		return c;
	if ((c = strcmp(fa->object, fb->object)))
		return c;
	return a < b ? -1 : a > b;
}

/* qsort_r() comparators; the context is the profile being sorted. */
static int cmp_member(const void *l, const void *r, void *profile)
{
	return func_order(profile, *(const uint32_t *)l, *(const uint32_t *)r);
}

static int cmp_cycle(const void *l, const void *r, void *profile)
{
	const struct cycle *a = l, *b = r;
	return func_order(profile, a->members[0], b->members[0]);
}

static void cycles_clear(struct profile *p)
{
	for (size_t i = 0; i < p->ncycles; i++)
		free(p->cycles[i].members);
	free(p->cycles);
	p->cycles = NULL;
	p->ncycles = 0;
	for (size_t f = 0; f < p->nfuncs; f++)
		p->funcs[f].cycle = 0;
}

void profile_find_cycles(struct profile *p)
{
	size_t n = p->nfuncs;
	struct callee_rows g;

	cycles_clear(p);
	if (!n)
		return;

	rows_build(&g, p);
	uint32_t *comp = xmalloc(n * sizeof(*comp));
	uint32_t ncomp = strong_components(p, &g, comp);
	rows_release(&g);

	/* Members per component, then keep those of two or more. */
	size_t *size = xcalloc(ncomp, sizeof(*size));
	for (size_t f = 0; f < n; f++)
		size[comp[f]]++;
	uint32_t *cycle_of = xmalloc(ncomp * sizeof(*cycle_of));	/* comp -> slot + 1 */
	size_t ncycles = 0;
	for (uint32_t c = 0; c < ncomp; c++)
		cycle_of[c] = size[c] > 1 ? (uint32_t)++ncycles : 0;

	if (ncycles) {
		p->cycles = xcalloc(ncycles, sizeof(*p->cycles));
		for (uint32_t c = 0; c < ncomp; c++)
			if (cycle_of[c])
				p->cycles[cycle_of[c] - 1].members =
					xmalloc(size[c] * sizeof(uint32_t));
		for (size_t f = 0; f < n; f++) {
			uint32_t slot = cycle_of[comp[f]];
			if (slot) {
				struct cycle *cy = &p->cycles[slot - 1];
				cy->members[cy->nmembers++] = (uint32_t)f;
			}
		}
		p->ncycles = ncycles;

		for (size_t i = 0; i < ncycles; i++)
			qsort_r(p->cycles[i].members, p->cycles[i].nmembers,
				sizeof(uint32_t), cmp_member, p);
		qsort_r(p->cycles, ncycles, sizeof(*p->cycles), cmp_cycle, p);

		for (size_t i = 0; i < ncycles; i++)
			for (size_t m = 0; m < p->cycles[i].nmembers; m++)
				p->funcs[p->cycles[i].members[m]].cycle = (int)i + 1;
	}
	free(size);
	free(cycle_of);
	free(comp);

	/*
	 * The cycle's numbers from its arcs.  Time leaving the cycle is
	 * exact: a callee outside the cycle cannot reach back into it, so
	 * its activations called from members are never nested in one
	 * another and their arc times add up without overlap.
	 */
	for (size_t f = 0; f < n; f++) {
		const struct func *fn = &p->funcs[f];
		if (fn->cycle)
			p->cycles[fn->cycle - 1].self_ns += fn->self_ns;
	}
	for (size_t i = 0; i < p->narcs; i++) {
		const struct arc *a = &p->arcs[i];
		int from = a->caller == FUNC_NONE ? 0 : p->funcs[a->caller].cycle;
		int to = p->funcs[a->callee].cycle;

		if (to && from != to)
			p->cycles[to - 1].calls += a->count;
		else if (to && a->caller != a->callee)
			p->cycles[to - 1].internal_calls += a->count;
		if (from && from != to)
			p->cycles[from - 1].total_ns += a->self_ns + a->child_ns;
	}
	for (size_t i = 0; i < p->ncycles; i++)
		p->cycles[i].total_ns += p->cycles[i].self_ns;
}
