/*
 * The call-path tree, as text or JSON.  Trees can be as deep as the
 * program's recursion (100 000 levels and more), so nothing here recurses:
 * one walk with an explicit stack visits the shown nodes in order, and
 * both outputs are written from it.
 *
 * Which metrics appear, and under which names, is metric_views[] alone: a
 * recording with counters shows their columns and JSON fields with no
 * other change here.
 */
#include "report/flat.h"
#include "report/tree.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report/legend.h"
#include "report/units.h"
#include "xalloc.h"

/* How a metric is shown: --sort and JSON keys, text headings. */
struct metric_view {
	const char *self_key;	/* --sort name of the self value */
	const char *total_key;	/* --sort name of the total */
	const char *self_json;
	const char *total_json;
	const char *self_head;
	const char *total_head;
	int is_time;		/* nanoseconds, shown as durations */
};

static const struct metric_view metric_views[CCT_NMETRICS] = {
	[CCT_TIME] = { "self", "total", "self_ns", "total_ns", "self", "total", 1 },
	[CCT_C1] = { "c1", "c1_total", "c1", "c1_total", "c1", "c1+children", 0 },
	[CCT_C2] = { "c2", "c2_total", "c2", "c2_total", "c2", "c2+children", 0 },
	[CCT_SAMPLES] = { "self_samples", "samples", "self_samples", "samples", "samples",
			  "samples+children", 0 },
};

#define INDENT_MAX 40		/* levels indented; deeper ones show [depth] */
#define TIME_WIDTH 12
#define COUNT_WIDTH 14

int tree_sort_parse(const char *s, struct tree_sort *out)
{
	memset(out, 0, sizeof(*out));
	if (!strcmp(s, "calls")) {
		out->kind = TREE_SORT_CALLS;
		return 0;
	}
	if (!strcmp(s, "name")) {
		out->kind = TREE_SORT_NAME;
		return 0;
	}
	for (int m = 0; m < CCT_NMETRICS; m++) {
		if (!strcmp(s, metric_views[m].self_key) || !strcmp(s, metric_views[m].total_key)) {
			out->kind = TREE_SORT_METRIC;
			out->metric = (enum cct_metric)m;
			out->total = !strcmp(s, metric_views[m].total_key);
			return 0;
		}
	}
	return -1;
}

const char *tree_sort_names(void)
{
	return "total, self, calls, name, c1, c1_total, c2, c2_total, self_samples or samples";
}

static const char *node_name(const struct cct *t, const struct profile *names, uint32_t id)
{
	uint32_t fn = t->nodes[id].func;
	return fn == FUNC_NONE ? "<root>" : names->funcs[fn].name;
}

struct sort_ctx {
	const struct cct *t;
	const struct profile *names;
	struct tree_sort sort;
};

static uint64_t sort_value(const struct sort_ctx *c, const struct cct_node *n)
{
	if (c->sort.kind == TREE_SORT_CALLS)
		return n->calls;
	return c->sort.total ? n->total[c->sort.metric] : n->self[c->sort.metric];
}

/* Descending by the column, then by total time, then by name and
 * object, so equal trees print equally. */
static int compare_nodes(const void *a, const void *b, void *ctx)
{
	const struct sort_ctx *c = ctx;
	uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;
	const struct cct_node *na = &c->t->nodes[ia], *nb = &c->t->nodes[ib];
	int r;

	if (c->sort.kind != TREE_SORT_NAME) {
		uint64_t va = sort_value(c, na), vb = sort_value(c, nb);
		if (va != vb)
			return va < vb ? 1 : -1;
		if (na->total[CCT_TIME] != nb->total[CCT_TIME])
			return na->total[CCT_TIME] < nb->total[CCT_TIME] ? 1 : -1;
	}
	r = strcmp(node_name(c->t, c->names, ia), node_name(c->t, c->names, ib));
	if (r)
		return r;
	if (na->func != FUNC_NONE && nb->func != FUNC_NONE) {
		r = strcmp(c->names->funcs[na->func].object, c->names->funcs[nb->func].object);
		if (r)
			return r;
	}
	return ia < ib ? -1 : ia > ib;
}

/* What the walk shows and what it hid. */
struct walk {
	const struct cct *t;
	const struct profile *names;
	const struct tree_options *o;
	struct sort_ctx sort;
	/* what "% root" and --threshold measure: time where calls were
	 * traced, else timer samples; and whether time columns are shown */
	enum cct_metric share;
	int timed;
	uint64_t root_total;
	uint64_t hidden_threshold;	/* nodes below the threshold */
	uint64_t hidden_depth;		/* other nodes deeper than --depth */
	struct legend legend;		/* the tags the text printed */
};

static int below_threshold(const struct walk *w, const struct cct_node *n)
{
	return w->o->threshold_pct > 0 &&
	       (double)n->total[w->share] * 100.0 < w->o->threshold_pct * (double)w->root_total;
}

/* Counts every node hidden, each under the first reason that applies. */
static void count_hidden(struct walk *w)
{
	for (size_t i = 1; i < w->t->nnodes; i++) {
		const struct cct_node *n = &w->t->nodes[i];
		if (below_threshold(w, n))
			w->hidden_threshold++;
		else if (w->o->depth >= 0 && n->depth > (uint64_t)w->o->depth)
			w->hidden_depth++;
	}
}

/* Returns a malloc'd array of NODE's shown children in report order;
 * *N gets its length. */
static uint32_t *shown_children(struct walk *w, uint32_t node, size_t *n)
{
	const struct cct_node *p = &w->t->nodes[node];
	uint32_t *kids = NULL;
	size_t alloc = 0;

	*n = 0;
	if (w->o->depth >= 0 && p->depth >= (uint64_t)w->o->depth)
		return NULL;
	for (uint32_t c = p->first_child; c != CCT_NONE; c = w->t->nodes[c].next_sibling) {
		if (below_threshold(w, &w->t->nodes[c]))
			continue;
		ALLOC_GROW(kids, *n + 1, alloc);
		kids[(*n)++] = c;
	}
	if (*n > 1)
		qsort_r(kids, *n, sizeof(*kids), compare_nodes, &w->sort);
	return kids;
}

struct walk_frame {
	uint32_t node;
	uint32_t *kids;
	size_t nkids, next;
};

/*
 * Visits the shown nodes depth first in report order: ENTER(node, index
 * among its shown siblings) before its children, LEAVE(node) after.
 */
static void walk_tree(struct walk *w, void (*enter)(struct walk *, uint32_t, size_t),
		      void (*leave)(struct walk *, uint32_t))
{
	struct walk_frame *stack = NULL;
	size_t depth = 0, alloc = 0;

	enter(w, CCT_ROOT, 0);
	ALLOC_GROW(stack, 1, alloc);
	stack[0].node = CCT_ROOT;
	stack[0].next = 0;
	stack[0].kids = shown_children(w, CCT_ROOT, &stack[0].nkids);
	depth = 1;
	while (depth) {
		struct walk_frame *f = &stack[depth - 1];
		if (f->next == f->nkids) {
			leave(w, f->node);
			free(f->kids);
			depth--;
			continue;
		}
		size_t index = f->next++;
		uint32_t child = f->kids[index];
		enter(w, child, index);
		ALLOC_GROW(stack, depth + 1, alloc);
		f = &stack[depth++];
		f->node = child;
		f->next = 0;
		f->kids = shown_children(w, child, &f->nkids);
	}
	free(stack);
}

static FILE *walk_out;	/* where enter/leave write */

static double pct_of_root(const struct walk *w, const struct cct_node *n)
{
	return w->root_total ? 100.0 * (double)n->total[w->share] / (double)w->root_total : 0;
}

/* Whether the tree shows counters and N's function's counts are only
 * estimates (a counter time-shared, or a hook's reading taken while a
 * signal handler interrupted it): the reports show these as doubtful. */
static int counters_doubtful(const struct walk *w, const struct cct_node *n)
{
	return n->func != FUNC_NONE && w->names->funcs[n->func].counters_unreliable &&
	       (cct_has_metric(w->t, CCT_C1) || cct_has_metric(w->t, CCT_C2));
}

/* Whether the report has columns for M: a sampled run without traced
 * calls has no time to show. */
static int metric_shown(const struct walk *w, enum cct_metric m)
{
	return cct_has_metric(w->t, m) && (m != CCT_TIME || w->timed);
}

static void print_value(FILE *out, int is_time, uint64_t v)
{
	char buf[DURATION_BUF];

	if (is_time)
		fprintf(out, " %*s", TIME_WIDTH, format_duration(buf, (double)v));
	else
		fprintf(out, " %*llu", COUNT_WIDTH, (unsigned long long)v);
}

static void text_enter(struct walk *w, uint32_t id, size_t index)
{
	const struct cct_node *n = &w->t->nodes[id];
	unsigned indent = n->depth < INDENT_MAX ? n->depth : INDENT_MAX;

	(void)index;
	fprintf(walk_out, "%7.2f", pct_of_root(w, n));
	if (w->timed)
		fprintf(walk_out, " %10llu", (unsigned long long)n->calls);
	for (int m = 0; m < CCT_NMETRICS; m++) {
		if (!metric_shown(w, (enum cct_metric)m))
			continue;
		print_value(walk_out, metric_views[m].is_time, n->self[m]);
		print_value(walk_out, metric_views[m].is_time, n->total[m]);
	}
	fprintf(walk_out, "  %*s", (int)indent * 2, "");
	if (n->depth > INDENT_MAX)
		fprintf(walk_out, "[%u] ", n->depth);
	fprintf(walk_out, "%s%s%s\n", node_name(w->t, w->names, id),
		legend_use(&w->legend, n->virtual_returns ? TAG_RUNNING
							  : exit_tag(n->unwound, n->thrown)),
		legend_use(&w->legend, counters_doubtful(w, n) ? TAG_COUNTERS : ""));
}

static void text_leave(struct walk *w, uint32_t id)
{
	(void)w;
	(void)id;
}

static void print_text(FILE *out, struct walk *w)
{
	const struct profile *p = w->names;
	char a[DURATION_BUF];

	fprintf(out, "# call-path tree: %llu calls", (unsigned long long)p->calls);
	if (p->samples)
		fprintf(out, " and %llu samples", (unsigned long long)p->samples);
	fprintf(out, " in %zu thread%s; lost events: %llu", p->nthreads,
		p->nthreads == 1 ? "" : "s", (unsigned long long)p->lost_events);
	if (p->samples)
		fprintf(out, "; lost samples: %llu", (unsigned long long)p->samples_lost);
	if (p->overwritten_events)
		fprintf(out, "; overwritten by the ring: %llu",
			(unsigned long long)p->overwritten_events);
	fputc('\n', out);
	report_hooks_line(out, p, "# ");
	report_waiting_line(out, p, "# ");
	if (w->o->focus)
		fprintf(out, "# focus: %s (its outermost calls; calls of it inside them are "
			     "nested nodes)\n", w->o->focus);
	if (w->share == CCT_SAMPLES)
		fprintf(out, "# 100%% = %llu samples, the root's total\n#\n",
			(unsigned long long)w->root_total);
	else
		fprintf(out, "# 100%% = %s, the root's total\n#\n",
			format_duration(a, (double)w->root_total));
	fprintf(out, "%7s", "% root");
	if (w->timed)
		fprintf(out, " %10s", "calls");
	for (int m = 0; m < CCT_NMETRICS; m++) {
		if (!metric_shown(w, (enum cct_metric)m))
			continue;
		int width = metric_views[m].is_time ? TIME_WIDTH : COUNT_WIDTH;
		fprintf(out, " %*s %*s", width, metric_views[m].self_head, width,
			metric_views[m].total_head);
	}
	fprintf(out, "  call path\n");
	walk_out = out;
	walk_tree(w, text_enter, text_leave);

	if (w->o->threshold_pct > 0 || w->o->depth >= 0)
		fprintf(out, "#\n");
	if (w->o->threshold_pct > 0)
		fprintf(out, "# %llu call path%s below %.2f%% of the root hidden (--threshold)\n",
			(unsigned long long)w->hidden_threshold,
			w->hidden_threshold == 1 ? "" : "s", w->o->threshold_pct);
	if (w->o->depth >= 0)
		fprintf(out, "# %llu call path%s deeper than %ld hidden (--depth)\n",
			(unsigned long long)w->hidden_depth, w->hidden_depth == 1 ? "" : "s",
			w->o->depth);
	legend_print(out, &w->legend);
}

/* Strings and doubles through the JSON writer, for its escaping; the
 * nesting is written here, as lib/json.h bounds its depth. */
static void put_string(FILE *out, const char *s)
{
	struct json j;
	json_init(&j, out);
	json_string(&j, s);
}

static void put_double(FILE *out, double v)
{
	struct json j;
	json_init(&j, out);
	json_double(&j, v);
}

static void json_enter(struct walk *w, uint32_t id, size_t index)
{
	const struct cct_node *n = &w->t->nodes[id];
	FILE *out = walk_out;

	fputs(index ? ",{\"name\":" : "{\"name\":", out);
	put_string(out, node_name(w->t, w->names, id));
	if (n->func != FUNC_NONE) {
		fputs(",\"object\":", out);
		put_string(out, w->names->funcs[n->func].object);
	}
	fprintf(out, ",\"calls\":%llu", (unsigned long long)n->calls);
	for (int m = 0; m < CCT_NMETRICS; m++) {
		if (!cct_has_metric(w->t, (enum cct_metric)m))
			continue;
		fprintf(out, ",\"%s\":%llu,\"%s\":%llu", metric_views[m].self_json,
			(unsigned long long)n->self[m], metric_views[m].total_json,
			(unsigned long long)n->total[m]);
	}
	fputs(",\"pct\":", out);
	put_double(out, pct_of_root(w, n));
	if (n->virtual_returns)
		fprintf(out, ",\"virtual_returns\":%llu", (unsigned long long)n->virtual_returns);
	if (n->unwound)
		fprintf(out, ",\"unwound\":%llu", (unsigned long long)n->unwound);
	if (n->thrown)
		fprintf(out, ",\"thrown\":%llu", (unsigned long long)n->thrown);
	if (counters_doubtful(w, n))
		fputs(",\"counters_possibly_incorrect\":true", out);
	fputs(",\"children\":[", out);
}

static void json_leave(struct walk *w, uint32_t id)
{
	(void)w;
	(void)id;
	fputs("]}", walk_out);
}

static void sort_name(char *buf, size_t size, const struct tree_sort *s)
{
	const struct metric_view *v = &metric_views[s->metric];

	snprintf(buf, size, "%s", s->kind == TREE_SORT_CALLS ? "calls"
				  : s->kind == TREE_SORT_NAME ? "name"
				  : s->total ? v->total_key : v->self_key);
}

static void print_json(FILE *out, struct walk *w)
{
	const struct profile *p = w->names;
	char sort[32];

	sort_name(sort, sizeof(sort), &w->o->sort);
	fprintf(out, "{\"lost_events\":%llu,\"overwritten_events\":%llu,\"calls\":%llu,"
		"\"samples\":%llu,\"lost_samples\":%llu,\"threads\":%zu",
		(unsigned long long)p->lost_events, (unsigned long long)p->overwritten_events,
		(unsigned long long)p->calls, (unsigned long long)p->samples,
		(unsigned long long)p->samples_lost, p->nthreads);
	fputs(",\"overhead_ns_per_call\":", out);
	put_double(out, p->overhead_per_call_ns);
	fprintf(out, ",\"overhead_ns\":%llu,\"focus\":", (unsigned long long)p->overhead_ns);
	put_string(out, w->o->focus);
	fputs(",\"sort\":", out);
	put_string(out, sort);
	fputs(",\"threshold_pct\":", out);
	put_double(out, w->o->threshold_pct);
	if (w->o->depth >= 0)
		fprintf(out, ",\"depth\":%ld", w->o->depth);
	else
		fputs(",\"depth\":null", out);
	fprintf(out, ",\"hidden_below_threshold\":%llu,\"hidden_below_depth\":%llu",
		(unsigned long long)w->hidden_threshold, (unsigned long long)w->hidden_depth);
	fputs(",\"tree\":", out);
	walk_out = out;
	walk_tree(w, json_enter, json_leave);
	fputs("}\n", out);
}

void report_tree(FILE *out, const struct cct *t, const struct profile *names,
		 const struct tree_options *o)
{
	const struct cct_node *root = &t->nodes[CCT_ROOT];
	struct walk w = { t, names, o, { t, names, o->sort }, CCT_TIME, 1, 0, 0, 0 };

	/* a tree of samples alone is measured, and sorted by default, in
	 * samples: its time is all zero */
	if (!t->calls && !root->total[CCT_TIME] && cct_has_metric(t, CCT_SAMPLES)) {
		w.share = CCT_SAMPLES;
		w.timed = 0;
		if (w.sort.sort.kind == TREE_SORT_METRIC && w.sort.sort.metric == CCT_TIME)
			w.sort.sort.metric = CCT_SAMPLES;
	}
	w.root_total = root->total[w.share];
	count_hidden(&w);
	if (!o->json && !root->total[w.share] && !t->calls)
		fprintf(out, "# nothing to show: no call was traced and no timer sample taken in "
			"the threads chosen\n");
	if (o->json)
		print_json(out, &w);
	else
		print_text(out, &w);
}
