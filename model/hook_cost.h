/*
 * Taking the hooks' own cost out of a call's time, the one rule every
 * builder of numbers applies (the profile, the call-path tree, the HTML
 * report's tree).  Costs are kept in 1/256 ns so that summing them over
 * millions of calls stays exact in integers.
 *
 * A call measured RAW ns from its entry's clock reading to its exit's
 * contains its own hooks' inner part (unless it was already open when the
 * stream began) and both parts of every call made beneath it.  What is
 * left can be less than its callees' adjusted time when the estimate is
 * high; then the callees' figures stand and the call's self time is 0, so
 * self + children still equals total at every level.
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

/* RAW_NS less the hooks inside it, never below CHILD_NS (see above). */
static inline uint64_t hook_cost_total(const struct hook_cost *c, uint64_t raw_ns,
				       uint64_t desc_calls, int counted, uint64_t child_ns)
{
	uint64_t total = hook_cost_less(raw_ns, desc_calls * c->call_q +
						(counted ? c->inner_q : 0));

	return total < child_ns ? child_ns : total;
}

#endif
