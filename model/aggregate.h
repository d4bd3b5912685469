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
#include "sections.h"

/* One call path, its function already resolved. */
struct aggregate_node {
	uint32_t func;		/* FUNC_NONE for the root (node 0) */
	uint32_t parent;	/* lower than this node's own index */
	uint64_t calls;
	uint64_t total_ns;	/* inclusive, summed over the path's calls */
	uint64_t counter_total[CONTRACT_COUNTERS_MAX];	/* record -e: each counter likewise */
	uint64_t still_open;	/* calls running when the data ended (closed there) */
	uint64_t unwound;	/* calls closed by stack repair */
	uint64_t thrown;	/* of those, the ones an exception left */
	uint64_t samples;	/* timer samples with this path innermost (a sum's) */
	int signal;		/* a "<signal N>" pseudo-call: a signal handler ran here */
	int library;		/* calls of a function in an object without hooks: library
				 * calls, whose hooks cost more (aggregate_thread) */
};

/*
 * One function's calls on a thread, summed by the runtime per call:
 * inclusive times with the hooks' cost subtracted from each, as the
 * replay does.  Calls still running at the end are not in these sums.
 */
struct aggregate_func {
	uint32_t func;
	uint64_t calls;		/* calls in the sums below */
	long double sum_ns;	/* unrounded, for the spread */
	long double sum_sq_ns;	/* of each call's time, in ns squared */
	uint64_t sum_units;	/* the same two as recorded, in clock units */
	unsigned __int128 sum_sq_units;
	uint64_t min_ns;	/* meaningful when calls > 0 */
	uint64_t max_ns;
	uint64_t periods;	/* from one call's start to the next's */
	uint64_t period_sum_ns;
	uint64_t period_min_ns;	/* meaningful when periods > 0 */
	uint64_t period_max_ns;
	/* calls by duration in clock units, as cct_func_record.buckets */
	uint64_t buckets[CCT_FUNC_BUCKETS];
};

/* Everything an aggregate-mode thread holds. */
struct aggregate_thread {
	struct aggregate_node *nodes;	/* nodes[0] is the root */
	size_t nnodes;
	struct aggregate_func *funcs;
	size_t nfuncs;
	double inner_ns, outer_ns;	/* the hooks' cost per call, as for
					 * profile_thread_begin() */
	/* what a library call's hooks cost beyond that, inside the callee
	 * and outside it (0, 0: the same), as the replay takes it out of a
	 * trace (library_exit() in load/load.c) */
	double library_inner_ns, library_outer_ns;
	double ns_per_unit;	/* of the clock the buckets count in */
	/* --time-by=samples: the period the times count in (0: the
	 * clock's), the program's samples, and those in the hooks */
	uint64_t sample_period_ns;
	uint64_t samples, hook_samples;
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
 * What every reader of an aggregate-mode thread starts from: each path's
 * inclusive time with the hooks' cost subtracted, and each counter, in
 * all (TOTAL) and in its callees (CHILD), so self = TOTAL - CHILD at
 * every path.  Node 0's totals are what all its paths took.  Counters
 * from NCOUNTERS on are left NULL.
 */
struct aggregate_split {
	uint64_t *total, *child;
	uint64_t *calls_beneath;	/* calls made under each path's calls */
	uint64_t *total_c[CONTRACT_COUNTERS_MAX], *child_c[CONTRACT_COUNTERS_MAX];
};
void aggregate_split(const struct aggregate_thread *at, unsigned ncounters,
		     struct aggregate_split *s);
void aggregate_split_release(struct aggregate_split *s);

/*
 * Adds thread INFO's paths and functions to P.  Returns -1 (adding
 * nothing) if a node's parent is not below it or a function is unknown.
 */
int profile_add_aggregate(struct profile *p, const struct thread_info *info,
			  const struct aggregate_thread *at);

/*
 * Adds the same thread's paths to tree T (built against the function
 * table profile_add_aggregate() filled, which checked them): each path's
 * calls, self and total time and counters, and its calls still running
 * as virtual returns.  The <truncated> node, always present, becomes a
 * path only if calls went to it; a node of no function is no path.
 */
struct cct;
void cct_add_aggregate(struct cct *t, const struct aggregate_thread *at);

/* Adds the call durations AF of AT holds to H (see histogram.h for its
 * unit).  Two of a thread's AF may be one function (two static functions
 * of one name in one object): each adds its own. */
struct log2_hist;
void aggregate_histogram(const struct aggregate_thread *at, const struct aggregate_func *af,
			 struct log2_hist *h);

#endif
