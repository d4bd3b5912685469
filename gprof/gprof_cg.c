/*
 * gprof's call graph and its index by function name, in gprof's layout
 * (cg_print.c): one entry per function or cycle in [index] order, its
 * callers above it (or <spontaneous>), its callees below, calls within a
 * cycle or to itself shown without times, and cycles as a whole with
 * their members.  Callers and callees are ordered by gprof's insertion
 * sorts, so equal keys keep gprof's order too.
 */
#include "gprof/gprof.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define LESSTHAN (-1)
#define EQUALTO 0
#define GREATERTHAN 1

static void graph_explain(FILE *out)
{
	fputs("\n"
	      "How to read the call graph\n"
	      "\n"
	      "Each entry, between dashed lines, is about one function: the line that\n"
	      "starts with its [index].  The lines above it are its callers, the lines\n"
	      "below it the functions it calls.\n"
	      "\n"
	      "On the function's own line:\n"
	      " %% time    share of the total time spent in this function and in what\n"
	      "           it calls.\n"
	      " self      time in the function's own code.\n"
	      " children  time of its callees charged to it: each callee's time is\n"
	      "           split among its callers in proportion to how often each\n"
	      "           called it (an estimate: calls are assumed to cost the same).\n"
	      " called    calls from other functions, then +calls to itself.\n"
	      "\n"
	      "On a caller's line: the part of this function's self and children time\n"
	      "charged to that caller, and its calls out of all calls to this function.\n"
	      "On a callee's line: the part of the callee's time charged to this\n"
	      "function, and these calls out of all calls to the callee.\n"
	      "\n"
	      "<spontaneous> means no caller was seen: called from code not built with\n"
	      "-pg, or the program's entry point.  Functions that call each other in a\n"
	      "loop form a cycle: they are marked <cycle N>, the cycle gets an entry of\n"
	      "its own (<cycle N as a whole>), calls inside the cycle carry no time,\n"
	      "and the cycle's time is shared among its outside callers.\n"
	      "\n", out);
}

static void print_header(FILE *out, const struct gprof_opts *o, struct gprof_result *res,
			 int *first)
{
	if (*first)
		*first = 0;
	else
		fputs("\f\n", out);
	if (!o->bsd_style) {
		if (!o->brief)
			fputs("\t\t     Call graph (explanation follows)\n\n", out);
		else
			fputs("\t\t\tCall graph\n\n", out);
	}
	fprintf(out, "\ngranularity: each sample hit covers %ld byte(s)",
		gprof_granularity(res));
	if (res->print_time > 0.0) {
		fprintf(out, " for %.2f%% of %.2f seconds\n\n", 100.0 / res->print_time,
			res->print_time / res->hz);
	} else {
		fputs(" no time propagated\n\n", out);
		res->print_time = 1.0;	/* every numerator is 0 then */
	}
	if (o->bsd_style) {
		fprintf(out, "%6.6s %5.5s %7.7s %11.11s %7.7s/%-7.7s     %-8.8s\n", "", "", "", "",
			"called", "total", "parents");
		fprintf(out, "%-6.6s %5.5s %7.7s %11.11s %7.7s+%-7.7s %-8.8s\t%5.5s\n", "index",
			"%time", "self", "descendants", "called", "self", "name", "index");
		fprintf(out, "%6.6s %5.5s %7.7s %11.11s %7.7s/%-7.7s     %-8.8s\n", "", "", "", "",
			"called", "total", "children");
		fputs("\n", out);
	} else {
		fputs("index % time    self  children    called     name\n", out);
	}
}

static void print_cycle(FILE *out, const struct gprof_opts *o, const struct gprof_result *res,
			const struct gprof_sym *cyc)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "[%d]", cyc->index);
	fprintf(out, o->bsd_style ? "%-6.6s %5.1f %7.2f %11.2f %7" PRIu64
				  : "%-6.6s %5.1f %7.2f %7.2f %7" PRIu64,
		buf, 100 * (cyc->prop_self + cyc->prop_child) / res->print_time,
		cyc->prop_self / res->hz, cyc->prop_child / res->hz, cyc->ncalls);
	if (cyc->self_calls != 0)
		fprintf(out, "+%-7" PRIu64, cyc->self_calls);
	else
		fprintf(out, " %7.7s", "");
	fprintf(out, " <cycle %d as a whole> [%d]\n", cyc->cyc_num, cyc->index);
}

static int cmp_member(const struct gprof_sym *l, const struct gprof_sym *r)
{
	double lt = l->prop_self + l->prop_child, rt = r->prop_self + r->prop_child;
	uint64_t lc = l->ncalls + l->self_calls, rc = r->ncalls + r->self_calls;

	if (lt > rt)
		return GREATERTHAN;
	if (lt < rt)
		return LESSTHAN;
	if (lc > rc)
		return GREATERTHAN;
	if (lc < rc)
		return LESSTHAN;
	return EQUALTO;
}

static void sort_members(struct gprof_sym *cyc)
{
	struct gprof_sym *todo = cyc->cyc_next, *doing, *prev;

	cyc->cyc_next = NULL;
	for (doing = todo; doing; doing = todo) {
		todo = doing->cyc_next;
		for (prev = cyc; prev->cyc_next; prev = prev->cyc_next)
			if (cmp_member(doing, prev->cyc_next) == GREATERTHAN)
				break;
		doing->cyc_next = prev->cyc_next;
		prev->cyc_next = doing;
	}
}

static void print_members(FILE *out, const struct gprof_opts *o, const struct gprof_result *res,
			  struct gprof_sym *cyc)
{
	sort_members(cyc);
	for (struct gprof_sym *m = cyc->cyc_next; m; m = m->cyc_next) {
		fprintf(out, o->bsd_style ? "%6.6s %5.5s %7.2f %11.2f %7" PRIu64
					  : "%6.6s %5.5s %7.2f %7.2f %7" PRIu64,
			"", "", m->prop_self / res->hz, m->prop_child / res->hz, m->ncalls);
		if (m->self_calls != 0)
			fprintf(out, "+%-7" PRIu64, m->self_calls);
		else
			fprintf(out, " %7.7s", "");
		fputs("     ", out);
		gprof_print_name(out, m, o);
		fputc('\n', out);
	}
}

static int in_cycle(const struct gprof_arc *a)
{
	return a->parent->cyc_num != 0 && a->child->cyc_num != 0 &&
	       a->parent->cyc_num == a->child->cyc_num;
}

static int cmp_arc(const struct gprof_arc *l, const struct gprof_arc *r)
{
	if (l->parent == l->child)
		return LESSTHAN;
	if (r->parent == r->child)
		return GREATERTHAN;
	if (in_cycle(l)) {
		if (in_cycle(r)) {
			if (l->count < r->count)
				return LESSTHAN;
			if (l->count > r->count)
				return GREATERTHAN;
			return EQUALTO;
		}
		return LESSTHAN;
	}
	if (in_cycle(r))
		return GREATERTHAN;
	double lt = l->time + l->child_time, rt = r->time + r->child_time;
	if (lt < rt)
		return LESSTHAN;
	if (lt > rt)
		return GREATERTHAN;
	if (l->count < r->count)
		return LESSTHAN;
	if (l->count > r->count)
		return GREATERTHAN;
	return EQUALTO;
}

static void sort_parents(struct gprof_sym *child)
{
	struct gprof_arc sorted = { 0 }, *arc, *detached, *prev;

	for (arc = child->parents; arc; arc = detached) {
		detached = arc->next_parent;
		for (prev = &sorted; prev->next_parent; prev = prev->next_parent)
			if (cmp_arc(arc, prev->next_parent) != GREATERTHAN)
				break;
		arc->next_parent = prev->next_parent;
		prev->next_parent = arc;
	}
	child->parents = sorted.next_parent;
}

static void sort_children(struct gprof_sym *parent)
{
	struct gprof_arc sorted = { 0 }, *arc, *detached, *prev;

	for (arc = parent->children; arc; arc = detached) {
		detached = arc->next_child;
		for (prev = &sorted; prev->next_child; prev = prev->next_child)
			if (cmp_arc(arc, prev->next_child) != LESSTHAN)
				break;
		arc->next_child = prev->next_child;
		prev->next_child = arc;
	}
	parent->children = sorted.next_child;
}

static void print_arc_line(FILE *out, const struct gprof_opts *o, const struct gprof_result *res,
			   const struct gprof_arc *a, const struct gprof_sym *other,
			   uint64_t total, int inside)
{
	if (inside)
		fprintf(out, o->bsd_style ? "%6.6s %5.5s %7.7s %11.11s %7" PRIu64 " %7.7s     "
					  : "%6.6s %5.5s %7.7s %7.7s %7" PRIu64 " %7.7s     ",
			"", "", "", "", a->count, "");
	else
		fprintf(out, o->bsd_style ? "%6.6s %5.5s %7.2f %11.2f %7" PRIu64 "/%-7" PRIu64 "     "
					  : "%6.6s %5.5s %7.2f %7.2f %7" PRIu64 "/%-7" PRIu64 "     ",
			"", "", a->time / res->hz, a->child_time / res->hz, a->count, total);
	gprof_print_name(out, other, o);
	fputc('\n', out);
}

static void print_parents(FILE *out, const struct gprof_opts *o, const struct gprof_result *res,
			  struct gprof_sym *child)
{
	struct gprof_sym *cycle_head = child->cyc_head ? child->cyc_head : child;

	if (!child->parents) {
		fprintf(out, o->bsd_style ? "%6.6s %5.5s %7.7s %11.11s %7.7s %7.7s     <spontaneous>\n"
					  : "%6.6s %5.5s %7.7s %7.7s %7.7s %7.7s     <spontaneous>\n",
			"", "", "", "", "", "");
		return;
	}
	sort_parents(child);
	for (struct gprof_arc *a = child->parents; a; a = a->next_parent) {
		struct gprof_sym *parent = a->parent;
		int inside = child == parent ||
			     (child->cyc_num != 0 && parent->cyc_num == child->cyc_num);
		print_arc_line(out, o, res, a, parent, cycle_head->ncalls, inside);
	}
}

static void print_children(FILE *out, const struct gprof_opts *o, const struct gprof_result *res,
			   struct gprof_sym *parent)
{
	sort_children(parent);
	for (struct gprof_arc *a = parent->children; a; a = a->next_child) {
		struct gprof_sym *child = a->child;
		int inside = child == parent ||
			     (child->cyc_num != 0 && child->cyc_num == parent->cyc_num);
		print_arc_line(out, o, res, a, child, child->cyc_head->ncalls, inside);
	}
}

static void print_line(FILE *out, const struct gprof_opts *o, const struct gprof_result *res,
		       const struct gprof_sym *np)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "[%d]", np->index);
	fprintf(out, o->bsd_style ? "%-6.6s %5.1f %7.2f %11.2f" : "%-6.6s %5.1f %7.2f %7.2f", buf,
		100 * (np->prop_self + np->prop_child) / res->print_time,
		np->prop_self / res->hz, np->prop_child / res->hz);
	if (np->ncalls + np->self_calls != 0) {
		fprintf(out, " %7" PRIu64, np->ncalls);
		if (np->self_calls != 0)
			fprintf(out, "+%-7" PRIu64 " ", np->self_calls);
		else
			fprintf(out, " %7.7s ", "");
	} else {
		fprintf(out, " %7.7s %7.7s ", "", "");
	}
	gprof_print_name(out, np, o);
	fputc('\n', out);
}

void gprof_print_graph(FILE *out, struct gprof_symtab *st, const struct gprof_opts *o,
		       struct gprof_result *res, int *first)
{
	(void)st;
	if (!o->brief && o->bsd_style)
		graph_explain(out);
	print_header(out, o, res, first);
	for (size_t i = 0; i < res->ntime_sorted; i++) {
		struct gprof_sym *p = res->time_sorted[i];
		if ((o->ignore_zeros && p->ncalls == 0 && p->self_calls == 0 && p->prop_self == 0 &&
		     p->prop_child == 0) ||
		    !p->print_flag || (o->line_granularity && !p->is_func))
			continue;
		if (!p->name && p->cyc_num != 0) {
			print_cycle(out, o, res, p);
			print_members(out, o, res, p);
		} else {
			print_parents(out, o, res, p);
			print_line(out, o, res, p);
			print_children(out, o, res, p);
		}
		if (o->bsd_style)
			fputc('\n', out);
		fputs("-----------------------------------------------\n", out);
		if (o->bsd_style)
			fputc('\n', out);
	}
	if (!o->brief && !o->bsd_style)
		graph_explain(out);
}

static int cmp_name(const void *lp, const void *rp)
{
	const struct gprof_sym *l = *(const struct gprof_sym *const *)lp;
	const struct gprof_sym *r = *(const struct gprof_sym *const *)rp;
	int c = strcmp(l->name, r->name);
	return c ? c : (l < r ? -1 : l > r);
}

void gprof_print_index(FILE *out, struct gprof_symtab *st, const struct gprof_opts *o,
		       struct gprof_result *res)
{
	size_t n = st->n, nnames = 0;
	int column_width = (o->output_width - 1) / 3;
	struct gprof_sym **names = xmalloc((n + (size_t)res->num_cycles + 1) * sizeof(*names));
	char buf[64];

	for (size_t i = 0; i < n; i++) {
		struct gprof_sym *s = &st->syms[i];
		if (o->ignore_zeros && s->ncalls == 0 && s->time == 0)
			continue;
		names[nnames++] = s;
	}
	qsort(names, nnames, sizeof(*names), cmp_name);
	size_t todo = nnames;
	for (int c = 1; c <= res->num_cycles; c++)
		names[todo++] = &res->cycles[c];
	fputs("\f\nIndex by function name\n\n", out);
	size_t rows = (todo + 2) / 3;
	for (size_t i = 0; i < rows; i++) {
		int col = 0, starting_col = 0;
		for (size_t j = i; j < todo; j += rows) {
			struct gprof_sym *s = names[j];
			snprintf(buf, sizeof(buf), s->print_flag ? "[%d]" : "(%d)", s->index);
			if (j < nnames) {
				if (o->bsd_style) {
					fprintf(out, "%6.6s %-19.19s", buf, s->name);
				} else {
					col += (int)strlen(buf);
					for (; col < starting_col + 5; ++col)
						fputc(' ', out);
					fprintf(out, " %s ", buf);
					col += gprof_print_name_only(out, s, o);
					if (!o->line_granularity && s->is_static && s->file) {
						const char *file = gprof_sym_file(s, o);
						fprintf(out, " (%s)", file);
						col += (int)strlen(file) + 3;
					}
				}
			} else {
				if (o->bsd_style) {
					fprintf(out, "%6.6s ", buf);
					snprintf(buf, sizeof(buf), "<cycle %d>", s->cyc_num);
					fprintf(out, "%-19.19s", buf);
				} else {
					col += (int)strlen(buf);
					for (; col < starting_col + 5; ++col)
						fputc(' ', out);
					fprintf(out, " %s ", buf);
					snprintf(buf, sizeof(buf), "<cycle %d>", s->cyc_num);
					fputs(buf, out);
					col += (int)strlen(buf);
				}
			}
			starting_col += column_width;
		}
		fputc('\n', out);
	}
	free(names);
}
