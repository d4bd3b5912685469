/*
 * The one rule for taking the hooks' own cost out of a measured interval,
 * shared by the analyzer (model/hook_cost.h, for traces) and the runtime
 * (count mode, which applies it to each call as it ends): costs are kept
 * in 1/256 of the interval's unit so that sums of them stay exact in
 * integers, and what is left is rounded to the unit, never below 0.
 */
#ifndef CALLSCOPE_COMMON_HOOK_COST_RULE_H
#define CALLSCOPE_COMMON_HOOK_COST_RULE_H

#include <stdint.h>

/* RAW units less HOOKS_Q (in 1/256 units). */
static inline uint64_t hook_cost_less(uint64_t raw, uint64_t hooks_q)
{
	uint64_t raw_q = raw * 256;

	return raw_q > hooks_q ? (raw_q - hooks_q + 128) / 256 : 0;
}

#endif
