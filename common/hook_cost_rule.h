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

/*
 * The same rule as a whole number of units to take off: hook_cost_less(
 * RAW, HOOKS_Q) is RAW less this, never below 0, for every RAW (the
 * rounding of (256 RAW - Q + 128) / 256 depends on Q alone).  The
 * runtime uses this form: the amount is known before the clock read that
 * ends the interval comes in, so only a compare and a subtraction wait
 * for the clock.
 */
static inline uint64_t hook_cost_units(uint64_t hooks_q)
{
	return (hooks_q + 127) / 256;
}

#endif
