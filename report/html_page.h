/*
 * Assembling the page from its template (report/html/template.html): the
 * placeholders {{NAME}} are filled in the order the template gives them.
 * What goes into markup is escaped here; the script and style go in
 * byte for byte, as the Content-Security-Policy names their hashes.
 */
#ifndef CALLSCOPE_REPORT_HTML_PAGE_H
#define CALLSCOPE_REPORT_HTML_PAGE_H

#include "report/html_buf.h"
#include "report/html_data.h"

struct html_page_parts {
	const struct html_input *in;
	const struct html_cuts *cuts;
	int compressed;
	const uint8_t *data_base64;
	size_t data_base64_len;
};

/* Appends the whole page to OUT. */
void html_page_build(const struct html_page_parts *parts, struct html_buf *out);

/* The page without its data, in bytes: what the budget must leave room for. */
size_t html_page_fixed_size(const struct html_page_parts *parts);

#endif
