/*
 * Between the profile model and a CodeScape .prf file.
 *
 * Writing: a trace profile.  Counter 1 is elapsed time (0x23) in ns, with
 * the hooks' cost subtracted as in every report; counter 2 is the first
 * counter of the recording (record -e) that the guide has an id for
 * (0x00, values 0, when none has).  "Hits" of a trace profile are calls.  Each function's record holds its totals; the trace region holds
 * the call-path tree, one call record per path (with the path's calls,
 * inclusive and self time) closed by its return record after its
 * children.  A recording of timer samples alone is written as the
 * guide's statistical profile (type 1): function records whose hits are
 * the function's own samples, every counter value 0, no trace region.
 *
 * Reading: function records give the functions and their numbers; the
 * nesting of the trace records gives the call arcs, split into self and
 * descendant time the way the model splits them (model/profile.h): a
 * nested activation of a function already on the path adds its self time
 * to the outermost one's arc, never its total.  Counter 2 becomes the
 * profile's counter, named by its perf event where one maps onto it.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "die.h"
#include "formats/prf.h"
#include "model/cct_walk.h"
#include "model/samples.h"
#include "xalloc.h"

static void fill_func(struct prf_func *r, const struct func *f)
{
	char *q = f->object[0] ? xasprintf("%s:%s", f->object, f->name) : xstrdup(f->name);

	r->description = PRF_DESC_FUNCTION;
	r->attributes = f->virtual_returns || f->unwound ? PRF_ATTR_SUSPECT : 0;
	r->cache_line = PRF_CACHE_LINE_NONE;
	r->min_pc = (uint32_t)f->addr;
	r->max_pc = (uint32_t)(f->addr + (f->size ? f->size - 1 : 0));
	r->group_id = PRF_GROUP_NONE;
	prf_name_set(&r->name, f->name);
	prf_name_set(&r->label, f->name);
	prf_name_set(&r->qualified, q);
	free(q);
}

/*
 * callscope's counters (perf event names, record -e) that have an id in
 * the guide's list.  Time is always counter 1 (0x23); the first of the
 * recording's counters found here becomes counter 2.
 */
static const struct {
	const char *event;
	uint8_t id;
} guide_counters[] = {
	{ "instructions", PRF_COUNTER_INSN_EXEC },
	{ "L1-icache-load-misses", PRF_COUNTER_ICACHE_MISS },
};

uint8_t prf_counter_of_event(const char *event)
{
	for (size_t i = 0; i < sizeof(guide_counters) / sizeof(guide_counters[0]); i++)
		if (!strcmp(event, guide_counters[i].event))
			return guide_counters[i].id;
	return PRF_COUNTER_NONE;
}

/* The perf event name of the guide's counter ID, or NULL. */
static const char *event_of_counter(uint8_t id)
{
	for (size_t i = 0; i < sizeof(guide_counters) / sizeof(guide_counters[0]); i++)
		if (guide_counters[i].id == id)
			return guide_counters[i].event;
	return NULL;
}

/*
 * Which of P's counters becomes counter 2 (-1: none), its id in *ID; the
 * others are named in a warning, since the file has no room for them.
 */
static int pick_counter2(const struct profile *p, uint8_t *id)
{
	int chosen = -1;

	*id = PRF_COUNTER_NONE;
	for (size_t c = 0; c < p->ncounters && c < CONTRACT_COUNTERS_MAX; c++) {
		const char *name = p->counter_names[c] ? p->counter_names[c] : "?";
		uint8_t cid = prf_counter_of_event(name);
		if (cid == PRF_COUNTER_NONE)
			warning("counter '%s' has no id in the .prf guide's list of counters: "
				"it is left out of the .prf file", name);
		else if (chosen >= 0)
			warning("a .prf file holds one counter besides time: '%s' is left out "
				"('%s' is counter 2)", name, p->counter_names[chosen]);
		else {
			chosen = (int)c;
			*id = cid;
		}
	}
	return chosen;
}

struct trace_walk {
	const struct profile *p;
	struct prf_file *out;
	uint32_t next_number;
	uint32_t *number;	/* per node: its call number */
	int c2;			/* the profile's counter written as C2, or -1 */
};

static struct prf_trace *add_trace(struct prf_file *out)
{
	ALLOC_GROW(out->trace, out->ntrace + 1, out->trace_alloc);
	struct prf_trace *t = &out->trace[out->ntrace++];
	memset(t, 0, sizeof(*t));
	return t;
}

static void trace_call(void *ctx, const struct cct *t, uint32_t node)
{
	struct trace_walk *w = ctx;
	const struct cct_node *n = &t->nodes[node];
	struct prf_trace *r = add_trace(w->out);

	r->is_call = 1;
	r->call_number = w->number[node] = ++w->next_number;
	fill_func(&r->f, &w->p->funcs[n->func]);
	r->f.hits = n->calls;
	r->f.c1 = n->total[CCT_TIME];
	r->f.c1_self = n->self[CCT_TIME];
	if (w->c2 >= 0) {
		r->f.c2 = n->total[CCT_C1 + w->c2];
		r->f.c2_self = n->self[CCT_C1 + w->c2];
	}
	if (n->virtual_returns || n->unwound)
		r->f.attributes |= PRF_ATTR_SUSPECT;
}

static void trace_return(void *ctx, const struct cct *t, uint32_t node)
{
	struct trace_walk *w = ctx;
	struct prf_trace *r = add_trace(w->out);

	(void)t;
	r->call_number = w->number[node];
}

void prf_from_profile(const struct profile *p, const struct cct *t,
		      uint64_t unix_start_ns, struct prf_file *out)
{
	struct prf_header *h = &out->h;
	time_t secs = (time_t)(unix_start_ns / 1000000000u);
	struct tm tm;

	memset(out, 0, sizeof(*out));
	memset(&tm, 0, sizeof(tm));
	gmtime_r(&secs, &tm);
	h->version = PRF_VERSION;
	h->day = (uint8_t)tm.tm_mday;
	h->month = (uint8_t)(tm.tm_mon + 1);
	h->year = (uint8_t)(tm.tm_year % 100);
	h->hour = (uint8_t)tm.tm_hour;
	h->minute = (uint8_t)tm.tm_min;
	h->second = (uint8_t)tm.tm_sec;
	h->type = PRF_TRACE;
	h->counter1 = PRF_COUNTER_ELAPSED;
	h->counter2 = PRF_COUNTER_NONE;
	h->hits = p->calls;

	out->funcs = xcalloc(p->nfuncs + 1, sizeof(*out->funcs));
	if (profile_samples_only(p)) {
		h->type = PRF_STATISTICAL;
		h->hits = p->samples;
		for (size_t i = 0; i < p->nfuncs; i++) {
			const struct func *f = &p->funcs[i];
			if (!f->self_samples)
				continue;
			struct prf_func *r = &out->funcs[out->nfuncs++];
			fill_func(r, f);
			r->hits = f->self_samples;
		}
		return;
	}
	h->c1 = t->nodes[CCT_ROOT].total[CCT_TIME];
	int c2 = pick_counter2(p, &h->counter2);
	if (c2 >= 0)
		h->c2 = t->nodes[CCT_ROOT].total[CCT_C1 + c2];
	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct func *f = &p->funcs[i];
		h->c1_self += f->self_ns;
		if (c2 >= 0)
			h->c2_self += f->counter_self[c2];
		if (!f->calls && !f->self_ns && !f->total_ns)
			continue;
		struct prf_func *r = &out->funcs[out->nfuncs++];
		fill_func(r, f);
		r->hits = f->calls;
		r->c1 = f->total_ns;
		r->c1_self = f->self_ns;
		if (c2 >= 0) {
			r->c2 = f->counter_total[c2];
			r->c2_self = f->counter_self[c2];
			if (f->counters_unreliable)
				r->attributes |= PRF_ATTR_SUSPECT;
		}
	}

	struct trace_walk w = { p, out, 0, xcalloc(t->nnodes, sizeof(uint32_t)), c2 };
	cct_walk(t, trace_call, trace_return, &w);
	free(w.number);
}

/* Reading. */

struct frame {
	uint32_t func;
	uint32_t arc;
	uint32_t node;		/* in the tree, when one is built */
	int outermost;
	uint64_t self, total, same_self;
};

struct reader {
	struct profile *p;
	struct cct *t;		/* NULL unless asked for */
	uint32_t *active;	/* per function: open activations */
	uint32_t *outer_depth;	/* per function: depth of the outermost one */
	uint8_t *has_record;	/* per function: numbers came from a function record */
	size_t nper;
	struct frame *stack;
	size_t depth, alloc;
	int c2;			/* the file's counter 2 becomes counter 0 */
};

static uint32_t intern(struct reader *r, const struct prf_func *f)
{
	const char *name = f->name.len ? f->name.s : f->label.len ? f->label.s : "(no name)";
	const char *object = "";
	char *obj_copy = NULL;
	size_t nl = strlen(name), ql = strlen(f->qualified.s ? f->qualified.s : "");

	/* callscope writes "OBJECT:NAME" as the qualified name. */
	if (ql > nl + 1 && !strcmp(f->qualified.s + ql - nl, name) &&
	    f->qualified.s[ql - nl - 1] == ':') {
		obj_copy = xstrndup(f->qualified.s, ql - nl - 1);
		object = obj_copy;
	}
	uint64_t size = f->max_pc >= f->min_pc ? (uint64_t)f->max_pc - f->min_pc + 1 : 0;
	uint32_t id = profile_intern_func(r->p, name, object, f->min_pc, size, NULL, 0);
	free(obj_copy);
	if (id >= r->nper) {
		size_t n = r->nper ? r->nper : 64, old = r->nper;
		while (n <= id)
			n *= 2;
		r->active = xrealloc(r->active, n * sizeof(*r->active));
		r->outer_depth = xrealloc(r->outer_depth, n * sizeof(*r->outer_depth));
		r->has_record = xrealloc(r->has_record, n);
		memset(r->active + old, 0, (n - old) * sizeof(*r->active));
		memset(r->outer_depth + old, 0, (n - old) * sizeof(*r->outer_depth));
		memset(r->has_record + old, 0, n - old);
		r->nper = n;
	}
	return id;
}

static void call(struct reader *r, const struct prf_func *rec)
{
	uint32_t fn = intern(r, rec);
	uint32_t caller = r->depth ? r->stack[r->depth - 1].func : FUNC_NONE;
	struct func *f = &r->p->funcs[fn];

	ALLOC_GROW(r->stack, r->depth + 1, r->alloc);
	struct frame *fr = &r->stack[r->depth];
	fr->func = fn;
	fr->arc = profile_intern_arc(r->p, caller, fn);
	fr->outermost = r->active[fn] == 0;
	fr->self = rec->c1_self;
	fr->total = rec->c1;
	fr->same_self = 0;
	r->p->arcs[fr->arc].count += rec->hits;
	if (r->t) {
		uint32_t parent = r->depth ? r->stack[r->depth - 1].node : CCT_ROOT;
		struct cct_node *n;
		fr->node = cct_child(r->t, parent, fn);
		n = &r->t->nodes[fr->node];
		n->calls += rec->hits;
		n->self[CCT_TIME] += rec->c1_self;
		n->total[CCT_TIME] += rec->c1;
		if (r->c2) {
			n->self[CCT_C1] += rec->c2_self;
			n->total[CCT_C1] += rec->c2;
		}
		if (rec->attributes & PRF_ATTR_SUSPECT)
			n->virtual_returns++;
		r->t->calls += rec->hits;
		if (parent == CCT_ROOT) {
			r->t->nodes[CCT_ROOT].total[CCT_TIME] += rec->c1;
			if (r->c2)
				r->t->nodes[CCT_ROOT].total[CCT_C1] += rec->c2;
		}
	}
	if (fr->outermost)
		r->outer_depth[fn] = (uint32_t)r->depth;
	r->active[fn]++;
	r->depth++;
	if (!r->has_record[fn]) {
		/* No function record: its numbers are the sums of its paths. */
		f->calls += rec->hits;
		f->self_ns += rec->c1_self;
		f->sum_call_ns += rec->c1;
		if (fr->outermost)
			f->total_ns += rec->c1;
		if (r->c2) {
			f->counter_self[0] += rec->c2_self;
			if (fr->outermost)
				f->counter_total[0] += rec->c2;
		}
	}
}

static void ret(struct reader *r)
{
	struct frame *fr = &r->stack[--r->depth];
	struct arc *a = &r->p->arcs[fr->arc];

	r->active[fr->func]--;
	if (fr->outermost) {
		uint64_t same = fr->same_self + fr->self;
		a->self_ns += same;
		a->child_ns += fr->total > same ? fr->total - same : 0;
	} else {
		r->stack[r->outer_depth[fr->func]].same_self += fr->self;
	}
}

struct profile *prf_file_to_profile(const struct prf_file *f, struct cct **tree)
{
	struct reader r;

	memset(&r, 0, sizeof(r));
	r.p = profile_new();
	if (tree)
		*tree = r.t = cct_new(FUNC_NONE);
	int trace = f->h.type == PRF_TRACE;

	if (trace && f->h.counter2 != PRF_COUNTER_NONE) {
		/* counter 2 comes back as the profile's counter, by its perf
		 * event name where callscope maps one onto it */
		const char *event = event_of_counter(f->h.counter2);
		const char *guide = prf_counter_name(f->h.counter2);
		r.c2 = 1;
		r.p->ncounters = 1;
		r.p->counter_names[0] = event ? xstrdup(event)
				      : guide ? xstrdup(guide)
				      : xasprintf("counter 0x%02x", f->h.counter2);
		if (r.t)
			r.t->metrics |= 1u << CCT_C1;
	}
	for (size_t i = 0; i < f->nfuncs; i++) {
		const struct prf_func *rec = &f->funcs[i];
		uint32_t fn = intern(&r, rec);
		struct func *fp = &r.p->funcs[fn];
		r.has_record[fn] = 1;
		if (trace) {
			fp->calls += rec->hits;
			fp->self_ns += rec->c1_self;
			fp->total_ns += rec->c1;
			fp->sum_call_ns += rec->c1;
			if (r.c2) {
				fp->counter_self[0] += rec->c2_self;
				fp->counter_total[0] += rec->c2;
				fp->counters_unreliable |= (rec->attributes & PRF_ATTR_SUSPECT) != 0;
			}
		} else {
			/* Only hits are valid: they stand in the self column. */
			fp->self_ns += rec->hits;
			fp->total_ns += rec->hits;
		}
	}
	for (size_t i = 0; trace && i < f->ntrace; i++) {
		if (f->trace[i].is_call)
			call(&r, &f->trace[i].f);
		else if (r.depth)
			ret(&r);
	}
	uint64_t calls = 0;
	for (size_t i = 0; i < r.p->nfuncs; i++) {
		struct func *fp = &r.p->funcs[i];
		calls += fp->calls;
		/* The file keeps no per-call extremes. */
		fp->min_ns = 0;
		fp->max_ns = 0;
	}
	struct thread_info info = { .calls = calls, .end_ns = trace ? f->h.c1 : 0 };
	ALLOC_GROW(r.p->threads, 1, r.p->threads_alloc);
	r.p->threads[0] = info;
	r.p->nthreads = 1;
	r.p->calls = calls;
	r.p->wall_ns = info.end_ns;
	profile_find_cycles(r.p);
	free(r.active);
	free(r.outer_depth);
	free(r.has_record);
	free(r.stack);
	return r.p;
}

int prf_to_profile(const uint8_t *bytes, size_t n, struct profile **out, char *err,
		   size_t errlen)
{
	return prf_to_profile_tree(bytes, n, out, NULL, err, errlen);
}

int prf_to_profile_tree(const uint8_t *bytes, size_t n, struct profile **out, struct cct **tree,
			char *err, size_t errlen)
{
	struct prf_file f;

	*out = NULL;
	if (tree)
		*tree = NULL;
	if (prf_parse(bytes, n, &f, err, errlen) != 0) {
		prf_file_release(&f);
		return -1;
	}
	*out = prf_file_to_profile(&f, tree);
	if (f.h.type != PRF_TRACE) {
		warning("a statistical .prf profile holds sample hits only: the self column "
			"counts hits, not ns");
	} else if (f.h.counter1 != PRF_COUNTER_ELAPSED) {
		const char *name = prf_counter_name(f.h.counter1);
		warning("counter 1 of this .prf profile is %s (0x%02x), not elapsed time: the "
			"time columns show its counts",
			name ? name : "a counter callscope does not know", f.h.counter1);
	}
	prf_file_release(&f);
	return 0;
}
