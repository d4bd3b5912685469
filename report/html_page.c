#include "report/html_page.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sections.h"
#include "die.h"
#include "model/samples.h"
#include "report/flat.h"
#include "report/html_assets.h"
#include "report/samples.h"
#include "report/units.h"
#include "xalloc.h"

#define SUMMARY_ROWS 50

static void addf(struct html_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void addf(struct html_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	html_buf_addstr(b, s);
	free(s);
}

static const char *plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void csp(struct html_buf *b)
{
	/* Nothing but the page's own script and style runs or loads: a
	 * name that smuggled markup in could not run anything. */
	addf(b, "default-src 'none'; script-src 'sha256-%s'; style-src 'sha256-%s'; "
		"img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'",
	     html_asset_js_sha256, html_asset_css_sha256);
}

static void facts(struct html_buf *b, const struct profile *p, const char *label)
{
	char a[DURATION_BUF], c[DURATION_BUF], w[DURATION_BUF], per_call[3 * DURATION_BUF + 32];

	addf(b, "<p class=\"cs-facts\">%s%llu %s in %zu %s; wall time %s; lost events: %llu; ",
	     label, (unsigned long long)p->calls, plural(p->calls, "call", "calls"), p->nthreads,
	     plural(p->nthreads, "thread", "threads"), format_duration(w, (double)p->wall_ns),
	     (unsigned long long)p->lost_events);
	if (p->time_sample_period_ns)
		addf(b, "times from %llu timer samples of %s of %s, on the exact call paths, the %llu "
			"taken in the hooks left out</p>\n", (unsigned long long)p->time_samples,
		     format_duration(a, (double)p->time_sample_period_ns), report_samples_clock(p),
		     (unsigned long long)p->time_hook_samples);
	else
		addf(b, "hook cost subtracted: %s, %s in all</p>\n",
		     report_hooks_per_call(per_call, sizeof(per_call), p),
		     format_duration(c, (double)p->overhead_ns));
}

/* The sampler's counts, always all of them once the run has samples. */
static void sample_facts(struct html_buf *b, const struct profile *p, const char *label)
{
	if (!p->samples && !p->samples_lost)
		return;
	addf(b, "<p class=\"cs-facts\">%s%llu %s of %s; lost samples: %llu; outside any known "
		"object: %llu; stacks truncated: %llu</p>\n",
	     label, (unsigned long long)p->samples, plural(p->samples, "sample", "samples"),
	     report_samples_clock(p),
	     (unsigned long long)p->samples_lost, (unsigned long long)p->samples_outside,
	     (unsigned long long)p->samples_truncated);
}

/* One item of the banner's list of warnings, which it opens first if
 * *OPEN says it is not yet. */
static void warn(struct html_buf *b, int *open, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void warn(struct html_buf *b, int *open, const char *fmt, ...)
{
	va_list ap;

	if (!*open) {
		html_buf_addstr(b, "<ul class=\"cs-warn\">\n");
		*open = 1;
	}
	va_start(ap, fmt);
	char *text = xvasprintf(fmt, ap);
	va_end(ap);
	html_buf_addstr(b, "<li>");
	html_buf_addstr(b, text);
	html_buf_addstr(b, "</li>\n");
	free(text);
}

/* The losses and marks of one profile, counted. */
static void profile_warnings(struct html_buf *b, int *open, const struct profile *p,
			     int salvaged, const char *which)
{
	uint64_t virt = 0, unwound = 0, thrown = 0, truncated = 0, unreliable = 0;

	for (size_t i = 0; i < p->nfuncs; i++) {
		virt += p->funcs[i].virtual_returns;
		unwound += p->funcs[i].unwound - p->funcs[i].thrown;
		thrown += p->funcs[i].thrown;
		unreliable += p->funcs[i].counters_unreliable != 0;
	}
	for (size_t i = 0; i < p->nthreads; i++)
		truncated += (p->threads[i].flags & THREAD_TRUNCATED) != 0;
	if (p->lost_events) {
		warn(b, open, "%s%llu %s lost while recording: the numbers are short by those",
			      which, (unsigned long long)p->lost_events,
			      plural(p->lost_events, "event was", "events were"));
	}
	if (p->samples_lost) {
		warn(b, open, "%s%llu %s lost while recording: the sampled shares are short by those",
			      which, (unsigned long long)p->samples_lost,
			      plural(p->samples_lost, "sample was", "samples were"));
	}
	if (truncated) {
		warn(b, open, "%s%llu %s out of buffer space (truncated); its later calls are not in "
			      "the data", which, (unsigned long long)truncated,
			      plural(truncated, "thread ran", "threads ran"));
	}
	if (p->overwritten_events) {
		warn(b, open, "%sflight recorder: %llu older %s overwritten; the numbers cover what "
			      "the rings kept", which, (unsigned long long)p->overwritten_events,
			      plural(p->overwritten_events, "event was", "events were"));
	}
	if (unreliable) {
		warn(b, open, "%scounters possibly incorrect in %llu %s: the kernel time-shared a "
			      "counter while %s ran, so its counts are estimates", which,
			      (unsigned long long)unreliable, plural(unreliable, "function", "functions"),
			      plural(unreliable, "it", "they"));
	}
	if (salvaged) {
		warn(b, open, "%sdamaged data or a binary that changed since the run: the numbers "
			      "cover what could be read and trusted; see 'callscope info'", which);
	}
	if (virt) {
		warn(b, open, "%s%llu %s still running at the end and closed there "
			      "(virtual returns)", which, (unsigned long long)virt,
			      plural(virt, "call was", "calls were"));
	}
	if (unwound) {
		warn(b, open, "%s%llu %s left by longjmp and closed by stack repair",
			      which, (unsigned long long)unwound, plural(unwound, "call was", "calls were"));
	}
	if (thrown) {
		warn(b, open, "%s%llu %s left by an exception and closed by stack repair",
			      which, (unsigned long long)thrown, plural(thrown, "call was", "calls were"));
	}
}

static void banner(struct html_buf *b, const struct html_page_parts *pp)
{
	const struct html_input *in = pp->in;
	const struct html_cuts *cuts = pp->cuts;
	char d[DURATION_BUF + 32];	/* a duration, or a count of samples */
	int open = 0;

	facts(b, in->prof, "");
	sample_facts(b, in->prof, "");
	if (in->diff) {
		facts(b, in->base, "base: ");
		sample_facts(b, in->base, "base: ");
	}
	profile_warnings(b, &open, in->prof, in->salvaged, "");
	if (in->diff)
		profile_warnings(b, &open, in->base, in->base_salvaged, "base: ");
	if (cuts->nodes_cut) {
		const struct html_tree *t = in->diff ? in->diff->tree : in->tree;
		if (t->weigh_samples)
			snprintf(d, sizeof(d), "%llu %s", (unsigned long long)cuts->min_total_ns,
				 plural(cuts->min_total_ns, "sample", "samples"));
		else
			format_duration(d, (double)cuts->min_total_ns);
		warn(b, &open, "%llu call %s of less than %s each %s folded into counted "
			       "[smaller call paths] nodes to keep the page within its budget; "
			       "their %s kept there",
			       (unsigned long long)cuts->nodes_cut, plural(cuts->nodes_cut, "path", "paths"),
			       d, plural(cuts->nodes_cut, "is", "are"),
			       t->weigh_samples ? "samples are" : "time is");
	}
	if (cuts->calls_dropped) {
		warn(b, &open, "the timeline shows %llu of %llu calls: those lasting at least %s; "
			       "the flame graph and the tables count every call",
			       (unsigned long long)cuts->calls_kept,
			       (unsigned long long)(cuts->calls_kept + cuts->calls_dropped),
			       format_duration(d, (double)cuts->min_call_ns));
	}
	if (!pp->compressed)
		warn(b, &open, "the data is stored uncompressed (zlib was not found or "
			       "compression was turned off): the file is larger than it needs to be");
	if (open)
		html_buf_addstr(b, "</ul>\n");
}

static void cell(struct html_buf *b, const char *text)
{
	html_buf_addstr(b, "<td>");
	html_buf_addstr(b, text);
	html_buf_addstr(b, "</td>");
}

static void duration_cell(struct html_buf *b, double ns)
{
	char d[DURATION_BUF];
	cell(b, format_duration(d, ns));
}

/* The flat profile's first rows as a plain table: readable with no
 * script, by any screen reader, and in any text browser. */
static void summary(struct html_buf *b, const struct profile *p)
{
	size_t n;
	uint32_t *order = flat_sorted_functions(p, FLAT_SORT_SELF, &n);
	uint64_t all = 0;

	for (size_t i = 0; i < p->nfuncs; i++)
		all += p->funcs[i].self_ns;
	addf(b, "<table class=\"cs-table\">\n<caption>Top functions by self time (%zu of %zu; the "
		"same numbers as <code>callscope report</code>)</caption>\n<thead><tr>",
	     n < SUMMARY_ROWS ? n : SUMMARY_ROWS, n);
	static const char *const heads[] = { "% time", "self", "total", "calls", "self/call",
					     "total/call", "min", "max" };
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		addf(b, "<th scope=\"col\">%s</th>", heads[i]);
	if (p->samples)
		html_buf_addstr(b, "<th scope=\"col\">self samples</th><th scope=\"col\">samples</th>");
	html_buf_addstr(b, "<th scope=\"col\">function</th></tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < n && k < SUMMARY_ROWS; k++) {
		const struct func *f = &p->funcs[order[k]];
		char pct[32];
		/* as the CLI: a sampled-only run's share is its samples' */
		double share = all ? 100.0 * (double)f->self_ns / (double)all
				   : func_self_sample_pct(p, f);
		snprintf(pct, sizeof(pct), "%.2f", share);
		html_buf_addstr(b, "<tr>");
		cell(b, pct);
		duration_cell(b, (double)f->self_ns);
		duration_cell(b, (double)f->total_ns);
		addf(b, "<td>%llu</td>", (unsigned long long)f->calls);
		duration_cell(b, f->calls ? (double)f->self_ns / (double)f->calls : 0);
		duration_cell(b, f->calls ? (double)f->sum_call_ns / (double)f->calls : 0);
		if (func_calls_timed(f)) {
			duration_cell(b, f->calls ? (double)f->min_ns : 0);
			duration_cell(b, (double)f->max_ns);
		} else {
			html_buf_addstr(b, "<td>-</td><td>-</td>");
		}
		if (p->samples)
			addf(b, "<td>%llu</td><td>%llu</td>", (unsigned long long)f->self_samples,
			     (unsigned long long)f->samples);
		html_buf_addstr(b, "<th scope=\"row\">");
		html_buf_escape(b, f->name);
		html_buf_addstr(b, "</th></tr>\n");
	}
	html_buf_addstr(b, "</tbody>\n</table>\n");
	free(order);
}

static void fill(struct html_buf *b, const struct html_page_parts *pp, const char *name,
		 size_t len)
{
#define IS(s) (len == sizeof(s) - 1 && !memcmp(name, s, len))
	if (IS("CSP")) {
		csp(b);
	} else if (IS("TITLE")) {
		html_buf_escape(b, pp->in->title);
	} else if (IS("BASE_TITLE")) {
		if (pp->in->diff) {
			html_buf_addstr(b, " compared with ");
			html_buf_escape(b, pp->in->base_title);
		}
	} else if (IS("STYLE")) {
		html_buf_add(b, html_asset_css, html_asset_css_len);
	} else if (IS("SCRIPT")) {
		html_buf_add(b, html_asset_js, html_asset_js_len);
	} else if (IS("BANNER")) {
		banner(b, pp);
	} else if (IS("SUMMARY")) {
		summary(b, pp->in->prof);
	} else if (IS("DATA")) {
		html_buf_add(b, pp->data_base64, pp->data_base64_len);
	} else {
		BUG("unknown placeholder '%.*s' in the page template", (int)len, name);
	}
#undef IS
}

void html_page_build(const struct html_page_parts *pp, struct html_buf *out)
{
	const char *t = html_asset_template, *end = t + html_asset_template_len;

	while (t < end) {
		const char *open = memmem(t, (size_t)(end - t), "{{", 2);
		if (!open) {
			html_buf_add(out, t, (size_t)(end - t));
			break;
		}
		const char *close = memmem(open, (size_t)(end - open), "}}", 2);
		if (!close)
			BUG("unclosed placeholder in the page template");
		html_buf_add(out, t, (size_t)(open - t));
		fill(out, pp, open + 2, (size_t)(close - open - 2));
		t = close + 2;
	}
}

size_t html_page_fixed_size(const struct html_page_parts *pp)
{
	struct html_page_parts empty = *pp;
	struct html_buf b;

	empty.data_base64 = NULL;
	empty.data_base64_len = 0;
	html_buf_init(&b);
	html_page_build(&empty, &b);
	size_t n = b.len;
	html_buf_release(&b);
	return n;
}
