/*
 * callscope gprof -A: the annotated source.  Each source file that holds
 * a profiled function is printed line by line; the line a function starts
 * on (from DWARF, as every line here) carries its calls, "#####" when they
 * are below -m's minimum (1 unless given).  A table of the busiest of
 * those lines (-t long) and a summary close each file.  Two layouts:
 *
 *   default           callscope's: two columns, the seconds sampled on
 *                     each line (the histogram credited to DWARF lines as
 *                     -l credits it) and the calls; "lines executed" are
 *                     the lines whose calls reach the minimum
 *   --compat=strict   GNU gprof's, byte for byte: one 16-wide column
 *                     "N -> ", and gprof's count of lines executed, which
 *                     takes every function's first line, called or not
 *
 * With -l -x and a program built with --coverage, the counts column is
 * what gcov counted, tcov style, as gprof's documentation describes -A
 * -x with basic-block counts (which gcc no longer writes to gmon.out):
 * every line with code has its executions, "#####" if it never ran, and
 * the top list and summary count those lines.
 *
 * The symbols are gprof's (-A/-J specs apply to them); files come in
 * gprof's order: the file of the last function of .symtab first.
 */
#include "gprof/gprof.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "formats/gcov_read.h"
#include "outfile.h"
#include "readfile.h"
#include "xalloc.h"

struct line_stat {
	double seconds;
	uint64_t calls;
	int has_sym;		/* an annotated symbol starts on this line */
	int is_func;		/* the first of them is a function */
	const uint64_t *bb_addr, *bb_calls;	/* the first one's blocks, or NULL */
	uint64_t addr;		/* where the first one starts */
	int executed;		/* a count was shown on it (and, in callscope's
				 * layout, not "#####") */
	int counted;		/* gcov counted it: CALLS are its executions */
};

/* What the counts column says of a line, as gprof's annotate_with_count
 * works it out; LAST_COUNT carries over from line to line, as there. */
struct counts_text {
	char text[GPROF_NBBS * 24 + 32];
	int set;		/* a count is shown: gprof calls the line executed */
	int below;		/* it is "#####" */
};

/* One source file to annotate and the key of gprof's order for it. */
struct source {
	const char *path;	/* borrowed from the symbol table */
	uint64_t key;		/* when gprof met it: the latest is printed first */
	uint64_t calls;		/* of its annotated symbols */
	int active;		/* calls, time or self-calls (default layout) */
};

static FILE *open_source(const char *path, const struct gprof_opts *o)
{
	FILE *f = fopen_regular(path);
	if (f)
		return f;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (size_t i = 0; i < o->nsearch_dirs; i++) {
		char *p = xasprintf("%s/%s", o->search_dirs[i], base);
		f = fopen_regular(p);
		free(p);
		if (f)
			return f;
	}
	return NULL;
}

/* Busiest first; equal counts in line order (gprof's sort is stable). */
static int cmp_top(const void *a, const void *b, void *arg)
{
	const struct line_stat *ls = arg;
	size_t l = *(const size_t *)a, r = *(const size_t *)b;
	if (ls[l].calls != ls[r].calls)
		return ls[l].calls < ls[r].calls ? 1 : -1;
	return l < r ? -1 : l > r;
}

static int annotated(const struct gprof_sym *s, const char *path, const struct gprof_filters *f)
{
	return s->file && !strcmp(s->file, path) && s->line > 0 &&
	       gprof_table_accepts(f, GT_INCL_ANNO, GT_EXCL_ANNO, s->addr);
}

/*
 * The counts of line S: a function's calls, then its basic blocks' counts
 * (-l with BB_COUNT records), "#####" when their sum is below MIN_CALLS;
 * -x repeats the count still running on lines that start none.
 */
static void counts_of(struct counts_text *c, const struct line_stat *s, unsigned long min_calls,
		      int all_lines, uint64_t *last_count)
{
	char *p = c->text, *end = c->text + sizeof(c->text);
	uint64_t ncalls = 0, last_print = UINT64_MAX;

	c->text[0] = '\0';
	c->set = c->below = 0;
	if (s && s->counted) {
		c->set = 1;
		c->below = s->calls < (min_calls ? min_calls : 1);
		if (c->below)
			snprintf(c->text, sizeof(c->text), "#####");
		else
			snprintf(c->text, sizeof(c->text), "%" PRIu64, s->calls);
		return;
	}
	if (!s || !s->has_sym)
		return;
	if (s->is_func) {
		p += snprintf(p, (size_t)(end - p), "%" PRIu64, s->calls);
		*last_count = last_print = ncalls = s->calls;
		c->set = 1;
	} else if (all_lines && s->bb_addr && s->bb_addr[0] && s->bb_addr[0] > s->addr) {
		p += snprintf(p, (size_t)(end - p), "%" PRIu64, *last_count);
		last_print = ncalls = *last_count;
		c->set = 1;
	}
	for (size_t i = 0; s->bb_addr && i < GPROF_NBBS && s->bb_addr[i]; i++) {
		*last_count = s->bb_calls[i];
		if (!c->set) {
			ncalls = 0;
			c->set = 1;
		}
		ncalls += *last_count;
		if (all_lines && *last_count == last_print)
			continue;
		p += snprintf(p, (size_t)(end - p), "%s%" PRIu64, p > c->text ? "," : "",
			      *last_count);
		last_print = *last_count;
	}
	if (all_lines && p == c->text) {
		p += snprintf(p, (size_t)(end - p), "%" PRIu64, *last_count);
		c->set = 1;
		ncalls = *last_count;
	}
	if (c->set && ncalls < min_calls) {
		snprintf(c->text, sizeof(c->text), "#####");
		c->below = 1;
	}
}

/* The 16 columns gprof puts before each line. */
static void gnu_annotation(FILE *out, const struct counts_text *c)
{
	char text[sizeof(c->text) + 8];

	if (!c->set) {
		fprintf(out, "%16s", "");
		return;
	}
	snprintf(text, sizeof(text), "%s -> ", c->text);
	fprintf(out, "%16.16s", text);
}

static void own_annotation(FILE *out, const struct line_stat *s, const struct counts_text *c)
{
	char secs[32] = "";

	if (s && s->seconds > 0)
		snprintf(secs, sizeof(secs), "%.2f", s->seconds);
	fprintf(out, "%10s %12s %s ", secs, c->set ? c->text : "", c->set ? "->" : "  ");
}

/*
 * Annotates PATH into OUT.  On stdout (not -y) the file is named first,
 * after a blank line if another file came before (*FIRST_FILE) and a
 * form feed if any output did (*FIRST), as gprof separates them.
 */
static void annotate_file(FILE *out, const struct source *src, const struct gprof_sym *lines,
			  size_t nlines, const struct gprof_symtab *st,
			  const struct gprof_filters *f, const struct gprof_opts *o, double hz,
			  const uint64_t *bb_addr, const uint64_t *bb_calls, uint64_t *last_count,
			  int *first, int *first_file)
{
	const char *path = src->path;
	unsigned long min_calls = o->min_count;
	FILE *in = open_source(path, o);

	if (!in) {
		warning("cannot open the source '%s': %s; give its directory with -I", path,
			strerror(errno));
		return;
	}
	const struct gcov_file *gf = o->line_counts && o->annotate_all_lines
					     ? gcov_file_of(o->line_counts, path) : NULL;
	int maxline = 0;
	for (size_t i = 0; i < st->n; i++)
		if (annotated(&st->syms[i], path, f) && st->syms[i].line > maxline)
			maxline = st->syms[i].line;
	for (size_t i = 0; gf && i < gf->nlines; i++)
		if (gf->lines[i].line > maxline)
			maxline = gf->lines[i].line;
	struct line_stat *ls = xcalloc((size_t)maxline + 2, sizeof(*ls));
	for (size_t i = 0; i < nlines; i++)
		if (lines[i].file && !strcmp(lines[i].file, path) && lines[i].line <= maxline &&
		    lines[i].line > 0)
			ls[lines[i].line].seconds += lines[i].time / hz;
	for (size_t i = 0; i < st->n; i++) {
		const struct gprof_sym *s = &st->syms[i];
		if (!annotated(s, path, f))
			continue;
		struct line_stat *l = &ls[s->line];
		if (!l->has_sym) {
			l->is_func = s->is_func;
			l->addr = s->addr;
			if (bb_addr) {
				l->bb_addr = bb_addr + i * GPROF_NBBS;
				l->bb_calls = bb_calls + i * GPROF_NBBS;
			}
		}
		l->has_sym = 1;
		l->calls += s->ncalls;
	}
	uint64_t executions = src->calls;
	if (gf) {
		/* the lines are gcov's: each with code, counted once (the
		 * first of several functions on one line, as annotate --counts) */
		executions = 0;
		for (int i = 0; i <= maxline; i++)
			ls[i].has_sym = 0, ls[i].calls = 0;
		for (size_t i = 0; i < gf->nlines; i++) {
			struct line_stat *l = &ls[gf->lines[i].line];
			if (l->counted)
				continue;
			l->counted = l->has_sym = 1;
			l->calls = gf->lines[i].count;
			executions += l->calls;
		}
	}

	if (!o->separate_files) {
		if (!*first_file)
			fputc('\n', out);
		*first_file = 0;
		if (!*first)
			fputs("\f\n", out);
		*first = 0;
		fprintf(out, "*** File %s:\n", path);
	}
	if (!o->strict)
		fprintf(out, "%10s %12s\n", "seconds", "calls");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t got;
	int lineno = 0;
	while ((got = getline(&buf, &cap, in)) >= 0) {
		lineno++;
		struct line_stat *s = lineno <= maxline ? &ls[lineno] : NULL;
		struct counts_text c;
		counts_of(&c, s, min_calls, o->annotate_all_lines, last_count);
		if (s)
			s->executed = c.set && (o->strict || !c.below);
		if (o->strict)
			gnu_annotation(out, &c);
		else
			own_annotation(out, s, &c);
		fwrite(buf, 1, (size_t)got, out);
		if (!o->strict && (!got || buf[got - 1] != '\n'))
			fputc('\n', out);
	}
	free(buf);
	fclose(in);

	/* the busiest lines, then a summary, as gprof closes a file */
	size_t nexec = 0, nrun = 0, nsyms = 0;
	size_t *order = xmalloc(((size_t)maxline + 1) * sizeof(*order));
	for (int i = 1; i <= maxline; i++) {
		if (!ls[i].has_sym)
			continue;
		order[nsyms++] = (size_t)i;
		nexec++;
		if (ls[i].executed)
			nrun++;
	}
	qsort_r(order, nsyms, sizeof(*order), cmp_top, ls);
	if (o->table_length > 0) {
		fprintf(out, "\n\nTop %d Lines:\n\n     Line      Count\n\n", o->table_length);
		for (size_t i = 0; i < nsyms && i < (size_t)o->table_length; i++) {
			if (!ls[order[i]].calls)
				break;
			fprintf(out, "%9zu %10" PRIu64 "\n", order[i], ls[order[i]].calls);
		}
	}
	fprintf(out, "\nExecution Summary:\n\n");
	fprintf(out, "%9zu   Executable lines in this file\n", nexec);
	fprintf(out, "%9zu   Lines executed\n", nrun);
	fprintf(out, "%9.2f   Percent of the file executed\n",
		nexec ? 100.0 * (double)nrun / (double)nexec : 100.0);
	fprintf(out, "\n%9" PRIu64 "   Total number of line executions\n", executions);
	fprintf(out, "%9.2f   Average executions per line\n",
		nexec ? (double)executions / (double)nexec : 0.0);
	free(order);
	free(ls);
}

static int by_key_desc(const void *a, const void *b)
{
	const struct source *x = a, *y = b;
	return x->key < y->key ? 1 : x->key > y->key ? -1 : 0;
}

/*
 * The files to annotate.  gprof meets a file at the first function of
 * .symtab that lies in it (then at line symbols, in address order) and
 * puts each new file at the head of its list: the file met last comes
 * first.
 */
static struct source *sources(const struct gprof_symtab *st, const struct gprof_filters *f,
			      size_t *nout)
{
	struct source *src = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < st->n; i++) {
		const struct gprof_sym *s = &st->syms[i];
		if (!s->file)
			continue;
		uint64_t met = s->is_line ? (uint64_t)UINT32_MAX + 1 + i : s->order;
		size_t k = 0;
		while (k < n && strcmp(src[k].path, s->file))
			k++;
		if (k == n) {
			ALLOC_GROW(src, n + 1, alloc);
			memset(&src[n], 0, sizeof(src[n]));
			src[n].path = s->file;
			src[n++].key = met;
		}
		if (met < src[k].key)
			src[k].key = met;
		if (!gprof_table_accepts(f, GT_INCL_ANNO, GT_EXCL_ANNO, s->addr) || s->line <= 0)
			continue;
		src[k].calls += s->ncalls;
		src[k].active |= s->ncalls || s->time > 0 || s->self_calls;
	}
	qsort(src, n, sizeof(*src), by_key_desc);
	*nout = n;
	return src;
}

int gprof_print_annotated(FILE *out, struct gprof_symtab *st, const struct gmon *g,
			  const struct gprof_filters *f, const struct gprof_opts *o,
			  struct gprof_result *res, int *first)
{
	size_t nlines, nsrc;
	struct gprof_sym *lines = gprof_line_syms(st, &nlines);
	struct gprof_symtab tmp = *st;
	tmp.syms = lines;
	tmp.n = nlines;
	/* samples per line: the same crediting as the flat profile, on lines */
	struct gprof_result lres = { 0 };
	struct gprof_filters none;
	memset(&none, 0, sizeof(none));
	gprof_assign_samples(&tmp, g, &none, &lres);

	struct source *src = sources(st, f, &nsrc);
	uint64_t *bb_calls, *bb_addr = gprof_bb_slots(st, g, o, &bb_calls);
	uint64_t last_count = 0;
	int first_file = 1;
	for (size_t i = 0; i < nsrc; i++) {
		int wanted = o->strict ? src[i].calls > 0 : src[i].active;
		if (o->ignore_zeros && !wanted)
			continue;
		FILE *dst = out;
		char *name = NULL;
		struct outfile ann = { 0 };
		if (o->separate_files) {
			/* as gprof, a file that cannot be written is said and skipped */
			const char *base = strrchr(src[i].path, '/');
			name = xasprintf("%s-ann", base ? base + 1 : src[i].path);
			if (outfile_open(&ann, name, OUTFILE_READABLE) != 0) {
				free(name);
				continue;
			}
			dst = ann.f;
		}
		annotate_file(dst, &src[i], lines, nlines, st, f, o, res->hz, bb_addr, bb_calls,
			      &last_count, first, &first_file);
		if (dst != out)
			outfile_commit(&ann);
		free(name);
	}
	free(src);
	free(bb_addr);
	free(bb_calls);
	gprof_result_release(&lres);
	free(lines);
	return 0;
}
