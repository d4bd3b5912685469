/*
 * The HTML report: one self-contained page (viewer script, style and the
 * profile's data inside it; no network), built from the flat profile and
 * the call-path tree of report/html_tree.h.  The page is the same bytes
 * for the same input: nothing in it depends on when or where it was made.
 */
#ifndef CALLSCOPE_REPORT_HTML_H
#define CALLSCOPE_REPORT_HTML_H

#include <stdint.h>
#include <stdio.h>

#include "report/html_data.h"

struct html_options {
	uint64_t max_bytes;	/* the page's size budget; 0: none */
	size_t max_nodes;	/* call paths at most (before the budget) */
	size_t max_calls;	/* timeline calls at most (before the budget) */
	int compress;		/* deflate the data (else stored blocks) */
};

/* What the report shows, filled by report_html() for the caller's messages. */
struct html_result {
	struct html_cuts cuts;
	uint64_t bytes;		/* of the page */
	uint64_t data_bytes;	/* of the embedded data, base64 */
	int compressed;
};

/*
 * Writes the page for IN to OUT; the timeline of IN's tree may be
 * shortened to meet the budget.  Returns 0, or -1 if OUT failed.
 */
int report_html(FILE *out, const struct html_input *in, const struct html_options *o,
		struct html_result *res);

#endif
