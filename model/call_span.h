/*
 * One open call during a replay, and the arithmetic that closes it: the
 * hooks' cost taken out (model/hook_cost.h), the time and counters its
 * callees spent, and what it hands up to its caller.  Every builder that
 * replays a stream into numbers (the profile, the HTML report's call-path
 * tree) keeps a stack of these, so a function's times and a path's times
 * come out of the same rule and agree to the nanosecond.
 */
#ifndef CALLSCOPE_MODEL_CALL_SPAN_H
#define CALLSCOPE_MODEL_CALL_SPAN_H

#include <stddef.h>
#include <stdint.h>

#include "contract.h"
#include "model/hook_cost.h"

struct call_span {
	uint64_t start_ns;
	uint64_t child_ns;	/* adjusted inclusive time of its direct callees */
	uint64_t desc_calls;	/* calls made beneath it, for their hooks' cost */
	int counted;		/* a real call, not an OPEN_FRAME */
	uint64_t start_c[CONTRACT_COUNTERS_MAX];	/* the counters at its entry */
	uint64_t child_c[CONTRACT_COUNTERS_MAX];	/* its direct callees' counter totals */
};

/* What closing a call found: inclusive time, self time (both signed,
 * wrapped: model/hook_cost.h), and each counter's inclusive increase
 * (its self part is total_c - child_c). */
struct call_span_end {
	uint64_t total_ns;
	uint64_t self_ns;
	uint64_t total_c[CONTRACT_COUNTERS_MAX];
};

/* A call begins at T_NS, its counters left unset: for a replay that
 * has none, which call_span_close() then reads none of (NCOUNTERS 0). */
static inline void call_span_open_times(struct call_span *s, uint64_t t_ns, int counted)
{
	s->start_ns = t_ns;
	s->child_ns = 0;
	s->desc_calls = 0;
	s->counted = counted;
}

/* A call begins at T_NS with the counters at COUNTERS. */
static inline void call_span_open(struct call_span *s, uint64_t t_ns, int counted,
				  const uint64_t counters[CONTRACT_COUNTERS_MAX])
{
	call_span_open_times(s, t_ns, counted);
	for (int c = 0; c < CONTRACT_COUNTERS_MAX; c++) {
		s->start_c[c] = counters[c];
		s->child_c[c] = 0;
	}
}

/*
 * Closes S at NOW_NS with the counters at COUNTERS (the first NCOUNTERS
 * meaningful) into *END, and adds it to PARENT (NULL: S was outermost).
 * A counter never goes below what its callees counted, as time never
 * goes below the callees' time.
 */
static inline void call_span_close(const struct hook_cost *cost, const struct call_span *s,
				   uint64_t now_ns, const uint64_t counters[CONTRACT_COUNTERS_MAX],
				   size_t ncounters, struct call_span *parent,
				   struct call_span_end *end)
{
	end->total_ns = hook_cost_total(cost, now_ns - s->start_ns, s->desc_calls, s->counted,
					s->child_ns);
	end->self_ns = end->total_ns - s->child_ns;
	for (size_t c = 0; c < ncounters && c < CONTRACT_COUNTERS_MAX; c++) {
		uint64_t total_c = counters[c] > s->start_c[c] ? counters[c] - s->start_c[c] : 0;
		if (total_c < s->child_c[c])
			total_c = s->child_c[c];
		end->total_c[c] = total_c;
		if (parent)
			parent->child_c[c] += total_c;
	}
	if (parent) {
		parent->child_ns += end->total_ns;
		parent->desc_calls += s->desc_calls + (s->counted ? 1 : 0);
	}
}

#endif
