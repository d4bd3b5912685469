/*
 * The aggregate mode's work on every call (see aggregate.c for the
 * records it keeps): inline, so that the hooks in trace.c pay no call
 * for it.  Only trace.c and aggregate.c include this.
 */
#ifndef CALLSCOPE_RUNTIME_AGGREGATE_COUNT_H
#define CALLSCOPE_RUNTIME_AGGREGATE_COUNT_H

#include "hook_cost_rule.h"
#include "runtime.h"

#define AGGREGATE_TRUNCATED_NODE 1u

/* aggregate.c: the slow paths */
/* The child of PARENT for ADDR past the cache SLOT: the parent's list, or
 * a new node (and SLOT then names it); AGGREGATE_TRUNCATED_NODE when full. */
HIDDEN uint32_t aggregate_child_slow(struct thread_state *t, struct cct_cache_slot *slot,
				     uint32_t parent, uint64_t addr);
/* The statistics record of ADDR, made if new; 0 when it does not fit or
 * none are kept (no --call-stats): a frame without one skips them. */
HIDDEN uint32_t aggregate_find_func(struct thread_state *t, uint64_t addr);

static inline struct cct_func_record *count_func_record(struct thread_state *t, uint32_t record)
{
	return (struct cct_func_record *)&t->nodes[record];
}

/* The cache slot where the child of PARENT for ADDR is looked for. */
static inline struct cct_cache_slot *count_cache_slot(const struct thread_state *t, uint32_t parent,
						       uint64_t addr)
{
	uint32_t h = (uint32_t)(((addr * 0x9E3779B97F4A7C15ull) >> 32) ^ parent) &
		     (AGGREGATE_CACHE_SLOTS - 1);

	return &t->node_cache[h];
}

/* The child of PARENT for ADDR if SLOT, its cache slot, holds it, else 0. */
static inline uint32_t count_cached_child(const struct cct_cache_slot *slot, uint32_t parent,
					  uint64_t addr)
{
	return slot->addr == addr && slot->parent == parent ? slot->node : 0;
}

/* The child of PARENT for ADDR, made if new; AGGREGATE_TRUNCATED_NODE when full. */
static inline uint32_t count_child(struct thread_state *t, uint32_t parent, uint64_t addr)
{
	struct cct_cache_slot *slot = count_cache_slot(t, parent, addr);
	uint32_t node = count_cached_child(slot, parent, addr);

	if (LIKELY(node))
		return node;
	return aggregate_child_slow(t, slot, parent, addr);
}

/* The call memo's size: 1 << CALL_MEMO_BITS entries, 128 KiB, as many
 * as the cache of call paths has slots */
#define CALL_MEMO_BITS 12

/* The call memo's entry for the child of PARENT for ADDR, chosen as the
 * cache slot is: a path (one parent, one function) has one entry. */
static inline struct thread_call_memo *call_memo_entry(const struct thread_state *t,
						       uint32_t parent, uint64_t addr)
{
	uint32_t h = (uint32_t)(((addr * 0x9E3779B97F4A7C15ull) >> 32) ^ parent) &
		     ((1u << CALL_MEMO_BITS) - 1);

	return &t->call_memo[h];
}

/* aggregate.c: ENTRY of the call memo is taken for the path NODE, the
 * child of PARENT for ADDR, with one more call when the thread counts */
HIDDEN void call_memo_take(struct thread_state *t, struct thread_call_memo *entry,
			   uint32_t parent, uint64_t addr, uint32_t node);

/*
 * One more call (when the thread counts) of NODE, the child of PARENT for
 * ADDR: in the call memo (sections.h) when the thread has one, else in
 * the node.
 */
static inline void count_call(struct thread_state *t, uint32_t parent, uint64_t addr, uint32_t node)
{
	if (!t->call_memo_on || node == AGGREGATE_TRUNCATED_NODE) {
		t->nodes[node].calls += (uint64_t)t->capturing;
		return;
	}
	struct thread_call_memo *m = call_memo_entry(t, parent, addr);
	if (m->node == node)
		m->calls += (uint64_t)t->capturing;
	else
		call_memo_take(t, m, parent, addr, node);
}

/*
 * A call of F's function begins at NOW, its hooks costing CALL_Q in all:
 * the period since its previous call loses the hooks' cost of every call
 * begun in between and of that previous call's own, as the analyzer
 * reckons it from a trace.  The thread sums that cost as calls begin
 * (hooks_q), so a difference of two sums is the cost between them, with
 * no multiplication per call.
 */
static inline void count_note_start(struct thread_state *t, struct cct_func_record *fr, uint64_t now,
				    uint64_t call_q)
{
	t->hooks_q += call_q;
	/* hook_cost_less(now - last_start, hooks between), in the form
	 * whose only steps after the clock read are a compare and a
	 * subtraction (the clock is what the hooks wait for) */
	uint64_t from = fr->last_start + hook_cost_units(t->hooks_q - fr->last_hooks_q);
	if (fr->last_start != UINT64_MAX && now >= fr->last_start) {
		uint64_t period = now > from ? now - from : 0;

		fr->periods++;
		fr->period_sum += period;
		if (period < fr->period_min)
			fr->period_min = period;
		if (period > fr->period_max)
			fr->period_max = period;
	}
	fr->last_start = now;
	fr->last_hooks_q = t->hooks_q;
}

/* A call from START to NOW ended, HOOKS_Q of it the hooks of the calls
 * beneath it and, for a library call, its hooks' inner cost beyond a
 * compiler hook's (count_from()): its time is hook_cost_less(NOW - START,
 * HOOKS_Q + a compiler hook's inner cost), in count_note_start()'s form
 * (0 if NOW < START). */
static inline void count_note_call(struct cct_func_record *fr, uint64_t start, uint64_t now,
				   uint64_t hooks_q)
{
	uint64_t from = start + hook_cost_units(hooks_q + runtime_config.hook_inner_x256);
	uint64_t d = now > from ? now - from : 0;
	unsigned bucket = d ? 64u - (unsigned)__builtin_clzll(d) : 0;

	fr->calls++;
	fr->sum += d;
	if (d < fr->min)
		fr->min = d;
	if (d > fr->max)
		fr->max = d;
	fr->sum_sq += (unsigned __int128)d * d;
	fr->buckets[bucket < CCT_FUNC_BUCKETS ? bucket : CCT_FUNC_BUCKETS - 1]++;
}

/*
 * F's activation starts counting at NOW: its node has one more open.
 * INHERITED: it began before (a forked child's frame, or a call running
 * when capture resumed), so its time counts from now but not its call.
 * NCOUNTERS is t->ncounters, or 0 where the caller knows there are none
 * (the hooks' fast path), so that no loop over them is left; STATS is 0
 * where the caller knows no function has statistics (count mode's fast
 * path without --call-stats: every func_record is 0), so that their code
 * is left out too, else 1.  PATH_KNOWN: the caller knows F's node is not
 * "<truncated>" (the fast path's look-up declines it), so that its test
 * is left out.  LIBRARY: F is a library call's frame (libcall/), whose
 * hooks cost more; 0 where the caller knows it is not (the fast paths
 * see compiler hooks alone), so that its code is left out.
 */
static inline __attribute__((always_inline)) void
count_from(struct thread_state *t, struct shadow_frame *f, uint64_t now, int inherited,
	   uint32_t ncounters, int stats, int path_known, int library)
{
	struct cct_record *n = &t->nodes[f->node];

	f->counted = 1;
	f->inherited = inherited;
	f->start = now;
	for (uint32_t i = 0; i < ncounters; i++)
		f->counter_start[i] = t->counter_now[i];
	if (stats && f->func_record) {
		uint64_t call_q = (uint64_t)runtime_config.hook_inner_x256 +
				  runtime_config.hook_outer_x256;
		uint64_t extra_inner_q = 0;
		/* what the analyzer takes off a library call (model/aggregate.c's
		 * split_times(), the replay's library_exit()): its calls and
		 * every call around them lose the extra */
		if (library) {
			extra_inner_q = runtime_config.library_extra_inner_x256;
			call_q += extra_inner_q + runtime_config.library_extra_outer_x256;
		}
		if (!inherited)
			count_note_start(t, count_func_record(t, f->func_record), now, call_q);
		/* read by count_until() only for a call with statistics: the
		 * calls beneath it begin from here, a library call's own extra
		 * counted among them */
		f->hooks_at = t->hooks_q - extra_inner_q;
	}
	/* a truncated path's time counts in its outermost activation only */
	if (!path_known && f->node == AGGREGATE_TRUNCATED_NODE &&
	    f->parent_node == AGGREGATE_TRUNCATED_NODE)
		return;
	/* No other activation of the node is running: a path's node lies
	 * as deep in the tree as its frame in the shadow stack, so two
	 * frames of one stack never share one, and of "<truncated>" only the
	 * outermost activation gets here.  So the node is written, not read
	 * first: a store waits for nothing, where a load of a node not in
	 * the cache held up the next clock read. */
	n->open_since = now;
	for (uint32_t i = 0; i < ncounters; i++)
		n->counter_since[i] = t->counter_now[i];
	/* the analyzer closes a running call at the end: it must know not
	 * to count this one */
	n->open = inherited ? CCT_OPEN_NOT_A_CALL | 1 : 1;
}

/* F's activation stops counting at NOW: its call and time go to its
 * node.  NCOUNTERS and STATS as for count_from().  F->counted stays as
 * it was: the frame is popped next, unless the caller says otherwise. */
static inline __attribute__((always_inline)) void
count_until(struct thread_state *t, struct shadow_frame *f, uint64_t now, uint32_t ncounters,
	    int stats)
{
	struct cct_record *n = &t->nodes[f->node];
	uint64_t d = now > f->start ? now - f->start : 0;

	/* a part of a call is not a call's duration */
	if (stats && !f->inherited && f->func_record)
		count_note_call(count_func_record(t, f->func_record), f->start, now,
				t->hooks_q - f->hooks_at);
	n->calls += !f->inherited;
	if (f->node == AGGREGATE_TRUNCATED_NODE && f->parent_node == AGGREGATE_TRUNCATED_NODE)
		return;
	n->total += d;
	for (uint32_t i = 0; i < ncounters; i++) {
		uint64_t now_c = t->counter_now[i], start_c = f->counter_start[i];
		n->counter_total[i] += now_c > start_c ? now_c - start_c : 0;
	}
	/* none running now (count_from()), which clears
	 * CCT_OPEN_NOT_A_CALL too */
	n->open = 0;
}

/* F's call path becomes NODE, its function's record FUNC_RECORD; it
 * counts nothing yet. */
static inline __attribute__((always_inline)) void
aggregate_count_open(struct thread_state *t, struct shadow_frame *f, uint32_t node,
		     uint32_t func_record)
{
	f->node = node;
	f->parent_node = t->cur_node;
	f->func_record = func_record;
	f->inherited = 0;
	f->counted = 0;
	t->cur_node = node;
}

/*
 * While capture is off (--start-at, --stop-at) the path is still
 * followed, so that calls made once it is back on land on their true
 * paths, but nothing is counted.
 */
static inline __attribute__((always_inline)) void
aggregate_count_enter(struct thread_state *t, struct shadow_frame *f, uint64_t now, int inherited)
{
	uint32_t node = count_child(t, t->cur_node, f->addr);

	/* a truncated path's calls still count in their function's
	 * statistics, if it has a record */
	aggregate_count_open(t, f, node,
			     node != AGGREGATE_TRUNCATED_NODE ? t->nodes[node].func_record
							      : aggregate_find_func(t, f->addr));
	if (t->capturing)
		count_from(t, f, now, inherited, t->ncounters, 1, 0, frame_is_library(f));
}

/* The root keeps the latest counter readings, for calls still running
 * when the data ends. */
static inline void count_note_counters(struct thread_state *t)
{
	for (uint32_t i = 0; i < t->ncounters; i++)
		t->nodes[0].counter_since[i] = t->counter_now[i];
}

static inline __attribute__((always_inline)) void
aggregate_enter(struct thread_state *t, struct shadow_frame *f, uint64_t now)
{
	if (UNLIKELY(t->ncounters))
		count_note_counters(t);
	aggregate_count_enter(t, f, now, 0);
}

/* F's call ended at NOW (UNWOUND, THROWN: how, see trace.c); NCOUNTERS
 * and STATS as for count_from(). */
static inline __attribute__((always_inline)) void
aggregate_exit(struct thread_state *t, struct shadow_frame *f, uint64_t now, int unwound,
	       int thrown, uint32_t ncounters, int stats)
{
	if (UNLIKELY(ncounters))
		count_note_counters(t);
	if (f->counted) {
		count_until(t, f, now, ncounters, stats);
		if (UNLIKELY(unwound)) {
			t->nodes[f->node].unwound++;
			t->nodes[f->node].thrown += (uint64_t)thrown;
		}
	}
	t->cur_node = f->parent_node;
}

#endif
