/*
 * The source-level views of `callscope gprof`, all from DWARF line
 * tables (libdw):
 *
 *   -l  line granularity: one symbol per source line, so the flat
 *       profile charges samples to lines and the call graph names the
 *       line each call was made from ("name (file:line @ addr)", gprof's
 *       notation);
 *   -C  execution counts: gprof's "FILE:LINE: (FUNC:0xADDR) N executions"
 *       lines; glibc writes no basic-block counts, so these are calls;
 *   -A  annotated source: each source file with, per line, the seconds
 *       sampled there and, at each function's first line, its calls.
 *
 * gprof walks every byte of .text asking for its line; here each row of
 * the line table is taken once, which gives the same symbols far faster.
 */
#include "report/gprof.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
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
	const char *name;	/* borrowed from the ELF data */
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
	Elf *elf = st->elf;
	Elf_Scn *scn = NULL;

	memset(en, 0, sizeof(*en));
	while (elf && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t count = data ? data->d_size / sh.sh_entsize : 0;
		for (size_t i = 1; i < count; i++) {
			GElf_Sym es;
			if (!gelf_getsym(data, (int)i, &es))
				continue;
			int type = GELF_ST_TYPE(es.st_info);
			if (type != STT_FUNC && type != STT_NOTYPE && type != STT_GNU_IFUNC)
				continue;
			if (es.st_value < st->text_lo || es.st_value >= st->text_hi)
				continue;
			const char *name = elf_strptr(elf, sh.sh_link, es.st_name);
			if (!name || !*name)
				continue;
			ALLOC_GROW(en->a, en->n + 1, en->alloc);
			en->a[en->n++] = (struct elf_name){ es.st_value, i, name };
		}
		break;
	}
	if (en->n)
		qsort(en->a, en->n, sizeof(*en->a), cmp_elf_name);
}

/* The name of the last symbol at or below ADDR, or NULL. */
static const char *elf_names_lookup(const struct elf_names *en, uint64_t addr)
{
	size_t lo = 0, hi = en->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (en->a[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? en->a[lo - 1].name : NULL;
}

static void elf_names_release(struct elf_names *en)
{
	free(en->a);
}

/* The growing table of line symbols, and the last one added. */
struct line_table {
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

struct bounds {
	uint64_t *a;
	size_t n, alloc;
};

/* Where the functions and inlined calls under DIE start and end. */
static void scope_bounds(Dwarf_Die *die, struct bounds *b)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			Dwarf_Addr base, lo, hi;
			ptrdiff_t off = 0;
			while ((off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0) {
				ALLOC_GROW(b->a, b->n + 2, b->alloc);
				b->a[b->n++] = lo;
				b->a[b->n++] = hi;
			}
		}
		scope_bounds(&child, b);
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int cmp_u64(const void *l, const void *r)
{
	uint64_t a = *(const uint64_t *)l, b = *(const uint64_t *)r;
	return a < b ? -1 : a > b;
}

/* A malloc'd table of line symbols plus the function symbols, finalized. */
static struct gprof_sym *line_syms(struct gprof_symtab *st, size_t *nout)
{
	struct line_table lt = { 0 };
	Dwarf *dbg = st->dwarf;

	elf_names_load(st, &lt.names);
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dbg && dwarf_nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t nlines;
		if (!dwarf_offdie(dbg, off + hsize, &cu) ||
		    dwarf_getsrclines(&cu, &lines, &nlines) != 0) {
			off = next;
			continue;
		}
		/* gprof asks about every byte, so a function inlined from the
		 * middle of a row starts a symbol there: rows are split where
		 * a function or inlined call begins or ends */
		struct bounds b = { 0 };
		scope_bounds(&cu, &b);
		qsort(b.a, b.n, sizeof(*b.a), cmp_u64);
		size_t bi = 0;
		for (size_t i = 0; i < nlines; i++) {
			Dwarf_Line *l = dwarf_onesrcline(lines, i);
			Dwarf_Addr addr;
			int lineno = 0;
			bool end = false;
			if (!l || dwarf_lineaddr(l, &addr) || dwarf_lineno(l, &lineno) ||
			    dwarf_lineendsequence(l, &end) || end || !lineno)
				continue;
			if (addr < st->text_lo || addr >= st->text_hi)
				continue;
			/* of several rows at one address BFD answers with the
			 * last: the others cover no byte */
			Dwarf_Line *nl = i + 1 < nlines ? dwarf_onesrcline(lines, i + 1) : NULL;
			Dwarf_Addr naddr = addr;
			if (nl && (dwarf_lineaddr(nl, &naddr) || naddr == addr))
				continue;
			const char *file = dwarf_linesrc(l, NULL, NULL);
			if (!file)
				continue;
			add_line_sym(st, &lt, addr, file, lineno);
			/* rows of one sequence ascend; a new sequence may not */
			while (bi > 0 && b.a[bi - 1] > addr)
				bi--;
			while (bi < b.n && b.a[bi] <= addr)
				bi++;
			for (size_t k = bi; nl && k < b.n && b.a[k] < naddr; k++)
				if (b.a[k] < st->text_hi)
					add_line_sym(st, &lt, b.a[k], file, lineno);
		}
		free(b.a);
		off = next;
	}
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
	struct gprof_sym *syms = line_syms(st, &n);
	st->syms = syms;
	st->n = n;
}

static int in_table(const struct gprof_filters *f, enum gprof_table incl, enum gprof_table excl,
		    uint64_t addr)
{
	return gprof_ranges_has(&f->t[incl], addr) ||
	       (f->t[incl].n == 0 && !gprof_ranges_has(&f->t[excl], addr));
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

void gprof_print_exec_counts(FILE *out, struct gprof_symtab *st, const struct gmon *g,
			     const struct gprof_filters *f, const struct gprof_opts *o,
			     int *first)
{
	struct gprof_sym **sorted = xmalloc((st->n + 1) * sizeof(*sorted));
	size_t len = 0;

	(void)g;
	if (!*first)
		fputs("\f\n", out);
	*first = 0;
	/* every symbol, line symbols too, in gprof's table order: its
	 * comparison is no total order (a symbol without a file compares by
	 * address alone), so only the same input gives the same order */
	for (size_t i = 0; i < st->n; i++) {
		struct gprof_sym *s = &st->syms[i];
		if (in_table(f, GT_INCL_EXEC, GT_EXCL_EXEC, s->addr))
			sorted[len++] = s;
	}
	qsort(sorted, len, sizeof(*sorted), cmp_bb);
	for (size_t i = 0; i < len; i++) {
		struct gprof_sym *s = sorted[i];
		if (s->ncalls > 0 || !o->ignore_zeros)
			fprintf(out, "%s:%d: (%s:0x%" PRIx64 ") %" PRIu64 " executions\n",
				s->file ? s->file : "<unknown>", s->line, s->name, s->addr, s->ncalls);
	}
	free(sorted);
}

/* ---- -A ---- */

struct line_stat {
	double seconds;
	uint64_t calls;
	int is_func_start;
};

static FILE *open_source(const char *path, const struct gprof_opts *o)
{
	FILE *f = fopen(path, "r");
	if (f)
		return f;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (size_t i = 0; i < o->nsearch_dirs; i++) {
		char *p = xasprintf("%s/%s", o->search_dirs[i], base);
		f = fopen(p, "r");
		free(p);
		if (f)
			return f;
	}
	return NULL;
}

static int cmp_top(const void *a, const void *b, void *arg)
{
	const struct line_stat *ls = arg;
	size_t l = *(const size_t *)a, r = *(const size_t *)b;
	if (ls[l].calls != ls[r].calls)
		return ls[l].calls < ls[r].calls ? 1 : -1;
	return l < r ? -1 : l > r;
}

static int annotate_file(FILE *out, const char *path, struct gprof_sym *lines, size_t nlines,
			 const struct gprof_symtab *st, const struct gprof_filters *f,
			 const struct gprof_opts *o, double hz)
{
	/* -y: a file of its own, which gprof begins with the source itself */
	int named = !o->separate_files;
	FILE *src = open_source(path, o);
	if (!src) {
		warning("cannot open the source '%s': %s; give its directory with -I", path,
			strerror(errno));
		return 0;
	}
	int maxline = 0;
	for (size_t i = 0; i < nlines; i++)
		if (lines[i].file && !strcmp(lines[i].file, path) && lines[i].line > maxline)
			maxline = lines[i].line;
	for (size_t i = 0; i < st->nfuncs; i++)
		if (st->funcs[i].file && !strcmp(st->funcs[i].file, path) &&
		    st->funcs[i].line > maxline)
			maxline = st->funcs[i].line;
	struct line_stat *ls = xcalloc((size_t)maxline + 2, sizeof(*ls));
	for (size_t i = 0; i < nlines; i++)
		if (lines[i].file && !strcmp(lines[i].file, path))
			ls[lines[i].line].seconds += lines[i].time / hz;
	for (size_t i = 0; i < st->nfuncs; i++) {
		const struct gprof_sym *fn = &st->funcs[i];
		if (!fn->file || strcmp(fn->file, path) || fn->line <= 0)
			continue;
		ls[fn->line].is_func_start = 1;
		ls[fn->line].calls += fn->ncalls;
	}
	(void)f;
	if (named)
		fprintf(out, "*** File %s:\n", path);
	fprintf(out, "%10s %12s\n", "seconds", "calls");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t got;
	int lineno = 0;
	while ((got = getline(&buf, &cap, src)) >= 0) {
		lineno++;
		if (got && buf[got - 1] == '\n')
			buf[got - 1] = '\0';
		struct line_stat *s = lineno <= maxline ? &ls[lineno] : NULL;
		char secs[32] = "", calls[32] = "";
		if (s && s->seconds > 0)
			snprintf(secs, sizeof(secs), "%.2f", s->seconds);
		if (s && s->is_func_start) {
			if (s->calls)
				snprintf(calls, sizeof(calls), "%" PRIu64, s->calls);
			else
				strcpy(calls, "#####");
		}
		fprintf(out, "%10s %12s %s %s\n", secs, calls, *calls ? "->" : "  ", buf);
	}
	free(buf);
	fclose(src);

	/* the busiest lines, then a summary, as gprof closes a file */
	size_t nexec = 0, nrun = 0;
	uint64_t total = 0;
	size_t *order = xmalloc(((size_t)maxline + 1) * sizeof(*order));
	for (int i = 1; i <= maxline; i++)
		if (ls[i].is_func_start) {
			order[nexec++] = (size_t)i;
			if (ls[i].calls)
				nrun++;
			total += ls[i].calls;
		}
	qsort_r(order, nexec, sizeof(*order), cmp_top, ls);
	size_t top = (size_t)o->table_length < nexec ? (size_t)o->table_length : nexec;
	fprintf(out, "\n\nTop %d Lines:\n\n     Line      Count\n\n", o->table_length);
	for (size_t i = 0; i < top; i++)
		if (ls[order[i]].calls)
			fprintf(out, "%9zu %10" PRIu64 "\n", order[i], ls[order[i]].calls);
	fprintf(out, "\nExecution Summary:\n\n");
	fprintf(out, "%9zu   Executable lines in this file\n", nexec);
	fprintf(out, "%9zu   Lines executed\n", nrun);
	fprintf(out, "%9.2f   Percent of the file executed\n",
		nexec ? 100.0 * (double)nrun / (double)nexec : 0.0);
	fprintf(out, "\n%9" PRIu64 "   Total number of line executions\n", total);
	fprintf(out, "%9.2f   Average executions per line\n",
		nexec ? (double)total / (double)nexec : 0.0);
	free(order);
	free(ls);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int gprof_print_annotated(FILE *out, struct gprof_symtab *st, const struct gmon *g,
			  const struct gprof_filters *f, const struct gprof_opts *o,
			  struct gprof_result *res, int *first)
{
	size_t nlines;
	struct gprof_sym *lines = line_syms(st, &nlines);
	struct gprof_symtab tmp = *st;
	tmp.syms = lines;
	tmp.n = nlines;
	/* samples per line: the same crediting as the flat profile, on lines */
	struct gprof_result lres = { 0 };
	struct gprof_filters none;
	memset(&none, 0, sizeof(none));
	gprof_assign_samples(&tmp, g, &none, &lres);

	const char **files = NULL;
	size_t nfiles = 0, alloc = 0;
	for (size_t i = 0; i < st->nfuncs; i++) {
		const struct gprof_sym *fn = &st->funcs[i];
		if (!fn->file || !in_table(f, GT_INCL_ANNO, GT_EXCL_ANNO, fn->addr))
			continue;
		if (o->ignore_zeros && fn->ncalls == 0 && fn->time == 0 && fn->self_calls == 0)
			continue;
		ALLOC_GROW(files, nfiles + 1, alloc);
		files[nfiles++] = fn->file;
	}
	qsort(files, nfiles, sizeof(*files), cmp_str);
	int first_file = 1;
	for (size_t i = 0; i < nfiles; i++) {
		if (i && !strcmp(files[i], files[i - 1]))
			continue;
		/* as gprof: a blank line between files, a form feed after
		 * any output (only on stdout: -y gives each file its own) */
		if (!o->separate_files) {
			if (!first_file)
				fputc('\n', out);
			first_file = 0;
			if (!*first)
				fputs("\f\n", out);
			*first = 0;
		}
		FILE *dst = out;
		char *name = NULL;
		if (o->separate_files) {
			const char *base = strrchr(files[i], '/');
			name = xasprintf("%s-ann", base ? base + 1 : files[i]);
			dst = fopen(name, "w");
			if (!dst) {
				error("cannot create '%s': %s", name, strerror(errno));
				free(name);
				continue;
			}
		}
		annotate_file(dst, files[i], lines, nlines, st, f, o, res->hz);
		if (dst != out)
			fclose(dst);
		free(name);
	}
	free(files);
	free(lines);
	return 0;
}
