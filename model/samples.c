#include "model/samples.h"

#include "sampling.h"

void profile_add_sample(struct profile *p, const uint32_t *funcs, size_t n,
			uint64_t weight, uint64_t flags, int outside, uint64_t missed)
{
	p->samples += weight;
	p->samples_lost += missed;
	p->samples_outside += outside ? weight : 0;
	/* by weight, as the samples beside it: a timer sample at the
	 * scheduler tick stands for several periods */
	p->samples_truncated += (flags & SAMPLE_TRUNCATED) ? weight : 0;
	p->samples_by_method[sample_method_of(flags)] += weight;
	p->samples_wall |= (flags & SAMPLE_WALL) != 0;
	p->samples_tick += (flags & SAMPLE_TICK_TIMER) ? weight : 0;
	p->samples_user_only +=
		(flags & (SAMPLE_WALL | SAMPLE_TICK_TIMER | SAMPLE_SYSTEM_TIME)) ? 0 : weight;
	if (!n)
		return;
	p->funcs[funcs[0]].self_samples += weight;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		while (k < i && funcs[k] != funcs[i])
			k++;
		if (k == i)
			p->funcs[funcs[i]].samples += weight;
	}
	/* the pairs, each once: a recursion repeats them */
	for (size_t i = 0; i < n; i++) {
		uint32_t caller = i + 1 < n ? funcs[i + 1] : FUNC_NONE;
		size_t k = 0;
		while (k < i && !(funcs[k] == funcs[i] && funcs[k + 1] == caller))
			k++;
		if (k < i)
			continue;
		uint32_t arc = profile_intern_sample_arc(p, caller, funcs[i]);
		struct sample_arc *a = &p->sample_arcs[arc];
		a->samples += weight;
		a->self_samples += i == 0 ? weight : 0;
	}
}

double func_self_sample_pct(const struct profile *p, const struct func *f)
{
	return p->samples ? 100.0 * (double)f->self_samples / (double)p->samples : 0;
}

double func_total_sample_pct(const struct profile *p, const struct func *f)
{
	return p->samples ? 100.0 * (double)f->samples / (double)p->samples : 0;
}
