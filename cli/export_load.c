#include "cli/export_load.h"
#include "cli/function_lines.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "model/aggregate.h"
#include "symbols/code.h"
#include "model/samples.h"
#include "model/sum.h"
#include "symbols/symtab.h"
#include "xalloc.h"

/* One visitor feeding the profile, the tree and the Chrome writer. */
struct both {
	struct profile *p;
	struct thread_builder *pb;
	struct cct *t;
	struct cct_builder *tb;
	struct chrome_writer *cw;
	uint64_t entered;	/* calls seen as events (aggregates have none) */
	/* what the tree takes: the time and, when the recording has counters
	 * (record -e: COUNTED), their latest values; 0 without */
	int counted;
	uint64_t values[CCT_NMETRICS];
	/* EXPORT_THREAD_TREES: each thread's own tree beside the merged one,
	 * and the builder of the thread being replayed */
	int per_thread;
	struct export_thread *threads;
	size_t nthreads, threads_alloc;
	struct cct_builder *ttb;
	struct cct *cur_thread;	/* its tree, for the samples */
	struct cct *samples;	/* EXPORT_SAMPLE_TREE: where samples go instead */
	struct export_data *pcs;	/* EXPORT_SAMPLE_PCS: where they are listed */
	uint32_t pid, image;	/* of the thread being replayed */
};

/* The tree of thread (PID, TID), made when first met. */
static struct cct *thread_tree(struct both *s, uint32_t pid, uint32_t tid)
{
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->threads[i].pid == pid && s->threads[i].tid == tid)
			return (struct cct *)s->threads[i].tree;
	ALLOC_GROW(s->threads, s->nthreads + 1, s->threads_alloc);
	struct cct *t = cct_new(FUNC_NONE);
	t->metrics = s->t->metrics;
	s->threads[s->nthreads++] = (struct export_thread){ pid, tid, t };
	return t;
}

static void v_counters(void *ctx, const uint64_t c[CONTRACT_COUNTERS_MAX])
{
	struct both *s = ctx;

	profile_counters(s->pb, c);
	if (s->counted) {
		s->values[CCT_C1] = c[0];
		s->values[CCT_C2] = c[1];
	}
}

static void v_begin(void *ctx, const struct thread_info *info, double inner, double outer)
{
	struct both *s = ctx;

	s->pb = profile_thread_begin(s->p, info, inner, outer);
	s->pid = info->pid;
	s->image = info->image;
	if (s->t) {
		s->tb = cct_thread_begin(s->t, info->start_ns, inner, outer);
		if (info->hooks_in_place)
			cct_sum_short_calls(s->tb);
	}
	if (s->per_thread) {
		s->cur_thread = thread_tree(s, info->pid, info->tid);
		s->ttb = cct_thread_begin(s->cur_thread, info->start_ns, inner, outer);
		if (info->hooks_in_place)
			cct_sum_short_calls(s->ttb);
	}
	if (s->cw)
		chrome_thread_begin(s->cw, info->pid, info->tid);
}

static void v_enter(void *ctx, uint32_t fn, uint64_t t)
{
	struct both *s = ctx;

	s->entered++;
	profile_enter(s->pb, fn, t);
	s->values[CCT_TIME] = t;
	if (s->tb)
		cct_enter_values(s->tb, fn, s->values);
	if (s->ttb)
		cct_enter_values(s->ttb, fn, s->values);
	if (s->cw)
		chrome_enter(s->cw, fn, t);
}

static void v_open(void *ctx, uint32_t fn, uint64_t t)
{
	struct both *s = ctx;

	profile_open_frame(s->pb, fn, t);
	s->values[CCT_TIME] = t;
	if (s->tb)
		cct_open_frame_values(s->tb, fn, s->values);
	if (s->ttb)
		cct_open_frame_values(s->ttb, fn, s->values);
	if (s->cw)
		chrome_open_frame(s->cw, fn, t);
}

static void v_exit(void *ctx, uint64_t t, int kind)
{
	struct both *s = ctx;

	profile_exit(s->pb, t, (enum exit_kind)kind);
	s->values[CCT_TIME] = t;
	if (s->tb)
		cct_exit_values(s->tb, s->values, (enum exit_kind)kind);
	if (s->ttb)
		cct_exit_values(s->ttb, s->values, (enum exit_kind)kind);
	if (s->cw)
		chrome_exit(s->cw, t, (enum exit_kind)kind);
}

static void v_note(void *ctx, const struct replay_note *n)
{
	struct both *s = ctx;
	char *text;

	if (n->kind == NOTE_OVERWRITTEN)
		profile_thread_overwritten(s->pb, n->value);
	if (!s->cw)
		return;
	switch (n->kind) {
	case NOTE_MARK:
		chrome_instant(s->cw, "mark", n->time_ns, NULL, n->value);
		break;
	case NOTE_MARK_STR:
		text = xstrndup(n->text ? n->text : "", n->text_len);
		chrome_instant(s->cw, "mark", n->time_ns, text, 0);
		free(text);
		break;
	case NOTE_SIGNAL:
		chrome_instant(s->cw, "signal", n->time_ns, NULL, n->value);
		break;
	case NOTE_STOP:
		chrome_instant(s->cw, "capture stopped", n->time_ns, NULL, 0);
		break;
	default:
		break;
	}
}

/*
 * A timer sample: counted in the profile and, when a tree is built, added
 * to the node of its stack so the tree's writers see the samples' paths:
 * in a samples-only recording the tree's time metric counts samples (see
 * export_load.h).
 */
static uint32_t tree_add_sample(struct cct *t, const struct replay_sample *smp)
{
	return cct_add_path(t, smp->funcs, smp->n, CCT_TIME, smp->weight);
}

static void v_sample(void *ctx, const struct replay_sample *smp)
{
	struct both *s = ctx;

	profile_add_sample(s->p, smp->funcs, smp->n, smp->weight, smp->flags, smp->outside,
			   smp->missed);
	if (s->samples) {
		uint32_t node = tree_add_sample(s->samples, smp);
		if (s->pcs) {
			struct export_data *d = s->pcs;
			ALLOC_GROW(d->sample_pcs, d->nsample_pcs + 1, d->sample_pcs_alloc);
			d->sample_pcs[d->nsample_pcs++] = (struct export_sample_pc){
				node, s->pid, s->image, smp->outside ? CCT_OUTSIDE_ADDR : smp->addrs[0],
				smp->weight
			};
		}
	} else if (s->t)
		tree_add_sample(s->t, smp);
	if (s->per_thread && s->cur_thread)
		tree_add_sample(s->cur_thread, smp);
}

/*
 * A sum's timer samples (model/aggregate.h) into tree T, as v_sample()
 * adds a run's: each at the node of its stack, in CCT_TIME.
 */
static void tree_add_aggregate_samples(struct cct *t, const struct aggregate_thread *at)
{
	uint32_t *node = xcalloc(at->nnodes + 1, sizeof(*node));

	node[0] = CCT_ROOT;
	for (size_t i = 1; i < at->nnodes; i++) {
		const struct aggregate_node *a = &at->nodes[i];
		node[i] = a->func == FUNC_NONE ? node[a->parent]
					       : cct_child(t, node[a->parent], a->func);
		if (!a->samples)
			continue;
		t->nodes[node[i]].self[CCT_TIME] += a->samples;
		for (uint32_t k = node[i]; k != CCT_NONE; k = t->nodes[k].parent)
			t->nodes[k].total[CCT_TIME] += a->samples;
	}
	free(node);
}

/* A thread of record --mode=count: call paths summed in the program. */
static void v_aggregate(void *ctx, const struct thread_info *info,
			const struct aggregate_thread *at)
{
	struct both *s = ctx;

	if (profile_add_aggregate(s->p, info, at) != 0 || !s->t)
		return;
	cct_add_aggregate(s->t, at);
	/* a sum of sampled runs: in a tree of samples, or, when nothing was
	 * traced, in the tree's time as for any recording of samples alone */
	uint64_t calls = 0;
	for (size_t i = 0; i < at->nnodes; i++)
		calls += at->nodes[i].calls;
	if (s->samples)
		tree_add_aggregate_samples(s->samples, at);
	else if (!calls)
		tree_add_aggregate_samples(s->t, at);
	if (s->per_thread)
		cct_add_aggregate(thread_tree(s, info->pid, info->tid), at);
}

static void v_library_cost(void *ctx, uint64_t library_q, uint64_t library_calls)
{
	profile_thread_library_cost(((struct both *)ctx)->pb, library_q, library_calls);
}

static void v_end(void *ctx, uint64_t t)
{
	struct both *s = ctx;

	profile_thread_end(s->pb, t);
	s->pb = NULL;
	s->values[CCT_TIME] = t;
	if (s->tb)
		cct_thread_end_values(s->tb, s->values);
	s->tb = NULL;
	if (s->ttb)
		cct_thread_end_values(s->ttb, s->values);
	s->ttb = NULL;
	s->cur_thread = NULL;
	if (s->cw)
		chrome_thread_end(s->cw, t);
}

const struct data_process *export_main_process(const struct data_file *df)
{
	const struct data_process *best = NULL;

	for (size_t i = 0; i < df->nprocesses; i++)
		if (!best || df->processes[i].start_mono < best->start_mono)
			best = &df->processes[i];
	return best;
}

const struct data_object *export_main_object(const struct data_file *df)
{
	const struct data_process *pr = export_main_process(df);

	if (!pr)
		return NULL;
	for (size_t i = 0; i < df->nobjects; i++) {
		const struct data_object *o = &df->objects[i];
		if (o->pid == pr->pid && o->image == pr->image && !strcmp(o->path, pr->exe))
			return o;
	}
	return NULL;
}

/* The command line as one string, arguments separated by spaces. */
static char *command_line(const struct data_file *df)
{
	const uint8_t *p = df->session.argv_blobs;
	size_t len = 0, alloc = 0;
	char *s = NULL;

	ALLOC_GROW(s, 1, alloc);
	s[0] = '\0';
	for (uint32_t i = 0; p && i < df->session.argc; i++) {
		uint32_t n = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			     (uint32_t)p[3] << 24;
		ALLOC_GROW(s, len + n + 2, alloc);
		if (i)
			s[len++] = ' ';
		for (uint32_t k = 0; k < n; k++) {
			char c = (char)p[4 + k];
			s[len++] = (c == '\n' || c == '\r' || c == '\0') ? ' ' : c;
		}
		s[len] = '\0';
		p += 4 + n;
	}
	return s;
}

static void collect_objects(const struct data_file *df, struct export_data *d)
{
	size_t n = 0;

	d->objects = xcalloc(df->nobjects + 1, sizeof(*d->objects));
	for (size_t i = 0; i < df->nobjects; i++) {
		const struct data_object *o = &df->objects[i];
		size_t k = 0;
		while (k < n && strcmp(d->objects[k].path, o->path))
			k++;
		if (k < n)
			continue;
		struct export_object *e = &d->objects[n++];
		e->path = o->path;
		e->build_id = o->build_id;
		e->build_id_len = o->build_id_len;
		e->load_bias = o->load_bias;
		e->start = UINT64_MAX;
		for (size_t s = 0; s < o->nseg; s++) {
			uint64_t a = o->segs[s].vaddr + o->load_bias;
			if (a < e->start)
				e->start = a;
			if (a + o->segs[s].memsz > e->limit)
				e->limit = a + o->segs[s].memsz;
		}
		if (e->start == UINT64_MAX)
			e->start = 0;
	}
	d->meta.objects = d->objects;
	d->meta.nobjects = n;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* profile.h's call observer: one replayed call of FUNC into its row. */
static void count_call(void *ctx, uint32_t func, uint64_t total_ns)
{
	struct export_data *out = ctx;

	if (func >= out->ncall_hist) {
		size_t n = out->ncall_hist ? out->ncall_hist : 64;
		while (n <= func)
			n *= 2;
		out->call_hist = xrealloc(out->call_hist, n * sizeof(*out->call_hist));
		memset(out->call_hist + out->ncall_hist, 0,
		       (n - out->ncall_hist) * sizeof(*out->call_hist));
		out->ncall_hist = n;
	}
	if (!out->call_hist[func])
		out->call_hist[func] = xcalloc(CCT_FUNC_BUCKETS, sizeof(**out->call_hist));
	out->call_hist[func][sum_bucket(total_ns)]++;
}

void export_data_load(const struct data_file *df, const struct load_filter *f, int want_tree,
		      FILE *chrome, struct export_data *out)
{
	struct both s = { profile_new(), NULL, want_tree ? cct_new(FUNC_NONE) : NULL, NULL, NULL,
			  0, 0, { 0 }, (want_tree & EXPORT_THREAD_TREES) == EXPORT_THREAD_TREES, NULL,
			  0, 0, NULL, NULL,
			  want_tree & EXPORT_SAMPLE_TREE ? cct_new(FUNC_NONE) : NULL };
	const struct replay_visitor v = { .ctx = &s, .thread_begin = v_begin, .enter = v_enter,
					  .open_frame = v_open, .exit = v_exit, .thread_end = v_end,
					  .note = v_note, .counters = v_counters, .sample = v_sample,
					  .library_cost = v_library_cost };
	const struct data_process *main_pr = export_main_process(df);

	memset(out, 0, sizeof(*out));
	if ((want_tree & EXPORT_SAMPLE_PCS) && s.samples)
		s.pcs = out;
	if (want_tree & EXPORT_CALL_HISTOGRAMS) {
		s.p->call_observer = count_call;
		s.p->call_observer_ctx = out;
	}
	s.counted = df->ncounters > 0;
	s.p->ncounters = df->ncounters;
	for (size_t i = 0; i < df->ncounters; i++) {
		s.p->counter_names[i] = xstrdup(df->counters[i].name);
		if (s.t)
			s.t->metrics |= 1u << (CCT_C1 + i);
	}
	if (chrome) {
		s.cw = chrome_writer_new(chrome, s.p);
		for (size_t i = 0; i < df->nprocesses; i++) {
			const struct data_process *pr = &df->processes[i];
			if ((f->pid < 0 || pr->pid == f->pid) &&
			    (i == 0 || df->processes[i - 1].pid != pr->pid))
				chrome_process_name(s.cw, pr->pid, base_name(pr->exe));
		}
	}
	load_process_figures(df, f, s.p);
	load_replay(df, f, s.p, &v, &out->stats);
	struct load_stats more;
	memset(&more, 0, sizeof(more));
	load_aggregates(df, f, s.p, v_aggregate, &s, &more);
	out->stats.salvaged |= more.salvaged;
	out->call_events = s.entered;
	if (s.cw)
		out->chrome_failed = chrome_writer_finish(s.cw) != 0;
	profile_name_homonyms(s.p);
	profile_find_cycles(s.p);
	out->p = s.p;
	out->meta.samples_only = profile_samples_only(s.p);
	out->tree = s.t;
	out->sample_tree = s.samples;
	out->threads = s.threads;
	out->meta.threads = s.threads;
	out->meta.nthreads = s.nthreads;
	out->meta.runs = df->sum.present ? df->sum.runs : 1;
	out->cmd = command_line(df);
	out->meta.cmd = out->cmd;
	out->meta.main_exe = main_pr ? main_pr->exe : NULL;
	out->meta.unix_start_ns = df->session.unix_start_ns;
	collect_objects(df, out);
}

void export_data_lines(struct export_data *d, const struct data_file *df)
{
	/* A binary that could not be trusted was already reported by the
	 * load; its functions have no lines to give. */
	if (d->stats.salvaged)
		return;
	function_lines_load(df, d->p);
}

/* Arcs by their caller's object, then by caller (spontaneous ones last). */
static int by_caller(const void *a, const void *b, void *profile)
{
	const struct profile *p = profile;
	const struct arc *x = &p->arcs[*(const uint32_t *)a], *y = &p->arcs[*(const uint32_t *)b];

	if (x->caller == FUNC_NONE || y->caller == FUNC_NONE)
		return (x->caller == FUNC_NONE) - (y->caller == FUNC_NONE);
	int c = strcmp(p->funcs[x->caller].object, p->funcs[y->caller].object);
	if (c)
		return c;
	return x->caller < y->caller ? -1 : x->caller > y->caller;
}

void export_data_call_sites(struct export_data *d)
{
	struct profile *p = d->p;

	/* a binary that could not be trusted has no code to read */
	if (d->stats.salvaged || !p->narcs)
		return;
	/* each object is opened once, each caller read and disassembled once */
	uint32_t *order = xmalloc(p->narcs * sizeof(*order));
	for (size_t i = 0; i < p->narcs; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, p->narcs, sizeof(*order), by_caller, p);
	struct code_file *cf = NULL;
	const char *cf_object = NULL;
	for (size_t i = 0, next; i < p->narcs; i = next) {
		uint32_t caller = p->arcs[order[i]].caller;
		for (next = i + 1; next < p->narcs && p->arcs[order[next]].caller == caller; next++)
			;
		const struct func *f = caller == FUNC_NONE ? NULL : &p->funcs[caller];
		if (!f || !f->size || !f->object[0])
			continue;
		if (!cf_object || strcmp(cf_object, f->object)) {
			code_file_close(cf);
			cf = code_file_open(f->object);
			cf_object = f->object;
		}
		uint8_t *code = cf ? code_file_read(cf, f->addr, f->size) : NULL;
		if (!code)
			continue;
		struct code_call *calls;
		size_t ncalls = code_direct_calls(code, f->addr, f->size, &calls);
		for (size_t k = i; k < next; k++) {
			struct arc *a = &p->arcs[order[k]];
			const struct func *g = &p->funcs[a->callee];
			if (strcmp(g->object, f->object))
				continue;
			for (size_t c = 0; c < ncalls && !a->site; c++)
				if (calls[c].target == g->addr && !calls[c].tail)
					a->site = calls[c].ret;
		}
		free(calls);
		free(code);
	}
	code_file_close(cf);
	free(order);
}

void export_data_release(struct export_data *d)
{
	for (size_t i = 0; i < d->ncall_hist; i++)
		free(d->call_hist[i]);
	free(d->call_hist);
	free(d->sample_pcs);
	profile_free(d->p);
	cct_free(d->tree);
	cct_free(d->sample_tree);
	for (size_t i = 0; i < d->meta.nthreads; i++)
		cct_free((struct cct *)d->threads[i].tree);
	free(d->threads);
	free(d->objects);
	free(d->cmd);
	memset(d, 0, sizeof(*d));
}
