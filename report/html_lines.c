/*
 * Weighing source lines and reading the hot lines' text.  The
 * symbolizer hands every sample of one PC the same file name pointer, so
 * a file is found by its address first and by its name only the first
 * time that address is seen.
 */
#include "report/html_lines.h"

#include <stdlib.h>
#include <string.h>

#include "model/profile.h"
#include "readfile.h"
#include "xalloc.h"

#define SOURCE_MAX_BYTES (64u << 20)	/* a larger "source file" is not one */

struct html_lines *html_lines_new(void)
{
	struct html_lines *l = xcalloc(1, sizeof(*l));

	u64map_init(&l->index);
	u64map_init(&l->by_pointer);
	return l;
}

void html_lines_free(struct html_lines *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nfiles; i++)
		free(l->files[i]);
	for (size_t i = 0; i < l->nsource; i++)
		free(l->source[i].text);
	free(l->files);
	free(l->rows);
	free(l->source);
	u64map_release(&l->index);
	u64map_release(&l->by_pointer);
	free(l);
}

static uint32_t file_index(struct html_lines *l, const char *file)
{
	uint32_t id;

	if (!file)
		file = "";
	if (u64map_get(&l->by_pointer, (uint64_t)(uintptr_t)file, &id))
		return id;
	for (id = 0; id < l->nfiles && strcmp(l->files[id], file); id++)
		;
	if (id == l->nfiles) {
		ALLOC_GROW(l->files, l->nfiles + 1, l->files_alloc);
		l->files[l->nfiles++] = xstrdup(file);
	}
	u64map_put(&l->by_pointer, (uint64_t)(uintptr_t)file, id);
	return id;
}

void html_lines_add(struct html_lines *l, const char *file, int line, uint32_t func,
		    uint64_t weight)
{
	uint32_t f = file_index(l, file), ln = line > 0 ? (uint32_t)line : 0, row;
	uint64_t key = u64map_pair(f, ln);

	if (!u64map_get(&l->index, key, &row)) {
		ALLOC_GROW(l->rows, l->nrows + 1, l->rows_alloc);
		row = (uint32_t)l->nrows++;
		l->rows[row] = (struct html_line){ f, ln, func, 0 };
		u64map_put(&l->index, key, row);
	}
	l->rows[row].weight += weight;
}

void html_lines_from_functions(struct html_lines *l, const struct profile *p)
{
	l->by_time = 1;
	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct func *f = &p->funcs[i];
		if (f->self_ns && f->file && f->line > 0)
			html_lines_add(l, f->file, f->line, (uint32_t)i, f->self_ns);
	}
}

/* Heaviest first, then by file name and line: the same order for the
 * same data.  The context is the struct html_lines sorted. */
static int by_weight(const void *a, const void *b, void *ctx)
{
	const struct html_lines *sort_lines = ctx;
	const struct html_line *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	int c = strcmp(sort_lines->files[x->file], sort_lines->files[y->file]);
	if (c)
		return c;
	return (x->line > y->line) - (x->line < y->line);
}

static int by_place(const void *a, const void *b, void *ctx)
{
	const struct html_lines *sort_lines = ctx;
	const struct html_source_line *x = a, *y = b;
	int c = strcmp(sort_lines->files[x->file], sort_lines->files[y->file]);

	if (c)
		return c;
	return (x->line > y->line) - (x->line < y->line);
}

/* Adds the text of lines FROM..TO (1-based) of the file held in TEXT,
 * skipping lines already taken. */
static void take_lines(struct html_lines *l, struct u64map *taken, uint32_t file,
		       const char *text, size_t size, uint32_t from, uint32_t to)
{
	const char *p = text, *end = text + size;

	for (uint32_t n = 1; p < end && n <= to; n++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		uint32_t dummy;
		if (n >= from && !u64map_get(taken, u64map_pair(file, n), &dummy)) {
			size_t len = (size_t)(eol - p);
			if (len && p[len - 1] == '\r')
				len--;
			if (len > HTML_LINE_TEXT_MAX)
				len = HTML_LINE_TEXT_MAX;
			char *s = xmalloc(len + 1);
			/* the page stores NUL-ended strings */
			for (size_t i = 0; i < len; i++)
				s[i] = p[i] ? p[i] : ' ';
			s[len] = '\0';
			ALLOC_GROW(l->source, l->nsource + 1, l->source_alloc);
			l->source[l->nsource++] = (struct html_source_line){ file, n, s };
			u64map_put(taken, u64map_pair(file, n), 0);
		}
		p = eol + 1;
	}
}

void html_lines_finish(struct html_lines *l)
{
	struct u64map taken;

	if (l->nrows)	/* qsort's array may not be NULL, even empty */
		qsort_r(l->rows, l->nrows, sizeof(*l->rows), by_weight, l);
	u64map_init(&taken);
	/* each file read once: the hot lines of one file together */
	for (uint32_t f = 0; f < l->nfiles; f++) {
		char *text = NULL;
		size_t size = 0;
		int tried = 0;
		for (size_t r = 0, hot = 0; r < l->nrows && hot < HTML_HOT_LINES; r++) {
			const struct html_line *row = &l->rows[r];
			if (!row->line || !*l->files[row->file])
				continue;
			hot++;
			if (row->file != f)
				continue;
			if (!tried) {
				tried = 1;
				if (read_file(l->files[f], SOURCE_MAX_BYTES, &text, &size) != 0) {
					l->unreadable++;
					text = NULL;
				}
			}
			/* a function's line is its opening brace's, most often:
			 * the line above holds its name */
			if (text && l->by_time)
				take_lines(l, &taken, f, text, size, row->line > 1 ? row->line - 1 : 1,
					   row->line + HTML_FUNC_LINES - 2);
			else if (text)
				take_lines(l, &taken, f, text, size,
					   row->line > HTML_LINE_CONTEXT ? row->line - HTML_LINE_CONTEXT : 1,
					   row->line + HTML_LINE_CONTEXT);
		}
		free(text);
	}
	if (l->nsource)
		qsort_r(l->source, l->nsource, sizeof(*l->source), by_place, l);
	u64map_release(&taken);
}
