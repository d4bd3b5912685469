/*
 * Building the profile by replaying entries and exits.  See profile.h for
 * what each number means; the comments here say how it is kept exact.
 */
#include "model/profile.h"
#include "model/thread_builder.h"
#include "sections.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "u64map.h"
#include "xalloc.h"

/* Open-addressing maps from (object, name) to function and (caller,
 * callee) to arc. */
struct profile_index {
	uint32_t *func_slots;	/* index + 1, 0 = empty */
	size_t func_mask;
	struct u64map arcs;	/* (caller, callee) -> arc */
	struct u64map sample_arcs;	/* (caller, callee) -> sample arc */
};

static uint64_t hash_str(const char *s, uint64_t h)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

struct profile *profile_new(void)
{
	struct profile *p = xcalloc(1, sizeof(*p));
	p->index = xcalloc(1, sizeof(*p->index));
	p->index->func_mask = 1023;
	p->index->func_slots = xcalloc(1024, sizeof(uint32_t));
	u64map_init(&p->index->arcs);
	u64map_init(&p->index->sample_arcs);
	return p;
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nfuncs; i++) {
		free(p->funcs[i].name);
		free(p->funcs[i].symbol);
		free(p->funcs[i].object);
		free(p->funcs[i].file);
	}
	for (size_t i = 0; i < p->ncycles; i++)
		free(p->cycles[i].members);
	free(p->cycles);
	unhooked_free(&p->unhooked);
	for (int c = 0; c < CONTRACT_COUNTERS_MAX; c++)
		free(p->counter_names[c]);
	free(p->funcs);
	free(p->arcs);
	free(p->threads);
	free(p->index->func_slots);
	u64map_release(&p->index->arcs);
	u64map_release(&p->index->sample_arcs);
	free(p->index);
	free(p->sample_arcs);
	free(p);
}

static uint64_t func_hash(const char *name, const char *object, uint64_t addr)
{
	return hash_str(name, hash_str(object, 0xcbf29ce484222325ull ^ addr));
}

static void rehash_funcs(struct profile *p)
{
	struct profile_index *ix = p->index;
	size_t size = (ix->func_mask + 1) * 2;

	free(ix->func_slots);
	ix->func_slots = xcalloc(size, sizeof(uint32_t));
	ix->func_mask = size - 1;
	for (size_t i = 0; i < p->nfuncs; i++) {
		size_t h = func_hash(p->funcs[i].symbol, p->funcs[i].object, p->funcs[i].addr) & ix->func_mask;
		while (ix->func_slots[h])
			h = (h + 1) & ix->func_mask;
		ix->func_slots[h] = (uint32_t)i + 1;
	}
}

uint32_t profile_intern_symbol(struct profile *p, const char *symbol, const char *name,
			       const char *object, uint64_t addr, uint64_t size,
			       const char *file, int line)
{
	struct profile_index *ix = p->index;

	if (!object)
		object = "";
	size_t h = func_hash(symbol, object, addr) & ix->func_mask;
	while (ix->func_slots[h]) {
		struct func *f = &p->funcs[ix->func_slots[h] - 1];
		if (f->addr == addr && !strcmp(f->symbol, symbol) && !strcmp(f->object, object))
			return ix->func_slots[h] - 1;
		h = (h + 1) & ix->func_mask;
	}
	if (p->nfuncs >= FUNC_NONE - 1)
		die("more than %u functions in one profile", FUNC_NONE - 1);
	ALLOC_GROW(p->funcs, p->nfuncs + 1, p->funcs_alloc);
	struct func *f = &p->funcs[p->nfuncs];
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	f->symbol = xstrdup(symbol);
	f->object = xstrdup(object);
	f->file = file ? xstrdup(file) : NULL;
	f->line = line;
	f->addr = addr;
	f->size = size;
	f->min_ns = UINT64_MAX;
	f->period_min_ns = UINT64_MAX;
	ix->func_slots[h] = (uint32_t)++p->nfuncs;
	if (p->nfuncs * 2 > ix->func_mask)
		rehash_funcs(p);
	return (uint32_t)p->nfuncs - 1;
}

uint32_t profile_intern_func(struct profile *p, const char *name,
			     const char *object, uint64_t addr, uint64_t size,
			     const char *file, int line)
{
	return profile_intern_symbol(p, name, name, object, addr, size, file, line);
}

/* Looks the pair (CALLER, CALLEE) up in M: returns 1 with its *INDEX, or
 * 0 after entering it as NEXT, the index the caller then fills. */
static int pair_index(struct u64map *m, uint32_t caller, uint32_t callee, size_t next,
		      uint32_t *index)
{
	uint64_t key = u64map_pair(caller, callee);

	if (u64map_get(m, key, index))
		return 1;
	u64map_put(m, key, (uint32_t)next);
	*index = (uint32_t)next;
	return 0;
}

uint32_t profile_intern_arc(struct profile *p, uint32_t caller, uint32_t callee)
{
	uint32_t index;

	if (pair_index(&p->index->arcs, caller, callee, p->narcs, &index))
		return index;
	ALLOC_GROW(p->arcs, p->narcs + 1, p->arcs_alloc);
	p->arcs[p->narcs] = (struct arc){ .caller = caller, .callee = callee };
	return (uint32_t)p->narcs++;
}

uint32_t profile_intern_sample_arc(struct profile *p, uint32_t caller, uint32_t callee)
{
	uint32_t index;

	if (pair_index(&p->index->sample_arcs, caller, callee, p->nsample_arcs, &index))
		return index;
	ALLOC_GROW(p->sample_arcs, p->nsample_arcs + 1, p->sample_arcs_alloc);
	p->sample_arcs[p->nsample_arcs] = (struct sample_arc){ caller, callee, 0, 0 };
	return (uint32_t)p->nsample_arcs++;
}

struct thread_builder *profile_thread_begin(struct profile *p,
					    const struct thread_info *info,
					    double inner_ns, double outer_ns)
{
	struct thread_builder *b = xcalloc(1, sizeof(*b));

	ALLOC_GROW(p->threads, p->nthreads + 1, p->threads_alloc);
	p->threads[p->nthreads] = *info;
	b->info_index = p->nthreads++;
	b->p = p;
	b->inner_ns = inner_ns > 0 ? inner_ns : 0;
	b->outer_ns = outer_ns > 0 ? outer_ns : 0;
	b->cost = hook_cost_make(b->inner_ns, b->outer_ns, info->hooks_in_place);
	b->last_ns = info->start_ns;
	b->counters_unreliable = !!(info->counter_info & THREAD_COUNTERS_UNRELIABLE);
	for (size_t i = 0; i < ARC_CACHE_SLOTS; i++)
		b->arc_cache[i].pair = UINT64_MAX;
	p->overhead_per_call_ns = b->inner_ns + b->outer_ns;
	return b;
}

__attribute__((noinline)) void thread_builder_grow_funcs(struct thread_builder *b, uint32_t func)
{
	size_t n = b->nfuncs ? b->nfuncs : 64;
	while (n <= func)
		n *= 2;
	b->funcs = xrealloc(b->funcs, n * sizeof(*b->funcs));
	for (size_t i = b->nfuncs; i < n; i++)
		b->funcs[i] = (struct func_replay){ .last_start = UINT64_MAX };
	b->nfuncs = n;
}

void profile_enter(struct thread_builder *b, uint32_t func, uint64_t time_ns)
{
	thread_builder_enter(b, func, time_ns);
}

void profile_open_frame(struct thread_builder *b, uint32_t func, uint64_t time_ns)
{
	thread_builder_push(b, func, thread_builder_clamp(b, time_ns), 0);
}

void profile_counters(struct thread_builder *b, const uint64_t values[CONTRACT_COUNTERS_MAX])
{
	memcpy(b->counters, values, sizeof(b->counters));
}

void profile_thread_overwritten(struct thread_builder *b, uint64_t n)
{
	b->p->threads[b->info_index].overwritten_events += n;
}

size_t profile_depth(const struct thread_builder *b)
{
	return b->depth;
}

void profile_exit(struct thread_builder *b, uint64_t time_ns, enum exit_kind kind)
{
	thread_builder_exit(b, time_ns, kind);
}

/* The thread's calls are all in P's sums: none is shown below 0. */
static void settle_sums(struct profile *p)
{
	for (size_t i = 0; i < p->nfuncs; i++) {
		struct func *fn = &p->funcs[i];
		hook_cost_settle(&fn->self_ns);
		hook_cost_settle(&fn->total_ns);
		hook_cost_settle(&fn->sum_call_ns);
		hook_cost_settle(&fn->continued_self_ns);
		hook_cost_settle(&fn->continued_ns);
	}
	for (size_t i = 0; i < p->narcs; i++) {
		hook_cost_settle(&p->arcs[i].self_ns);
		hook_cost_settle(&p->arcs[i].child_ns);
	}
}

void profile_thread_end(struct thread_builder *b, uint64_t end_ns)
{
	uint64_t t = thread_builder_clamp(b, end_ns);
	struct thread_info *info = &b->p->threads[b->info_index];

	while (b->depth)
		thread_builder_pop(b, t, CLOSE_VIRTUAL);
	settle_sums(b->p);
	info->calls += b->calls;
	b->p->calls += b->calls;
	b->p->overhead_q += b->calls * b->cost.call_q;
	info->end_ns = t;
	if (t - info->start_ns > b->p->wall_ns)
		b->p->wall_ns = t - info->start_ns;
	b->p->lost_events += info->lost_events;
	b->p->overwritten_events += info->overwritten_events;
	free(b->stack);
	free(b->funcs);
	profile_overhead_summed(b->p);
	free(b);
}

void profile_thread_library_cost(struct thread_builder *b, uint64_t library_q,
				 uint64_t library_calls)
{
	b->p->overhead_q += library_q;
	b->p->library_calls += library_calls;
	b->p->library_overhead_q += library_q + library_calls * b->cost.call_q;
}

void profile_overhead_summed(struct profile *p)
{
	p->overhead_ns = (p->overhead_q + 128) / 256;
	if (p->calls)
		p->overhead_per_call_ns = (double)p->overhead_q / 256 / (double)p->calls;
	if (!p->library_calls || p->library_calls > p->calls ||
	    p->library_overhead_q > p->overhead_q)
		return;
	p->overhead_library_ns = (double)p->library_overhead_q / 256 / (double)p->library_calls;
	p->overhead_hook_ns = p->calls > p->library_calls
				      ? (double)(p->overhead_q - p->library_overhead_q) / 256 /
						(double)(p->calls - p->library_calls)
				      : 0;
}

double func_stddev_ns(const struct func *f)
{
	if (!f->dev_calls)
		return 0;
	long double n = (long double)f->dev_calls;
	long double sum = (long double)f->call_dev_sum;
	long double var = ((long double)f->call_dev_sq_sum - sum * sum / n) / n;
	return var > 0 ? (double)sqrtl(var) : 0;
}

int profile_has_untimed_calls(const struct profile *p)
{
	for (size_t i = 0; i < p->nfuncs; i++)
		if (!func_calls_timed(&p->funcs[i]))
			return 1;
	return 0;
}

uint64_t func_period_avg_ns(const struct func *f)
{
	return f->periods ? f->period_sum_ns / f->periods : 0;
}

/* A self time less than this many times the hooks' cost taken from it is
 * in doubt: the cost per call varies by that much with the machine's load
 * and cache state, which the estimate made at start-up cannot follow. */
#define DOUBTFUL_SELF_PER_HOOK 3

unsigned char *profile_doubtful_times(const struct profile *p, double *share)
{
	unsigned char *doubtful = xcalloc(p->nfuncs + 1, 1);
	uint64_t *made = xcalloc(p->nfuncs + 1, sizeof(*made));
	uint64_t self_all = 0;
	double cost = p->overhead_per_call_ns;

	for (size_t i = 0; i < p->narcs; i++)
		if (p->arcs[i].caller < p->nfuncs)
			made[p->arcs[i].caller] += p->arcs[i].count;
	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct func *f = &p->funcs[i];
		self_all += f->self_ns;
		if (!f->calls || cost <= 0)
			continue;
		double from_self = cost * (double)(f->calls + made[i]);
		double from_total = cost * (double)f->calls_within;
		if ((double)f->self_ns < DOUBTFUL_SELF_PER_HOOK * from_self)
			doubtful[i] = DOUBTFUL_SELF;
		if ((double)f->total_ns < DOUBTFUL_SELF_PER_HOOK * from_total)
			doubtful[i] |= DOUBTFUL_TOTAL;
	}
	*share = p->overhead_ns ? (double)p->overhead_ns / (double)(p->overhead_ns + self_all) : 0;
	free(made);
	return doubtful;
}

/* Hands passes of untimed self time up to the callers, so that a short
 * function called by another finds a timed caller in a few steps; what a
 * cycle of untimed functions keeps after that stays where it is. */
#define UNTIME_PASSES 8

size_t profile_untime_short(struct profile *p, uint64_t min_calls, uint64_t max_ns)
{
	uint64_t *in = xcalloc(p->nfuncs + 1, sizeof(*in));
	uint64_t *gain = xcalloc(p->nfuncs + 1, sizeof(*gain));
	size_t n = 0;

	for (size_t i = 0; i < p->nfuncs; i++) {
		struct func *f = &p->funcs[i];
		f->untimed = f->calls > min_calls && f->sum_call_ns < max_ns * f->calls;
	}
	for (int pass = 0; pass < UNTIME_PASSES; pass++) {
		int moved = 0;
		memset(in, 0, (p->nfuncs + 1) * sizeof(*in));
		memset(gain, 0, (p->nfuncs + 1) * sizeof(*gain));
		/* each caller's part: its arc's share of the callee's self time */
		for (size_t i = 0; i < p->narcs; i++) {
			const struct arc *a = &p->arcs[i];
			if (a->caller < p->nfuncs && a->caller != a->callee && p->funcs[a->callee].untimed)
				in[a->callee] += a->self_ns;
		}
		for (size_t i = 0; i < p->narcs; i++) {
			const struct arc *a = &p->arcs[i];
			const struct func *f = &p->funcs[a->callee];
			if (a->caller >= p->nfuncs || a->caller == a->callee || !f->untimed ||
			    !in[a->callee] || !f->self_ns)
				continue;
			gain[a->caller] += (uint64_t)((long double)f->self_ns * a->self_ns /
						      in[a->callee] + 0.5L);
		}
		for (size_t i = 0; i < p->nfuncs; i++) {
			if (p->funcs[i].untimed && in[i] && p->funcs[i].self_ns) {
				p->funcs[i].self_ns = 0;
				moved = 1;
			}
		}
		for (size_t i = 0; i < p->nfuncs; i++)
			p->funcs[i].self_ns += gain[i];
		if (!moved)
			break;
	}
	/* with no caller to take its time (a root), a function stays timed */
	for (size_t i = 0; i < p->nfuncs; i++) {
		struct func *f = &p->funcs[i];
		if (f->untimed && f->self_ns && !in[i])
			f->untimed = 0;
		n += (size_t)f->untimed;
	}
	free(in);
	free(gain);
	return n;
}
