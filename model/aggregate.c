#include "model/aggregate.h"

#include <stdlib.h>
#include <string.h>

#include "model/cct.h"
#include "model/histogram.h"
#include "model/hook_cost.h"
#include "saturate.h"
#include "xalloc.h"

static inline uint64_t sub_or_zero(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* Node 1 is "<truncated>", always there; it is a path only once used. */
static int unused_truncated(const struct aggregate_node *nodes, size_t i)
{
	return i == 1 && !nodes[i].calls && !nodes[i].total_ns && !nodes[i].still_open;
}

size_t aggregate_filter_signals(struct aggregate_node *nodes, size_t n, int exclude)
{
	if (n < 2)
		return n;

	/* where a node's children now hang: itself, or for a dropped
	 * signal node, the path it interrupted (UINT32_MAX: all dropped) */
	uint32_t *home = xcalloc(n, sizeof(*home));
	uint32_t *moved = xcalloc(n, sizeof(*moved));
	uint64_t *out = xcalloc(n, sizeof(*out));	/* handler time beneath */
	uint64_t *out_c[CONTRACT_COUNTERS_MAX];
	for (int c = 0; c < CONTRACT_COUNTERS_MAX; c++)
		out_c[c] = xcalloc(n, sizeof(uint64_t));
	size_t kept = 1;

	/* first pass, on the original indices: what goes */
	for (size_t i = 1; i < n; i++) {
		uint32_t up = home[nodes[i].parent];
		home[i] = (uint32_t)i;
		if (up == UINT32_MAX) {
			home[i] = UINT32_MAX;
		} else if (nodes[i].signal && exclude) {
			home[i] = UINT32_MAX;
			out[nodes[i].parent] += nodes[i].total_ns;
			for (int c = 0; c < CONTRACT_COUNTERS_MAX; c++)
				out_c[c][nodes[i].parent] += nodes[i].counter_total[c];
		} else if (nodes[i].signal) {
			home[i] = up;
		}
	}
	/* the excluded handlers' time leaves every path they interrupted:
	 * children come after parents, so one backward pass sums it up */
	for (size_t i = n - 1; exclude && i >= 1; i--) {
		nodes[i].total_ns = sub_or_zero(nodes[i].total_ns, out[i]);
		out[nodes[i].parent] += out[i];
		for (int c = 0; c < CONTRACT_COUNTERS_MAX; c++) {
			nodes[i].counter_total[c] = sub_or_zero(nodes[i].counter_total[c],
								out_c[c][i]);
			out_c[c][nodes[i].parent] += out_c[c][i];
		}
	}
	free(out);
	for (int c = 0; c < CONTRACT_COUNTERS_MAX; c++)
		free(out_c[c]);
	/* second pass: compact; a parent is always placed before its child */
	for (size_t i = 1; i < n; i++) {
		if (home[i] != i)
			continue;
		struct aggregate_node a = nodes[i];
		a.parent = moved[home[a.parent]];
		moved[i] = (uint32_t)kept;
		nodes[kept++] = a;
	}
	free(home);
	free(moved);
	return kept;
}

int aggregate_check(const struct aggregate_node *nodes, size_t n, size_t nfuncs)
{
	for (size_t i = 1; i < n; i++)
		if (nodes[i].parent >= i || (nodes[i].func >= nfuncs && nodes[i].func != FUNC_NONE))
			return -1;
	return 0;
}

/* Each path's counter C in all (TOTAL) and in its callees (CHILD), as
 * split_times() for time. */
static void split_counter(const struct aggregate_node *nodes, size_t n, unsigned c,
			  uint64_t *total, uint64_t *child)
{
	for (size_t i = n - 1; i >= 1; i--) {
		total[i] = nodes[i].counter_total[c];
		if (total[i] < child[i])
			total[i] = child[i];
		child[nodes[i].parent] += total[i];
	}
	total[0] = child[0];
}

/* Each path's inclusive time with the hooks' cost subtracted (TOTAL), its
 * callees' part of it (CHILD), and the calls made under its calls (DESC):
 * a call's own inner part and the whole cost of every call beneath it,
 * the library calls' extra included. */
static void split_times(const struct aggregate_thread *at, uint64_t *total, uint64_t *child,
			uint64_t *desc)
{
	const struct aggregate_node *nodes = at->nodes;
	size_t n = at->nnodes;
	double call_cost = at->inner_ns + at->outer_ns;
	double library_extra = at->library_inner_ns + at->library_outer_ns;
	uint64_t *desc_library = xcalloc(n, sizeof(*desc_library));

	/* children sit above their parents, so one backward pass sums
	 * every subtree: calls beneath a path, and its callees' time */
	for (size_t i = n - 1; i >= 1; i--) {
		const struct aggregate_node *a = &nodes[i];
		double hooks = (double)a->calls * at->inner_ns + (double)desc[i] * call_cost +
			       (double)desc_library[i] * library_extra;
		if (a->library)
			hooks += (double)a->calls * at->library_inner_ns;
		total[i] = sub_or_zero(a->total_ns, u64_round(hooks));
		if (total[i] < child[i])
			total[i] = child[i];
		desc[a->parent] += desc[i] + a->calls;
		desc_library[a->parent] += desc_library[i] + (a->library ? a->calls : 0);
		child[a->parent] += total[i];
	}
	total[0] = child[0];
	free(desc_library);
}

void aggregate_split(const struct aggregate_thread *at, unsigned ncounters,
		     struct aggregate_split *s)
{
	size_t n = at->nnodes;

	memset(s, 0, sizeof(*s));
	s->total = xcalloc(n, sizeof(uint64_t));
	s->child = xcalloc(n, sizeof(uint64_t));
	s->calls_beneath = xcalloc(n, sizeof(uint64_t));
	split_times(at, s->total, s->child, s->calls_beneath);
	for (unsigned c = 0; c < ncounters && c < CONTRACT_COUNTERS_MAX; c++) {
		s->total_c[c] = xcalloc(n, sizeof(uint64_t));
		s->child_c[c] = xcalloc(n, sizeof(uint64_t));
		split_counter(at->nodes, n, c, s->total_c[c], s->child_c[c]);
	}
}

void aggregate_split_release(struct aggregate_split *s)
{
	free(s->total);
	free(s->child);
	free(s->calls_beneath);
	for (int c = 0; c < CONTRACT_COUNTERS_MAX; c++) {
		free(s->total_c[c]);
		free(s->child_c[c]);
	}
	memset(s, 0, sizeof(*s));
}

static void note_call_span(struct func *f, uint64_t ns)
{
	if (ns < f->min_ns)
		f->min_ns = ns;
	if (ns > f->max_ns)
		f->max_ns = ns;
}

/* A function's per-call statistics, from the runtime's sums. */
static void add_func_stats(struct profile *p, const struct aggregate_func *af)
{
	struct func *f = &p->funcs[af->func];

	if (af->calls) {
		note_call_span(f, af->min_ns);
		note_call_span(f, af->max_ns);
		/* the runtime summed the times and their squares whole: as
		 * deviations from the function's shift (see profile.h),
		 * sum (x - s) = S1 - n s and sum (x - s)^2 = S2 - 2 s S1 + n s^2 */
		if (!f->dev_calls)
			f->call_shift_ns = u64_roundl(af->sum_ns / (long double)af->calls);
		long double s = (long double)f->call_shift_ns, n = (long double)af->calls;
		long double dev = af->sum_ns - n * s;
		long double sq = af->sum_sq_ns - 2 * s * af->sum_ns + n * s * s;
		f->dev_calls += af->calls;
		f->call_dev_sum += i128_roundl(dev);
		f->call_dev_sq_sum += u128_roundl(sq);
	}
	f->periods += af->periods;
	f->period_sum_ns += af->period_sum_ns;
	if (af->periods && af->period_min_ns < f->period_min_ns)
		f->period_min_ns = af->period_min_ns;
	if (af->periods && af->period_max_ns > f->period_max_ns)
		f->period_max_ns = af->period_max_ns;
}

int profile_add_aggregate(struct profile *p, const struct thread_info *info,
			  const struct aggregate_thread *at)
{
	const struct aggregate_node *nodes = at->nodes;
	size_t n = at->nnodes;

	if (!n)
		return 0;
	if (aggregate_check(nodes, n, p->nfuncs))
		return -1;
	for (size_t i = 0; i < at->nfuncs; i++)
		if (at->funcs[i].func >= p->nfuncs)
			return -1;

	struct aggregate_split s;
	uint32_t *first = xcalloc(n, sizeof(*first));
	uint32_t *next = xcalloc(n, sizeof(*next));
	double call_cost = at->inner_ns + at->outer_ns;
	uint64_t calls = 0, library_calls = 0;
	int unreliable = !!(info->counter_info & THREAD_COUNTERS_UNRELIABLE);

	aggregate_split(at, (unsigned)p->ncounters, &s);
	const uint64_t *total = s.total, *child = s.child;
	/* a sum's samples: each path's own and, beneath it, its subtree's */
	uint64_t *sampled = xcalloc(n, sizeof(*sampled));
	for (size_t i = n - 1; i >= 1; i--) {
		next[i] = first[nodes[i].parent];
		first[nodes[i].parent] = (uint32_t)i;
		calls += nodes[i].calls;
		library_calls += nodes[i].library ? nodes[i].calls : 0;
		sampled[i] += nodes[i].samples;
		sampled[nodes[i].parent] += sampled[i];
	}

	/* depth-first, counting a function's total in its outermost paths */
	uint32_t *active = xcalloc(p->nfuncs + 1, sizeof(*active));
	uint32_t *stack = xmalloc(n * sizeof(*stack));
	uint8_t *left = xcalloc(n, 1);
	size_t depth = 0;
	stack[depth++] = 0;
	while (depth) {
		uint32_t i = stack[depth - 1];
		const struct aggregate_node *a = &nodes[i];
		if (left[i]) {
			depth--;
			if (a->func != FUNC_NONE)
				active[a->func]--;
			continue;
		}
		left[i] = 1;
		if (a->func != FUNC_NONE && !unused_truncated(nodes, i)) {
			struct func *f = &p->funcs[a->func];
			uint64_t self = total[i] - child[i];
			int outermost = active[a->func] == 0;
			f->calls += a->calls;
			f->self_ns += self;
			f->sum_call_ns += total[i];
			f->virtual_returns += a->still_open;
			f->unwound += a->unwound;
			f->thrown += a->thrown;
			/* a sum's samples count once for every function on
			 * their stack (--time-by=samples runs' are their time) */
			if (!at->sample_period_ns) {
				f->self_samples += a->samples;
				if (outermost)
					f->samples += sampled[i];
			}
			/* the runtime's statistics hold completed calls only:
			 * a path whose one call was still running gives that
			 * call's duration, as a trace closed at the end does */
			if (a->still_open && a->calls == 1)
				note_call_span(f, total[i]);
			for (size_t c = 0; c < p->ncounters && c < CONTRACT_COUNTERS_MAX; c++) {
				f->counter_self[c] += s.total_c[c][i] - s.child_c[c][i];
				if (outermost)
					f->counter_total[c] += s.total_c[c][i];
			}
			if (p->ncounters && unreliable)
				f->counters_unreliable = 1;
			uint32_t caller = nodes[a->parent].func;
			/* intern first: it may move p->arcs */
			uint32_t arc_index = profile_intern_arc(p, caller, a->func);
			struct arc *arc = &p->arcs[arc_index];
			arc->count += a->calls;
			if (outermost) {
				f->total_ns += total[i];
				f->calls_within += a->calls + s.calls_beneath[i];
				arc->self_ns += self;
				arc->child_ns += total[i] - self;
			}
			active[a->func]++;
		}
		for (uint32_t c = first[i]; c; c = next[c])
			stack[depth++] = c;
	}
	for (size_t i = 0; i < at->nfuncs; i++)
		add_func_stats(p, &at->funcs[i]);
	if (p->aggregate_observer)
		p->aggregate_observer(p->call_observer_ctx, at);

	ALLOC_GROW(p->threads, p->nthreads + 1, p->threads_alloc);
	struct thread_info *t = &p->threads[p->nthreads++];
	*t = *info;
	t->calls = calls;
	p->calls += calls;
	p->samples += sampled[0];
	if (sampled[0]) {
		uint32_t clocks = info->flags & THREAD_SAMPLES_KINDS;
		p->path_sample_clocks |= clocks;
		p->path_samples_unsaid |= !clocks;
	}
	free(sampled);
	p->lost_events += info->lost_events;
	p->overhead_per_call_ns = call_cost;
	if (at->sample_period_ns) {
		p->time_sample_period_ns = at->sample_period_ns;
		p->time_samples += at->samples;
		p->time_hook_samples += at->hook_samples;
	}
	uint64_t call_q = hook_cost_q(call_cost);
	uint64_t library_call_q = call_q + hook_cost_q(at->library_inner_ns + at->library_outer_ns);
	p->overhead_q += call_q * (calls - library_calls) + library_call_q * library_calls;
	p->library_calls += library_calls;
	p->library_overhead_q += library_call_q * library_calls;
	profile_overhead_summed(p);
	if (info->end_ns - info->start_ns > p->wall_ns)
		p->wall_ns = info->end_ns - info->start_ns;
	aggregate_split_release(&s);
	free(first);
	free(next);
	free(active);
	free(stack);
	free(left);
	return 0;
}

void cct_add_aggregate(struct cct *t, const struct aggregate_thread *at)
{
	const struct aggregate_node *nodes = at->nodes;
	size_t n = at->nnodes;
	uint32_t *path = xcalloc(n, sizeof(*path));
	struct aggregate_split s;

	/* the tree's counters are the first one or two */
	aggregate_split(at, cct_has_metric(t, CCT_C2) ? 2 : cct_has_metric(t, CCT_C1), &s);
	path[0] = CCT_ROOT;
	for (size_t i = 1; i < n; i++) {
		if (unused_truncated(nodes, i) || nodes[i].func == FUNC_NONE) {
			path[i] = path[nodes[i].parent];
			continue;
		}
		path[i] = cct_child(t, path[nodes[i].parent], nodes[i].func);
		struct cct_node *node = &t->nodes[path[i]];
		node->calls += nodes[i].calls;
		node->self[CCT_TIME] += s.total[i] - s.child[i];
		node->total[CCT_TIME] += s.total[i];
		for (unsigned c = 0; c < 2 && s.total_c[c]; c++) {
			node->self[CCT_C1 + c] += s.total_c[c][i] - s.child_c[c][i];
			node->total[CCT_C1 + c] += s.total_c[c][i];
		}
		node->virtual_returns += nodes[i].still_open;
		node->unwound += nodes[i].unwound;
		node->thrown += nodes[i].thrown;
		t->calls += nodes[i].calls;
	}
	t->nodes[CCT_ROOT].total[CCT_TIME] += s.total[0];
	for (unsigned c = 0; c < 2 && s.total_c[c]; c++)
		t->nodes[CCT_ROOT].total[CCT_C1 + c] += s.total_c[c][0];
	aggregate_split_release(&s);
	free(path);
}

void aggregate_histogram(const struct aggregate_thread *at, const struct aggregate_func *af,
			 struct log2_hist *h)
{
	h->unit_ns = at->ns_per_unit;
	for (unsigned k = 0; k < CCT_FUNC_BUCKETS; k++)
		h->count[k] += af->buckets[k];
	h->n += af->calls;
}
