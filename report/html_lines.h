/*
 * The source lines the HTML report's source view shows, and the text of
 * the hottest with a few lines around each, read from the source files
 * when the page is made (the page is offline: the text travels in it).  A
 * line whose file cannot be read is shown with its numbers alone.
 *
 * With samples, the weight of a line is the samples whose PC it holds, as
 * `callscope report --lines` counts them.  A traced run knows no line
 * inside a function, only where each function begins: there the weight
 * of a function's first line is its self time, and the text shown is the
 * function's first lines.
 */
#ifndef CALLSCOPE_REPORT_HTML_LINES_H
#define CALLSCOPE_REPORT_HTML_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "u64map.h"

#define HTML_HOT_LINES 64	/* lines whose source text the page carries */
#define HTML_LINE_CONTEXT 3	/* lines of text above and below a sampled line */
#define HTML_FUNC_LINES 12	/* lines of text from a traced function's first */
#define HTML_LINE_TEXT_MAX 400	/* bytes of one line's text at most */

struct html_line {
	uint32_t file;		/* index into html_lines.files */
	uint32_t line;		/* 0: the PC had no line information */
	uint32_t func;		/* the function of its first sample */
	uint64_t weight;	/* samples (weighted, as the flat profile's), or ns */
};

struct html_source_line {
	uint32_t file, line;
	char *text;		/* owned; NUL bytes replaced, at most HTML_LINE_TEXT_MAX */
};

struct html_lines {
	char **files;		/* owned; "" when unknown */
	size_t nfiles, files_alloc;
	struct html_line *rows;	/* heaviest first after html_lines_finish() */
	size_t nrows, rows_alloc;
	struct html_source_line *source;	/* by file, then line */
	size_t nsource, source_alloc;
	size_t unreadable;	/* files of hot lines that could not be read */
	int by_time;		/* weights are self times of functions (traced) */

	/* private */
	struct u64map index;	/* (file, line) -> row */
	struct u64map by_pointer;	/* a file name's address -> file index */
};

/* Returns an empty table; free it with html_lines_free(). */
struct html_lines *html_lines_new(void);
void html_lines_free(struct html_lines *l);

/* Adds WEIGHT samples at FILE:LINE (FILE may be NULL) in function FUNC. */
void html_lines_add(struct html_lines *l, const char *file, int line, uint32_t func,
		    uint64_t weight);

/* A traced run: each function of P that took time, at its first line,
 * weighed by its self time. */
struct profile;
void html_lines_from_functions(struct html_lines *l, const struct profile *p);

/* Orders the rows, heaviest first, and reads the hot lines' text. */
void html_lines_finish(struct html_lines *l);

#endif
