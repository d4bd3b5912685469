/*
 * The data the HTML page carries, before compression: a small JSON header
 * that describes everything, then binary columns (one per field, so
 * deflate sees runs of alike numbers).  docs/html.md gives the layout:
 *
 *   "CSHTML1\n"  u32 LE length of the JSON  JSON  column bytes...
 *
 * The JSON lists the columns in order with their encoding and byte
 * length; a reader takes the ones it knows by name and skips the rest.
 * Every per-node and per-function quantity is a column named after its
 * metric ("node.self.time", "func.total.time"), and the JSON's "metrics"
 * says which metrics exist, so samples and counters are more columns and
 * one more entry there, not a new layout.  With html --static, the calls
 * in the code that never ran are three more columns: "static.caller",
 * "static.callee" (function numbers) and "static.tail" (1: a tail call).
 */
#ifndef CALLSCOPE_REPORT_HTML_DATA_H
#define CALLSCOPE_REPORT_HTML_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"
#include "report/html_buf.h"
#include "report/html_diff.h"
#include "report/html_lines.h"
#include "report/html_tree.h"

struct html_input {
	const char *title;		/* the program's command line */
	const struct profile *prof;	/* the flat numbers, as `callscope report` */
	struct html_tree *tree;		/* its call paths and timeline */
	int salvaged;			/* damaged data or untrusted binaries */
	/* with --base; NULL otherwise */
	const char *base_title;
	const struct profile *base;
	int base_salvaged;
	struct html_diff *diff;		/* its tree replaces TREE's paths */
	const struct html_lines *lines;	/* samples per source line, or NULL */
	/* html --static: PROF's arcs of count 0 are calls in the code that
	 * never ran (load/static_calls.h), shown greyed */
	int static_arcs;
};

struct html_limits {
	size_t max_nodes;	/* call paths kept; the others fold into counted nodes */
	size_t max_calls;	/* calls on the timeline */
};

/* What had to be left out, for the page's banner. */
struct html_cuts {
	uint64_t nodes_kept, nodes_cut;
	uint64_t min_total_ns;		/* call paths below this were folded */
	uint64_t calls_kept, calls_dropped;
	uint64_t min_call_ns;		/* calls shorter than this are off the timeline */
	uint64_t timeline_bytes;	/* of the container, the timeline's columns */
};

/* Appends the container to OUT and fills CUTS. */
void html_data_build(const struct html_input *in, const struct html_limits *lim,
		     struct html_buf *out, struct html_cuts *cuts);

/* How many counters (record -e) the page shows: none in a diff. */
size_t html_counters(const struct html_input *in);

/* Whether the page weighs call paths by samples too (record --sample):
 * when the run, or in a diff either run, has samples. */
int html_samples(const struct html_input *in);

#endif
