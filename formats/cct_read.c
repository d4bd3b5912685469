#include "formats/cct_read.h"

#include <stdlib.h>
#include <string.h>

#include "formats/cursor.h"
#include "saturate.h"
#include "model/aggregate.h"
#include "stream.h"
#include "xalloc.h"

static void read_func(const uint8_t *rec, struct cct_func *f)
{
	struct cursor c;

	cursor_init(&c, rec, rec, rec + CCT_FUNC_RECORDS * CCT_RECORD_SIZE);
	f->addr = cursor_u64(&c, "function");
	f->calls = cursor_u64(&c, "function");
	f->sum = cursor_u64(&c, "function");
	f->min = cursor_u64(&c, "function");
	f->max = cursor_u64(&c, "function");
	f->periods = cursor_u64(&c, "function");
	cursor_bytes(&c, 16, "function");	/* kind, reserved */
	uint64_t sq_lo = cursor_u64(&c, "function");
	uint64_t sq_hi = cursor_u64(&c, "function");
	f->sum_sq = (unsigned __int128)sq_hi << 64 | sq_lo;
	f->period_sum = cursor_u64(&c, "function");
	f->period_min = cursor_u64(&c, "function");
	f->period_max = cursor_u64(&c, "function");
	cursor_bytes(&c, 24, "function");	/* the runtime's own, reserved */
	for (unsigned k = 0; k < CCT_FUNC_BUCKETS; k++)
		f->buckets[k] = cursor_u64(&c, "function");
}

int cct_thread_parse(const uint8_t *data, size_t len, unsigned ncounters, uint64_t end,
		     struct cct_thread *out, const char **why)
{
	uint64_t last_c[CONTRACT_COUNTERS_MAX] = { 0, 0 };

	memset(out, 0, sizeof(*out));
	*why = NULL;
	if (len % CCT_RECORD_SIZE || len < 2 * CCT_RECORD_SIZE) {
		*why = "its records are not whole";
		return -1;
	}
	if (ncounters > CONTRACT_COUNTERS_MAX)
		ncounters = CONTRACT_COUNTERS_MAX;
	size_t nrec = len / CCT_RECORD_SIZE;
	/* a record's number among the paths (UINT32_MAX: not a path) */
	uint32_t *path_of = xmalloc(nrec * sizeof(*path_of));
	out->paths = xcalloc(nrec, sizeof(*out->paths));
	out->funcs = xcalloc(nrec / CCT_FUNC_RECORDS + 1, sizeof(*out->funcs));
	for (size_t i = 0; i < nrec && !*why; i++) {
		struct cursor c;
		const uint8_t *rec = data + i * CCT_RECORD_SIZE;
		cursor_init(&c, rec, rec, rec + CCT_RECORD_SIZE);
		uint64_t addr = cursor_u64(&c, "node");
		uint32_t parent = cursor_u32(&c, "node");
		cursor_u32(&c, "node");
		cursor_u32(&c, "node");
		uint32_t open = cursor_u32(&c, "node");
		uint64_t calls = cursor_u64(&c, "node");
		uint64_t total = cursor_u64(&c, "node");
		uint64_t since = cursor_u64(&c, "node");
		uint32_t kind = cursor_u32(&c, "node");
		cursor_u32(&c, "node");
		uint64_t counter_total[CONTRACT_COUNTERS_MAX], counter_since[CONTRACT_COUNTERS_MAX];
		for (int k = 0; k < CONTRACT_COUNTERS_MAX; k++)
			counter_total[k] = cursor_u64(&c, "node");
		for (int k = 0; k < CONTRACT_COUNTERS_MAX; k++)
			counter_since[k] = cursor_u64(&c, "node");
		/* zero in recordings made before they were counted; in the
		 * root, the runtime's pauses and the samples in the hooks */
		uint64_t unwound = cursor_u64(&c, "node");
		uint64_t thrown = cursor_u64(&c, "node");
		uint64_t samples = cursor_u64(&c, "node");
		uint64_t period = cursor_u64(&c, "node");
		/* a sum's only (formats/sum_write.c); zero from the runtime */
		uint64_t closed_at_end = cursor_u64(&c, "node");
		uint64_t paused = i ? 0 : unwound, hook_samples = i ? 0 : thrown;
		if (!i)
			unwound = thrown = 0;

		path_of[i] = UINT32_MAX;
		if (kind == CCT_KIND_FUNC && i >= 2) {
			if (nrec - i < CCT_FUNC_RECORDS) {
				*why = "a function's record is cut short";
				break;
			}
			read_func(rec, &out->funcs[out->nfuncs++]);
			for (size_t k = 1; k < CCT_FUNC_RECORDS; k++)
				path_of[i + k] = UINT32_MAX;
			i += CCT_FUNC_RECORDS - 1;
			continue;
		}
		if (kind != CCT_KIND_PATH) {
			*why = i < 2 ? "its first records are not the root and <truncated>"
				     : "a record is of an unknown kind";
			break;
		}
		if (i && (parent >= i || path_of[parent] == UINT32_MAX)) {
			*why = "a call path names a later parent";
			break;
		}
		if (i == 0) {
			last_c[0] = counter_since[0];
			last_c[1] = counter_since[1];
			/* END is the clock's; the thread's times leave out
			 * the runtime's pauses */
			end = end > paused ? end - paused : 0;
			out->sample_period_ns = period;
			out->hook_samples = hook_samples;
		}
		struct cct_path *p = &out->paths[out->npaths];
		path_of[i] = (uint32_t)out->npaths++;
		/* a call still running at the end is closed there, and counts
		 * unless it was not a call of the recording */
		if (i && (open & ~CCT_OPEN_NOT_A_CALL) && since && end > since) {
			total += end - since;
			calls += !(open & CCT_OPEN_NOT_A_CALL);
			p->still_open = 1;
			for (unsigned k = 0; k < ncounters; k++)
				counter_total[k] += last_c[k] > counter_since[k]
							    ? last_c[k] - counter_since[k] : 0;
		}
		p->samples = samples;
		p->addr = i ? addr : 0;
		p->parent = i ? path_of[parent] : 0;
		p->calls = calls;
		p->total = total;
		p->closed_at_end = closed_at_end;
		p->unwound = unwound;
		p->thrown = thrown <= unwound ? thrown : unwound;
		p->samples = samples;
		for (unsigned k = 0; k < ncounters; k++)
			p->counter_total[k] = counter_total[k];
	}
	free(path_of);
	if (*why) {
		cct_thread_release(out);
		return -1;
	}
	return 0;
}

void cct_thread_release(struct cct_thread *t)
{
	free(t->paths);
	free(t->funcs);
	memset(t, 0, sizeof(*t));
}

static uint64_t to_ns(uint64_t units, double ns_per_unit)
{
	if (ns_per_unit == 1.0)	/* CLOCK_MONOTONIC: exact, however large */
		return units;
	return u64_round((double)units * ns_per_unit);
}

/*
 * --time-by=samples: a path's time is its samples and its descendants',
 * at the sampling period; no hooks' cost is left to subtract, their
 * samples having been kept apart.
 */
static void time_by_samples(const struct cct_thread *ct, struct aggregate_thread *at)
{
	uint64_t *below = xcalloc(ct->npaths + 1, sizeof(*below));

	/* parents come before their children: one backward pass */
	for (size_t i = ct->npaths; i-- > 0;) {
		below[i] += ct->paths[i].samples;
		if (i)
			below[ct->paths[i].parent] += below[i];
		at->nodes[i].total_ns = below[i] * ct->sample_period_ns;
	}
	at->inner_ns = at->outer_ns = 0;
	at->sample_period_ns = ct->sample_period_ns;
	at->samples = below[0];
	at->hook_samples = ct->hook_samples;
	free(below);
}

void cct_thread_to_aggregate(const struct cct_thread *ct, double ns_per_unit, double inner_ns,
			     double outer_ns, struct profile *names,
			     uint32_t (*func_of)(void *ctx, uint64_t addr), void *ctx,
			     struct aggregate_thread *at)
{
	memset(at, 0, sizeof(*at));
	at->nodes = xcalloc(ct->npaths + 1, sizeof(*at->nodes));
	at->funcs = xcalloc(ct->nfuncs + 1, sizeof(*at->funcs));
	for (size_t i = 0; i < ct->npaths; i++) {
		const struct cct_path *cp = &ct->paths[i];
		struct aggregate_node *a = &at->nodes[at->nnodes++];
		a->parent = cp->parent;
		a->calls = cp->calls;
		a->total_ns = to_ns(cp->total, ns_per_unit);
		memcpy(a->counter_total, cp->counter_total, sizeof(a->counter_total));
		a->still_open = (uint64_t)cp->still_open + cp->closed_at_end;
		a->unwound = cp->unwound;
		a->thrown = cp->thrown;
		a->samples = cp->samples;
		a->signal = cp->addr >= SIGNAL_FRAME_BASE && cp->addr < SIGNAL_FRAME_MAX;
		if (i == 0)
			a->func = FUNC_NONE;
		else if (cp->addr == CCT_TRUNCATED_ADDR)
			a->func = profile_intern_func(names, "<truncated>", "", 0, 0, NULL, 0);
		else
			a->func = func_of(ctx, cp->addr);
	}
	for (size_t i = 0; i < ct->nfuncs; i++) {
		const struct cct_func *cf = &ct->funcs[i];
		struct aggregate_func *af = &at->funcs[at->nfuncs++];
		af->func = func_of(ctx, cf->addr);
		af->calls = cf->calls;
		af->sum_ns = (long double)cf->sum * ns_per_unit;
		af->sum_sq_ns = (long double)cf->sum_sq * ns_per_unit * ns_per_unit;
		af->sum_units = cf->sum;
		af->sum_sq_units = cf->sum_sq;
		af->min_ns = to_ns(cf->min, ns_per_unit);
		af->max_ns = to_ns(cf->max, ns_per_unit);
		af->periods = cf->periods;
		af->period_sum_ns = to_ns(cf->period_sum, ns_per_unit);
		af->period_min_ns = to_ns(cf->period_min, ns_per_unit);
		af->period_max_ns = to_ns(cf->period_max, ns_per_unit);
		memcpy(af->buckets, cf->buckets, sizeof(af->buckets));
	}
	at->ns_per_unit = ns_per_unit;
	at->inner_ns = inner_ns;
	at->outer_ns = outer_ns;
	if (ct->sample_period_ns)
		time_by_samples(ct, at);
}
