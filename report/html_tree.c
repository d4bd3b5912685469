/*
 * Building the call-path tree: a map from (parent node, function) to the
 * child node (lib/u64map.h), a replay stack closing each call by the
 * profile's own rule (model/call_span.h), and the timeline's "longest
 * calls" selection.
 */
#include "report/html_tree.h"
#include "model/aggregate.h"
#include "model/call_span.h"
#include "model/hook_cost_settle.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "u64map.h"
#include "xalloc.h"

#define NONE UINT32_MAX

/* One open call of the thread being replayed. */
struct tree_frame {
	struct call_span span;
	uint32_t node;
};

struct html_tree_private {
	struct u64map children;	/* (parent, function) -> node */
	/* the replay of the current thread */
	struct tree_frame *stack;
	size_t depth, stack_alloc;
	struct hook_cost cost;	/* the hooks' cost per call */
	uint64_t last_ns;
	uint64_t counters[CONTRACT_COUNTERS_MAX];	/* the latest absolute values */
	uint32_t thread;
};

static uint32_t add_node(struct html_tree *t, uint32_t parent, uint32_t func)
{
	if (t->nnodes >= NONE - 1)
		die("more than %u call paths in one profile", NONE - 1);
	ALLOC_GROW(t->nodes, t->nnodes + 1, t->nodes_alloc);
	struct html_node *n = &t->nodes[t->nnodes];
	memset(n, 0, sizeof(*n));
	n->parent = parent;
	n->func = func;
	n->depth = parent == NONE ? 0 : t->nodes[parent].depth + 1;
	n->first_child = n->next_sibling = NONE;
	return (uint32_t)t->nnodes++;
}

uint32_t html_tree_child(struct html_tree *t, uint32_t parent, uint32_t func)
{
	uint64_t key = u64map_pair(parent, func);
	uint32_t id;

	if (u64map_get(&t->priv->children, key, &id))
		return id;
	id = add_node(t, parent, func);
	u64map_put(&t->priv->children, key, id);
	return id;
}

struct html_tree *html_tree_new(const struct profile *names, size_t max_calls)
{
	struct html_tree *t = xcalloc(1, sizeof(*t));

	t->names = names;
	t->ncounters = names->ncounters;
	t->max_calls = max_calls;
	t->priv = xcalloc(1, sizeof(*t->priv));
	u64map_init(&t->priv->children);
	add_node(t, NONE, FUNC_NONE);
	return t;
}

void html_tree_free(struct html_tree *t)
{
	if (!t)
		return;
	u64map_release(&t->priv->children);
	free(t->priv->stack);
	free(t->priv);
	free(t->nodes);
	free(t->threads);
	free(t->calls);
	free(t);
}

void html_tree_thread_begin(struct html_tree *t, const struct thread_info *info,
			    double inner_ns, double outer_ns)
{
	struct html_tree_private *pv = t->priv;

	ALLOC_GROW(t->threads, t->nthreads + 1, t->threads_alloc);
	struct html_thread *th = &t->threads[t->nthreads];
	memset(th, 0, sizeof(*th));
	th->info = *info;
	pv->thread = (uint32_t)t->nthreads++;
	/* the flat profile's own rule, so times agree to the nanosecond */
	pv->cost = hook_cost_make(inner_ns, outer_ns, info->hooks_in_place);
	pv->last_ns = info->start_ns;
	pv->depth = 0;
	memset(pv->counters, 0, sizeof(pv->counters));
}

void html_tree_counters(struct html_tree *t, const uint64_t values[CONTRACT_COUNTERS_MAX])
{
	memcpy(t->priv->counters, values, sizeof(t->priv->counters));
}

static uint64_t clamp_time(struct html_tree_private *pv, uint64_t t)
{
	if (t < pv->last_ns)
		return pv->last_ns;
	pv->last_ns = t;
	return t;
}

static void push(struct html_tree *t, uint32_t func, uint64_t time_ns, int counted)
{
	struct html_tree_private *pv = t->priv;
	uint32_t parent = pv->depth ? pv->stack[pv->depth - 1].node : HTML_NODE_ROOT;

	ALLOC_GROW(pv->stack, pv->depth + 1, pv->stack_alloc);
	struct tree_frame *f = &pv->stack[pv->depth++];
	f->node = html_tree_child(t, parent, func);
	call_span_open(&f->span, time_ns, counted, pv->counters);
	struct html_thread *th = &t->threads[pv->thread];
	if (t->nodes[f->node].depth > th->max_depth)
		th->max_depth = t->nodes[f->node].depth;
}

void html_tree_enter(struct html_tree *t, uint32_t func, uint64_t time_ns)
{
	push(t, func, clamp_time(t->priv, time_ns), 1);
}

void html_tree_open_frame(struct html_tree *t, uint32_t func, uint64_t time_ns)
{
	push(t, func, clamp_time(t->priv, time_ns), 0);
}

static void swap_u64(uint64_t *a, uint64_t *b)
{
	uint64_t x = *a;
	*a = *b;
	*b = x;
}

/* A quickselect with a three-way partition, so runs of equal values
 * cost one pass. */
uint64_t html_nth_largest(uint64_t *d, size_t n, size_t nth)
{
	size_t lo = 0, hi = n - 1, k = nth - 1;

	for (;;) {
		if (lo >= hi)
			return d[k];
		uint64_t pivot = d[lo + (hi - lo) / 2];
		/* d[lo, lt) > pivot, d[lt, i) == pivot, d[gt, hi] < pivot */
		size_t lt = lo, i = lo, gt = hi + 1;
		while (i < gt) {
			if (d[i] > pivot)
				swap_u64(&d[lt++], &d[i++]);
			else if (d[i] < pivot)
				swap_u64(&d[i], &d[--gt]);
			else
				i++;
		}
		if (k < lt)
			hi = lt - 1;
		else if (k >= gt)
			lo = gt;
		else
			return pivot;
	}
}

/* The NTH longest duration among the calls. */
static uint64_t nth_longest(const struct html_call *calls, size_t n, size_t nth)
{
	uint64_t *d = xmalloc(n * sizeof(*d));

	for (size_t i = 0; i < n; i++)
		d[i] = calls[i].end_ns - calls[i].start_ns;
	uint64_t v = html_nth_largest(d, n, nth);
	free(d);
	return v;
}

/* Keeps the calls lasting at least min_dur_ns; counts the others. */
static void drop_short(struct html_tree *t)
{
	size_t kept = 0;

	for (size_t i = 0; i < t->ncalls; i++) {
		struct html_call *c = &t->calls[i];
		if (c->end_ns - c->start_ns >= t->min_dur_ns)
			t->calls[kept++] = *c;
		else
			t->threads[c->thread].calls_dropped++;
	}
	t->ncalls = kept;
}

void html_tree_limit_calls(struct html_tree *t, size_t max_calls)
{
	t->max_calls = max_calls;
	if (t->ncalls <= max_calls)
		return;
	if (!max_calls) {
		t->min_dur_ns = UINT64_MAX;
	} else {
		uint64_t d = nth_longest(t->calls, t->ncalls, max_calls);
		size_t at_least = 0;
		for (size_t i = 0; i < t->ncalls; i++)
			at_least += t->calls[i].end_ns - t->calls[i].start_ns >= d;
		/* Ties at the cut: keep all of them or none, so the set
		 * stays "every call at least this long". */
		if (at_least > max_calls)
			d++;
		if (d > t->min_dur_ns)
			t->min_dur_ns = d;
	}
	drop_short(t);
}

static void record_call(struct html_tree *t, uint32_t node, uint64_t start, uint64_t end)
{
	t->calls_seen++;
	if (end - start < t->min_dur_ns || !t->max_calls) {
		t->threads[t->priv->thread].calls_dropped++;
		return;
	}
	ALLOC_GROW(t->calls, t->ncalls + 1, t->calls_alloc);
	t->calls[t->ncalls++] = (struct html_call){ start, end, node, t->priv->thread };
	/* Twice the budget: raise the bar now, so memory stays bounded
	 * however long the trace. */
	if (t->ncalls >= 2 * t->max_calls)
		html_tree_limit_calls(t, t->max_calls);
}

/* Closes the innermost open call into its call path's numbers. */
static void pop(struct html_tree *t, uint64_t now)
{
	struct html_tree_private *pv = t->priv;
	struct tree_frame *f = &pv->stack[--pv->depth];
	struct html_node *n = &t->nodes[f->node];
	struct call_span_end end;

	call_span_close(&pv->cost, &f->span, now, pv->counters, t->ncounters,
			pv->depth ? &pv->stack[pv->depth - 1].span : NULL, &end);
	n->self_ns += end.self_ns;
	n->total_ns += end.total_ns;
	if (f->span.counted)
		n->calls++;
	for (size_t c = 0; c < t->ncounters && c < CONTRACT_COUNTERS_MAX; c++)
		n->counter_self[c] += end.total_c[c] - f->span.child_c[c];
	record_call(t, f->node, f->span.start_ns, now);
}

void html_tree_exit(struct html_tree *t, uint64_t time_ns, int kind)
{
	uint64_t now = clamp_time(t->priv, time_ns);

	/* as profile_exit(): an unknown kind closes nothing */
	if (t->priv->depth && kind >= EXIT_RETURN && kind <= EXIT_THROWN)
		pop(t, now);
}

/* The tree's nodes as hook_cost_settle_tree() sees them. */
static uint32_t node_func(void *ctx, size_t i)
{
	return ((struct html_tree *)ctx)->nodes[i].func;
}

static size_t node_parent(void *ctx, size_t i)
{
	return ((struct html_tree *)ctx)->nodes[i].parent;
}

static uint64_t *node_self(void *ctx, size_t i)
{
	return &((struct html_tree *)ctx)->nodes[i].self_ns;
}

static uint64_t *node_total(void *ctx, size_t i)
{
	return &((struct html_tree *)ctx)->nodes[i].total_ns;
}

void html_tree_thread_end(struct html_tree *t, uint64_t end_ns)
{
	struct html_tree_private *pv = t->priv;
	uint64_t now = clamp_time(pv, end_ns);

	while (pv->depth)
		pop(t, now);
	/* the thread's calls are all in: no sum is shown below 0 */
	struct settle_tree st = { t, t->nnodes, node_func, node_parent, node_self, node_total };
	hook_cost_settle_tree(&st);
	t->threads[pv->thread].info.end_ns = now;
}

void html_tree_sample(struct html_tree *t, const uint32_t *funcs, size_t n, uint64_t weight)
{
	uint32_t node = HTML_NODE_ROOT;

	for (size_t i = n; i-- > 0;)
		node = html_tree_child(t, node, funcs[i]);
	t->nodes[node].self_samples += weight;
	struct html_thread *th = &t->threads[t->priv->thread];
	if (t->nodes[node].depth > th->max_depth)
		th->max_depth = t->nodes[node].depth;
}

void html_tree_add_aggregate(struct html_tree *t, const struct thread_info *info,
			     const struct aggregate_thread *at)
{
	const struct aggregate_node *nodes = at->nodes;
	size_t n = at->nnodes;

	if (!n || aggregate_check(nodes, n, t->names->nfuncs))
		return;
	uint32_t *path = xcalloc(n, sizeof(*path));
	struct aggregate_split s;

	html_tree_thread_begin(t, info, at->inner_ns, at->outer_ns);
	struct html_thread *th = &t->threads[t->priv->thread];
	aggregate_split(at, (unsigned)t->ncounters, &s);
	path[0] = HTML_NODE_ROOT;
	for (size_t i = 1; i < n; i++) {
		/* the runtime's <truncated> node is always there: a path only
		 * when it was used */
		if (!nodes[i].calls && !nodes[i].total_ns && !nodes[i].still_open) {
			path[i] = path[nodes[i].parent];
			continue;
		}
		path[i] = html_tree_child(t, path[nodes[i].parent], nodes[i].func);
		struct html_node *node = &t->nodes[path[i]];
		node->calls += nodes[i].calls;
		node->self_ns += s.total[i] - s.child[i];
		node->total_ns += s.total[i];
		for (unsigned c = 0; c < 2 && s.total_c[c]; c++)
			node->counter_self[c] += s.total_c[c][i] - s.child_c[c][i];
		if (node->depth > th->max_depth)
			th->max_depth = node->depth;
	}
	th->info.end_ns = info->end_ns;
	aggregate_split_release(&s);
	free(path);
}

/* Children order: heaviest first, then by name, then by function number,
 * so the same input always gives the same layout.  The context of these
 * qsort_r() comparators is the tree sorted. */
static int compare_nodes(const void *a, const void *b, void *tree)
{
	const struct html_tree *sort_tree = tree;
	const struct html_node *na = &sort_tree->nodes[*(const uint32_t *)a];
	const struct html_node *nb = &sort_tree->nodes[*(const uint32_t *)b];

	uint64_t wa = html_node_weight(sort_tree, na), wb = html_node_weight(sort_tree, nb);

	if (wa != wb)
		return wa < wb ? 1 : -1;
	if (na->total_samples != nb->total_samples)
		return na->total_samples < nb->total_samples ? 1 : -1;
	if (na->calls != nb->calls)
		return na->calls < nb->calls ? 1 : -1;
	int c = strcmp(sort_tree->names->funcs[na->func].name,
		       sort_tree->names->funcs[nb->func].name);
	if (c)
		return c;
	return na->func < nb->func ? -1 : na->func > nb->func;
}

static int compare_calls(const void *a, const void *b, void *tree)
{
	const struct html_tree *sort_tree = tree;
	const struct html_call *ca = a, *cb = b;

	if (ca->thread != cb->thread)
		return ca->thread < cb->thread ? -1 : 1;
	if (ca->start_ns != cb->start_ns)
		return ca->start_ns < cb->start_ns ? -1 : 1;
	uint32_t da = sort_tree->nodes[ca->node].depth, db = sort_tree->nodes[cb->node].depth;
	return da < db ? -1 : da > db;
}

void html_tree_finish(struct html_tree *t)
{
	struct html_node *root = &t->nodes[HTML_NODE_ROOT];
	uint32_t *count = xcalloc(t->nnodes + 1, sizeof(*count));
	uint32_t *order;

	/* Children grouped by parent with a counting sort (nodes are
	 * created after their parent, so one pass sees every child). */
	root->total_ns = root->calls = 0;
	/* A node's parent was made before it: one backward pass sums the
	 * samples. */
	for (size_t i = 0; i < t->nnodes; i++)
		t->nodes[i].total_samples = t->nodes[i].self_samples;
	for (size_t i = t->nnodes; i-- > 1;)
		t->nodes[t->nodes[i].parent].total_samples += t->nodes[i].total_samples;
	for (size_t i = 1; i < t->nnodes; i++) {
		count[t->nodes[i].parent + 1]++;
		if (t->nodes[i].parent == HTML_NODE_ROOT)
			root->total_ns += t->nodes[i].total_ns;
	}
	root->self_ns = 0;
	t->weigh_samples = !root->total_ns && root->total_samples;
	for (size_t i = 1; i <= t->nnodes; i++)
		count[i] += count[i - 1];
	order = xmalloc((t->nnodes ? t->nnodes : 1) * sizeof(*order));
	for (size_t i = 1; i < t->nnodes; i++)
		order[count[t->nodes[i].parent]++] = (uint32_t)i;
	/* count[p] is now the end of p's children; p's start is the end
	 * of p - 1's. */
	for (size_t p = 0; p < t->nnodes; p++) {
		uint32_t begin = p ? count[p - 1] : 0, end = count[p];
		if (end - begin > 1)
			qsort_r(order + begin, end - begin, sizeof(*order), compare_nodes, t);
		t->nodes[p].first_child = begin < end ? order[begin] : NONE;
		for (uint32_t k = begin; k < end; k++)
			t->nodes[order[k]].next_sibling = k + 1 < end ? order[k + 1] : NONE;
	}
	free(order);
	free(count);
	html_tree_limit_calls(t, t->max_calls);
	if (t->ncalls)	/* qsort's array may not be NULL, even empty */
		qsort_r(t->calls, t->ncalls, sizeof(*t->calls), compare_calls, t);
}
