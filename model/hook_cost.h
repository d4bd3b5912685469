/*
 * Taking the hooks' own cost out of a call's time, the one rule every
 * builder of numbers applies (the profile, the call-path tree, the HTML
 * report's tree).  Costs are kept in 1/256 ns so that summing them over
 * millions of calls stays exact in integers.
 *
 * A call measured RAW ns from its entry's clock reading to its exit's
 * contains its own hooks' inner part (unless it was already open when the
 * stream began) and both parts of every call made beneath it.  What is
 * left is an estimate, and for a call shorter than the hooks it can be
 * less than nothing: the cost per call is an average, and a call that
 * took less than it is followed by one that took more.  So the figure is
 * kept signed (two's complement in the uint64_t sums, wrapping) and
 * summed as it is, and only what is shown of one call, or of a sum once
 * it is complete, is held at 0 (hook_cost_shown(); a call-path tree's so
 * that it still adds up: model/hook_cost_settle.h).  Holding every call
 * at 0 instead would leave the short calls' shortfall in their own
 * function and take it from their caller's self time, which is what
 * TAU's compensation of inclusive and exclusive times avoids.
 */
#ifndef CALLSCOPE_MODEL_HOOK_COST_H
#define CALLSCOPE_MODEL_HOOK_COST_H

#include <stdint.h>

#include "hook_cost_rule.h"
#include "saturate.h"

struct hook_cost {
	uint64_t inner_q;	/* inside the callee's interval */
	uint64_t call_q;	/* inner + outer: one whole call's hooks */
};

static inline uint64_t hook_cost_q(double ns)
{
	return u64_round(ns * 256);
}

static inline struct hook_cost hook_cost_make(double inner_ns, double outer_ns)
{
	struct hook_cost c = { hook_cost_q(inner_ns), 0 };
	c.call_q = c.inner_q + hook_cost_q(outer_ns);
	return c;
}

/* RAW_NS less the hooks inside it: a signed amount, wrapped (see above). */
static inline uint64_t hook_cost_total(const struct hook_cost *c, uint64_t raw_ns,
				       uint64_t desc_calls, int counted)
{
	int64_t q = (int64_t)(raw_ns * 256) -
		    (int64_t)(desc_calls * c->call_q + (counted ? c->inner_q : 0));

	/* rounded to the nearest ns, as hook_cost_less() rounds */
	return (uint64_t)((q + 128) >> 8);
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
