/*
 * Adding an aggregate-mode thread (record --mode=count) to a profile: the
 * runtime summed each call path's calls and time in the process, so the
 * numbers arrive per path, not per call.  The same rules as the replay
 * apply (hooks' cost subtracted, recursion counted once in totals), summed
 * over a path's calls instead of applied to each.
 */
#ifndef CALLSCOPE_MODEL_AGGREGATE_H
#define CALLSCOPE_MODEL_AGGREGATE_H

#include <stddef.h>
#include <stdint.h>

#include "model/cct.h"
#include "model/profile.h"

/* One call path, its function already resolved. */
struct aggregate_node {
	uint32_t func;		/* FUNC_NONE for the root (node 0) */
	uint32_t parent;	/* lower than this node's own index */
	uint64_t calls;
	uint64_t total_ns;	/* inclusive, summed over the path's calls */
	uint64_t min_ns;	/* of one call; meaningful when calls > 0 */
	uint64_t max_ns;
	uint64_t still_open;	/* calls running when the data ended (closed there) */
	int signal;		/* a "<signal N>" pseudo-call: a signal handler ran here */
};

/*
 * --signal-filter on a thread's nodes, as the replay applies it to calls.
 * EXCLUDE: every "<signal N>" node goes with everything beneath it, and
 * its time leaves the totals of the paths it interrupted.  Otherwise
 * (none): the "<signal N>" nodes go, and what ran beneath them hangs from
 * the path they interrupted, its time still in that path's.  NODES is
 * compacted in place (parents still below children); returns the number
 * of nodes left.
 */
size_t aggregate_filter_signals(struct aggregate_node *nodes, size_t n, int exclude);

/* Returns 0 if every node's parent is below it and its function below
 * NFUNCS, else -1. */
int aggregate_check(const struct aggregate_node *nodes, size_t n, size_t nfuncs);

/*
 * Each path's inclusive time with the hooks' cost subtracted (TOTAL) and
 * its callees' part of it (CHILD), so self = TOTAL - CHILD; both arrays
 * hold N values.  Node 0's total is what all its paths took.
 */
void aggregate_times(const struct aggregate_node *nodes, size_t n, double inner_ns,
		     double outer_ns, uint64_t *total, uint64_t *child);

/*
 * Adds thread INFO's N nodes to P.  NODES[0] is the root.  INNER_NS and
 * OUTER_NS are the hooks' cost per call as for profile_thread_begin().
 * Returns -1 (adding nothing) if a node's parent is not below it.
 */
int profile_add_aggregate(struct profile *p, const struct thread_info *info,
			  const struct aggregate_node *nodes, size_t n,
			  double inner_ns, double outer_ns);

/*
 * Adds the same thread's N nodes to tree T (built against the function
 * table profile_add_aggregate() filled, which checked their parents):
 * each path's calls, self and total time, and its calls still running as
 * virtual returns.  The <truncated> node, always present, becomes a path
 * only if calls went to it; a node of no function is no path.
 */
struct cct;
void cct_add_aggregate(struct cct *t, const struct aggregate_node *nodes, size_t n,
		       double inner_ns, double outer_ns);

#endif
