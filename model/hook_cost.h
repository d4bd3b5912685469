/*
 * Taking the hooks' own cost out of a call's time, the one rule every
 * builder of numbers applies (the profile, the call-path tree, the HTML
 * report's tree).  Costs are kept in 1/256 ns so that summing them over
 * millions of calls stays exact in integers.
 *
 * A call measured RAW ns from its entry's clock reading to its exit's
 * contains its own hooks' inner part (unless it was already open when the
 * stream began) and both parts of every call made beneath it.  What is
 * left is an estimate.  With the cost measured in place (the samples
 * beside a trace: load/hook_cost.h), it is the run's own average, and a
 * call shorter than it is followed by one that took more: such a call
 * comes out below 0 and is summed so ("summed": two's complement in the
 * uint64_t sums, wrapping), and only what is shown of one call, or of a
 * sum once it is complete, is held at 0 (hook_cost_shown(); a call-path
 * tree's so that it still adds up: model/hook_cost_settle.h).  Holding
 * every call at 0 would leave the short calls' shortfall in their own
 * function and take it from their caller's self time, which TAU's
 * compensation of inclusive and exclusive times avoids.  With the
 * calibration's figure, measured on an empty function and below what a
 * call costs in place, each call is held at its callees' time instead,
 * as it always was: every view then agrees to the nanosecond.
 *
 * The cost is a compiler hook's.  A library call's hooks cost more, and
 * the replay takes the difference out of the clock before any builder
 * sees the times (library_exit() in load/load.c), so that this rule
 * stays the one every builder applies; count mode's paths, which no
 * replay reads, lose it where they are split (model/aggregate.c).
 */
#ifndef CALLSCOPE_MODEL_HOOK_COST_H
#define CALLSCOPE_MODEL_HOOK_COST_H

#include <stdint.h>

#include "hook_cost_rule.h"
#include "saturate.h"

struct hook_cost {
	uint64_t inner_q;	/* inside the callee's interval */
	uint64_t call_q;	/* inner + outer: one whole call's hooks */
	int summed;		/* short calls summed below 0 (see above) */
};

static inline uint64_t hook_cost_q(double ns)
{
	return u64_round(ns * 256);
}

/* SUMMED: the cost was measured in place (see above). */
static inline struct hook_cost hook_cost_make(double inner_ns, double outer_ns, int summed)
{
	struct hook_cost c = { hook_cost_q(inner_ns), 0, summed };
	c.call_q = c.inner_q + hook_cost_q(outer_ns);
	return c;
}

/* RAW_NS less the hooks inside it: signed, wrapped, when the cost is
 * summed so, else never below CHILD_NS (see above). */
static inline uint64_t hook_cost_total(const struct hook_cost *c, uint64_t raw_ns,
				       uint64_t desc_calls, int counted, uint64_t child_ns)
{
	uint64_t hooks_q = desc_calls * c->call_q + (counted ? c->inner_q : 0);

	if (!c->summed) {
		uint64_t total = hook_cost_less(raw_ns, hooks_q);
		return total < child_ns ? child_ns : total;
	}
	/* rounded to the nearest ns, as hook_cost_less() rounds */
	return (uint64_t)(((int64_t)(raw_ns * 256) - (int64_t)hooks_q + 128) >> 8);
}

/* A signed amount of hook_cost_total()'s, or a sum of them, as shown: never below 0. */
static inline uint64_t hook_cost_shown(uint64_t v)
{
	return (int64_t)v < 0 ? 0 : v;
}

/* Holds a finished sum at 0 (see above). */
static inline void hook_cost_settle(uint64_t *sum)
{
	*sum = hook_cost_shown(*sum);
}

#endif
