/*
 * The profile builder's state for one thread, and its two steps per call
 * (a call begins, a call ends), inline.  A report spends nearly all of its
 * time in these two steps and in decoding the stream that drives them: a
 * replay loop that includes this header (load/load.c) runs them without a
 * call, its decoding and the builder's work one loop.  Everyone else goes
 * through profile_enter() and profile_exit() of model/profile.h, which are
 * these same functions.
 */
#ifndef CALLSCOPE_MODEL_THREAD_BUILDER_H
#define CALLSCOPE_MODEL_THREAD_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "die.h"
#include "model/call_span.h"
#include "model/profile.h"
#include "u64map.h"
#include "xalloc.h"

/*
 * One open call during replay: its times and counters (model/call_span.h),
 * and same_self_ns, which collects the self time of this function's nested
 * (recursive) activations when this frame is the outermost one of its
 * function, so arcs get exact self/child splits.
 */
struct replay_frame {
	struct call_span span;
	uint32_t func;
	uint32_t arc;
	uint64_t same_self_ns;
	uint64_t calls_before;	/* the thread's calls closed as it began */
	int outermost;		/* no other activation of func below it */
};

/* What replay keeps per function of a thread: one record, so a call
 * touches one cache line of it. */
struct func_replay {
	uint32_t active;	/* open activations */
	uint32_t outer_depth;	/* the outermost one's depth */
	/* when the latest call began (UINT64_MAX: none yet) and how many
	 * calls had begun by then, for the period between consecutive calls */
	uint64_t last_start;
	uint64_t last_entries;
};

/* A direct-mapped cache of (caller, callee) -> arc in front of the arc
 * table: a program's hot arcs are a few hundred, and each call looks its
 * arc up.  A slot's pair is UINT64_MAX while empty (no pair is: a callee
 * is never FUNC_NONE). */
#define ARC_CACHE_SLOTS 1024

struct arc_cache_slot {
	uint64_t pair;
	uint32_t arc;
};

struct thread_builder {
	struct arc_cache_slot arc_cache[ARC_CACHE_SLOTS];
	struct profile *p;
	uint64_t counters[CONTRACT_COUNTERS_MAX];	/* current values, from profile_counters() */
	size_t info_index;
	double inner_ns, outer_ns;
	/* the same costs in 1/256 ns, for integer arithmetic per call */
	struct hook_cost cost;
	struct replay_frame *stack;
	size_t depth, alloc;
	struct func_replay *funcs;	/* indexed by function */
	size_t nfuncs;
	uint64_t entries;	/* counted calls begun so far */
	uint64_t calls;		/* counted calls ended so far */
	int counters_unreliable;	/* the thread's counters are suspect */
	uint64_t last_ns;
};

/* Makes room in B's per-function records for FUNC (profile.c). */
void thread_builder_grow_funcs(struct thread_builder *b, uint32_t func);

static inline struct func_replay *thread_builder_func(struct thread_builder *b, uint32_t func)
{
	if (__builtin_expect(func >= b->nfuncs, 0))
		thread_builder_grow_funcs(b, func);
	return &b->funcs[func];
}

/* Times must not decrease: one that does is taken as the last one. */
static inline uint64_t thread_builder_clamp(struct thread_builder *b, uint64_t t)
{
	if (t < b->last_ns)
		return b->last_ns;
	b->last_ns = t;
	return t;
}

/*
 * A counted call of FUNC begins at T: the period since its previous call
 * on this thread loses the hooks' cost of every call begun in between and
 * of that previous call's own hooks, as inclusive times do.
 */
static inline void thread_builder_note_start(struct thread_builder *b, struct func_replay *fr,
					     uint32_t func, uint64_t t)
{
	struct func *fn = &b->p->funcs[func];

	if (fr->last_start != UINT64_MAX) {
		uint64_t period = hook_cost_less(t - fr->last_start,
						 (b->entries - fr->last_entries + 1) * b->cost.call_q);

		fn->periods++;
		fn->period_sum_ns += period;
		if (period < fn->period_min_ns)
			fn->period_min_ns = period;
		if (period > fn->period_max_ns)
			fn->period_max_ns = period;
	}
	b->entries++;
	fr->last_start = t;
	fr->last_entries = b->entries;
}

static inline uint32_t thread_builder_arc(struct thread_builder *b, uint32_t caller,
					  uint32_t callee)
{
	uint64_t pair = u64map_pair(caller, callee);
	struct arc_cache_slot *slot =
		&b->arc_cache[(pair * 0x9E3779B97F4A7C15ull) >> 54 & (ARC_CACHE_SLOTS - 1)];

	if (__builtin_expect(slot->pair != pair, 0)) {
		slot->pair = pair;
		slot->arc = profile_intern_arc(b->p, caller, callee);
	}
	return slot->arc;
}

/*
 * What the builder does for a call beyond its times and counts, each only
 * when the profile asks for it.  A replay loop specialized for none of
 * them (a constant 0) tests none of them per call; BUILDER_ALL tests each.
 */
enum builder_extras {
	BUILDER_SPREAD = 1 << 0,	/* !p->skip_spread: spread and periods */
	BUILDER_COUNTERS = 1 << 1,	/* p->ncounters, or counters marked unreliable */
	BUILDER_OBSERVER = 1 << 2,	/* p->call_observer */
	BUILDER_ALL = (1 << 3) - 1,
};

/* The extras B's profile asks for. */
static inline unsigned thread_builder_extras(const struct thread_builder *b)
{
	return (b->p->skip_spread ? 0 : BUILDER_SPREAD) |
	       (b->p->ncounters || b->counters_unreliable ? BUILDER_COUNTERS : 0) |
	       (b->p->call_observer ? BUILDER_OBSERVER : 0);
}

/* A call of FUNC begins at T (already clamped); COUNTED: 0 for a call
 * that was open when the stream began; EXTRAS: BUILDER_ALL, or a constant
 * that thread_builder_extras() returned. */
static inline __attribute__((always_inline)) void
thread_builder_push_as(struct thread_builder *b, uint32_t func, uint64_t t, int counted,
		       unsigned extras)
{
	if (__builtin_expect(func >= b->p->nfuncs, 0))
		BUG("function %u not interned", func);
	struct func_replay *fr = thread_builder_func(b, func);
	ALLOC_GROW(b->stack, b->depth + 1, b->alloc);
	struct replay_frame *f = &b->stack[b->depth];
	uint32_t caller = b->depth ? b->stack[b->depth - 1].func : FUNC_NONE;

	f->func = func;
	if (extras & BUILDER_COUNTERS)
		call_span_open(&f->span, t, counted, b->counters);
	else
		call_span_open_times(&f->span, t, counted);
	f->same_self_ns = 0;
	f->calls_before = b->calls;
	f->outermost = fr->active == 0;
	f->arc = UINT32_MAX;
	if (counted) {
		f->arc = thread_builder_arc(b, caller, func);
		if ((extras & BUILDER_SPREAD) && !b->p->skip_spread)
			thread_builder_note_start(b, fr, func, t);
	}
	if (f->outermost)
		fr->outer_depth = (uint32_t)b->depth;
	fr->active++;
	b->depth++;
}

enum close_kind { CLOSE_RETURN, CLOSE_UNWOUND, CLOSE_THROWN, CLOSE_VIRTUAL };

/* The innermost open call ends at T (already clamped); B has one.
 * EXTRAS as for thread_builder_push_as(). */
static inline __attribute__((always_inline)) void
thread_builder_pop_as(struct thread_builder *b, uint64_t t, enum close_kind kind, unsigned extras)
{
	struct profile *p = b->p;
	struct replay_frame *f = &b->stack[--b->depth];
	struct func *fn = &p->funcs[f->func];
	size_t ncounters = !(extras & BUILDER_COUNTERS) ? 0
			   : p->ncounters < CONTRACT_COUNTERS_MAX ? p->ncounters
								  : CONTRACT_COUNTERS_MAX;
	struct call_span_end end;

	call_span_close(&b->cost, &f->span, t, b->counters, ncounters,
			b->depth ? &b->stack[b->depth - 1].span : NULL, &end);
	/* signed, wrapped (model/hook_cost.h): summed as they are; SHOWN is
	 * what one call's figures hold at 0 */
	uint64_t total = end.total_ns, self = end.self_ns, shown = hook_cost_shown(total);
	b->funcs[f->func].active--;
	fn->self_ns += self;
	for (size_t c = 0; c < ncounters; c++) {
		fn->counter_self[c] += end.total_c[c] - f->span.child_c[c];
		if (f->outermost)
			fn->counter_total[c] += end.total_c[c];
	}
	if (extras & BUILDER_COUNTERS)
		fn->counters_unreliable |= b->counters_unreliable;
	if (f->span.counted) {
		fn->calls++;
		fn->sum_call_ns += total;
		if (shown < fn->min_ns)
			fn->min_ns = shown;
		if (shown > fn->max_ns)
			fn->max_ns = shown;
		b->calls++;
		if ((extras & BUILDER_SPREAD) && !p->skip_spread) {
			if (!fn->dev_calls++)
				fn->call_shift_ns = shown;
			int64_t d = (int64_t)(shown - fn->call_shift_ns);
			fn->call_dev_sum += d;
			fn->call_dev_sq_sum += (unsigned __int128)((__int128)d * d);
		}
		if ((extras & BUILDER_OBSERVER) && p->call_observer)
			p->call_observer(p->call_observer_ctx, f->func, shown);
	} else {
		fn->continued_self_ns += self;
		if (f->outermost)
			fn->continued_ns += total;
	}
	if (__builtin_expect(kind != CLOSE_RETURN, 0)) {
		if (kind == CLOSE_UNWOUND || kind == CLOSE_THROWN)
			fn->unwound++;
		if (kind == CLOSE_THROWN)
			fn->thrown++;
		else if (kind == CLOSE_VIRTUAL)
			fn->virtual_returns++;
	}
	if (f->outermost) {
		uint64_t same_self = f->same_self_ns + self;
		fn->total_ns += total;
		fn->calls_within += b->calls - f->calls_before;
		if (f->arc != UINT32_MAX) {
			struct arc *a = &p->arcs[f->arc];
			a->self_ns += same_self;
			a->child_ns += total - same_self;
		}
	} else {
		b->stack[b->funcs[f->func].outer_depth].same_self_ns += self;
	}
	if (f->arc != UINT32_MAX)
		p->arcs[f->arc].count++;
}

static inline __attribute__((always_inline)) void
thread_builder_push(struct thread_builder *b, uint32_t func, uint64_t t, int counted)
{
	thread_builder_push_as(b, func, t, counted, BUILDER_ALL);
}

static inline __attribute__((always_inline)) void
thread_builder_pop(struct thread_builder *b, uint64_t t, enum close_kind kind)
{
	thread_builder_pop_as(b, t, kind, BUILDER_ALL);
}

/* profile_enter() and profile_exit(), inline. */
static inline __attribute__((always_inline)) void
thread_builder_enter(struct thread_builder *b, uint32_t func, uint64_t time_ns)
{
	thread_builder_push(b, func, thread_builder_clamp(b, time_ns), 1);
}

static inline __attribute__((always_inline)) void
thread_builder_exit(struct thread_builder *b, uint64_t time_ns, enum exit_kind kind)
{
	static const enum close_kind close_of[] = {
		[EXIT_RETURN] = CLOSE_RETURN,
		[EXIT_UNWOUND] = CLOSE_UNWOUND,
		[EXIT_STOPPED] = CLOSE_VIRTUAL,
		[EXIT_THROWN] = CLOSE_THROWN,
	};
	uint64_t t = thread_builder_clamp(b, time_ns);

	if (!b->depth || (unsigned)kind > EXIT_THROWN)
		return;
	thread_builder_pop(b, t, close_of[kind]);
}

#endif
