/*
 * Taking the hooks' own cost out of a call's time, the one rule every
 * builder of numbers applies (the profile, the call-path tree, the HTML
 * report's tree).  Costs are kept in 1/256 ns so that summing them over
 * millions of calls stays exact in integers.
 *
 * A call measured RAW ns from its entry's clock reading to its exit's
 * contains its own hooks' inner part (unless it was already open when the
 * stream began) and both parts of every call made beneath it.  The cost
 * per call is an average: a call shorter than it comes out below its
 * callees' time, or below 0.  Such a call is held there (self + children
 * still equals total, call by call), and what it could not lose is
 * carried to the function's next call on the thread, which loses it too.
 * So a function's sums lose the whole cost of its calls, as TAU's
 * compensation of inclusive and exclusive times has it, and its caller's
 * self time keeps its own: holding each call at its callees' time without
 * the carry left the short calls' shortfall in their function and took
 * it from their caller.  What the last calls could not lose is dropped.
 */
#ifndef CALLSCOPE_MODEL_HOOK_COST_H
#define CALLSCOPE_MODEL_HOOK_COST_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hook_cost_rule.h"
#include "saturate.h"
#include "xalloc.h"

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

/*
 * RAW_NS less the hooks inside it and less *CARRY_Q (1/256 ns: what the
 * function's earlier calls could not lose), never below CHILD_NS; what
 * this call cannot lose becomes *CARRY_Q (see above).
 */
static inline uint64_t hook_cost_total(const struct hook_cost *c, uint64_t raw_ns,
				       uint64_t desc_calls, int counted, uint64_t child_ns,
				       uint64_t *carry_q)
{
	uint64_t less_q = desc_calls * c->call_q + (counted ? c->inner_q : 0) + *carry_q;
	uint64_t raw_q = raw_ns * 256, child_q = child_ns * 256;

	if (raw_q >= less_q + child_q) {
		*carry_q = 0;
		return hook_cost_less(raw_ns, less_q);
	}
	*carry_q = less_q + child_q - raw_q;
	return child_ns;
}

/* What each function's calls on a thread could not lose yet, by function
 * (for the builders that keep no other per-function record). */
struct hook_carry {
	uint64_t *q;
	size_t n;
};

static inline uint64_t *hook_carry_of(struct hook_carry *c, uint32_t func)
{
	if (func >= c->n) {
		size_t had = c->n;
		ALLOC_GROW(c->q, (size_t)func + 1, c->n);
		memset(c->q + had, 0, (c->n - had) * sizeof(*c->q));
	}
	return &c->q[func];
}

static inline void hook_carry_free(struct hook_carry *c)
{
	free(c->q);
	*c = (struct hook_carry){ NULL, 0 };
}

#endif
