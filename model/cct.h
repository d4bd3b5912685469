/*
 * The calling-context tree: one node per call path.  The path of an
 * activation is the list of functions open on its thread's stack when it
 * began, outermost first, ending with its own function; every activation
 * with the same path lands in the same node.  Threads are merged: the root
 * is a node of no function whose children are each thread's outermost
 * calls, so a worker thread's start routine sits beside main.
 *
 * The numbers of a node, for each metric (time now; two counters later):
 *   calls       activations with this path that began in the recorded
 *               stream (a frame already open when the stream began is
 *               closed but not counted, as in model/profile.h)
 *   self        the metric spent in the function itself
 *   total       self + the totals of the node's children, summed over the
 *               node's activations
 * A path names its depth, so two activations of one path can never be
 * open at once: a recursive call is a child node (f under f), and a
 * node's total never counts an activation twice.  The sum of self over
 * all nodes equals the root's total exactly, and so it does at every node:
 * total = self + sum of the children's totals.
 *
 * Times have the hooks' measured cost subtracted exactly as model/profile.c
 * does it, so the nodes of one function add up to that function's numbers
 * in the flat profile: their self values sum to its self_ns, and the
 * totals of its nodes that have no ancestor of the same function sum to
 * its total_ns, except where a path ended below 0 and was raised to 0
 * (model/hook_cost_settle.h): the totals above it grew by as much.
 *
 * No I/O here.  The builder below is fed per thread, like profile.h's;
 * a finished tree can also be filled directly through cct_child().
 */
#ifndef CALLSCOPE_MODEL_CCT_H
#define CALLSCOPE_MODEL_CCT_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"

#define CCT_NONE UINT32_MAX	/* no node */
#define CCT_ROOT 0		/* the root is always node 0 */

/*
 * What a node measures.  Time is always there; C1 and C2 are the two
 * counters a recording may carry.  Every metric follows the same self /
 * total arithmetic, so a counter is one more index, not more code.
 */
enum cct_metric {
	CCT_TIME,	/* nanoseconds */
	CCT_C1,		/* counter c of record -e is CCT_C1 + c */
	CCT_C2,
	/* timer samples (record --sample): self counts the samples whose
	 * stack is the node's path, total those whose stack starts with it;
	 * filled by cct_add_sample(), never by the replay of calls */
	CCT_SAMPLES,
	CCT_NMETRICS
};
_Static_assert(CCT_SAMPLES - CCT_C1 == CONTRACT_COUNTERS_MAX, "a metric for every counter");

struct cct_node {
	uint32_t func;		/* index in the function table the tree was
				 * built against; FUNC_NONE for the root of
				 * a whole run */
	uint32_t parent;	/* CCT_NONE for the root */
	uint32_t first_child;	/* CCT_NONE for a leaf */
	uint32_t next_sibling;	/* CCT_NONE for the last child */
	uint32_t depth;		/* 0 for the root */
	uint64_t calls;
	uint64_t self[CCT_NMETRICS];
	uint64_t total[CCT_NMETRICS];
	uint64_t virtual_returns;	/* activations still open at the end */
	uint64_t unwound;		/* activations closed by stack repair */
	uint64_t thrown;		/* of those, the ones an exception left */
};

struct cct {
	struct cct_node *nodes;	/* nodes[CCT_ROOT] is the root; a child's
				 * index is always above its parent's */
	size_t nnodes, nodes_alloc;
	unsigned metrics;	/* bit (1 << enum cct_metric) for each metric
				 * that has values; CCT_TIME always */
	uint64_t calls;		/* counted activations in all */

	/* private: (parent, func) -> child */
	struct cct_index *index;
};

/* Returns a tree holding only its root (of ROOT_FUNC, FUNC_NONE for a
 * whole run); free it with cct_free(). */
struct cct *cct_new(uint32_t root_func);
void cct_free(struct cct *t);

/* Returns the child of PARENT for FUNC, adding it (zeroed) if new. */
uint32_t cct_child(struct cct *t, uint32_t parent, uint32_t func);

/*
 * Adds WEIGHT to METRIC along the call path FUNCS[0..N), innermost
 * first: to total[METRIC] of the root and of every node of the path from
 * it, and to self[METRIC] of the last, whose node is returned.
 */
uint32_t cct_add_path(struct cct *t, const uint32_t *funcs, size_t n, enum cct_metric metric,
		      uint64_t weight);

/*
 * Adds a timer sample of WEIGHT periods whose stack is FUNCS[0..N),
 * innermost first: cct_add_path() in CCT_SAMPLES.
 */
void cct_add_sample(struct cct *t, const uint32_t *funcs, size_t n, uint64_t weight);

/* Whether the tree has values for METRIC. */
static inline int cct_has_metric(const struct cct *t, enum cct_metric m)
{
	return (t->metrics >> m) & 1;
}

/*
 * Replay of one thread, as profile_thread_begin() & co.  INNER_NS and
 * OUTER_NS are the hooks' time cost per call (see model/profile.h);
 * START_NS is the thread's start.  Metric values (the _values forms) are
 * readings of each metric that never decrease within a thread, indexed by
 * enum cct_metric; the time-only forms read the time alone.  A reading
 * that goes backwards is taken as the previous one.  cct_thread_end()
 * closes what is still open as virtual returns and frees the builder.
 */
struct cct_builder;
struct cct_builder *cct_thread_begin(struct cct *t, uint64_t start_ns,
				     double inner_ns, double outer_ns);
/* Sets the hooks' cost per call in METRIC (none unless set); for a
 * counter, call it before the first event. */
void cct_set_cost(struct cct_builder *b, enum cct_metric m, double inner, double outer);
/* The hooks' cost was measured in place: short calls are summed below 0
 * (model/hook_cost.h; thread_info's hooks_in_place). */
void cct_sum_short_calls(struct cct_builder *b);
void cct_enter(struct cct_builder *b, uint32_t func, uint64_t time_ns);
void cct_open_frame(struct cct_builder *b, uint32_t func, uint64_t time_ns);
/* KIND as for profile_exit(): a stopped call closes as a virtual return. */
void cct_exit(struct cct_builder *b, uint64_t time_ns, enum exit_kind kind);
void cct_thread_end(struct cct_builder *b, uint64_t end_ns);

void cct_enter_values(struct cct_builder *b, uint32_t func, const uint64_t v[CCT_NMETRICS]);
void cct_open_frame_values(struct cct_builder *b, uint32_t func,
			   const uint64_t v[CCT_NMETRICS]);
void cct_exit_values(struct cct_builder *b, const uint64_t v[CCT_NMETRICS],
		     enum exit_kind kind);
void cct_thread_end_values(struct cct_builder *b, const uint64_t v[CCT_NMETRICS]);

/* Current nesting depth of the replay. */
size_t cct_builder_depth(const struct cct_builder *b);

/*
 * Re-roots T at FUNC: every activation of FUNC that has no other
 * activation of FUNC below it on its stack becomes the root, and what ran
 * beneath it is placed under the root by its path relative to that
 * activation.  A recursive FUNC's nested activations stay nested nodes.
 * So the root's total is FUNC's total_ns of the flat profile and its
 * calls are those outermost activations.  Returns a new tree the caller
 * frees; its root has no calls and no time when FUNC never ran.
 */
struct cct *cct_focus(const struct cct *t, uint32_t func);

#endif
