#include "report/histogram.h"

#include "json.h"
#include "report/units.h"

#define BAR_WIDTH 40

/* The range of buckets to show: from the first used to the last, so the
 * empty ones between stay visible as gaps. */
static int used_range(const struct log2_hist *h, unsigned *first, unsigned *last)
{
	int any = 0;

	for (unsigned k = 0; k < LOG2_HIST_BUCKETS; k++) {
		if (!h->count[k])
			continue;
		if (!any)
			*first = k;
		*last = k;
		any = 1;
	}
	return any;
}

static void print_text(FILE *out, const struct profile *p, const struct func *fn,
		       const struct log2_hist *h)
{
	char a[DURATION_BUF], b[DURATION_BUF], c[DURATION_BUF], d[DURATION_BUF];
	unsigned first = 0, last = 0;
	uint64_t top = 0;

	fprintf(out, "# call durations of '%s' (%s): %llu calls; lost events: %llu\n", fn->name,
		*fn->object ? fn->object : "unknown object", (unsigned long long)h->n,
		(unsigned long long)p->lost_events);
	fprintf(out, "# inclusive time per call, hook overhead subtracted: "
		     "min %s, avg %s, max %s, stddev %s\n#\n",
		format_duration(a, fn->calls ? (double)fn->min_ns : 0),
		format_duration(b, fn->calls ? (double)fn->sum_call_ns / (double)fn->calls : 0),
		format_duration(c, (double)fn->max_ns), format_duration(d, func_stddev_ns(fn)));
	fprintf(out, "%12s %12s %10s %7s\n", "from", "to", "calls", "%");
	if (!used_range(h, &first, &last)) {
		fprintf(out, "# no calls\n");
		return;
	}
	for (unsigned k = first; k <= last; k++)
		if (h->count[k] > top)
			top = h->count[k];
	for (unsigned k = first; k <= last; k++) {
		uint64_t lo, hi;
		int bar = (int)((h->count[k] * BAR_WIDTH + top - 1) / top);

		log2_hist_bounds_ns(h, k, &lo, &hi);
		fprintf(out, "%12s %12s %10llu %7.2f", format_duration(a, (double)lo),
			format_duration(b, (double)hi), (unsigned long long)h->count[k],
			100.0 * (double)h->count[k] / (double)h->n);
		if (bar)
			fprintf(out, "  %.*s", bar, "########################################");
		fputc('\n', out);
	}
}

static void print_json(FILE *out, const struct profile *p, const struct func *fn,
		       const struct log2_hist *h)
{
	struct json j;
	unsigned first = 0, last = 0;

	json_init(&j, out);
	json_object_begin(&j);
	json_kv_u64(&j, "lost_events", p->lost_events);
	json_kv_string(&j, "function", fn->name);
	json_kv_string(&j, "object", fn->object);
	json_kv_u64(&j, "calls", h->n);
	json_kv_u64(&j, "min_ns", fn->calls ? fn->min_ns : 0);
	json_kv_u64(&j, "avg_ns", fn->calls ? fn->sum_call_ns / fn->calls : 0);
	json_kv_u64(&j, "max_ns", fn->max_ns);
	json_kv_u64(&j, "stddev_ns", (uint64_t)(func_stddev_ns(fn) + 0.5));
	json_key(&j, "buckets");
	json_array_begin(&j);
	if (used_range(h, &first, &last)) {
		for (unsigned k = first; k <= last; k++) {
			uint64_t lo, hi;
			log2_hist_bounds_ns(h, k, &lo, &hi);
			json_object_begin(&j);
			json_kv_u64(&j, "min_ns", lo);
			json_kv_u64(&j, "max_ns", hi);
			json_kv_u64(&j, "count", h->count[k]);
			json_object_end(&j);
		}
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

void report_histogram(FILE *out, const struct profile *p, uint32_t func,
		      const struct log2_hist *h, int json)
{
	if (json)
		print_json(out, p, &p->funcs[func], h);
	else
		print_text(out, p, &p->funcs[func], h);
}
