/*
 * Raw deflate (RFC 1951), the format the page decodes with the browser's
 * own DecompressionStream("deflate-raw").
 */
#ifndef CALLSCOPE_REPORT_HTML_DEFLATE_H
#define CALLSCOPE_REPORT_HTML_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

#include "report/html_buf.h"

/*
 * Appends IN, deflated, to OUT.  With COMPRESS zero, or if zlib fails,
 * the bytes go into "stored" blocks (valid deflate, no compression).  Returns 1 if zlib compressed them, 0 for stored blocks.
 * The same input gives the same bytes (for one zlib version).
 */
int html_deflate(const uint8_t *in, size_t len, int compress, struct html_buf *out);

#endif
