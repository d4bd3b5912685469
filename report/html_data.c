/*
 * Filling the data container: the function table, the call-path tree in
 * preorder (each node's depth as a delta, so a column of small numbers),
 * the timeline, and the JSON header that describes them.
 */
#include "report/html_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "json.h"
#include "report/flat.h"
#include "xalloc.h"

/* The counters' column names below (c1, c2) are spelled out one per counter. */
_Static_assert(CONTRACT_COUNTERS_MAX == 2, "a column name for every counter");

#define NONE UINT32_MAX

struct column {
	const char *name;
	const char *enc;	/* "uvarint", "svarint" or "strings" (NUL-ended UTF-8) */
	size_t count;
	struct html_buf buf;
};

/* Columns are allocated one by one: callers keep pointers to them while
 * more are added. */
struct columns {
	struct column **v;
	size_t n, alloc;
};

static struct column *column_new(struct columns *cs, const char *name, const char *enc)
{
	ALLOC_GROW(cs->v, cs->n + 1, cs->alloc);
	struct column *c = cs->v[cs->n++] = xmalloc(sizeof(*c));
	c->name = name;
	c->enc = enc;
	c->count = 0;
	html_buf_init(&c->buf);
	return c;
}

static void put_u(struct column *c, uint64_t v)
{
	html_buf_uvarint(&c->buf, v);
	c->count++;
}

static void put_s(struct column *c, int64_t v)
{
	html_buf_svarint(&c->buf, v);
	c->count++;
}

static void put_str(struct column *c, const char *s)
{
	html_buf_add(&c->buf, s, strlen(s) + 1);
	c->count++;
}

size_t html_counters(const struct html_input *in)
{
	return in->diff ? 0 : in->prof->ncounters;
}

int html_samples(const struct html_input *in)
{
	return in->prof->samples > 0 || (in->diff && in->base->samples > 0);
}

/* Rank of each function of P in the flat profile (the order of
 * `callscope report`); unlisted ones get nfuncs.  Returns a malloc'd
 * array. */
static uint32_t *flat_ranks(const struct profile *p)
{
	size_t n;
	uint32_t *order = flat_sorted_functions(p, FLAT_SORT_SELF, &n);
	uint32_t *rank = xmalloc((p->nfuncs + 1) * sizeof(*rank));

	for (size_t i = 0; i < p->nfuncs; i++)
		rank[i] = (uint32_t)p->nfuncs;
	for (size_t i = 0; i < n; i++)
		rank[order[i]] = (uint32_t)i;
	free(order);
	return rank;
}

/* The flat numbers of one side (PREFIX "func." or "base.func."). */
struct func_columns {
	struct column *present, *listed, *rank, *calls, *self, *total, *min, *avg, *max, *sumcall,
		*virtual_returns, *unwound, *cycle;
	struct column *calls_untimed;	/* a count run without per-call times only */
	struct column *cself[CONTRACT_COUNTERS_MAX], *ctotal[CONTRACT_COUNTERS_MAX], *unreliable;	/* record -e only */
	size_t ncounters;
	struct column *self_samples, *samples;		/* record --sample only */
};

static void func_columns_new(struct columns *cs, struct func_columns *fc, int base, int diff,
			     size_t ncounters, int samples, int untimed)
{
	static const char *const cself[CONTRACT_COUNTERS_MAX] = { "func.self.c1", "func.self.c2" };
	static const char *const ctotal[CONTRACT_COUNTERS_MAX] = { "func.total.c1", "func.total.c2" };

#define COL(field, name) (fc->field = column_new(cs, base ? "base.func." name : "func." name, "uvarint"))
	fc->present = NULL;
	if (diff)
		COL(present, "present");
	COL(listed, "listed");
	COL(rank, "rank");
	COL(calls, "calls");
	COL(self, "self.time");
	COL(total, "total.time");
	COL(min, "min.time");
	COL(avg, "avg.time");
	COL(max, "max.time");
	COL(sumcall, "sumcall.time");
	COL(virtual_returns, "virtual_returns");
	COL(unwound, "unwound");
	COL(cycle, "cycle");
	fc->calls_untimed = NULL;
	if (untimed)
		COL(calls_untimed, "calls_untimed");
	fc->ncounters = ncounters;
	for (size_t c = 0; c < ncounters; c++) {
		fc->cself[c] = column_new(cs, cself[c], "uvarint");
		fc->ctotal[c] = column_new(cs, ctotal[c], "uvarint");
	}
	fc->unreliable = ncounters ? column_new(cs, "func.counters_unreliable", "uvarint") : NULL;
	fc->self_samples = fc->samples = NULL;
	if (samples) {
		COL(self_samples, "self.samples");
		COL(samples, "total.samples");
	}
#undef COL
}

static void func_columns_put(struct func_columns *fc, const struct func *f, uint32_t rank,
			     uint32_t unranked)
{
	static const struct func zero;

	if (fc->present)
		put_u(fc->present, f != NULL);
	if (!f)
		f = &zero;
	put_u(fc->listed, flat_func_listed(f));
	put_u(fc->rank, f == &zero ? unranked : rank);
	put_u(fc->calls, f->calls);
	put_u(fc->self, f->self_ns);
	put_u(fc->total, f->total_ns);
	put_u(fc->min, f->calls ? f->min_ns : 0);
	put_u(fc->avg, f->calls ? f->sum_call_ns / f->calls : 0);
	put_u(fc->max, f->max_ns);
	put_u(fc->sumcall, f->sum_call_ns);
	put_u(fc->virtual_returns, f->virtual_returns);
	put_u(fc->unwound, f->unwound);
	put_u(fc->cycle, (uint64_t)(f->cycle > 0 ? f->cycle : 0));
	if (fc->calls_untimed)
		put_u(fc->calls_untimed, (uint64_t)!func_calls_timed(f));
	for (size_t c = 0; c < fc->ncounters; c++) {
		put_u(fc->cself[c], f->counter_self[c]);
		put_u(fc->ctotal[c], f->counter_total[c]);
	}
	if (fc->unreliable)
		put_u(fc->unreliable, (uint64_t)f->counters_unreliable);
	if (fc->samples) {
		put_u(fc->self_samples, f->self_samples);
		put_u(fc->samples, f->samples);
	}
}

static size_t object_index(const char ***objects, size_t *n, size_t *alloc, const char *obj)
{
	for (size_t i = *n; i-- > 0;)
		if (!strcmp((*objects)[i], obj))
			return i;
	ALLOC_GROW(*objects, *n + 1, *alloc);
	(*objects)[*n] = obj;
	return (*n)++;
}

static void build_functions(const struct html_input *in, struct columns *cs)
{
	const struct html_diff *d = in->diff;
	size_t nf = d ? d->names->nfuncs : in->prof->nfuncs;
	struct column *names = column_new(cs, "func.name", "strings");
	struct column *objs = column_new(cs, "func.object", "uvarint");
	struct func_columns cur, base;
	const char **objects = NULL;
	size_t nobjects = 0, objects_alloc = 0;
	uint32_t *cur_rank = flat_ranks(in->prof);
	uint32_t *base_rank = d ? flat_ranks(in->base) : NULL;

	func_columns_new(cs, &cur, 0, d != NULL, html_counters(in), html_samples(in),
			 profile_has_untimed_calls(in->prof));
	if (d)
		func_columns_new(cs, &base, 1, 1, 0, html_samples(in),
				 profile_has_untimed_calls(in->base));
	for (size_t u = 0; u < nf; u++) {
		uint32_t ci = d ? d->cur_func[u] : (uint32_t)u;
		uint32_t bi = d ? d->base_func[u] : NONE;
		const struct func *cf = ci == NONE ? NULL : d ? &d->cur_funcs[u] : &in->prof->funcs[ci];
		const struct func *bf = bi == NONE ? NULL : &d->base_funcs[u];
		const struct func *any = cf ? cf : bf;

		put_str(names, any->name);
		put_u(objs, object_index(&objects, &nobjects, &objects_alloc, any->object));
		func_columns_put(&cur, cf, cf ? cur_rank[ci] : 0, (uint32_t)in->prof->nfuncs);
		if (d)
			func_columns_put(&base, bf, bf ? base_rank[bi] : 0,
					 (uint32_t)in->base->nfuncs);
	}
	struct column *ob = column_new(cs, "objects", "strings");
	for (size_t i = 0; i < nobjects; i++)
		put_str(ob, objects[i]);
	free(objects);
	free(cur_rank);
	free(base_rank);
}

/* html --static: the calls in the code that never ran, by function. */
static void build_static_arcs(const struct html_input *in, struct columns *cs)
{
	if (!in->static_arcs || in->diff)
		return;
	struct column *from = column_new(cs, "static.caller", "uvarint");
	struct column *to = column_new(cs, "static.callee", "uvarint");
	struct column *tail = column_new(cs, "static.tail", "uvarint");
	for (size_t i = 0; i < in->prof->narcs; i++) {
		const struct arc *a = &in->prof->arcs[i];
		if (a->count || a->caller == FUNC_NONE)
			continue;
		put_u(from, a->caller);
		put_u(to, a->callee);
		put_u(tail, (uint64_t)a->static_tail);
	}
}

/* The smallest total a call path needs to be kept under MAX_NODES. */
static uint64_t node_threshold(const struct html_tree *t, size_t max_nodes)
{
	size_t n = t->nnodes - 1;

	if (n <= max_nodes)
		return 0;
	if (!max_nodes)
		return UINT64_MAX;
	uint64_t *v = xmalloc(n * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = html_node_weight(t, &t->nodes[i + 1]);
	uint64_t d = html_nth_largest(v, n, max_nodes);
	size_t at_least = 0;
	for (size_t i = 1; i < t->nnodes; i++)
		at_least += html_node_weight(t, &t->nodes[i]) >= d;
	free(v);
	/* Keep all call paths of the cut's total or none (then at most
	 * MAX_NODES are kept, and always a prefix of each node's children,
	 * which come heaviest first). */
	return at_least > max_nodes ? d + 1 : d;
}

struct node_columns {
	struct column *depth, *func, *cut;
	struct column *time, *calls, *samples, *counter[CONTRACT_COUNTERS_MAX];	/* absent: NULL */
	struct column *base_time, *base_calls, *base_samples;	/* with --base */
};

/* What one node of the page carries: its own (self) values, or a cut
 * node's sums over the subtrees it folds. */
struct node_values {
	uint64_t time, calls, samples, counter[CONTRACT_COUNTERS_MAX];
	uint64_t base_time, base_calls, base_samples;
};

/* Sums over each subtree, for folding cut subtrees into one node. */
struct subtree_sums {
	struct node_values *v;
	uint64_t *size;
};

/* The values of node I of T (of the diff D, if any) itself. */
static struct node_values node_self(const struct html_tree *t, const struct html_diff *d,
				    size_t i)
{
	const struct html_node *n = &t->nodes[i];
	struct node_values v = { n->self_ns, n->calls, n->self_samples, { 0 },
				 d ? d->base_self_ns[i] : 0, d ? d->base_calls[i] : 0,
				 d ? d->base_self_samples[i] : 0 };

	memcpy(v.counter, n->counter_self, sizeof(v.counter));
	return v;
}

static void values_add(struct node_values *into, const struct node_values *v)
{
	into->time += v->time;
	into->calls += v->calls;
	into->samples += v->samples;
	into->counter[0] += v->counter[0];
	into->counter[1] += v->counter[1];
	into->base_time += v->base_time;
	into->base_calls += v->base_calls;
	into->base_samples += v->base_samples;
}

static void subtree_sums_init(struct subtree_sums *s, const struct html_tree *t,
			      const struct html_diff *d)
{
	s->v = xcalloc(t->nnodes, sizeof(*s->v));
	s->size = xcalloc(t->nnodes, sizeof(*s->size));
	/* A node's parent was created before it: one backward pass sums. */
	for (size_t i = t->nnodes; i-- > 1;) {
		uint32_t p = t->nodes[i].parent;
		struct node_values own = node_self(t, d, i);
		values_add(&s->v[i], &own);
		values_add(&s->v[p], &s->v[i]);
		s->size[i] += 1;
		s->size[p] += s->size[i];
	}
}

static void subtree_sums_release(struct subtree_sums *s)
{
	free(s->v);
	free(s->size);
}

static void put_opt(struct column *c, uint64_t v)
{
	if (c)
		put_u(c, v);
}

static void put_node(struct node_columns *nc, uint32_t depth_delta, uint32_t func,
		     const struct node_values *v)
{
	put_u(nc->depth, depth_delta);
	put_u(nc->func, func);
	put_u(nc->time, v->time);
	put_u(nc->calls, v->calls);
	put_opt(nc->samples, v->samples);
	put_opt(nc->counter[0], v->counter[0]);
	put_opt(nc->counter[1], v->counter[1]);
	put_opt(nc->base_time, v->base_time);
	put_opt(nc->base_calls, v->base_calls);
	put_opt(nc->base_samples, v->base_samples);
}

/*
 * The tree in preorder without the root (node 1 is its first child).
 * depth delta = previous depth + 1 - depth: 0 for a first child.  Cut
 * subtrees of one parent become one node of function number nfuncs,
 * after its kept children, whose "cut" entry counts the call paths in it.
 * Fills NEWID (old node -> preorder number, NONE if cut).
 */
static void build_nodes(const struct html_input *in, const struct html_tree *t,
			uint64_t min_total, struct columns *cs, uint32_t *newid,
			struct html_cuts *cuts)
{
	const struct html_diff *d = in->diff;
	uint32_t cut_func = (uint32_t)(d ? d->names->nfuncs : in->prof->nfuncs);
	int samples = html_samples(in);
	static const char *const counter_cols[CONTRACT_COUNTERS_MAX] = { "node.self.c1", "node.self.c2" };
	struct node_columns nc;

	memset(&nc, 0, sizeof(nc));
	nc.depth = column_new(cs, "node.depth", "uvarint");
	nc.func = column_new(cs, "node.func", "uvarint");
	nc.time = column_new(cs, "node.self.time", "uvarint");
	nc.calls = column_new(cs, "node.self.calls", "uvarint");
	if (d) {
		nc.base_time = column_new(cs, "base.node.self.time", "uvarint");
		nc.base_calls = column_new(cs, "base.node.self.calls", "uvarint");
	}
	nc.cut = column_new(cs, "node.cut", "uvarint");
	for (size_t c = 0; c < html_counters(in); c++)
		nc.counter[c] = column_new(cs, counter_cols[c], "uvarint");
	if (samples)
		nc.samples = column_new(cs, "node.self.samples", "uvarint");
	if (samples && d)
		nc.base_samples = column_new(cs, "base.node.self.samples", "uvarint");

	struct subtree_sums sums;
	struct { uint32_t node, child; } *stack = NULL;
	size_t sp = 0, stack_alloc = 0;
	uint32_t prev_depth = 0, next_id = 1;

	subtree_sums_init(&sums, t, d);
	for (size_t i = 0; i < t->nnodes; i++)
		newid[i] = NONE;
	newid[HTML_NODE_ROOT] = 0;
	ALLOC_GROW(stack, 1, stack_alloc);
	stack[sp].node = HTML_NODE_ROOT;
	stack[sp++].child = t->nodes[HTML_NODE_ROOT].first_child;
	while (sp) {
		uint32_t c = stack[sp - 1].child;
		uint32_t depth = (uint32_t)sp;	/* of a child of the top */
		if (c != NONE && html_node_weight(t, &t->nodes[c]) >= min_total) {
			const struct html_node *n = &t->nodes[c];
			struct node_values own = node_self(t, d, c);
			stack[sp - 1].child = n->next_sibling;
			put_node(&nc, prev_depth + 1 - depth, n->func, &own);
			prev_depth = depth;
			newid[c] = next_id++;
			ALLOC_GROW(stack, sp + 1, stack_alloc);
			stack[sp].node = c;
			stack[sp++].child = n->first_child;
			continue;
		}
		if (c != NONE) {
			struct node_values all;
			uint64_t size = 0;
			memset(&all, 0, sizeof(all));
			for (; c != NONE; c = t->nodes[c].next_sibling) {
				values_add(&all, &sums.v[c]);
				size += sums.size[c];
			}
			put_node(&nc, prev_depth + 1 - depth, cut_func, &all);
			put_u(nc.cut, size);
			prev_depth = depth;
			next_id++;
			cuts->nodes_cut += size;
		}
		sp--;
	}
	cuts->nodes_kept = next_id - 1 - nc.cut->count;
	free(stack);
	subtree_sums_release(&sums);
}

/* Samples per source line, and the hot lines' text (report/html_lines.h). */
static void build_lines(const struct html_input *in, struct columns *cs)
{
	const struct html_lines *l = in->lines;

	if (!l || !l->nrows)
		return;
	struct column *file = column_new(cs, "line.file", "uvarint");
	struct column *line = column_new(cs, "line.line", "uvarint");
	struct column *func = column_new(cs, "line.func", "uvarint");
	struct column *weight = column_new(cs, "line.weight", "uvarint");
	for (size_t i = 0; i < l->nrows; i++) {
		put_u(file, l->rows[i].file);
		put_u(line, l->rows[i].line);
		put_u(func, l->rows[i].func);
		put_u(weight, l->rows[i].weight);
	}
	struct column *files = column_new(cs, "files", "strings");
	for (size_t i = 0; i < l->nfiles; i++)
		put_str(files, l->files[i]);
	struct column *sfile = column_new(cs, "src.file", "uvarint");
	struct column *sline = column_new(cs, "src.line", "uvarint");
	struct column *stext = column_new(cs, "src.text", "strings");
	for (size_t i = 0; i < l->nsource; i++) {
		put_u(sfile, l->source[i].file);
		put_u(sline, l->source[i].line);
		put_str(stext, l->source[i].text);
	}
}

/* The timeline of each thread: start as a delta from the previous call's,
 * duration, node as a signed delta from the previous call's. */
static void build_timeline(const struct html_tree *t, const uint32_t *newid,
			   struct columns *cs, uint64_t *per_thread, struct html_cuts *cuts)
{
	struct column *start = column_new(cs, "tl.start", "uvarint");
	struct column *dur = column_new(cs, "tl.dur", "uvarint");
	struct column *node = column_new(cs, "tl.node", "svarint");
	uint32_t thread = NONE;
	uint64_t prev_start = 0;
	int64_t prev_node = 0;

	for (size_t i = 0; i < t->ncalls; i++) {
		const struct html_call *c = &t->calls[i];
		if (newid[c->node] == NONE) {
			cuts->calls_dropped++;
			continue;
		}
		if (c->thread != thread) {
			thread = c->thread;
			prev_start = 0;
			prev_node = 0;
		}
		put_u(start, c->start_ns - prev_start);
		put_u(dur, c->end_ns - c->start_ns);
		put_s(node, (int64_t)newid[c->node] - prev_node);
		prev_start = c->start_ns;
		prev_node = newid[c->node];
		per_thread[c->thread]++;
		cuts->calls_kept++;
	}
	for (size_t i = 0; i < t->nthreads; i++)
		cuts->calls_dropped += t->threads[i].calls_dropped;
	cuts->min_call_ns = t->max_calls ? t->min_dur_ns : 0;
}

static void json_profile_summary(struct json *j, const struct profile *p, const char *title,
				 int salvaged)
{
	json_kv_string(j, "title", title);
	json_kv_u64(j, "calls", p->calls);
	json_kv_u64(j, "lost_events", p->lost_events);
	report_hooks_json(j, p);
	json_kv_u64(j, "wall_ns", p->wall_ns);
	json_kv_u64(j, "threads", p->nthreads);
	json_kv_u64(j, "samples", p->samples);
	json_kv_u64(j, "samples_lost", p->samples_lost);
	json_kv_u64(j, "samples_outside", p->samples_outside);
	json_kv_u64(j, "samples_truncated", p->samples_truncated);
	json_key(j, "salvaged");
	json_bool(j, salvaged);
}

static void json_metric(struct json *j, const char *id, const char *label, const char *unit)
{
	json_object_begin(j);
	json_kv_string(j, "id", id);
	json_kv_string(j, "label", label);
	json_kv_string(j, "unit", unit);
	json_object_end(j);
}

static void write_meta(FILE *f, const struct html_input *in, const struct html_tree *t,
		       const struct columns *cs, const uint64_t *per_thread,
		       const struct html_cuts *cuts)
{
	struct json j;

	json_init(&j, f);
	json_object_begin(&j);
	json_kv_u64(&j, "format", 1);
	json_profile_summary(&j, in->prof, in->title, in->salvaged);
	/* The metrics a node can be weighed by, in the switch's order. */
	json_key(&j, "metrics");
	json_array_begin(&j);
	/* The first metric is the one the page opens with: samples, when
	 * the run traced no call. */
	int samples_first = html_samples(in) && !in->prof->calls && !(in->diff && in->base->calls);
	if (samples_first)
		json_metric(&j, "samples", "samples", "count");
	json_metric(&j, "time", "time", "ns");
	json_metric(&j, "calls", "calls", "count");
	static const char *const ids[CONTRACT_COUNTERS_MAX] = { "c1", "c2" };
	for (size_t c = 0; c < html_counters(in); c++)
		json_metric(&j, ids[c], in->prof->counter_names[c] ? in->prof->counter_names[c] : ids[c],
			    "count");
	if (html_samples(in) && !samples_first)
		json_metric(&j, "samples", "samples", "count");
	json_array_end(&j);
	json_key(&j, "thread_list");
	json_array_begin(&j);
	for (size_t i = 0; i < t->nthreads; i++) {
		const struct html_thread *th = &t->threads[i];
		json_object_begin(&j);
		json_kv_u64(&j, "pid", th->info.pid);
		json_kv_u64(&j, "tid", th->info.tid);
		json_kv_u64(&j, "start_ns", th->info.start_ns);
		json_kv_u64(&j, "end_ns", th->info.end_ns);
		json_kv_u64(&j, "lost_events", th->info.lost_events);
		json_kv_u64(&j, "flags", th->info.flags);
		json_kv_u64(&j, "max_depth", th->max_depth);
		json_kv_u64(&j, "timeline_calls", per_thread[i]);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_key(&j, "cuts");
	json_object_begin(&j);
	json_kv_u64(&j, "nodes_kept", cuts->nodes_kept);
	json_kv_u64(&j, "nodes_cut", cuts->nodes_cut);
	json_kv_u64(&j, "min_total_ns", cuts->min_total_ns);
	/* what min_total_ns counts: paths are cut by samples in a sampled-only run */
	json_kv_string(&j, "min_total_unit", t->weigh_samples ? "samples" : "ns");
	json_kv_u64(&j, "unreadable_sources", in->lines ? in->lines->unreadable : 0);
	/* what the source view's lines weigh: samples, or traced self time */
	json_kv_string(&j, "lines_unit", in->lines && in->lines->by_time ? "ns" : "samples");
	json_kv_u64(&j, "calls_kept", cuts->calls_kept);
	json_kv_u64(&j, "calls_dropped", cuts->calls_dropped);
	json_kv_u64(&j, "min_call_ns", cuts->min_call_ns);
	json_object_end(&j);
	if (in->diff) {
		json_key(&j, "base");
		json_object_begin(&j);
		json_profile_summary(&j, in->base, in->base_title, in->base_salvaged);
		json_object_end(&j);
	}
	json_key(&j, "columns");
	json_array_begin(&j);
	for (size_t i = 0; i < cs->n; i++) {
		json_object_begin(&j);
		json_kv_string(&j, "name", cs->v[i]->name);
		json_kv_string(&j, "enc", cs->v[i]->enc);
		json_kv_u64(&j, "count", cs->v[i]->count);
		json_kv_u64(&j, "bytes", cs->v[i]->buf.len);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

void html_data_build(const struct html_input *in, const struct html_limits *lim,
		     struct html_buf *out, struct html_cuts *cuts)
{
	struct html_tree *t = in->diff ? in->diff->tree : in->tree;
	struct columns cs = { NULL, 0, 0 };
	uint32_t *newid = xmalloc(t->nnodes * sizeof(*newid));
	uint64_t *per_thread = xcalloc(t->nthreads + 1, sizeof(*per_thread));
	char *meta = NULL;
	size_t meta_len = 0;

	memset(cuts, 0, sizeof(*cuts));
	html_tree_limit_calls(t, lim->max_calls);
	build_functions(in, &cs);
	cuts->min_total_ns = node_threshold(t, lim->max_nodes);
	build_nodes(in, t, cuts->min_total_ns, &cs, newid, cuts);
	build_timeline(t, newid, &cs, per_thread, cuts);
	build_lines(in, &cs);
	build_static_arcs(in, &cs);

	FILE *f = open_memstream(&meta, &meta_len);
	if (!f)
		die("out of memory for the report's header");
	write_meta(f, in, t, &cs, per_thread, cuts);
	if (fclose(f) != 0)
		die("out of memory for the report's header");

	uint8_t len[4] = { (uint8_t)meta_len, (uint8_t)(meta_len >> 8),
			   (uint8_t)(meta_len >> 16), (uint8_t)(meta_len >> 24) };
	html_buf_add(out, "CSHTML1\n", 8);
	html_buf_add(out, len, 4);
	html_buf_add(out, meta, meta_len);
	for (size_t i = 0; i < cs.n; i++) {
		if (!strncmp(cs.v[i]->name, "tl.", 3))
			cuts->timeline_bytes += cs.v[i]->buf.len;
		html_buf_add(out, cs.v[i]->buf.data, cs.v[i]->buf.len);
		html_buf_release(&cs.v[i]->buf);
		free(cs.v[i]);
	}
	free(cs.v);
	free(meta);
	free(newid);
	free(per_thread);
}
