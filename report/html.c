/*
 * The page within its budget: build the data, compress it, and if the
 * page would be larger than allowed, keep fewer timeline calls first
 * (the tree's numbers stay whole) and then fewer call paths, and try
 * again.  Whatever is left out is counted in the page's banner.
 */
#include "report/html.h"

#include <errno.h>
#include <string.h>

#include "report/html_deflate.h"
#include "report/html_page.h"

#define MAX_TRIES 8

static size_t base64_len(size_t n)
{
	return (n + 2) / 3 * 4;
}

/* Scales COUNT by RATIO, at least 10% smaller and never below 0. */
static size_t shrink(size_t count, double ratio)
{
	if (ratio > 0.9)
		ratio = 0.9;
	if (ratio < 0.05)
		ratio = 0.05;
	return (size_t)((double)count * ratio);
}

int report_html(FILE *out, const struct html_input *in, const struct html_options *o,
		struct html_result *res)
{
	struct html_limits lim = { o->max_nodes, o->max_calls };
	struct html_buf raw, z, b64, page;
	struct html_page_parts parts = { in, &res->cuts, 0, NULL, 0 };

	memset(res, 0, sizeof(*res));
	html_buf_init(&raw);
	html_buf_init(&z);
	html_buf_init(&b64);
	for (int attempt = 0;; attempt++) {
		raw.len = z.len = 0;
		html_data_build(in, &lim, &raw, &res->cuts);
		parts.compressed = html_deflate(raw.data, raw.len, o->compress, &z);
		size_t total = html_page_fixed_size(&parts) + base64_len(z.len);
		if (!o->max_bytes || total <= o->max_bytes || attempt == MAX_TRIES ||
		    (!res->cuts.calls_kept && !res->cuts.nodes_kept))
			break;
		/* The timeline's part of the page, estimated from its part of
		 * the data before compression. */
		double excess = (double)(total - o->max_bytes);
		double timeline = (double)base64_len(z.len) * (double)res->cuts.timeline_bytes /
				  (double)(raw.len ? raw.len : 1);
		if (res->cuts.calls_kept && timeline > excess) {
			lim.max_calls = shrink(res->cuts.calls_kept, (1 - excess / timeline) * 0.95);
		} else {
			lim.max_calls = res->cuts.calls_kept / 4;
			lim.max_nodes = shrink(res->cuts.nodes_kept,
					       (double)o->max_bytes / (double)total * 0.95);
		}
	}
	html_buf_base64(&b64, z.data, z.len);
	parts.data_base64 = b64.data;
	parts.data_base64_len = b64.len;
	html_buf_init(&page);
	html_page_build(&parts, &page);
	res->bytes = page.len;
	res->data_bytes = b64.len;
	res->compressed = parts.compressed;
	size_t written = page.len ? fwrite(page.data, 1, page.len, out) : 0;
	int rc = written == page.len ? 0 : -1;
	html_buf_release(&raw);
	html_buf_release(&z);
	html_buf_release(&b64);
	html_buf_release(&page);
	return rc;
}
