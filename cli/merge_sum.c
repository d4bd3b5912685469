#include "cli/merge_sum.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/export_load.h"
#include "die.h"
#include "model/aggregate.h"
#include "stream.h"
#include "xalloc.h"

void merge_sum_init(struct merge_sum *m)
{
	memset(m, 0, sizeof(*m));
	sum_init(&m->sum);
}

void merge_sum_release(struct merge_sum *m)
{
	sum_release(&m->sum);
	sum_origin_release(&m->origin);
}

/* The recorded span of a run in ns (a sum's: its runs' spans added). */
static uint64_t span_ns(const struct data_file *df)
{
	const struct data_session *s = &df->session;
	return s->mono_end > s->mono_start ? s->mono_end - s->mono_start : 0;
}

/* Whether DF's run comes before the origin kept so far: the earlier
 * start, then the smaller command line, so any order of adding agrees. */
static int earlier(const struct merge_sum *m, const struct data_file *df)
{
	const struct sum_origin *o = &m->origin;
	const struct data_session *s = &df->session;

	if (!m->have_origin || s->unix_start_ns != o->unix_start_ns)
		return !m->have_origin || s->unix_start_ns < o->unix_start_ns;
	size_t n = s->argv_len < o->argv_len ? s->argv_len : o->argv_len;
	int c = n ? memcmp(s->argv_blobs, o->argv_blobs, n) : 0;
	return c ? c < 0 : s->argv_len < o->argv_len;
}

static void take_origin(struct merge_sum *m, const struct data_file *df)
{
	struct sum_origin *o = &m->origin;
	const struct data_session *s = &df->session;
	const struct data_process *main_pr = export_main_process(df);

	free(o->cwd);
	free(o->argv_blobs);
	free(o->exe);
	free(o->cmdline);
	o->unix_start_ns = s->unix_start_ns;
	o->wait_status = s->wait_status;
	o->cwd = xstrndup(s->cwd ? s->cwd : "", s->cwd ? s->cwd_len : 0);
	o->cwd_len = s->cwd ? s->cwd_len : 0;
	o->argc = s->argc;
	o->argv_len = s->argv_len;
	o->argv_blobs = xmalloc(s->argv_len + 1);
	memcpy(o->argv_blobs, s->argv_blobs, s->argv_len);
	o->exe = xstrdup(main_pr ? main_pr->exe : "");
	o->cmdline_len = main_pr ? main_pr->cmdline_len : 0;
	o->cmdline = xmalloc(o->cmdline_len + 1);
	if (o->cmdline_len)
		memcpy(o->cmdline, main_pr->cmdline, o->cmdline_len);
	m->have_origin = 1;
}

static char *counter_list(const struct data_counter *c, size_t n)
{
	return n == 0 ? xstrdup("none")
	       : n == 1 ? xstrdup(c[0].name)
			: xasprintf("%s,%s", c[0].name, c[1].name);
}

void merge_check_counters(const struct data_counter *have, size_t nhave, const struct data_file *df,
			  const char *path)
{
	int same = df->ncounters == nhave;

	for (size_t i = 0; same && i < nhave; i++)
		same = !strcmp(df->counters[i].name, have[i].name);
	if (!same) {
		char *had = counter_list(have, nhave);
		char *got = counter_list(df->counters, df->ncounters);
		die("'%s' counted other events (%s) than the recordings before it (%s); merge runs "
		    "recorded with the same -e", path, got, had);
	}
}

/* Every run of a sum counted the same events, as C1 and C2. */
static void check_counters(struct merge_sum *m, const struct data_file *df, const char *path)
{
	struct sum_origin *o = &m->origin;

	if (!m->have_origin) {
		for (size_t i = 0; i < df->ncounters; i++) {
			o->counters[i] = df->counters[i];
			o->counters[i].name = xstrdup(df->counters[i].name);
		}
		o->ncounters = df->ncounters;
	} else {
		merge_check_counters(o->counters, o->ncounters, df, path);
	}
}

/* Adding one recording: its objects as the sum knows them. */
struct adder {
	struct profile_sum *s;
	const struct data_file *df;
	const char *path;	/* DF's, for messages */
	uint32_t *object_map;	/* DF's object -> the sum's (UINT32_MAX: not yet) */
	unsigned ncounters;
};

static uint32_t sum_object_of(struct adder *a, size_t i)
{
	const struct data_object *ob = &a->df->objects[i];

	if (a->object_map[i] == UINT32_MAX) {
		struct sum_segment *segs = xcalloc(ob->nseg + 1, sizeof(*segs));
		for (size_t k = 0; k < ob->nseg; k++) {
			segs[k].vaddr = ob->segs[k].vaddr;
			segs[k].memsz = ob->segs[k].memsz;
			segs[k].flags = ob->segs[k].flags;
		}
		a->object_map[i] = sum_object(a->s, ob->path, ob->build_id, ob->build_id_len,
					      segs, ob->nseg);
		free(segs);
	}
	return a->object_map[i];
}

/* Where runtime address ADDR of process image (PID, IMAGE) lies: the
 * sum's object and the link-time address in it, else SUM_NO_OBJECT and
 * ADDR as it is. */
static uint32_t place_at(struct adder *a, uint32_t pid, uint32_t image, uint64_t addr,
			 uint64_t *where)
{
	*where = addr;
	if (addr == CCT_TRUNCATED_ADDR || addr == CCT_OUTSIDE_ADDR ||
	    (addr >= SIGNAL_FRAME_BASE && addr < SIGNAL_FRAME_MAX))
		return SUM_NO_OBJECT;
	for (size_t i = 0; i < a->df->nobjects; i++) {
		const struct data_object *ob = &a->df->objects[i];
		if (ob->pid != pid || ob->image != image)
			continue;
		uint64_t link = addr - ob->load_bias;
		for (size_t k = 0; k < ob->nseg; k++)
			if (link >= ob->segs[k].vaddr && link - ob->segs[k].vaddr < ob->segs[k].memsz) {
				*where = link;
				return sum_object_of(a, i);
			}
	}
	return SUM_NO_OBJECT;
}

/* The sum's function at runtime address ADDR of thread TH. */
static uint32_t func_at(void *ctx, const struct data_thread *th, uint64_t addr)
{
	struct adder *a = ctx;
	uint64_t where;
	uint32_t object = place_at(a, th->pid, th->image, addr, &where);

	return sum_func(a->s, object, where);
}

/* A sum's samples by path and PC (SUM_PCS), its paths summed into the
 * sum's nodes PATH (of AT's NNODES). */
static void add_sum_pcs(struct adder *a, const struct thread_info *info, const uint32_t *path,
			size_t nnodes)
{
	const struct data_sum *ds = &a->df->sum;

	for (size_t i = 0; i < ds->npcs; i++) {
		struct data_sum_pc pc;
		uint64_t where;
		sum_pc_at(ds, i, &pc);
		if (pc.path >= nnodes)
			die("'%s' is damaged: its samples by PC name call path %u of %zu; a sum takes "
			    "whole recordings only",
			    a->path, pc.path, nnodes);
		uint32_t object = place_at(a, info->pid, info->image, pc.pc, &where);
		sum_pc_add(a->s, path[pc.path], object, where, pc.samples);
	}
}

static unsigned __int128 round_u128(long double v)
{
	return v > 0 ? (unsigned __int128)(v + 0.5L) : 0;
}

/* A count-mode thread's call paths and statistics, times in ns. */
static void add_aggregate(void *ctx, const struct thread_info *info,
			  const struct aggregate_thread *at)
{
	struct adder *a = ctx;
	struct profile_sum *s = a->s;
	struct aggregate_split sp;
	uint32_t *path = xcalloc(at->nnodes + 1, sizeof(*path));

	aggregate_split(at, a->ncounters, &sp);
	for (size_t i = 1; i < at->nnodes; i++) {
		const struct aggregate_node *an = &at->nodes[i];
		path[i] = sum_child(s, path[an->parent], an->func);
		struct sum_node *n = &s->nodes[path[i]];
		n->calls += an->calls;
		n->total_ns += sp.total[i];
		for (unsigned c = 0; c < a->ncounters; c++)
			n->counter_total[c] += sp.total_c[c][i];
		n->closed_at_end += an->still_open;
		n->unwound += an->unwound;
		n->thrown += an->thrown;
		n->samples += an->samples;
	}
	aggregate_split_release(&sp);
	if (a->df->sum.have_pcs)
		add_sum_pcs(a, info, path, at->nnodes);
	free(path);

	for (size_t i = 0; i < at->nfuncs; i++) {
		const struct aggregate_func *af = &at->funcs[i];
		struct sum_func f;
		memset(&f, 0, sizeof(f));
		f.calls = af->calls;
		/* at 1 ns per unit (a sum, or a monotonic clock) the recorded
		 * integers are taken as they are: a long double holds 64 bits
		 * of a sum of squares that may need more */
		int exact = at->ns_per_unit == 1.0;
		f.sum_ns = exact ? af->sum_units : round_u128(af->sum_ns);
		f.sum_sq_ns = exact ? af->sum_sq_units : round_u128(af->sum_sq_ns);
		f.min_ns = af->min_ns;
		f.max_ns = af->max_ns;
		f.periods = af->periods;
		f.period_sum_ns = af->period_sum_ns;
		f.period_min_ns = af->period_min_ns;
		f.period_max_ns = af->period_max_ns;
		/* the run counted durations in powers of two of its clock
		 * unit; a sum counts nanoseconds: each bucket moves to the one
		 * its shortest duration falls in (exact at 1 ns per unit) */
		for (unsigned k = 0; k < CCT_FUNC_BUCKETS; k++) {
			long double lo = k ? (long double)(1ull << (k - 1)) * at->ns_per_unit : 0;
			uint64_t ns = lo >= 1.8e19L ? UINT64_MAX : (uint64_t)(lo + 0.999999L);
			f.buckets[sum_bucket(ns)] += af->buckets[k];
		}
		sum_func_add(&s->funcs[af->func], &f);
	}
}

/* The sum's function for function F of a replayed profile. */
static uint32_t func_of_profile(struct adder *a, const struct func *fn)
{
	unsigned sig;

	if (!*fn->object) {
		if (sscanf(fn->name, "<signal %u>", &sig) == 1)
			return sum_func(a->s, SUM_NO_OBJECT, SIGNAL_FRAME_BASE + sig);
		if (!strcmp(fn->name, "<truncated>"))
			return sum_func(a->s, SUM_NO_OBJECT, CCT_TRUNCATED_ADDR);
		if (!strcmp(fn->name, "<outside>"))
			return sum_func(a->s, SUM_NO_OBJECT, CCT_OUTSIDE_ADDR);
		return sum_func(a->s, SUM_NO_OBJECT, fn->addr);
	}
	for (size_t i = 0; i < a->df->nobjects; i++)
		if (!strcmp(a->df->objects[i].path, fn->object))
			return sum_func(a->s, sum_object_of(a, i), fn->addr);
	return sum_func(a->s, SUM_NO_OBJECT, fn->addr);
}

/* A traced recording: replayed into a profile and its call paths. */
static void add_replayed(struct adder *a, const char *path)
{
	const struct load_filter all = { -1, -1, 0, 0, SIGNAL_SEPARATE };
	struct export_data d;

	(void)path;
	export_data_load(a->df, &all,
			 EXPORT_TREE | EXPORT_SAMPLE_TREE | EXPORT_CALL_HISTOGRAMS | EXPORT_SAMPLE_PCS,
			 NULL, &d);
	/* what its samples measured, as its own report says */
	if (d.p->samples && d.p->samples_wall)
		a->s->sample_clocks |= THREAD_SAMPLES_WALL;
	else if (d.p->samples)
		a->s->sample_clocks |=
			(d.p->samples_user_only ? THREAD_SAMPLES_USER_ONLY : THREAD_SAMPLES_SYSTEM) |
			(d.p->samples_tick ? THREAD_SAMPLES_TICK : 0) |
			(d.p->samples_tick < d.p->samples ? THREAD_SAMPLES_EVENT : 0);
	uint32_t *fmap = xcalloc(d.p->nfuncs + 1, sizeof(*fmap));
	for (size_t f = 0; f < d.p->nfuncs; f++)
		fmap[f] = func_of_profile(a, &d.p->funcs[f]);

	const struct cct *t = d.tree;
	uint32_t *node_of = xcalloc(t->nnodes + 1, sizeof(*node_of));
	for (size_t i = 1; i < t->nnodes; i++) {
		const struct cct_node *cn = &t->nodes[i];
		node_of[i] = sum_child(a->s, node_of[cn->parent], fmap[cn->func]);
		struct sum_node *n = &a->s->nodes[node_of[i]];
		n->calls += cn->calls;
		n->total_ns += cn->total[CCT_TIME];
		for (int c = 0; c < CONTRACT_COUNTERS_MAX; c++)
			n->counter_total[c] += cn->total[CCT_C1 + c];
		n->closed_at_end += cn->virtual_returns;
		n->unwound += cn->unwound;
		n->thrown += cn->thrown;
	}
	free(node_of);
	/* the timer samples, weighted, at the path of their stack */
	t = d.sample_tree;
	node_of = xcalloc(t->nnodes + 1, sizeof(*node_of));
	for (size_t i = 1; i < t->nnodes; i++) {
		const struct cct_node *cn = &t->nodes[i];
		node_of[i] = sum_child(a->s, node_of[cn->parent], fmap[cn->func]);
		a->s->nodes[node_of[i]].samples += cn->self[CCT_TIME];
	}
	/* and by their PC, for the reports of lines and instructions */
	for (size_t i = 0; i < d.nsample_pcs; i++) {
		const struct export_sample_pc *sp = &d.sample_pcs[i];
		uint64_t where;
		uint32_t object = place_at(a, sp->pid, sp->image, sp->addr, &where);
		sum_pc_add(a->s, node_of[sp->node], object, where, sp->weight);
	}
	free(node_of);

	/* per-call statistics, from the profile's shifted sums (profile.h):
	 * sum x = n s + sum d, sum x^2 = sum d^2 + 2 s sum d + n s^2 */
	for (size_t i = 0; i < d.p->nfuncs; i++) {
		const struct func *fn = &d.p->funcs[i];
		struct sum_func f;
		if (!fn->dev_calls && !fn->periods)
			continue;
		memset(&f, 0, sizeof(f));
		__int128 n = fn->dev_calls, sh = fn->call_shift_ns;
		__int128 sum = n * sh + fn->call_dev_sum;
		__int128 sq = (__int128)fn->call_dev_sq_sum + 2 * sh * fn->call_dev_sum + n * sh * sh;
		f.calls = fn->dev_calls;
		f.sum_ns = sum > 0 ? (unsigned __int128)sum : 0;
		f.sum_sq_ns = sq > 0 ? (unsigned __int128)sq : 0;
		f.min_ns = fn->min_ns;
		f.max_ns = fn->max_ns;
		f.periods = fn->periods;
		f.period_sum_ns = fn->period_sum_ns;
		f.period_min_ns = fn->period_min_ns;
		f.period_max_ns = fn->period_max_ns;
		if (i < d.ncall_hist && d.call_hist[i])
			memcpy(f.buckets, d.call_hist[i], sizeof(f.buckets));
		sum_func_add(&a->s->funcs[fmap[i]], &f);
	}
	free(fmap);
	export_data_release(&d);
}

void merge_sum_add(struct merge_sum *m, const struct data_file *df, const char *path)
{
	struct profile_sum *s = &m->sum;
	struct adder a = { s, df, path, NULL, (unsigned)df->ncounters };
	int events = 0;

	check_counters(m, df, path);
	if (earlier(m, df))
		take_origin(m, df);
	a.object_map = xmalloc((df->nobjects + 1) * sizeof(*a.object_map));
	memset(a.object_map, 0xff, (df->nobjects + 1) * sizeof(*a.object_map));
	for (size_t i = 0; i < df->nthreads; i++) {
		events |= !(df->threads[i].flags & THREAD_CCT);
		s->lost_events += df->threads[i].lost_events;
		s->counter_flags |= df->threads[i].counter_info & THREAD_COUNTERS_UNRELIABLE;
		s->sample_clocks |= df->threads[i].flags & THREAD_SAMPLES_KINDS;
	}
	if (events) {
		add_replayed(&a, path);
	} else {
		struct load_stats stats;
		memset(&stats, 0, sizeof(stats));
		load_aggregates_by_address(df, func_at, add_aggregate, &a, &stats);
		if (stats.salvaged)
			die("'%s' is damaged; a sum takes whole recordings only", path);
	}
	free(a.object_map);
	s->runs += df->sum.present ? df->sum.runs : 1;
	s->processes += df->sum.present ? df->sum.processes : df->nprocesses;
	s->threads += df->sum.present ? df->sum.threads : df->nthreads;
	s->span_ns += span_ns(df);
}
