/*
 * gprof's numbers: histogram bins credited to functions, arcs tallied
 * into call counts, cycles found by the BSD depth-first numbering, time
 * propagated from callees to callers in proportion to call counts, and
 * the call graph order that gives each function its [index].
 *
 * Everything follows GNU gprof's order of operations and floating-point
 * expressions (hist.c, call_graph.c, cg_arcs.c, cg_dfn.c) so that the
 * printed numbers round the same way; the comments say where an order
 * matters.
 */
#include "gprof/gprof.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "xalloc.h"

#define DFN_NAN 0
#define DFN_BUSY (-1)

long gprof_granularity(const struct gprof_result *res)
{
	double scale = res->hist_scale;
	/* past a long's range (2^63 units: a histogram over the whole address
	 * space, in one bin) x86-64's conversion gives LONG_MIN, and gprof's
	 * product wraps, as it does here in unsigned arithmetic */
	long units = scale >= -0x1p63 && scale < 0x1p63 ? (long)scale : LONG_MIN;

	return (long)((unsigned long)units * 2u);
}

void gprof_assign_samples(struct gprof_symtab *st, const struct gmon *g,
			  const struct gprof_filters *f, struct gprof_result *res)
{
	struct gprof_sym *sym = st->syms;
	size_t n = st->n;

	if (!g->nhists)
		return;
	const struct gmon_hist *h0 = &g->hists[0];
	res->hist_scale = (double)((h0->high_pc - h0->low_pc) / 2) / h0->nbins;
	for (size_t i = 0; i < n; i++)
		sym[i].scaled_addr = sym[i].addr / 2;
	for (size_t r = 0; r < g->nhists; r++) {
		const struct gmon_hist *h = &g->hists[r];
		uint64_t lowpc = h->low_pc / 2;
		size_t k = 1;
		for (uint32_t i = 0; i < h->nbins; ++i) {
			uint64_t bin_count = h->bins[i];
			if (!bin_count)
				continue;
			uint64_t bin_low = lowpc + (uint64_t)(res->hist_scale * i);
			uint64_t bin_high = lowpc + (uint64_t)(res->hist_scale * (i + 1));
			double count_time = (double)bin_count;
			res->total_time += count_time;
			for (size_t j = k - 1; j < n; k = ++j) {
				uint64_t sym_low = sym[j].scaled_addr;
				/* gprof reads one past its table here; the end of the
				 * last symbol is what it would mean */
				uint64_t sym_high = j + 1 < n ? sym[j + 1].scaled_addr
							      : (sym[j].end_addr + 1) / 2;
				if (sym_high < sym_low)
					sym_high = sym_low;
				if (bin_high < sym_low)
					break;
				if (bin_low >= sym_high)
					continue;
				uint64_t hi = bin_high < sym_high ? bin_high : sym_high;
				uint64_t lo = bin_low > sym_low ? bin_low : sym_low;
				uint64_t overlap = hi - lo;
				if (overlap > 0) {
					double credit = overlap * count_time / res->hist_scale;
					if (gprof_table_accepts(f, GT_INCL_FLAT, GT_EXCL_FLAT, sym[j].addr))
						sym[j].time += credit;
					else
						res->total_time -= credit;
				}
			}
		}
	}
}

/* arc_lookup: the arc from PARENT whose callee's range covers CHILD's. */
static struct gprof_arc *arc_lookup(struct gprof_sym *parent, struct gprof_sym *child)
{
	for (struct gprof_arc *a = parent->children; a; a = a->next_child)
		if (child->addr >= a->child->addr && child->end_addr <= a->child->end_addr)
			return a;
	return NULL;
}

static void arc_add(struct gprof_result *res, struct gprof_sym *parent, struct gprof_sym *child,
		    uint64_t count)
{
	struct gprof_arc *a = arc_lookup(parent, child);
	if (a) {
		a->count += count;
		return;
	}
	a = xcalloc(1, sizeof(*a));
	a->parent = parent;
	a->child = child;
	a->count = count;
	ALLOC_GROW(res->arcs, res->narcs + 1, res->arcs_alloc);
	res->arcs[res->narcs++] = a;
	/* prepended, as gprof does: the list order decides the DFS order */
	a->next_child = parent->children;
	parent->children = a;
	a->next_parent = child->parents;
	child->parents = a;
}

/* hist_clip_symbol_address: [*LO, *HI) cut to the histogram range it
 * overlaps, or made empty.  Without a histogram, STRICT empties it too. */
static void clip_to_histogram(const struct gmon *g, int strict, uint64_t *lo, uint64_t *hi)
{
	if (!g->nhists) {
		if (strict)
			*hi = *lo;
		return;
	}
	for (size_t i = 0; i < g->nhists; i++) {
		uint64_t l = *lo > g->hists[i].low_pc ? *lo : g->hists[i].low_pc;
		uint64_t h = *hi < g->hists[i].high_pc ? *hi : g->hists[i].high_pc;
		if (l < h) {
			*lo = l;
			*hi = h;
			return;
		}
	}
	*hi = *lo;
}

/* hist_check_address */
static int in_histogram(const struct gmon *g, uint64_t addr)
{
	if (!g->nhists)
		return 1;
	for (size_t i = 0; i < g->nhists; i++)
		if (g->hists[i].low_pc <= addr && addr < g->hists[i].high_pc)
			return 1;
	return 0;
}

void gprof_static_calls(struct gprof_symtab *st, const struct gmon *g, int strict,
			struct gprof_result *res)
{
	if (!st->text)
		return;
	for (size_t i = 0; i < st->n; i++) {
		struct gprof_sym *parent = &st->syms[i];
		uint64_t lo = parent->addr;
		uint64_t hi = i + 1 < st->n ? st->syms[i + 1].addr : parent->end_addr + 1;
		clip_to_histogram(g, strict, &lo, &hi);
		for (uint64_t pc = lo; pc < hi; pc++) {
			/* gprof reads outside .text too; its bytes are not ours */
			if (pc < st->text_lo || pc + 5 > st->text_hi)
				continue;
			const uint8_t *insn = st->text + (pc - st->text_lo);
			if (insn[0] != 0xe8)
				continue;
			uint32_t rel = (uint32_t)insn[1] | (uint32_t)insn[2] << 8 |
				       (uint32_t)insn[3] << 16 | (uint32_t)insn[4] << 24;
			uint64_t dest = strict ? rel + pc + 5 : pc + 5 + (uint64_t)(int64_t)(int32_t)rel;
			if (!in_histogram(g, dest))
				continue;
			struct gprof_sym *child = gprof_lookup(st->syms, st->n, dest);
			if (child && child->addr == dest)
				arc_add(res, parent, child, 0);
		}
	}
}

static size_t arcspec_len(const struct gprof_arcspecs *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++)
		n += s->a[i].from.n;
	return n;
}

void gprof_tally(struct gprof_symtab *st, const struct gmon *g, const struct gprof_filters *f,
		 const struct gprof_opts *o, struct gprof_result *res)
{
	size_t incl_len = arcspec_len(&f->incl_arcs);

	for (size_t i = 0; i < g->narcs; i++) {
		const struct gmon_arc *ga = &g->arcs[i];
		struct gprof_sym *parent = gprof_lookup(st->syms, st->n, ga->from_pc);
		struct gprof_sym *child = gprof_lookup(st->syms, st->n, ga->self_pc);
		if (!parent || !child)
			continue;
		if (o->line_granularity && st->funcs != st->syms) {
			/* calls go to functions; the caller may stay a line */
			struct gprof_sym *fn = gprof_lookup(st->funcs, st->nfuncs, ga->self_pc);
			struct gprof_sym *at = fn ? gprof_lookup(st->syms, st->n, fn->addr) : NULL;
			if (at)
				child = at;
		}
		if (gprof_arcspecs_has(&f->incl_arcs, parent, child) ||
		    (incl_len == 0 && !gprof_arcspecs_has(&f->excl_arcs, parent, child))) {
			child->ncalls += ga->count;
			arc_add(res, parent, child, ga->count);
		}
	}
}

/* ---- depth-first numbering and cycles (cg_dfn.c) ---- */

struct dfn {
	struct gprof_sym **stack;	/* stack[1..depth] */
	struct gprof_arc **next;	/* the next arc to follow at each level */
	size_t depth, alloc;
	int counter;
};

static void find_cycle(struct dfn *d, struct gprof_sym *child)
{
	struct gprof_sym *head = NULL, *tail;
	size_t top;

	for (top = d->depth; top > 0; --top) {
		head = d->stack[top];
		if (child == head)
			break;
		if (child->cyc_head != child && child->cyc_head == head)
			break;
	}
	if (top == 0)
		BUG("call graph: no head found for a cycle");
	if (top == d->depth)
		return;		/* a function calling itself: counted elsewhere */
	for (tail = head; tail->cyc_next; tail = tail->cyc_next)
		;
	if (head->cyc_head != head)
		head = head->cyc_head;
	for (size_t i = top + 1; i <= d->depth; ++i) {
		child = d->stack[i];
		if (child->cyc_head == child) {
			tail->cyc_next = child;
			child->cyc_head = head;
			for (tail = child; tail->cyc_next; tail = tail->cyc_next)
				tail->cyc_next->cyc_head = head;
		} else if (child->cyc_head != head) {
			BUG("call graph: a function joined to two cycles");
		}
	}
}

static void pre_visit(struct dfn *d, struct gprof_sym *p)
{
	++d->depth;
	ALLOC_GROW(d->stack, d->depth + 1, d->alloc);
	d->next = xrealloc(d->next, d->alloc * sizeof(*d->next));
	d->stack[d->depth] = p;
	d->next[d->depth] = p->children;
	p->top_order = DFN_BUSY;
}

static void post_visit(struct dfn *d, struct gprof_sym *p)
{
	if (p->cyc_head == p) {
		++d->counter;
		for (struct gprof_sym *m = p; m; m = m->cyc_next)
			m->top_order = d->counter;
	}
	--d->depth;
}

/* cg_dfn without recursion: a long chain of callers must not overflow the stack. */
static void dfn(struct dfn *d, struct gprof_sym *root)
{
	if (root->top_order != DFN_NAN)
		return;
	pre_visit(d, root);
	while (d->depth > 0) {
		struct gprof_arc *a = d->next[d->depth];
		if (!a) {
			post_visit(d, d->stack[d->depth]);
			continue;
		}
		d->next[d->depth] = a->next_child;
		struct gprof_sym *c = a->child;
		if (c->top_order != DFN_NAN && c->top_order != DFN_BUSY)
			continue;	/* numbered */
		if (c->top_order == DFN_BUSY) {
			find_cycle(d, c);
			continue;
		}
		pre_visit(d, c);
	}
}

static void cycle_link(struct gprof_symtab *st, struct gprof_result *res)
{
	int num = 0;

	for (size_t i = 0; i < st->n; i++)
		if (st->syms[i].cyc_head == &st->syms[i] && st->syms[i].cyc_next)
			num++;
	res->num_cycles = num;
	res->cycles = xcalloc((size_t)num + 1, sizeof(*res->cycles));
	num = 0;
	for (size_t i = 0; i < st->n; i++) {
		struct gprof_sym *sym = &st->syms[i];
		if (!(sym->cyc_head == sym && sym->cyc_next))
			continue;
		struct gprof_sym *cyc = &res->cycles[++num];
		cyc->print_flag = 1;
		cyc->top_order = DFN_NAN;
		cyc->cyc_num = num;
		cyc->cyc_head = cyc;
		cyc->cyc_next = sym;
		for (struct gprof_sym *m = sym; m; m = m->cyc_next) {
			m->cyc_num = num;
			m->cyc_head = cyc;
		}
		for (struct gprof_sym *m = sym; m; m = m->cyc_next)
			for (struct gprof_arc *a = m->parents; a; a = a->next_parent) {
				if (a->parent == m)
					continue;
				if (a->parent->cyc_num == num)
					cyc->self_calls += a->count;
				else
					cyc->ncalls += a->count;
			}
	}
}

static void inherit_flags(struct gprof_sym *child)
{
	struct gprof_sym *head = child->cyc_head;

	if (child == head) {
		child->print_flag = 0;
		child->prop_fract = 0.0;
		for (struct gprof_arc *a = child->parents; a; a = a->next_parent) {
			struct gprof_sym *parent = a->parent;
			if (child == parent)
				continue;
			child->print_flag |= parent->print_flag;
			if (child->ncalls)
				child->prop_fract += parent->prop_fract *
					(((double)a->count) / ((double)child->ncalls));
		}
	} else {
		head->print_flag = 0;
		head->prop_fract = 0.0;
		for (struct gprof_sym *m = head->cyc_next; m; m = m->cyc_next)
			for (struct gprof_arc *a = m->parents; a; a = a->next_parent) {
				if (a->parent->cyc_head == head)
					continue;
				struct gprof_sym *parent = a->parent;
				head->print_flag |= parent->print_flag;
				if (head->ncalls)
					head->prop_fract += parent->prop_fract *
						(((double)a->count) / ((double)head->ncalls));
			}
		for (struct gprof_sym *m = head; m; m = m->cyc_next) {
			m->print_flag = head->print_flag;
			m->prop_fract = head->prop_fract;
		}
	}
}

static void propagate_flags(struct gprof_sym **top, size_t n, const struct gprof_filters *f,
			    struct gprof_result *res)
{
	struct gprof_sym *old_head = NULL;

	for (size_t i = n; i-- > 0;) {
		struct gprof_sym *child = top[i];
		if (child->cyc_head != old_head) {
			old_head = child->cyc_head;
			inherit_flags(child);
		}
		const struct gprof_ranges *ig = &f->t[GT_INCL_GRAPH], *eg = &f->t[GT_EXCL_GRAPH];
		if (!child->print_flag) {
			if (gprof_ranges_has(ig, child->addr) ||
			    (ig->n == 0 && !gprof_ranges_has(eg, child->addr)))
				child->print_flag = 1;
		} else if (!gprof_ranges_has(ig, child->addr) && gprof_ranges_has(eg, child->addr)) {
			child->print_flag = 0;
		}
		const struct gprof_ranges *it = &f->t[GT_INCL_TIME], *et = &f->t[GT_EXCL_TIME];
		if (child->prop_fract == 0.0) {
			if (gprof_ranges_has(it, child->addr) ||
			    (it->n == 0 && !gprof_ranges_has(et, child->addr)))
				child->prop_fract = 1.0;
		} else if (!gprof_ranges_has(it, child->addr) && gprof_ranges_has(et, child->addr)) {
			child->prop_fract = 0.0;
		}
		child->prop_self = child->time * child->prop_fract;
		res->print_time += child->prop_self;
	}
}

static void cycle_time(struct gprof_result *res)
{
	for (int c = 1; c <= res->num_cycles; c++) {
		struct gprof_sym *cyc = &res->cycles[c];
		for (struct gprof_sym *m = cyc->cyc_next; m; m = m->cyc_next) {
			if (m->prop_fract == 0.0)
				continue;
			cyc->time += m->time;
		}
		cyc->prop_self = cyc->prop_fract * cyc->time;
	}
}

static void propagate_time(struct gprof_sym *parent)
{
	if (parent->prop_fract == 0.0)
		return;
	for (struct gprof_arc *a = parent->children; a; a = a->next_child) {
		struct gprof_sym *child = a->child;
		if (a->count == 0 || child == parent || child->prop_fract == 0)
			continue;
		if (child->cyc_head != child) {
			if (parent->cyc_num == child->cyc_num)
				continue;
			if (parent->top_order <= child->top_order)
				warning("call graph: topological order broken at '%s'", parent->name);
			child = child->cyc_head;
		} else if (parent->top_order <= child->top_order) {
			warning("call graph: topological order broken at '%s'", parent->name);
			continue;
		}
		if (child->ncalls == 0)
			continue;
		/* the "average time per call" share, in gprof's expression order */
		a->time = child->time * (((double)a->count) / ((double)child->ncalls));
		a->child_time = child->child_time * (((double)a->count) / ((double)child->ncalls));
		double share = a->time + a->child_time;
		parent->child_time += share;
		double prop_share = parent->prop_fract * share;
		parent->prop_child += prop_share;
		a->time *= parent->prop_fract;
		a->child_time *= parent->prop_fract;
		if (parent->cyc_head != parent) {
			parent->cyc_head->child_time += share;
			parent->cyc_head->prop_child += prop_share;
		}
	}
}

/*
 * Stable merge sort: glibc's qsort is one for these arrays, and ties keep
 * order.  Like glibc's, it asks cmp(left, right) and takes the left one
 * unless that is above 0: gprof's cmp_total answers -1 both ways for two
 * cycles of equal time, so asking the other way round would swap them.
 */
static void stable_sort(struct gprof_sym **a, size_t n,
			int (*cmp)(const struct gprof_sym *, const struct gprof_sym *))
{
	if (n < 2)
		return;
	struct gprof_sym **tmp = xmalloc(n * sizeof(*tmp));
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				tmp[k++] = cmp(a[i], a[j]) <= 0 ? a[i++] : a[j++];
			while (i < mid)
				tmp[k++] = a[i++];
			while (j < hi)
				tmp[k++] = a[j++];
		}
		memcpy(a, tmp, n * sizeof(*a));
	}
	free(tmp);
}

static int cmp_topo(const struct gprof_sym *l, const struct gprof_sym *r)
{
	return l->top_order - r->top_order;
}

static int cmp_total(const struct gprof_sym *l, const struct gprof_sym *r)
{
	double diff = (l->prop_self + l->prop_child) - (r->prop_self + r->prop_child);
	if (diff < 0.0)
		return 1;
	if (diff > 0.0)
		return -1;
	if (!l->name && l->cyc_num != 0)
		return -1;
	if (!r->name && r->cyc_num != 0)
		return 1;
	if (!l->name)
		return -1;
	if (!r->name)
		return 1;
	if (l->name[0] != '_' && r->name[0] == '_')
		return -1;
	if (l->name[0] == '_' && r->name[0] != '_')
		return 1;
	if (l->ncalls > r->ncalls)
		return -1;
	if (l->ncalls < r->ncalls)
		return 1;
	return strcmp(l->name, r->name);
}

void gprof_assemble(struct gprof_symtab *st, const struct gprof_filters *f,
		    struct gprof_result *res)
{
	size_t n = st->n;

	for (size_t i = 0; i < n; i++) {
		struct gprof_sym *p = &st->syms[i];
		p->child_time = 0.0;
		struct gprof_arc *a = arc_lookup(p, p);
		if (a && p == a->child) {
			p->ncalls -= a->count;
			p->self_calls = a->count;
		} else {
			p->self_calls = 0;
		}
		p->prop_fract = p->prop_self = p->prop_child = 0.0;
		p->print_flag = 0;
		p->top_order = DFN_NAN;
		p->cyc_num = 0;
		p->cyc_head = p;
		p->cyc_next = NULL;
	}
	struct dfn d = { 0 };
	for (size_t i = 0; i < n; i++)
		if (st->syms[i].top_order == DFN_NAN)
			dfn(&d, &st->syms[i]);
	free(d.stack);
	free(d.next);
	cycle_link(st, res);

	struct gprof_sym **top = xmalloc((n ? n : 1) * sizeof(*top));
	for (size_t i = 0; i < n; i++)
		top[i] = &st->syms[i];
	stable_sort(top, n, cmp_topo);
	propagate_flags(top, n, f, res);
	cycle_time(res);
	for (size_t i = 0; i < n; i++)
		propagate_time(top[i]);
	free(top);

	res->ntime_sorted = n + (size_t)res->num_cycles;
	res->time_sorted = xmalloc((res->ntime_sorted ? res->ntime_sorted : 1) *
				   sizeof(*res->time_sorted));
	for (size_t i = 0; i < n; i++)
		res->time_sorted[i] = &st->syms[i];
	for (int c = 1; c <= res->num_cycles; c++)
		res->time_sorted[n + (size_t)c - 1] = &res->cycles[c];
	stable_sort(res->time_sorted, res->ntime_sorted, cmp_total);
	for (size_t i = 0; i < res->ntime_sorted; i++)
		res->time_sorted[i]->index = (int)i + 1;
}

void gprof_result_release(struct gprof_result *res)
{
	for (size_t i = 0; i < res->narcs; i++)
		free(res->arcs[i]);
	free(res->arcs);
	free(res->cycles);
	free(res->time_sorted);
	memset(res, 0, sizeof(*res));
}
