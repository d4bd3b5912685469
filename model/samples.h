/*
 * Samples of the statistical profiler in the profile: the model's side of
 * record --sample.  Each sample adds its weight to the innermost
 * function's self_samples and, once, to the samples of every function on
 * its stack, so a function's total share never exceeds 100 % even when it
 * recurses.
 */
#ifndef CALLSCOPE_MODEL_SAMPLES_H
#define CALLSCOPE_MODEL_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"

/*
 * Adds one sample: FUNCS innermost first (N >= 1), WEIGHT timer periods,
 * FLAGS its enum sample_flags, OUTSIDE when its PC lay in no known object,
 * MISSED the samples its thread lost just before it.
 */
void profile_add_sample(struct profile *p, const uint32_t *funcs, size_t n,
			uint64_t weight, uint64_t flags, int outside, uint64_t missed);

/*
 * Whether P holds timer samples and no traced call: a recording of a
 * program without hooks.  Its writers then count samples, not ns.
 */
static inline int profile_samples_only(const struct profile *p)
{
	return p->calls == 0 && p->samples > 0;
}

/* F's share of all samples in percent: self, and with its callees. */
double func_self_sample_pct(const struct profile *p, const struct func *f);
double func_total_sample_pct(const struct profile *p, const struct func *f);

#endif
