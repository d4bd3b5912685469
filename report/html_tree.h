/*
 * The call-path tree and the per-thread timeline the HTML report shows,
 * built by replaying every thread's entries and exits (a replay visitor of
 * load/load.h drives the html_tree_* calls below).
 *
 * Each node is one call path (main -> a -> b): its calls, its self time,
 * and its total, which is self plus its children's totals.  As a path never
 * contains itself, a recursive function's nested calls are separate, deeper
 * nodes and nothing is counted twice along a stack.  Times follow the
 * profile model's arithmetic exactly (model/profile.h: the hooks' measured
 * cost subtracted the same way; counters split into self and
 * +children the same way), so summing a function's nodes gives its self
 * time in the flat profile, and summing its outermost nodes (no ancestor
 * of the same function) its total, but where a path ended below 0 and
 * was raised to 0 (model/hook_cost_settle.h): the totals above it grew
 * by as much.
 *
 * Samples (record --sample) add their weight to the path of their stack,
 * outermost frame first, as one more metric of the same tree: a node's
 * self_samples are the samples whose innermost frame it is.
 *
 * The timeline keeps one record per call as recorded (start and end in ns,
 * no cost subtracted), the longest ones first when there are more than
 * asked for: the kept set is exactly "every call lasting at least
 * min_dur_ns", so a kept call's callers are kept too.
 */
#ifndef CALLSCOPE_REPORT_HTML_TREE_H
#define CALLSCOPE_REPORT_HTML_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"

#define HTML_NODE_ROOT 0	/* node 0: the root above every thread's calls */

struct html_node {
	uint32_t parent;	/* the root's is UINT32_MAX */
	uint32_t func;		/* index into the names profile; FUNC_NONE for the root */
	uint32_t depth;		/* 0 for the root */
	uint32_t first_child;	/* UINT32_MAX: none; heaviest first after html_tree_finish() */
	uint32_t next_sibling;
	uint64_t calls;
	uint64_t self_ns;
	uint64_t total_ns;
	uint64_t counter_self[CONTRACT_COUNTERS_MAX];	/* record -e: the counters in the path's own frames */
	uint64_t self_samples;		/* record --sample: samples with this path's stack */
	uint64_t total_samples;		/* self plus the children's, after html_tree_finish() */
};

/* One call on the timeline. */
struct html_call {
	uint64_t start_ns, end_ns;	/* as recorded, since the session start */
	uint32_t node;
	uint32_t thread;		/* index into html_tree.threads */
};

struct html_thread {
	struct thread_info info;	/* end_ns and calls filled at the end */
	uint32_t max_depth;
	uint64_t calls_dropped;		/* calls left off the timeline */
};

struct html_tree {
	const struct profile *names;	/* borrowed: the function table */
	struct html_node *nodes;
	size_t nnodes, nodes_alloc;
	struct html_thread *threads;
	size_t nthreads, threads_alloc;

	struct html_call *calls;	/* the timeline, once finished: by thread, start, depth */
	size_t ncalls, calls_alloc;
	size_t max_calls;		/* timeline budget; 0: no timeline */
	uint64_t min_dur_ns;		/* calls shorter than this were dropped */
	uint64_t calls_seen;
	size_t ncounters;		/* the names profile's, 0 to 2 */
	/* Paths are ordered and cut by samples, not time, when the run
	 * traced no time (a sampled-only recording); set by html_tree_finish() */
	int weigh_samples;

	struct html_tree_private *priv;
};

/*
 * Returns a tree whose function numbers index NAMES (borrowed; it must
 * outlive the tree).  MAX_CALLS bounds the timeline.  Free with
 * html_tree_free().
 */
struct html_tree *html_tree_new(const struct profile *names, size_t max_calls);
void html_tree_free(struct html_tree *t);

/* The replay, one thread at a time, as model/profile.h's builder. */
void html_tree_thread_begin(struct html_tree *t, const struct thread_info *info,
			    double inner_ns, double outer_ns);
void html_tree_enter(struct html_tree *t, uint32_t func, uint64_t time_ns);
void html_tree_open_frame(struct html_tree *t, uint32_t func, uint64_t time_ns);
/* KIND is an enum exit_kind of model/profile.h. */
void html_tree_exit(struct html_tree *t, uint64_t time_ns, int kind);
/* The counters' absolute values, for the next enter, open or exit. */
void html_tree_counters(struct html_tree *t, const uint64_t values[CONTRACT_COUNTERS_MAX]);
void html_tree_thread_end(struct html_tree *t, uint64_t end_ns);
/* One sample of the current thread: FUNCS innermost first (N >= 1),
 * WEIGHT timer periods. */
void html_tree_sample(struct html_tree *t, const uint32_t *funcs, size_t n, uint64_t weight);

/*
 * Adds an aggregate-mode thread (record --mode=count): its paths, node 0
 * the root, each node's parent below it.  Times follow model/aggregate.h, so
 * they agree with the flat profile's; the thread has no timeline.  A
 * thread whose nodes do not check out is left out, as the profile does.
 */
struct aggregate_thread;
void html_tree_add_aggregate(struct html_tree *t, const struct thread_info *info,
			     const struct aggregate_thread *at);

/* What orders and cuts call paths: their total time, or their samples in
 * a sampled-only recording. */
static inline uint64_t html_node_weight(const struct html_tree *t, const struct html_node *n)
{
	return t->weigh_samples ? n->total_samples : n->total_ns;
}

/*
 * After the last thread: sums the root, orders every node's children
 * heaviest first (then by name), and sorts the timeline.
 */
void html_tree_finish(struct html_tree *t);

/*
 * Lowers the timeline to at most MAX_CALLS calls by raising min_dur_ns
 * (the longest are kept; the set stays closed under callers).
 */
void html_tree_limit_calls(struct html_tree *t, size_t max_calls);

/*
 * Returns the NTH largest (1-based, NTH <= N) of VALUES, which it
 * reorders.
 */
uint64_t html_nth_largest(uint64_t *values, size_t n, size_t nth);

/* Returns the child of PARENT for FUNC, adding it if new. */
uint32_t html_tree_child(struct html_tree *t, uint32_t parent, uint32_t func);

#endif
