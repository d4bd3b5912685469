/*
 * The source with each line's execution count, as gcov and tcov show it:
 * the count, or ##### for a line that never ran, or - for a line with no
 * code; the hottest lines flagged with '>'.  With a recording, each
 * function's first line is headed by its calls and time as the trace saw
 * them, so one run built with -pg --coverage gives both.
 */
#include "cli/annotate_counts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "die.h"
#include "formats/gcov_read.h"
#include "json.h"
#include "readfile.h"
#include "report/units.h"
#include "symbols/demangle.h"
#include "xalloc.h"

/* lines flagged as the hottest, per file */
#define HOT_LINES 5

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Whether SPEC names the file F (by path or last component) or one of its
 * functions; with FUNC_ONLY set to SPEC's function when it is one. */
static int spec_names(const struct gcov_file *f, const char *spec, const char **func_only)
{
	*func_only = NULL;
	if (!strcmp(spec, f->path) || !strcmp(spec, base_name(f->path)))
		return 1;
	for (size_t i = 0; i < f->nlines; i++) {
		const char *fn = f->lines[i].function;
		if (!fn)
			continue;
		char *shown = demangle_for_display(fn);
		int yes = demangled_name_matches(fn, shown, spec);
		free(shown);
		if (yes) {
			*func_only = spec;
			return 1;
		}
	}
	return 0;
}

static int line_in(const struct gcov_line *l, const char *func_only)
{
	if (!func_only)
		return 1;
	if (!l->function)
		return 0;
	char *shown = demangle_for_display(l->function);
	int yes = demangled_name_matches(l->function, shown, func_only);
	free(shown);
	return yes;
}

static int by_line(const void *a, const void *b)
{
	const struct gcov_line *x = a, *y = b;
	return x->line - y->line;
}

static int by_count_desc(const void *a, const void *b)
{
	uint64_t x = ((const struct gcov_line *)a)->count, y = ((const struct gcov_line *)b)->count;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* The count a line must reach to be among the HOT_LINES hottest (0: none). */
static uint64_t hot_threshold(const struct gcov_file *f)
{
	struct gcov_line *copy = xmalloc((f->nlines + 1) * sizeof(*copy));
	memcpy(copy, f->lines, f->nlines * sizeof(*copy));
	qsort(copy, f->nlines, sizeof(*copy), by_count_desc);
	uint64_t t = f->nlines ? copy[(f->nlines < HOT_LINES ? f->nlines : HOT_LINES) - 1].count : 0;
	free(copy);
	return t;
}

/* The recorded function whose symbol gcov named, or FUNC_NONE. */
static uint32_t recorded(const struct profile *p, const char *symbol)
{
	for (size_t i = 0; p && i < p->nfuncs; i++)
		if (!strcmp(p->funcs[i].symbol, symbol))
			return (uint32_t)i;
	return FUNC_NONE;
}

static void print_heading(const struct profile *p, const char *symbol)
{
	char *shown = demangle_for_display(symbol);
	uint32_t f = recorded(p, symbol);
	if (f == FUNC_NONE) {
		printf("# %s\n", shown);
	} else {
		char a[DURATION_BUF], b[DURATION_BUF];
		const struct func *fn = &p->funcs[f];
		printf("# %s: %llu %s, %s self, %s total\n", shown, (unsigned long long)fn->calls,
		       fn->calls == 1 ? "call" : "calls", format_duration(a, (double)fn->self_ns),
		       format_duration(b, (double)fn->total_ns));
	}
	free(shown);
}

static void print_file(const struct gcov_file *f, const char *func_only, const struct profile *p)
{
	char *src = NULL;
	size_t size = 0;
	uint64_t hot = hot_threshold(f);
	size_t run = 0, never = 0;

	for (size_t i = 0; i < f->nlines; i++)
		if (line_in(&f->lines[i], func_only))
			f->lines[i].count ? run++ : never++;
	printf("# %s: %zu lines ran, %zu never ran (#####)\n", f->path, run, never);
	if (read_file(f->path, 0, &src, &size) != 0) {
		warning("cannot read the source '%s': %s; its counts are listed by line", f->path,
			strerror(errno));
		for (size_t i = 0; i < f->nlines; i++)
			if (line_in(&f->lines[i], func_only))
				printf("%9llu:%5d\n", (unsigned long long)f->lines[i].count,
				       f->lines[i].line);
		return;
	}
	size_t k = 0;
	const char *fn_shown = NULL;
	char *line = src;
	for (int no = 1; *line; no++) {
		char *end = strchr(line, '\n');
		int len = end ? (int)(end - line) : (int)strlen(line);
		while (k < f->nlines && f->lines[k].line < no)
			k++;
		const struct gcov_line *l = k < f->nlines && f->lines[k].line == no ? &f->lines[k] : NULL;
		int shown = l ? line_in(l, func_only) : !func_only;
		if (func_only && !l)
			shown = 0;
		if (shown) {
			if (l && l->function && (!fn_shown || strcmp(fn_shown, l->function))) {
				fn_shown = l->function;
				print_heading(p, l->function);
			}
			char count[24];
			if (!l)
				snprintf(count, sizeof(count), "-");
			else if (!l->count)
				snprintf(count, sizeof(count), "#####");
			else
				snprintf(count, sizeof(count), "%llu", (unsigned long long)l->count);
			printf("%c %9s:%5d:%.*s\n", l && l->count && l->count >= hot ? '>' : ' ', count,
			       no, len, line);
		}
		if (!end)
			break;
		line = end + 1;
	}
	free(src);
}

static void print_json(struct gcov_file **files, const char **funcs, size_t n)
{
	struct json j;

	json_init(&j, stdout);
	json_object_begin(&j);
	json_key(&j, "files");
	json_array_begin(&j);
	for (size_t i = 0; i < n; i++) {
		json_object_begin(&j);
		json_kv_string(&j, "file", files[i]->path);
		json_key(&j, "lines");
		json_array_begin(&j);
		for (size_t k = 0; k < files[i]->nlines; k++) {
			const struct gcov_line *l = &files[i]->lines[k];
			if (!line_in(l, funcs[i]))
				continue;
			json_object_begin(&j);
			json_kv_string(&j, "file", files[i]->path);
			json_kv_u64(&j, "line", (uint64_t)l->line);
			json_kv_u64(&j, "count", l->count);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

/* The counts of the program DF recorded; -1 after one error line. */
static int program_counts(const struct data_file *df, const char *input, struct gcov_data *d)
{
	if (!df->nprocesses || !df->processes[0].exe)
		return error("'%s' names no program; record the program built with --coverage",
			     input);
	return gcov_read_program(df->processes[0].exe, d);
}

struct hot_line {
	const char *file;
	const struct gcov_line *l;
};

static int by_executions(const void *a, const void *b)
{
	const struct hot_line *x = a, *y = b;
	if (x->l->count != y->l->count)
		return x->l->count < y->l->count ? 1 : -1;
	int c = strcmp(x->file, y->file);
	return c ? c : x->l->line - y->l->line;
}

int count_lines_report(const struct data_file *df, const char *input, int json)
{
	struct gcov_data d;

	if (program_counts(df, input, &d) != 0)
		return EXIT_FATAL;
	struct hot_line *rows = NULL;
	size_t n = 0, alloc = 0, never = 0;
	for (size_t i = 0; i < d.nfiles; i++)
		for (size_t k = 0; k < d.files[i].nlines; k++) {
			if (!d.files[i].lines[k].count) {
				never++;
				continue;
			}
			ALLOC_GROW(rows, n + 1, alloc);
			rows[n++] = (struct hot_line){ d.files[i].path, &d.files[i].lines[k] };
		}
	if (n)
		qsort(rows, n, sizeof(*rows), by_executions);
	if (json) {
		struct json j;
		json_init(&j, stdout);
		json_object_begin(&j);
		json_kv_u64(&j, "never_run", never);
		json_key(&j, "lines");
		json_array_begin(&j);
		for (size_t i = 0; i < n; i++) {
			json_object_begin(&j);
			json_kv_string(&j, "file", rows[i].file);
			json_kv_u64(&j, "line", (uint64_t)rows[i].l->line);
			json_kv_u64(&j, "count", rows[i].l->count);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_object_end(&j);
		json_finish(&j);
	} else {
		printf("# executions per source line (gcov); %zu lines with code never ran\n", never);
		printf("%12s  %s\n", "executions", "line");
		for (size_t i = 0; i < n; i++) {
			char *shown = rows[i].l->function ? demangle_for_display(rows[i].l->function) : NULL;
			printf("%12llu  %s:%d%s%s%s\n", (unsigned long long)rows[i].l->count,
			       rows[i].file, rows[i].l->line, shown ? " (" : "", shown ? shown : "",
			       shown ? ")" : "");
			free(shown);
		}
	}
	free(rows);
	gcov_data_release(&d);
	return 0;
}

int annotate_counts(const char *input, const struct load_filter *filter, char **specs,
		    int nspecs, int json)
{
	struct data_file df;
	struct gcov_data d;

	if (data_file_load(input, &df) != 0)
		return EXIT_FATAL;
	if (program_counts(&df, input, &d) != 0) {
		data_file_release(&df);
		return EXIT_FATAL;
	}
	struct load_stats stats;
	struct profile *p = load_profile(&df, filter, &stats);

	/* the files to show, each whole or for one function */
	struct gcov_file **files = xcalloc(d.nfiles + 1, sizeof(*files));
	const char **funcs = xcalloc(d.nfiles + 1, sizeof(*funcs));
	size_t n = 0;
	for (size_t i = 0; i < d.nfiles; i++) {
		struct gcov_file *f = &d.files[i];
		qsort(f->lines, f->nlines, sizeof(*f->lines), by_line);
		int want = !nspecs;
		for (int s = 0; s < nspecs && !want; s++)
			want = spec_names(f, specs[s], &funcs[n]);
		if (want)
			files[n++] = f;
	}
	if (!n)
		die("no source file or function of the counts is called '%s'; 'callscope annotate "
		    "--counts' alone lists them all", nspecs ? specs[0] : "");
	if (json) {
		print_json(files, funcs, n);
	} else {
		for (size_t i = 0; i < n; i++) {
			if (i)
				putchar('\n');
			print_file(files[i], funcs[i], p);
		}
	}
	free(files);
	free(funcs);
	profile_free(p);
	gcov_data_release(&d);
	data_file_release(&df);
	return stats.salvaged ? EXIT_SALVAGED : 0;
}
