/*
 * The call graph, laid out as gprof lays it out (binutils gprof/cg_print.c,
 * described in docs/gprof.md) so that people and scripts used to
 * gprof can read it, but with the numbers of a trace.
 *
 * gprof knows only call counts and a histogram, so it hands a callee's time
 * to its callers in proportion to the calls they made.  Here every arc
 * carries the exact self and descendant time of the calls it stands for
 * (model/profile.h), so the parent and child lines print those; no time is
 * estimated anywhere.  What stays from gprof is the shape:
 *
 *   - an entry per function and per cycle, sorted by self + children;
 *   - a function's callers above its primary line, its callees below;
 *   - self-recursive calls apart, as "calls+selfcalls";
 *   - a cycle is one entry, "<cycle N as a whole>", listing its members;
 *     inside a cycle nothing is propagated: a member's "children" is the
 *     time of its calls to functions outside the cycle, and arcs between
 *     members show counts only.
 *
 * A recording of timer samples alone (no traced call) has its graph in
 * samples: each function's self and children are its samples innermost
 * and below it, each arc's those of the callee under that caller on the
 * sampled stacks (struct sample_arc), and no call counts.  A recording of
 * both has the graph of its calls, then that of its samples.
 */
#include "report/graph.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "json.h"
#include "model/samples.h"
#include "xalloc.h"

#define SEPARATOR "-----------------------------------------------\n"
#define INDEX_COLUMN_WIDTH 26	/* gprof's (80 - 1) / 3 */

/* What the report shows of one function, derived from its arcs. */
struct func_view {
	uint64_t calls;		/* from other functions, or spontaneous */
	uint64_t self_calls;	/* from itself */
	uint64_t children_ns;	/* in callees that are neither it nor in its cycle */
	size_t index;		/* its [index], 0 when the function is omitted */
};

/* One numbered entry of the report: a function or a cycle as a whole. */
struct entry {
	int is_cycle;
	uint32_t id;		/* function index, or cycle number - 1 */
	uint64_t self_ns;
	uint64_t children_ns;
	uint64_t calls;
	uint64_t self_calls;
};

/* Arc indices grouped by one end: row F is ids[off[F]] .. ids[off[F+1]-1]. */
struct arc_rows {
	size_t *off;
	uint32_t *ids;
};

struct graph {
	const struct profile *p;
	struct func_view *fv;
	size_t *cycle_index;		/* [index] of cycle number - 1 */
	struct entry *entries;
	size_t nentries;
	struct arc_rows parents;	/* by callee */
	struct arc_rows children;	/* by caller; spontaneous arcs left out */
	uint64_t root_ns;		/* 100%: see graph_build() */
	const char *unit;
	double unit_ns;
	int in_samples;			/* the numbers are samples, not ns */
};

static int same_cycle(const struct profile *p, uint32_t caller, uint32_t callee)
{
	if (caller == FUNC_NONE)
		return 0;
	int c = p->funcs[caller].cycle;
	return c && c == p->funcs[callee].cycle;
}

/* Arcs whose lines show times: not a self call, not between members of
 * one cycle. */
static int arc_has_times(const struct profile *p, const struct arc *a)
{
	return a->caller != a->callee && !same_cycle(p, a->caller, a->callee);
}

static void rows_build(struct arc_rows *r, const struct profile *p, int by_callee)
{
	size_t n = p->nfuncs;

	r->off = xcalloc(n + 1, sizeof(*r->off));
	for (size_t i = 0; i < p->narcs; i++) {
		uint32_t f = by_callee ? p->arcs[i].callee : p->arcs[i].caller;
		if (f != FUNC_NONE)
			r->off[f + 1]++;
	}
	for (size_t f = 0; f < n; f++)
		r->off[f + 1] += r->off[f];
	r->ids = xmalloc(r->off[n] * sizeof(*r->ids));

	size_t *fill = xmalloc((n ? n : 1) * sizeof(*fill));
	memcpy(fill, r->off, n * sizeof(*fill));
	for (size_t i = 0; i < p->narcs; i++) {
		uint32_t f = by_callee ? p->arcs[i].callee : p->arcs[i].caller;
		if (f != FUNC_NONE)
			r->ids[fill[f]++] = (uint32_t)i;
	}
	free(fill);
}

static void rows_release(struct arc_rows *r)
{
	free(r->off);
	free(r->ids);
}

/* The comparators below are qsort_r()'s; their context is the graph. */

static const char *caller_name(const struct profile *p, uint32_t caller)
{
	return caller == FUNC_NONE ? "<spontaneous>" : p->funcs[caller].name;
}

/*
 * gprof's cmp_arc(): a self call is least, then calls within a cycle by
 * count, then the others by time, then count.
 */
static int arc_rank(const struct profile *p, const struct arc *a, const struct arc *b)
{
	int ka = a->caller == a->callee ? 0 : same_cycle(p, a->caller, a->callee) ? 1 : 2;
	int kb = b->caller == b->callee ? 0 : same_cycle(p, b->caller, b->callee) ? 1 : 2;

	if (ka != kb)
		return ka < kb ? -1 : 1;
	if (ka == 2) {
		uint64_t ta = a->self_ns + a->child_ns, tb = b->self_ns + b->child_ns;
		if (ta != tb)
			return ta < tb ? -1 : 1;
	}
	if (a->count != b->count)
		return a->count < b->count ? -1 : 1;
	return 0;
}

/* Parents print in ascending rank, the heaviest next to the primary line;
 * ties by the caller's name, for output that does not depend on the order
 * the arcs were met in. */
static int cmp_parent(const void *l, const void *r, void *graph)
{
	const struct profile *p = ((const struct graph *)graph)->p;
	const struct arc *a = &p->arcs[*(const uint32_t *)l];
	const struct arc *b = &p->arcs[*(const uint32_t *)r];
	int c = arc_rank(p, a, b);

	if (!c)
		c = strcmp(caller_name(p, a->caller), caller_name(p, b->caller));
	if (!c)
		c = a->caller < b->caller ? -1 : a->caller > b->caller;
	return c;
}

/* Children print in descending rank, the heaviest next to the primary line. */
static int cmp_child(const void *l, const void *r, void *graph)
{
	const struct profile *p = ((const struct graph *)graph)->p;
	const struct arc *a = &p->arcs[*(const uint32_t *)l];
	const struct arc *b = &p->arcs[*(const uint32_t *)r];
	int c = -arc_rank(p, a, b);

	if (!c)
		c = strcmp(p->funcs[a->callee].name, p->funcs[b->callee].name);
	if (!c)
		c = a->callee < b->callee ? -1 : a->callee > b->callee;
	return c;
}

static const char *entry_name(const struct profile *p, const struct entry *e)
{
	return e->is_cycle ? "" : p->funcs[e->id].name;
}

/* gprof's cmp_total(): self + children descending, a cycle before a
 * function, more calls first, then by name. */
static int cmp_entry(const void *l, const void *r, void *graph)
{
	const struct entry *a = l, *b = r;
	const struct profile *p = ((const struct graph *)graph)->p;
	uint64_t ta = a->self_ns + a->children_ns, tb = b->self_ns + b->children_ns;
	int c;

	if (ta != tb)
		return ta > tb ? -1 : 1;
	if (a->is_cycle != b->is_cycle)
		return a->is_cycle ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	if ((c = strcmp(entry_name(p, a), entry_name(p, b))))
		return c;
	if (!a->is_cycle && (c = strcmp(p->funcs[a->id].object, p->funcs[b->id].object)))
		return c;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* gprof's cmp_member(): self + children descending, then calls; ties keep
 * the address order of p->cycles. */
static int cmp_member(const void *l, const void *r, const struct graph *g)
{
	const struct func_view *fv = g->fv;
	const struct profile *p = g->p;
	uint32_t a = *(const uint32_t *)l, b = *(const uint32_t *)r;
	uint64_t ta = p->funcs[a].self_ns + fv[a].children_ns;
	uint64_t tb = p->funcs[b].self_ns + fv[b].children_ns;
	uint64_t ca = fv[a].calls + fv[a].self_calls, cb = fv[b].calls + fv[b].self_calls;

	if (ta != tb)
		return ta > tb ? -1 : 1;
	if (ca != cb)
		return ca > cb ? -1 : 1;
	return 0;
}

static void pick_unit(struct graph *g, uint64_t max_ns)
{
	if (g->in_samples) {
		g->unit = "samples";
		g->unit_ns = 1;
		return;
	}
	static const struct { const char *name; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	size_t i;

	/* The smallest unit whose largest value still prints below 1000
	 * with two decimals (999.996 would print as 1000.00). */
	for (i = 0; i + 1 < sizeof(units) / sizeof(units[0]); i++)
		if ((double)max_ns / units[i].ns < 999.995)
			break;
	g->unit = units[i].name;
	g->unit_ns = units[i].ns;
}

static void graph_build(struct graph *g, const struct profile *p)
{
	size_t n = p->nfuncs;

	memset(g, 0, sizeof(*g));
	g->p = p;
	g->fv = xcalloc(n ? n : 1, sizeof(*g->fv));
	for (size_t i = 0; i < p->narcs; i++) {
		const struct arc *a = &p->arcs[i];
		if (a->callee >= n || (a->caller != FUNC_NONE && a->caller >= n))
			BUG("arc %zu refers to a function out of %zu", i, n);
		if (a->caller == a->callee)
			g->fv[a->callee].self_calls += a->count;
		else
			g->fv[a->callee].calls += a->count;
		if (a->caller == FUNC_NONE)
			g->root_ns += a->self_ns + a->child_ns;
		else if (arc_has_times(p, a))
			g->fv[a->caller].children_ns += a->self_ns + a->child_ns;
	}
	for (size_t c = 0; c < p->ncycles; c++)
		for (size_t m = 0; m < p->cycles[c].nmembers; m++)
			if (p->funcs[p->cycles[c].members[m]].cycle != (int)c + 1)
				BUG("cycle %zu and its member %u disagree", c + 1,
				    p->cycles[c].members[m]);

	g->entries = xmalloc((n + p->ncycles ? n + p->ncycles : 1) * sizeof(*g->entries));
	for (size_t f = 0; f < n; f++) {
		const struct func *fn = &p->funcs[f];
		const struct func_view *v = &g->fv[f];
		if (!fn->calls && !v->calls && !v->self_calls && !fn->self_ns &&
		    !fn->total_ns && !v->children_ns)
			continue;
		g->entries[g->nentries++] = (struct entry){
			0, (uint32_t)f, fn->self_ns, v->children_ns, v->calls, v->self_calls,
		};
	}
	for (size_t c = 0; c < p->ncycles; c++) {
		const struct cycle *cy = &p->cycles[c];
		g->entries[g->nentries++] = (struct entry){
			1, (uint32_t)c, cy->self_ns,
			cy->total_ns > cy->self_ns ? cy->total_ns - cy->self_ns : 0,
			cy->calls, cy->internal_calls,
		};
	}

	qsort_r(g->entries, g->nentries, sizeof(*g->entries), cmp_entry, g);

	g->cycle_index = xcalloc(p->ncycles ? p->ncycles : 1, sizeof(*g->cycle_index));
	for (size_t i = 0; i < g->nentries; i++) {
		if (g->entries[i].is_cycle)
			g->cycle_index[g->entries[i].id] = i + 1;
		else
			g->fv[g->entries[i].id].index = i + 1;
	}

	rows_build(&g->parents, p, 1);
	rows_build(&g->children, p, 0);
	for (size_t f = 0; f < n; f++) {
		qsort_r(g->parents.ids + g->parents.off[f], g->parents.off[f + 1] - g->parents.off[f],
			sizeof(uint32_t), cmp_parent, g);
		qsort_r(g->children.ids + g->children.off[f],
			g->children.off[f + 1] - g->children.off[f], sizeof(uint32_t), cmp_child, g);
	}

	/*
	 * 100% is the time under the calls that began threads (the
	 * spontaneous arcs), which holds every entry's time.  A recording
	 * that began inside calls has less there, since open frames have no
	 * arc: then the largest entry is 100%, so no line shows more.
	 */
	for (size_t i = 0; i < g->nentries; i++) {
		uint64_t t = g->entries[i].self_ns + g->entries[i].children_ns;
		if (t > g->root_ns)
			g->root_ns = t;
	}

	/* One unit for the whole report, from the largest time it prints. */
	uint64_t max_ns = 0;
	for (size_t i = 0; i < g->nentries; i++) {
		if (g->entries[i].self_ns > max_ns)
			max_ns = g->entries[i].self_ns;
		if (g->entries[i].children_ns > max_ns)
			max_ns = g->entries[i].children_ns;
	}
	for (size_t i = 0; i < p->narcs; i++) {
		const struct arc *a = &p->arcs[i];
		if (!arc_has_times(p, a))
			continue;
		if (a->self_ns > max_ns)
			max_ns = a->self_ns;
		if (a->child_ns > max_ns)
			max_ns = a->child_ns;
	}
	pick_unit(g, max_ns);
}

static void graph_release(struct graph *g)
{
	free(g->fv);
	free(g->cycle_index);
	free(g->entries);
	rows_release(&g->parents);
	rows_release(&g->children);
}

/* ---- text ---- */

static double in_unit(const struct graph *g, uint64_t ns)
{
	return (double)ns / g->unit_ns;
}

static double percent(const struct graph *g, uint64_t ns)
{
	return g->root_ns ? 100.0 * (double)ns / (double)g->root_ns : 0.0;
}

/* gprof's print_name_only(): the name, and the cycle it belongs to.
 * Returns the number of characters written. */
static size_t print_name_only(FILE *out, const struct graph *g, uint32_t f)
{
	const struct func *fn = &g->p->funcs[f];
	size_t len = strlen(fn->name);

	fputs(fn->name, out);
	if (fn->cycle) {
		int k = fprintf(out, " <cycle %d>", fn->cycle);
		len += k > 0 ? (size_t)k : 0;
	}
	return len;
}

static void print_name(FILE *out, const struct graph *g, uint32_t f)
{
	print_name_only(out, g, f);
	if (g->fv[f].index)
		fprintf(out, " [%zu]", g->fv[f].index);
}

/* The calls a line's "called" column divides by: the callee's own, or
 * its cycle's from outside. */
static uint64_t calls_of(const struct graph *g, uint32_t f)
{
	int c = g->p->funcs[f].cycle;
	return c ? g->p->cycles[c - 1].calls : g->fv[f].calls;
}

static void print_count_line(FILE *out, uint64_t count)
{
	fprintf(out, "%6.6s %5.5s %7.7s %7.7s %7" PRIu64 " %7.7s     ", "", "", "", "", count, "");
}

static void print_arc_line(FILE *out, const struct graph *g, const struct arc *a,
			   uint64_t called)
{
	if (g->in_samples)
		fprintf(out, "%6.6s %5.5s %7.0f %7.0f %15.15s     ", "", "",
			in_unit(g, a->self_ns), in_unit(g, a->child_ns), "");
	else
		fprintf(out, "%6.6s %5.5s %7.2f %7.2f %7" PRIu64 "/%-7" PRIu64 "     ", "", "",
			in_unit(g, a->self_ns), in_unit(g, a->child_ns), a->count, called);
}

/* A call found in the code as a jump (graph --static): said, since its
 * caller's frame is gone when the callee runs. */
static void print_tail_mark(FILE *out, const struct arc *a)
{
	if (a->static_tail)
		fputs(" (tail call)", out);
}

static void print_parents(FILE *out, const struct graph *g, uint32_t f)
{
	const struct profile *p = g->p;
	size_t begin = g->parents.off[f], end = g->parents.off[f + 1];
	int real_parent = 0;

	/* Only calls that began a thread: gprof's bare "<spontaneous>".
	 * Beside real callers, the spontaneous calls get a line with their
	 * times like any other caller. */
	for (size_t i = begin; i < end; i++) {
		const struct arc *a = &p->arcs[g->parents.ids[i]];
		if (a->caller != FUNC_NONE && a->caller != f)
			real_parent = 1;
	}
	if (begin == end || (end - begin == 1 && p->arcs[g->parents.ids[begin]].caller == f))
		fprintf(out, "%6.6s %5.5s %7.7s %7.7s %7.7s %7.7s     <spontaneous>\n",
			"", "", "", "", "", "");

	for (size_t i = begin; i < end; i++) {
		const struct arc *a = &p->arcs[g->parents.ids[i]];
		if (a->caller == FUNC_NONE) {
			if (real_parent) {
				print_arc_line(out, g, a, calls_of(g, f));
				fputs("<spontaneous>\n", out);
			} else {
				fprintf(out, "%6.6s %5.5s %7.7s %7.7s %7.7s %7.7s     <spontaneous>\n",
					"", "", "", "", "", "");
			}
			continue;
		}
		if (arc_has_times(p, a))
			print_arc_line(out, g, a, calls_of(g, f));
		else
			print_count_line(out, a->count);
		print_name(out, g, a->caller);
		print_tail_mark(out, a);
		fputc('\n', out);
	}
}

static void print_children(FILE *out, const struct graph *g, uint32_t f)
{
	const struct profile *p = g->p;

	for (size_t i = g->children.off[f]; i < g->children.off[f + 1]; i++) {
		const struct arc *a = &p->arcs[g->children.ids[i]];
		if (arc_has_times(p, a))
			print_arc_line(out, g, a, calls_of(g, a->callee));
		else
			print_count_line(out, a->count);
		print_name(out, g, a->callee);
		print_tail_mark(out, a);
		fputc('\n', out);
	}
}

static void print_calls(FILE *out, uint64_t calls, uint64_t self_calls)
{
	fprintf(out, " %7" PRIu64, calls);
	if (self_calls)
		fprintf(out, "+%-7" PRIu64 " ", self_calls);
	else
		fprintf(out, " %7.7s ", "");
}

static void print_function(FILE *out, const struct graph *g, const struct entry *e, size_t index)
{
	char buf[32];

	print_parents(out, g, e->id);
	snprintf(buf, sizeof(buf), "[%zu]", index);
	int digits = g->in_samples ? 0 : 2;
	fprintf(out, "%-6.6s %5.1f %7.*f %7.*f", buf, percent(g, e->self_ns + e->children_ns),
		digits, in_unit(g, e->self_ns), digits, in_unit(g, e->children_ns));
	if (e->calls + e->self_calls)
		print_calls(out, e->calls, e->self_calls);
	else
		fprintf(out, " %7.7s %7.7s ", "", "");
	print_name(out, g, e->id);
	fputc('\n', out);
	print_children(out, g, e->id);
}

static void print_cycle(FILE *out, const struct graph *g, const struct entry *e, size_t index)
{
	const struct cycle *cy = &g->p->cycles[e->id];
	char buf[32];

	snprintf(buf, sizeof(buf), "[%zu]", index);
	fprintf(out, "%-6.6s %5.1f %7.2f %7.2f %7" PRIu64, buf,
		percent(g, e->self_ns + e->children_ns), in_unit(g, e->self_ns),
		in_unit(g, e->children_ns), e->calls);
	if (e->self_calls)
		fprintf(out, "+%-7" PRIu64, e->self_calls);
	else
		fprintf(out, " %7.7s", "");
	fprintf(out, " <cycle %u as a whole> [%zu]\n", e->id + 1, index);

	uint32_t *members = xmalloc(cy->nmembers * sizeof(*members));
	memcpy(members, cy->members, cy->nmembers * sizeof(*members));
	/* An insertion sort, stable where qsort() is not: ties keep the
	 * address order of cy->members, as gprof's keeps its list order. */
	for (size_t i = 1; i < cy->nmembers; i++) {
		uint32_t m = members[i];
		size_t j = i;
		while (j > 0 && cmp_member(&m, &members[j - 1], g) < 0) {
			members[j] = members[j - 1];
			j--;
		}
		members[j] = m;
	}

	for (size_t i = 0; i < cy->nmembers; i++) {
		uint32_t m = members[i];
		const struct func_view *v = &g->fv[m];
		fprintf(out, "%6.6s %5.5s %7.2f %7.2f %7" PRIu64, "", "",
			in_unit(g, g->p->funcs[m].self_ns), in_unit(g, v->children_ns), v->calls);
		if (v->self_calls)
			fprintf(out, "+%-7" PRIu64, v->self_calls);
		else
			fprintf(out, " %7.7s", "");
		fputs("     ", out);
		print_name(out, g, m);
		fputc('\n', out);
	}
	free(members);
}

static int cmp_index_name(const void *l, const void *r, void *graph)
{
	const struct profile *p = ((const struct graph *)graph)->p;
	uint32_t a = *(const uint32_t *)l, b = *(const uint32_t *)r;
	int c = strcmp(p->funcs[a].name, p->funcs[b].name);

	return c ? c : (a < b ? -1 : a > b);
}

/* gprof's cg_print_index(), including its way of counting columns (the
 * blanks around "[index]" are not counted), so the layout matches. */
static void print_index(FILE *out, const struct graph *g)
{
	const struct profile *p = g->p;
	size_t nnames = 0, todo;
	uint32_t *names = xmalloc((p->nfuncs ? p->nfuncs : 1) * sizeof(*names));

	for (size_t f = 0; f < p->nfuncs; f++)
		if (g->fv[f].index)
			names[nnames++] = (uint32_t)f;
	qsort_r(names, nnames, sizeof(*names), cmp_index_name, (void *)g);
	todo = nnames + p->ncycles;

	fputs("\f\nIndex by function name\n\n", out);
	size_t rows = (todo + 2) / 3;
	for (size_t i = 0; i < rows; i++) {
		size_t col = 0, starting_col = 0;
		for (size_t j = i; j < todo; j += rows) {
			char buf[32];
			size_t index = j < nnames ? g->fv[names[j]].index
						  : g->cycle_index[j - nnames];
			snprintf(buf, sizeof(buf), "[%zu]", index);
			col += strlen(buf);
			for (; col < starting_col + 5; col++)
				fputc(' ', out);
			fprintf(out, " %s ", buf);
			if (j < nnames) {
				col += print_name_only(out, g, names[j]);
			} else {
				int k = fprintf(out, "<cycle %zu>", j - nnames + 1);
				col += k > 0 ? (size_t)k : 0;
			}
			starting_col += INDEX_COLUMN_WIDTH;
		}
		fputc('\n', out);
	}
	free(names);
}

static void report_text(FILE *out, const struct graph *g, const struct graph_options *o)
{
	fprintf(out, "lost events: %" PRIu64 "\n\n", g->p->lost_events);
	fputs("\t\t\tCall graph\n\n", out);
	if (g->in_samples)
		fprintf(out, "\nunit: timer samples%s, 100%% = %" PRIu64 " samples\n\n",
			g->p->calls ? "" : " (no call was traced)", g->root_ns);
	else
		fprintf(out, "\ntime unit: %s, 100%% = %.2f %s\n\n", g->unit,
			in_unit(g, g->root_ns), g->unit);
	if (!g->nentries)
		fputs("(nothing to show: no call was traced and no timer sample taken)\n", out);
	fputs("index % time    self  children    called     name\n", out);
	for (size_t i = 0; i < g->nentries; i++) {
		const struct entry *e = &g->entries[i];
		if (e->is_cycle)
			print_cycle(out, g, e, i + 1);
		else
			print_function(out, g, e, i + 1);
		fputs(SEPARATOR, out);
	}
	if (!o->brief)
		print_index(out, g);
}

/* ---- JSON ---- */

static void report_json(FILE *out, const struct graph *g)
{
	const struct profile *p = g->p;
	struct json j;

	json_init(&j, out);
	json_object_begin(&j);
	json_kv_string(&j, "time_unit", g->in_samples ? "samples" : "ns");
	json_kv_u64(&j, "lost_events", p->lost_events);
	json_kv_u64(&j, "samples", p->samples);

	json_key(&j, "functions");
	json_array_begin(&j);
	for (size_t i = 0; i < g->nentries; i++) {
		const struct entry *e = &g->entries[i];
		if (e->is_cycle)
			continue;
		const struct func *fn = &p->funcs[e->id];
		json_object_begin(&j);
		json_kv_u64(&j, "index", i + 1);
		json_kv_string(&j, "name", fn->name);
		json_kv_string(&j, "object", fn->object);
		json_kv_u64(&j, "self_ns", e->self_ns);
		json_kv_u64(&j, "children_ns", e->children_ns);
		json_kv_u64(&j, "calls", e->calls);
		json_kv_u64(&j, "self_calls", e->self_calls);
		json_kv_u64(&j, "cycle", (uint64_t)fn->cycle);
		if (p->samples) {
			/* record --sample: the sampled shares beside the traced times */
			json_kv_u64(&j, "samples", fn->samples);
			json_kv_u64(&j, "self_samples", fn->self_samples);
			json_kv_double(&j, "self_pct", func_self_sample_pct(p, fn));
			json_kv_double(&j, "total_pct", func_total_sample_pct(p, fn));
		}
		json_object_end(&j);
	}
	json_array_end(&j);

	json_key(&j, "arcs");
	json_array_begin(&j);
	for (size_t i = 0; i < p->narcs; i++) {
		const struct arc *a = &p->arcs[i];
		json_object_begin(&j);
		json_kv_string(&j, "caller", caller_name(p, a->caller));
		json_kv_string(&j, "callee", p->funcs[a->callee].name);
		json_kv_u64(&j, "count", a->count);
		json_kv_u64(&j, "self_ns", a->self_ns);
		json_kv_u64(&j, "child_ns", a->child_ns);
		if (a->static_tail)
			json_key(&j, "tail_call"), json_bool(&j, 1);
		json_object_end(&j);
	}
	json_array_end(&j);

	json_key(&j, "sample_arcs");
	json_array_begin(&j);
	for (size_t i = 0; i < p->nsample_arcs; i++) {
		const struct sample_arc *a = &p->sample_arcs[i];
		json_object_begin(&j);
		json_kv_string(&j, "caller", caller_name(p, a->caller));
		json_kv_string(&j, "callee", p->funcs[a->callee].name);
		json_kv_u64(&j, "samples", a->samples);
		json_kv_u64(&j, "self_samples", a->self_samples);
		json_object_end(&j);
	}
	json_array_end(&j);

	json_key(&j, "cycles");
	json_array_begin(&j);
	for (size_t c = 0; c < p->ncycles; c++) {
		const struct cycle *cy = &p->cycles[c];
		json_object_begin(&j);
		json_kv_u64(&j, "number", c + 1);
		json_kv_u64(&j, "index", g->cycle_index[c]);
		json_key(&j, "members");
		json_array_begin(&j);
		for (size_t m = 0; m < cy->nmembers; m++)
			json_string(&j, p->funcs[cy->members[m]].name);
		json_array_end(&j);
		json_kv_u64(&j, "calls", cy->calls);
		json_kv_u64(&j, "internal_calls", cy->internal_calls);
		json_kv_u64(&j, "self_ns", cy->self_ns);
		json_kv_u64(&j, "total_ns", cy->total_ns);
		json_object_end(&j);
	}
	json_array_end(&j);

	json_object_end(&j);
	json_finish(&j);
}

/*
 * P's graph in samples: a copy of P whose times are its samples and whose
 * arcs are its sampled pairs, so the layout code reads one kind of
 * profile.  Free it with free_sampled_view().
 */
static struct profile *sampled_view(const struct profile *p)
{
	struct profile *v = xmalloc(sizeof(*v));

	*v = *p;
	v->funcs = xmalloc((p->nfuncs ? p->nfuncs : 1) * sizeof(*v->funcs));
	for (size_t i = 0; i < p->nfuncs; i++) {
		v->funcs[i] = p->funcs[i];
		v->funcs[i].self_ns = p->funcs[i].self_samples;
		v->funcs[i].total_ns = p->funcs[i].samples;
		v->funcs[i].cycle = 0;
	}
	v->narcs = p->nsample_arcs;
	v->arcs = xcalloc(v->narcs ? v->narcs : 1, sizeof(*v->arcs));
	for (size_t i = 0; i < v->narcs; i++) {
		const struct sample_arc *s = &p->sample_arcs[i];
		v->arcs[i] = (struct arc){ s->caller, s->callee, 0, s->self_samples,
					   s->samples - s->self_samples, 0 };
	}
	v->ncycles = 0;
	v->cycles = NULL;
	return v;
}

static void free_sampled_view(struct profile *v)
{
	free(v->funcs);
	free(v->arcs);
	free(v);
}

/* Writes P's graph: of its traced calls, or (IN_SAMPLES) of its samples. */
static void write_graph(FILE *out, const struct profile *p, const struct graph_options *o,
			int in_samples)
{
	struct profile *view = in_samples ? sampled_view(p) : NULL;
	struct graph g;

	graph_build(&g, view ? view : p);
	g.in_samples = in_samples;
	if (in_samples)
		pick_unit(&g, 0);
	if (o->json)
		report_json(out, &g);
	else
		report_text(out, &g, o);
	graph_release(&g);
	if (view)
		free_sampled_view(view);
}

void report_graph(FILE *out, const struct profile *p, const struct graph_options *o)
{
	static const struct graph_options defaults;

	if (!o)
		o = &defaults;
	write_graph(out, p, o, profile_samples_only(p));
	/* traced calls and samples: the samples' graph follows the calls' */
	if (!o->json && p->calls && p->samples) {
		fputs("\f\n", out);
		write_graph(out, p, o, 1);
	}
}
