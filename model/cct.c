/*
 * Building the calling-context tree.  See cct.h for what the numbers
 * mean; the self/total arithmetic and the subtraction of the hooks' cost
 * are model/profile.c's, applied per metric, so both models agree to the
 * nanosecond.
 */
#include "model/cct.h"
#include "model/hook_cost.h"
#include "model/hook_cost_settle.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "u64map.h"
#include "xalloc.h"

/* (parent, func) -> the child's index. */
struct cct_index {
	struct u64map children;
};

static void add_root(struct cct *t, uint32_t func)
{
	ALLOC_GROW(t->nodes, 1, t->nodes_alloc);
	struct cct_node *n = &t->nodes[0];
	memset(n, 0, sizeof(*n));
	n->func = func;
	n->parent = CCT_NONE;
	n->first_child = CCT_NONE;
	n->next_sibling = CCT_NONE;
	t->nnodes = 1;
}

struct cct *cct_new(uint32_t root_func)
{
	struct cct *t = xcalloc(1, sizeof(*t));
	t->index = xcalloc(1, sizeof(*t->index));
	u64map_init(&t->index->children);
	t->metrics = 1u << CCT_TIME;
	add_root(t, root_func);
	return t;
}

void cct_free(struct cct *t)
{
	if (!t)
		return;
	free(t->nodes);
	u64map_release(&t->index->children);
	free(t->index);
	free(t);
}

uint32_t cct_child(struct cct *t, uint32_t parent, uint32_t func)
{
	uint64_t key = u64map_pair(parent, func);
	uint32_t id;

	if (parent >= t->nnodes)
		BUG("node %u not in the tree", parent);
	if (u64map_get(&t->index->children, key, &id))
		return id;
	if (t->nnodes >= CCT_NONE - 1)
		die("more than %u call paths in one tree; select a thread with --tid", CCT_NONE - 1);
	ALLOC_GROW(t->nodes, t->nnodes + 1, t->nodes_alloc);
	id = (uint32_t)t->nnodes++;
	struct cct_node *n = &t->nodes[id];
	struct cct_node *p = &t->nodes[parent];
	memset(n, 0, sizeof(*n));
	n->func = func;
	n->parent = parent;
	n->depth = p->depth + 1;
	n->first_child = CCT_NONE;
	n->next_sibling = p->first_child;
	p->first_child = id;
	u64map_put(&t->index->children, key, id);
	return id;
}

/*
 * One open activation.  child sums its callees' adjusted totals and
 * desc_calls counts the calls made beneath it, whose hooks' cost lies
 * inside its interval (as struct replay_frame of profile.c).
 */
struct cct_frame {
	uint32_t node;
	int counted;		/* a real call, not an OPEN_FRAME */
	uint64_t desc_calls;
	uint64_t start[CCT_NMETRICS];
	uint64_t child[CCT_NMETRICS];
};

struct cct_builder {
	struct cct *t;
	struct cct_frame *stack;
	size_t depth, alloc;
	/* hooks' cost per call, in 1/256 units of each metric: the part
	 * inside the callee, and inside + outside */
	struct hook_cost cost[CCT_NMETRICS];	/* per call, for each metric */
	uint64_t last[CCT_NMETRICS];	/* latest reading */
};

void cct_set_cost(struct cct_builder *b, enum cct_metric m, double inner, double outer)
{
	b->cost[m] = hook_cost_make(inner, outer, b->cost[m].summed);
}

void cct_sum_short_calls(struct cct_builder *b)
{
	for (int m = 0; m < CCT_NMETRICS; m++)
		b->cost[m].summed = 1;
}

struct cct_builder *cct_thread_begin(struct cct *t, uint64_t start_ns,
				     double inner_ns, double outer_ns)
{
	struct cct_builder *b = xcalloc(1, sizeof(*b));

	b->t = t;
	b->last[CCT_TIME] = start_ns;
	cct_set_cost(b, CCT_TIME, inner_ns, outer_ns);
	return b;
}

/* Copies V into OUT with each reading held at or above the last one. */
static void clamp(struct cct_builder *b, const uint64_t v[CCT_NMETRICS],
		  uint64_t out[CCT_NMETRICS])
{
	for (int m = 0; m < CCT_NMETRICS; m++) {
		if (v[m] > b->last[m])
			b->last[m] = v[m];
		out[m] = b->last[m];
	}
}

static void push(struct cct_builder *b, uint32_t func, const uint64_t v[CCT_NMETRICS],
		 int counted)
{
	uint32_t parent = b->depth ? b->stack[b->depth - 1].node : CCT_ROOT;

	ALLOC_GROW(b->stack, b->depth + 1, b->alloc);
	struct cct_frame *f = &b->stack[b->depth++];
	f->node = cct_child(b->t, parent, func);
	f->counted = counted;
	f->desc_calls = 0;
	clamp(b, v, f->start);
	memset(f->child, 0, sizeof(f->child));
}

enum close_kind { CLOSE_RETURN, CLOSE_UNWOUND, CLOSE_THROWN, CLOSE_VIRTUAL };

static void pop(struct cct_builder *b, const uint64_t now[CCT_NMETRICS], enum close_kind kind)
{
	struct cct_frame *f = &b->stack[--b->depth];
	struct cct_frame *parent = b->depth ? &b->stack[b->depth - 1] : NULL;
	struct cct_node *n = &b->t->nodes[f->node];

	for (int m = 0; m < CCT_NMETRICS; m++) {
		uint64_t total = hook_cost_total(&b->cost[m], now[m] - f->start[m],
						 f->desc_calls, f->counted, f->child[m]);
		n->self[m] += total - f->child[m];
		n->total[m] += total;
		if (parent)
			parent->child[m] += total;
		else
			b->t->nodes[CCT_ROOT].total[m] += total;
	}
	if (f->counted) {
		n->calls++;
		b->t->calls++;
	}
	if (kind == CLOSE_UNWOUND || kind == CLOSE_THROWN)
		n->unwound++;
	if (kind == CLOSE_THROWN)
		n->thrown++;
	else if (kind == CLOSE_VIRTUAL)
		n->virtual_returns++;
	if (parent)
		parent->desc_calls += f->desc_calls + (f->counted ? 1 : 0);
}

void cct_enter_values(struct cct_builder *b, uint32_t func, const uint64_t v[CCT_NMETRICS])
{
	push(b, func, v, 1);
}

void cct_open_frame_values(struct cct_builder *b, uint32_t func,
			   const uint64_t v[CCT_NMETRICS])
{
	push(b, func, v, 0);
}

void cct_exit_values(struct cct_builder *b, const uint64_t v[CCT_NMETRICS],
		     enum exit_kind kind)
{
	uint64_t now[CCT_NMETRICS];

	clamp(b, v, now);
	if (!b->depth)
		return;
	switch (kind) {
	case EXIT_RETURN: pop(b, now, CLOSE_RETURN); break;
	case EXIT_UNWOUND: pop(b, now, CLOSE_UNWOUND); break;
	case EXIT_STOPPED: pop(b, now, CLOSE_VIRTUAL); break;
	case EXIT_THROWN: pop(b, now, CLOSE_THROWN); break;
	}
}

/* The tree's nodes as hook_cost_settle_tree() sees them, one metric at
 * a time. */
struct settle_metric {
	struct cct *t;
	int m;
};

static uint32_t node_func(void *ctx, size_t i)
{
	return ((struct settle_metric *)ctx)->t->nodes[i].func;
}

static size_t node_parent(void *ctx, size_t i)
{
	return ((struct settle_metric *)ctx)->t->nodes[i].parent;
}

static uint64_t *node_self(void *ctx, size_t i)
{
	struct settle_metric *sm = ctx;
	return &sm->t->nodes[i].self[sm->m];
}

static uint64_t *node_total(void *ctx, size_t i)
{
	struct settle_metric *sm = ctx;
	return &sm->t->nodes[i].total[sm->m];
}

void cct_thread_end_values(struct cct_builder *b, const uint64_t v[CCT_NMETRICS])
{
	uint64_t now[CCT_NMETRICS];

	clamp(b, v, now);
	while (b->depth)
		pop(b, now, CLOSE_VIRTUAL);
	/* the thread's calls are all in: no sum is shown below 0 */
	for (int m = 0; m < CCT_NMETRICS; m++) {
		struct settle_metric sm = { b->t, m };
		struct settle_tree st = { &sm, b->t->nnodes, node_func, node_parent, node_self,
					  node_total };
		hook_cost_settle_tree(&st);
	}
	free(b->stack);
	free(b);
}

/* The time-only forms: the counters keep their last reading, so they
 * add nothing. */
static void time_only(const struct cct_builder *b, uint64_t time_ns, uint64_t v[CCT_NMETRICS])
{
	memcpy(v, b->last, sizeof(b->last));
	v[CCT_TIME] = time_ns;
}

void cct_enter(struct cct_builder *b, uint32_t func, uint64_t time_ns)
{
	uint64_t v[CCT_NMETRICS];
	time_only(b, time_ns, v);
	push(b, func, v, 1);
}

void cct_open_frame(struct cct_builder *b, uint32_t func, uint64_t time_ns)
{
	uint64_t v[CCT_NMETRICS];
	time_only(b, time_ns, v);
	push(b, func, v, 0);
}

void cct_exit(struct cct_builder *b, uint64_t time_ns, enum exit_kind kind)
{
	uint64_t v[CCT_NMETRICS];
	time_only(b, time_ns, v);
	cct_exit_values(b, v, kind);
}

void cct_thread_end(struct cct_builder *b, uint64_t end_ns)
{
	uint64_t v[CCT_NMETRICS];
	time_only(b, end_ns, v);
	cct_thread_end_values(b, v);
}

uint32_t cct_add_path(struct cct *t, const uint32_t *funcs, size_t n, enum cct_metric metric,
		      uint64_t weight)
{
	uint32_t node = CCT_ROOT;

	t->nodes[CCT_ROOT].total[metric] += weight;
	for (size_t i = n; i; i--) {
		node = cct_child(t, node, funcs[i - 1]);
		t->nodes[node].total[metric] += weight;
	}
	t->nodes[node].self[metric] += weight;
	return node;
}

void cct_add_sample(struct cct *t, const uint32_t *funcs, size_t n, uint64_t weight)
{
	t->metrics |= 1u << CCT_SAMPLES;
	cct_add_path(t, funcs, n, CCT_SAMPLES, weight);
}

size_t cct_builder_depth(const struct cct_builder *b)
{
	return b->depth;
}

static void add_node(struct cct_node *to, const struct cct_node *from)
{
	to->calls += from->calls;
	to->virtual_returns += from->virtual_returns;
	to->unwound += from->unwound;
	to->thrown += from->thrown;
	for (int m = 0; m < CCT_NMETRICS; m++) {
		to->self[m] += from->self[m];
		to->total[m] += from->total[m];
	}
}

/*
 * The image of each node in the focused tree follows from its parent's:
 * below an outermost FUNC, a node maps to its parent's image's child of
 * its function; a FUNC node with no FUNC above maps to the root; any
 * other node has no image.  Parents come before children in the node
 * array, so one pass in index order sees every parent's image first.
 */
struct cct *cct_focus(const struct cct *t, uint32_t func)
{
	struct cct *out = cct_new(func);
	uint32_t *image = xmalloc(t->nnodes * sizeof(*image));

	out->metrics = t->metrics;
	image[CCT_ROOT] = CCT_NONE;
	for (size_t i = 1; i < t->nnodes; i++) {
		const struct cct_node *n = &t->nodes[i];
		uint32_t up = image[n->parent];

		if (up != CCT_NONE)
			image[i] = cct_child(out, up, n->func);
		else if (n->func == func)
			image[i] = CCT_ROOT;
		else
			image[i] = CCT_NONE;
		if (image[i] != CCT_NONE) {
			add_node(&out->nodes[image[i]], n);
			out->calls += n->calls;
		}
	}
	free(image);
	return out;
}
