/*
 * The source lines the HTML report's source view shows: samples counted
 * per (file, line) of their PC, as `callscope report --lines` counts
 * them, and the text of the hottest lines with a few lines around each,
 * read from the source files when the page is made (the page is offline:
 * the text travels in it).  A line whose file cannot be read is shown
 * with its counts alone.
 */
#ifndef CALLSCOPE_REPORT_HTML_LINES_H
#define CALLSCOPE_REPORT_HTML_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "u64map.h"

#define HTML_HOT_LINES 64	/* lines whose source text the page carries */
#define HTML_LINE_CONTEXT 3	/* lines of text above and below each */
#define HTML_LINE_TEXT_MAX 400	/* bytes of one line's text at most */

struct html_line {
	uint32_t file;		/* index into html_lines.files */
	uint32_t line;		/* 0: the PC had no line information */
	uint32_t func;		/* the function of its first sample */
	uint64_t samples;	/* weighted, as the flat profile's */
};

struct html_source_line {
	uint32_t file, line;
	char *text;		/* owned; NUL bytes replaced, at most HTML_LINE_TEXT_MAX */
};

struct html_lines {
	char **files;		/* owned; "" when unknown */
	size_t nfiles, files_alloc;
	struct html_line *rows;	/* most samples first after html_lines_finish() */
	size_t nrows, rows_alloc;
	struct html_source_line *source;	/* by file, then line */
	size_t nsource, source_alloc;
	size_t unreadable;	/* files of hot lines that could not be read */

	/* private */
	struct u64map index;	/* (file, line) -> row */
	struct u64map by_pointer;	/* a file name's address -> file index */
};

/* Returns an empty table; free it with html_lines_free(). */
struct html_lines *html_lines_new(void);
void html_lines_free(struct html_lines *l);

/* Counts WEIGHT samples at FILE:LINE (FILE may be NULL) in function FUNC. */
void html_lines_add(struct html_lines *l, const char *file, int line, uint32_t func,
		    uint64_t weight);

/* Orders the rows, most samples first, and reads the hot lines' text. */
void html_lines_finish(struct html_lines *l);

#endif
