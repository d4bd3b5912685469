#include "model/aggregate.h"

#include <stdlib.h>
#include <string.h>

#include "model/cct.h"
#include "xalloc.h"

static inline uint64_t sub_or_zero(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* Node 1 is "<truncated>", always there; it is a path only once used. */
static int unused_truncated(const struct aggregate_node *nodes, size_t i)
{
	return i == 1 && !nodes[i].calls && !nodes[i].total_ns && !nodes[i].still_open;
}

size_t aggregate_filter_signals(struct aggregate_node *nodes, size_t n, int exclude)
{
	if (n < 2)
		return n;

	/* where a node's children now hang: itself, or for a dropped
	 * signal node, the path it interrupted (UINT32_MAX: all dropped) */
	uint32_t *home = xcalloc(n, sizeof(*home));
	uint32_t *moved = xcalloc(n, sizeof(*moved));
	uint64_t *out = xcalloc(n, sizeof(*out));	/* handler time beneath */
	size_t kept = 1;

	/* first pass, on the original indices: what goes */
	for (size_t i = 1; i < n; i++) {
		uint32_t up = home[nodes[i].parent];
		home[i] = (uint32_t)i;
		if (up == UINT32_MAX) {
			home[i] = UINT32_MAX;
		} else if (nodes[i].signal && exclude) {
			home[i] = UINT32_MAX;
			out[nodes[i].parent] += nodes[i].total_ns;
		} else if (nodes[i].signal) {
			home[i] = up;
		}
	}
	/* the excluded handlers' time leaves every path they interrupted:
	 * children come after parents, so one backward pass sums it up */
	for (size_t i = n - 1; exclude && i >= 1; i--) {
		nodes[i].total_ns = nodes[i].total_ns > out[i] ? nodes[i].total_ns - out[i] : 0;
		out[nodes[i].parent] += out[i];
	}
	free(out);
	/* second pass: compact; a parent is always placed before its child */
	for (size_t i = 1; i < n; i++) {
		if (home[i] != i)
			continue;
		struct aggregate_node a = nodes[i];
		a.parent = moved[home[a.parent]];
		moved[i] = (uint32_t)kept;
		nodes[kept++] = a;
	}
	free(home);
	free(moved);
	return kept;
}

int aggregate_check(const struct aggregate_node *nodes, size_t n, size_t nfuncs)
{
	for (size_t i = 1; i < n; i++)
		if (nodes[i].parent >= i || (nodes[i].func >= nfuncs && nodes[i].func != FUNC_NONE))
			return -1;
	return 0;
}

void aggregate_times(const struct aggregate_node *nodes, size_t n, double inner_ns,
		     double outer_ns, uint64_t *total, uint64_t *child)
{
	uint64_t *desc = xcalloc(n, sizeof(*desc));
	double call_cost = inner_ns + outer_ns;

	memset(total, 0, n * sizeof(*total));
	memset(child, 0, n * sizeof(*child));
	/* children sit above their parents, so one backward pass sums
	 * every subtree: calls beneath a path, and its callees' time */
	for (size_t i = n - 1; i >= 1; i--) {
		const struct aggregate_node *a = &nodes[i];
		double hooks = (double)a->calls * inner_ns + (double)desc[i] * call_cost;
		total[i] = sub_or_zero(a->total_ns, (uint64_t)(hooks + 0.5));
		if (total[i] < child[i])
			total[i] = child[i];
		desc[a->parent] += desc[i] + a->calls;
		child[a->parent] += total[i];
	}
	total[0] = child[0];
	free(desc);
}

int profile_add_aggregate(struct profile *p, const struct thread_info *info,
			  const struct aggregate_node *nodes, size_t n,
			  double inner_ns, double outer_ns)
{
	if (!n)
		return 0;
	if (aggregate_check(nodes, n, p->nfuncs))
		return -1;

	uint64_t *child = xcalloc(n, sizeof(*child));
	uint64_t *total = xcalloc(n, sizeof(*total));
	uint32_t *first = xcalloc(n, sizeof(*first));
	uint32_t *next = xcalloc(n, sizeof(*next));
	double call_cost = inner_ns + outer_ns;
	uint64_t calls = 0;

	aggregate_times(nodes, n, inner_ns, outer_ns, total, child);
	for (size_t i = n - 1; i >= 1; i--) {
		next[i] = first[nodes[i].parent];
		first[nodes[i].parent] = (uint32_t)i;
		calls += nodes[i].calls;
	}

	/* depth-first, counting a function's total in its outermost paths */
	uint32_t *active = xcalloc(p->nfuncs + 1, sizeof(*active));
	uint32_t *stack = xmalloc(n * sizeof(*stack));
	uint8_t *left = xcalloc(n, 1);
	size_t depth = 0;
	stack[depth++] = 0;
	while (depth) {
		uint32_t i = stack[depth - 1];
		const struct aggregate_node *a = &nodes[i];
		if (left[i]) {
			depth--;
			if (a->func != FUNC_NONE)
				active[a->func]--;
			continue;
		}
		left[i] = 1;
		if (a->func != FUNC_NONE && !unused_truncated(nodes, i)) {
			struct func *f = &p->funcs[a->func];
			uint64_t self = total[i] - child[i];
			int outermost = active[a->func] == 0;
			f->calls += a->calls;
			f->self_ns += self;
			f->sum_call_ns += total[i];
			f->virtual_returns += a->still_open;
			if (a->calls) {
				/* single calls' hook costs are not known apart:
				 * scale them as the path's total was scaled */
				double kept = a->total_ns ? (double)total[i] / (double)a->total_ns : 0;
				uint64_t lo = (uint64_t)((double)a->min_ns * kept + 0.5);
				uint64_t hi = (uint64_t)((double)a->max_ns * kept + 0.5);
				if (a->calls == 1 && !a->still_open)
					lo = hi = total[i];
				if (lo < f->min_ns)
					f->min_ns = lo;
				if (hi > f->max_ns)
					f->max_ns = hi;
			}
			uint32_t caller = nodes[a->parent].func;
			/* intern first: it may move p->arcs */
			uint32_t arc_index = profile_intern_arc(p, caller, a->func);
			struct arc *arc = &p->arcs[arc_index];
			arc->count += a->calls;
			if (outermost) {
				f->total_ns += total[i];
				arc->self_ns += self;
				arc->child_ns += total[i] - self;
			}
			active[a->func]++;
		}
		for (uint32_t c = first[i]; c; c = next[c])
			stack[depth++] = c;
	}

	ALLOC_GROW(p->threads, p->nthreads + 1, p->threads_alloc);
	struct thread_info *t = &p->threads[p->nthreads++];
	*t = *info;
	t->calls = calls;
	p->calls += calls;
	p->lost_events += info->lost_events;
	p->overhead_per_call_ns = call_cost;
	p->overhead_q += (uint64_t)(call_cost * 256 + 0.5) * calls;
	p->overhead_ns = (p->overhead_q + 128) / 256;
	if (info->end_ns - info->start_ns > p->wall_ns)
		p->wall_ns = info->end_ns - info->start_ns;
	free(child);
	free(total);
	free(first);
	free(next);
	free(active);
	free(stack);
	free(left);
	return 0;
}

void cct_add_aggregate(struct cct *t, const struct aggregate_node *nodes, size_t n,
		       double inner_ns, double outer_ns)
{
	uint64_t *total = xcalloc(n, sizeof(*total));
	uint64_t *child = xcalloc(n, sizeof(*child));
	uint32_t *path = xcalloc(n, sizeof(*path));

	aggregate_times(nodes, n, inner_ns, outer_ns, total, child);
	path[0] = CCT_ROOT;
	for (size_t i = 1; i < n; i++) {
		if (unused_truncated(nodes, i) || nodes[i].func == FUNC_NONE) {
			path[i] = path[nodes[i].parent];
			continue;
		}
		path[i] = cct_child(t, path[nodes[i].parent], nodes[i].func);
		struct cct_node *node = &t->nodes[path[i]];
		node->calls += nodes[i].calls;
		node->self[CCT_TIME] += total[i] - child[i];
		node->total[CCT_TIME] += total[i];
		node->virtual_returns += nodes[i].still_open;
		t->calls += nodes[i].calls;
	}
	t->nodes[CCT_ROOT].total[CCT_TIME] += total[0];
	free(total);
	free(child);
	free(path);
}
