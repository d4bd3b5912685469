/*
 * The source-level views of `callscope gprof`, all from DWARF line
 * tables (symbols/dwarf_source.h):
 *
 *   -l  line granularity: one symbol per source line, so the flat
 *       profile charges samples to lines and the call graph names the
 *       line each call was made from ("name (file:line @ addr)", gprof's
 *       notation);
 *   -C  execution counts: gprof's "FILE:LINE: (FUNC:0xADDR) N executions"
 *       lines; glibc writes no basic-block counts, so these are calls;
 *   -A  annotated source: in gprof_annotate.c, from the line symbols
 *       made here.
 *
 * gprof walks every byte of .text asking for its line; here only the
 * addresses where the answer may change are asked
 * (dwarf_source_changes()), which gives the same symbols far faster.
 */
#include "gprof/gprof.h"

#include <errno.h>
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "partition.h"
#include "symbols/dwarf_source.h"
#include "xalloc.h"

/*
 * Every function-like symbol of .symtab in .text, whatever gprof's filters
 * kept: what BFD names an address by when DWARF puts no function there
 * (a clone's stray bytes are "f.constprop.0" to gprof).  Sorted by
 * address; of equal addresses the later symbol wins, as in BFD.
 */
struct elf_name {
	uint64_t addr;
	size_t order;		/* in .symtab */
	const char *name;	/* borrowed from the symbol table */
};

struct elf_names {
	struct elf_name *a;
	size_t n, alloc;
};

static int cmp_elf_name(const void *l, const void *r)
{
	const struct elf_name *x = l, *y = r;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void elf_names_load(const struct gprof_symtab *st, struct elf_names *en)
{
	const struct symtab_entries *f = &st->file;

	memset(en, 0, sizeof(*en));
	for (size_t i = 0; i < f->n; i++) {
		const struct symtab_entry *e = &f->a[i];
		if (e->type != STT_FUNC && e->type != STT_NOTYPE && e->type != STT_GNU_IFUNC)
			continue;
		if (e->value < st->text_lo || e->value >= st->text_hi)
			continue;
		/* a whole name: one the string table's end cuts off is none */
		if (!e->name || !*e->name ||
		    !memchr(e->name, 0, (size_t)(f->strings_end - e->name)))
			continue;
		ALLOC_GROW(en->a, en->n + 1, en->alloc);
		en->a[en->n++] = (struct elf_name){ e->value, e->index, e->name };
	}
	if (en->n)
		qsort(en->a, en->n, sizeof(*en->a), cmp_elf_name);
}

/* The name of the last symbol at or below ADDR, or NULL. */
static const char *elf_names_lookup(const struct elf_names *en, uint64_t addr)
{
	size_t lo = PARTITION_POINT(en->n, mid, en->a[mid].addr <= addr);
	return lo ? en->a[lo - 1].name : NULL;
}

static void elf_names_release(struct elf_names *en)
{
	free(en->a);
}

/* The growing table of line symbols, and the last one added. */
struct line_table {
	struct gprof_symtab *st;
	struct gprof_sym *syms;
	size_t n, alloc;
	struct gprof_sym prev;
	struct elf_names names;
};

/*
 * Adds the symbol of FILE:LINE at ADDR, named as gprof names it (BFD's
 * find_nearest_line): by the function DWARF puts there (the static one -a
 * left out of the symbols, the one inlined there), else by the nearest
 * symbol below it.  Like gprof, a new symbol only where the line, file or
 * name changes.
 */
static void add_line_sym(struct gprof_symtab *st, struct line_table *lt, uint64_t addr,
			 const char *file, int line)
{
	struct gprof_sym *fn = gprof_lookup(st->funcs, st->nfuncs, addr);
	if (!fn)
		return;
	const char *name = NULL, *dwfile;
	int dwline;
	if (!gprof_src_info(st, addr, &dwfile, &dwline, &name) || !name)
		name = elf_names_lookup(&lt->names, addr);
	if (!name)
		name = fn->name;
	if (lt->prev.name && lt->prev.line == line && !strcmp(lt->prev.name, name) &&
	    !strcmp(lt->prev.file, file))
		return;
	ALLOC_GROW(lt->syms, lt->n + 1, lt->alloc);
	struct gprof_sym *s = &lt->syms[lt->n++];
	memset(s, 0, sizeof(*s));
	s->addr = addr;
	s->name = name == fn->name ? fn->name : gprof_symtab_keep(st, xstrdup(name));
	s->file = gprof_symtab_keep(st, xstrdup(file));
	s->line = line;
	s->is_static = fn->is_static;
	s->is_line = 1;
	s->order = UINT32_MAX;
	lt->prev = *s;
}

static void add_line_change(void *ctx, uint64_t addr, const char *file, int line)
{
	struct line_table *lt = ctx;
	add_line_sym(lt->st, lt, addr, file, line);
}

struct gprof_sym *gprof_line_syms(struct gprof_symtab *st, size_t *nout)
{
	struct line_table lt = { .st = st };

	elf_names_load(st, &lt.names);
	dwarf_source_changes(st->file.dwarf, st->text_lo, st->text_hi, add_line_change, &lt);
	ALLOC_GROW(lt.syms, lt.n + st->nfuncs + 1, lt.alloc);
	for (size_t i = 0; i < st->nfuncs; i++) {
		/* functions keep their end, as gprof copies them: one whose
		 * range is empty (data_start past .text) is dropped again */
		lt.syms[lt.n] = st->funcs[i];
		lt.syms[lt.n].time = 0;
		lt.n++;
	}
	elf_names_release(&lt.names);
	*nout = gprof_symtab_finalize(lt.syms, lt.n, st->text_hi);
	return lt.syms;
}

void gprof_make_line_syms(struct gprof_symtab *st, const struct gmon *g)
{
	(void)g;
	size_t n;
	struct gprof_sym *syms = gprof_line_syms(st, &n);
	st->syms = syms;
	st->n = n;
}

static int cmp_bb(const void *lp, const void *rp)
{
	const struct gprof_sym *l = *(const struct gprof_sym *const *)lp;
	const struct gprof_sym *r = *(const struct gprof_sym *const *)rp;

	if (l->file && r->file) {
		int c = strcmp(l->file, r->file);
		if (c)
			return c;
		if (l->line != r->line)
			return l->line - r->line;
	}
	return l->addr < r->addr ? -1 : l->addr > r->addr;
}

uint64_t *gprof_bb_slots(const struct gprof_symtab *st, const struct gmon *g,
			 const struct gprof_opts *o, uint64_t **calls_out)
{
	*calls_out = NULL;
	if (!g->nbbs || !o->line_granularity)
		return NULL;
	uint64_t *addr = xcalloc(st->n * GPROF_NBBS + 1, sizeof(*addr));
	uint64_t *calls = xcalloc(st->n * GPROF_NBBS + 1, sizeof(*calls));
	for (size_t k = 0; k < g->nbbs; k++) {
		const struct gprof_sym *s = gprof_lookup(st->syms, st->n, g->bbs[k].addr);
		if (!s || !g->bbs[k].addr)
			continue;
		size_t base = (size_t)(s - st->syms) * GPROF_NBBS;
		for (size_t j = 0; j < GPROF_NBBS; j++)
			if (!addr[base + j] || addr[base + j] == g->bbs[k].addr) {
				addr[base + j] = g->bbs[k].addr;
				calls[base + j] += g->bbs[k].count;
				break;
			}
	}
	*calls_out = calls;
	return addr;
}

void gprof_print_exec_counts(FILE *out, struct gprof_symtab *st, const struct gmon *g,
			     const struct gprof_filters *f, const struct gprof_opts *o,
			     int *first)
{
	struct gprof_sym **sorted = xmalloc((st->n + 1) * sizeof(*sorted));
	size_t len = 0;
	uint64_t *bb_calls, *bb_addr = gprof_bb_slots(st, g, o, &bb_calls);

	if (!*first)
		fputs("\f\n", out);
	*first = 0;
	/* every symbol, line symbols too, in gprof's table order: its
	 * comparison is no total order (a symbol without a file compares by
	 * address alone), so only the same input gives the same order */
	for (size_t i = 0; i < st->n; i++) {
		struct gprof_sym *s = &st->syms[i];
		if (gprof_table_accepts(f, GT_INCL_EXEC, GT_EXCL_EXEC, s->addr))
			sorted[len++] = s;
	}
	qsort(sorted, len, sizeof(*sorted), cmp_bb);
	for (size_t i = 0; i < len; i++) {
		struct gprof_sym *s = sorted[i];
		const char *file = s->file ? s->file : "<unknown>";
		if (s->ncalls > 0 || !o->ignore_zeros)
			fprintf(out, "%s:%d: (%s:0x%" PRIx64 ") %" PRIu64 " executions\n", file,
				s->line, s->name, s->addr, s->ncalls);
		size_t base = (size_t)(s - st->syms) * GPROF_NBBS;
		for (size_t j = 0; bb_addr && j < GPROF_NBBS && bb_addr[base + j]; j++)
			if (bb_calls[base + j] > 0 || !o->ignore_zeros)
				fprintf(out, "%s:%d: (%s:0x%" PRIx64 ") %" PRIu64 " executions\n",
					file, s->line, s->name, bb_addr[base + j],
					bb_calls[base + j]);
	}
	free(bb_addr);
	free(bb_calls);
	free(sorted);
}
