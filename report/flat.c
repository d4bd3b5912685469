#include "report/flat.h"
#include "report/unhooked.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "model/samples.h"
#include "report/legend.h"
#include "report/samples.h"
#include "report/units.h"
#include "xalloc.h"

/* from this share of the run on, the report says how much the hooks
 * took; from the second on, it names the recording whose times do not
 * depend on their estimate */
#define HOOKS_SHARE_NOTED 0.1
#define HOOKS_SHARE_DOMINANT 0.5

static const char *const sort_names[] = {
	[FLAT_SORT_SELF] = "self", [FLAT_SORT_TOTAL] = "total",
	[FLAT_SORT_CALLS] = "calls", [FLAT_SORT_AVG] = "avg",
	[FLAT_SORT_MAX] = "max", [FLAT_SORT_NAME] = "name",
};

int flat_sort_parse(const char *s, enum flat_sort *out)
{
	for (size_t i = 0; i < sizeof(sort_names) / sizeof(sort_names[0]); i++) {
		if (!strcmp(s, sort_names[i])) {
			*out = (enum flat_sort)i;
			return 0;
		}
	}
	return -1;
}

static uint64_t avg_ns(const struct func *f)
{
	return f->calls ? f->sum_call_ns / f->calls : 0;
}

static uint64_t key(const struct func *f, enum flat_sort s)
{
	switch (s) {
	case FLAT_SORT_TOTAL: return f->total_ns;
	case FLAT_SORT_CALLS: return f->calls;
	case FLAT_SORT_AVG: return avg_ns(f);
	case FLAT_SORT_MAX: return f->max_ns;
	default: return f->self_ns;
	}
}

/* What one sort of the flat profile's functions compares by. */
struct flat_sorting {
	const struct profile *p;
	enum flat_sort key;
};

/* Descending by the key, then by calls, then by name (as gprof). */
static int compare(const void *a, const void *b, void *ctx)
{
	const struct flat_sorting *by = ctx;
	const struct func *fa = &by->p->funcs[*(const uint32_t *)a];
	const struct func *fb = &by->p->funcs[*(const uint32_t *)b];
	enum flat_sort sort_key = by->key;

	if (sort_key != FLAT_SORT_NAME) {
		uint64_t ka = key(fa, sort_key), kb = key(fb, sort_key);
		if (ka != kb)
			return ka < kb ? 1 : -1;
		if (fa->calls != fb->calls)
			return fa->calls < fb->calls ? 1 : -1;
		if (fa->self_samples != fb->self_samples)
			return fa->self_samples < fb->self_samples ? 1 : -1;
	}
	return strcmp(fa->name, fb->name);
}

int flat_func_listed(const struct func *f)
{
	return f->calls || f->self_ns || f->virtual_returns || f->samples;
}

uint32_t *flat_sorted_functions(const struct profile *p, enum flat_sort s, size_t *n)
{
	uint32_t *order = xmalloc((p->nfuncs + 1) * sizeof(*order));

	*n = 0;
	for (size_t i = 0; i < p->nfuncs; i++)
		if (flat_func_listed(&p->funcs[i]))
			order[(*n)++] = (uint32_t)i;
	struct flat_sorting by = { p, s };
	qsort_r(order, *n, sizeof(*order), compare, &by);
	return order;
}

static uint64_t sum_self(const struct profile *p)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < p->nfuncs; i++)
		sum += p->funcs[i].self_ns;
	return sum;
}

/* --stats: the spread of the call durations and the period between
 * consecutive calls (see struct func). */
static void print_stats_columns(FILE *out, const struct func *fn)
{
	char a[DURATION_BUF], b[DURATION_BUF], c[DURATION_BUF], d[DURATION_BUF];

	if (!func_calls_timed(fn)) {
		fprintf(out, " %12s %12s %12s %12s", "-", "-", "-", "-");
		return;
	}
	fprintf(out, " %12s %12s %12s %12s", format_duration(a, func_stddev_ns(fn)),
		format_duration(b, fn->periods ? (double)fn->period_min_ns : 0),
		format_duration(c, (double)func_period_avg_ns(fn)),
		format_duration(d, (double)fn->period_max_ns));
}

/* Says why some functions' shortest and longest calls print as "-". */
static void report_untimed_calls_line(FILE *out, const struct profile *p, const char *prefix)
{
	if (profile_has_untimed_calls(p))
		fprintf(out, "%s%s\n", prefix, p->time_sample_period_ns
			? "calls timed by samples: no shortest, longest, spread or periods per call (-)"
			: "per-call statistics not recorded: shortest, longest, spread and periods "
			  "show as -; record --mode=count --call-stats keeps them");
}

/* From this standard error of the in-place figure on, the header says how
 * to measure it surer. */
#define OVERHEAD_ERROR_NOTED 0.1

/* The tag of profile_doubtful_times()'s FLAGS. */
static const char *doubtful_tag(unsigned char flags)
{
	switch (flags) {
	case DOUBTFUL_SELF: return TAG_DOUBTFUL;
	case DOUBTFUL_TOTAL: return TAG_DOUBTFUL_TOTAL;
	case DOUBTFUL_SELF | DOUBTFUL_TOTAL: return TAG_DOUBTFUL_BOTH;
	default: return "";
	}
}

const char *report_hooks_per_call(char *buf, size_t buflen, const struct profile *p)
{
	char a[DURATION_BUF], b[DURATION_BUF];

	if (p->overhead_library_ns > 0)
		snprintf(buf, buflen, "%s per call (%s per library call)",
			 format_duration(a, p->overhead_hook_ns),
			 format_duration(b, p->overhead_library_ns));
	else
		snprintf(buf, buflen, "%s per call", format_duration(a, p->overhead_per_call_ns));
	return buf;
}

void report_hooks_line(FILE *out, const struct profile *p, const char *prefix)
{
	char a[DURATION_BUF], b[DURATION_BUF];

	if (p->time_sample_period_ns) {
		uint64_t all = p->time_samples + p->time_hook_samples;
		char *source = report_samples_source_note(p);
		fprintf(out, "%stimes from %llu timer samples of %s of %s%s, on the exact call paths; "
			     "the hooks: %llu samples (%.1f %%), left out\n", prefix,
			(unsigned long long)p->time_samples,
			format_duration(a, (double)p->time_sample_period_ns), report_samples_clock(p),
			source,
			(unsigned long long)p->time_hook_samples,
			all ? 100.0 * (double)p->time_hook_samples / (double)all : 0);
		free(source);
	} else {
		char per_call[3 * DURATION_BUF + 32];
		fprintf(out, "%shook overhead subtracted: %s, %s in all", prefix,
			report_hooks_per_call(per_call, sizeof(per_call), p),
			format_duration(b, (double)p->overhead_ns));
		if (p->overhead_in_place)
			fprintf(out, ", measured in place by %llu samples in the hooks (\u00b1%.0f %%)",
				(unsigned long long)p->overhead_samples,
				100 * p->overhead_rel_error);
		else if (p->overhead_samples)
			fprintf(out, ", calibrated (%llu samples in the hooks: too few to measure it "
				     "in place)", (unsigned long long)p->overhead_samples);
		if (p->overhead_samples && p->overhead_rel_error > OVERHEAD_ERROR_NOTED)
			fprintf(out, "; a higher record --outside-freq measures it surer");
		fputc('\n', out);
	}
}

/* From this share of a run spent waiting for a CPU on, the headers say so. */
#define WAIT_SHARE_NOTED 0.1

double report_wait_share(uint64_t cpu_ns, uint64_t wait_ns)
{
	double all = (double)cpu_ns + (double)wait_ns;

	return all > 0 ? (double)wait_ns / all : 0;
}

int report_wait_noted(uint64_t cpu_ns, uint64_t wait_ns)
{
	return report_wait_share(cpu_ns, wait_ns) >= WAIT_SHARE_NOTED;
}

/* Only the waiting of threads whose context switches went unseen: where
 * they were seen, what the clock kept is a wait to run again after
 * blocking, with the blocked time in the call that blocked (a wall clock
 * profile keeps both), or outside any call; in short, often-called
 * functions' times it is not. */
void report_waiting_line(FILE *out, const struct profile *p, const char *prefix)
{
	uint64_t in_times = p->run_wait_unseen_ns;

	if (report_wait_noted(p->run_cpu_ns, in_times))
		fprintf(out, "%sthe program waited for a CPU %.0f %% of its run that its clock "
			     "could not leave out (other work on the machine had the CPU): that "
			     "waiting is in the times, most in short, often-called functions'\n",
			prefix,
			100 * report_wait_share(p->run_cpu_ns, in_times));
}

void report_hooks_json(struct json *j, const struct profile *p)
{
	json_kv_double(j, "overhead_ns_per_call", p->overhead_per_call_ns);
	if (p->overhead_library_ns > 0)
		json_kv_double(j, "overhead_ns_per_library_call", p->overhead_library_ns);
	json_kv_u64(j, "overhead_ns", p->overhead_ns);
	if (!p->time_sample_period_ns) {
		json_kv_string(j, "overhead_from", p->overhead_in_place ? "samples" : "calibration");
		json_kv_u64(j, "overhead_samples", p->overhead_samples);
		if (p->overhead_samples)
			json_kv_double(j, "overhead_rel_error", p->overhead_rel_error);
	}
	json_kv_string(j, "time_by", p->time_sample_period_ns ? "samples" : "clock");
	if (p->time_sample_period_ns) {
		json_kv_u64(j, "time_sample_period_ns", p->time_sample_period_ns);
		json_kv_u64(j, "time_samples", p->time_samples);
		json_kv_u64(j, "time_hook_samples", p->time_hook_samples);
	}
	if (p->run_cpu_ns) {
		json_kv_u64(j, "run_cpu_ns", p->run_cpu_ns);
		json_kv_u64(j, "run_wait_ns", p->run_wait_ns);
		json_kv_u64(j, "run_wait_left_out_ns", p->run_wait_left_out_ns);
		json_kv_u64(j, "run_wait_unseen_ns", p->run_wait_unseen_ns);
	}
}

void report_flat(FILE *out, const struct profile *p, const struct flat_options *o)
{
	size_t n;
	uint32_t *order = flat_sorted_functions(p, o->sort, &n);
	uint64_t all = sum_self(p);
	char a[DURATION_BUF], b[DURATION_BUF], c[DURATION_BUF], d[DURATION_BUF],
	     e[DURATION_BUF], f[DURATION_BUF];
	struct legend legend = { { 0 } };
	double hooks_share;
	unsigned char *doubtful = profile_doubtful_times(p, &hooks_share);

	if (o->title)
		fprintf(out, "%s\n", o->title);
	fprintf(out, "# %llu calls in %zu thread%s; lost events: %llu\n",
		(unsigned long long)p->calls, p->nthreads, p->nthreads == 1 ? "" : "s",
		(unsigned long long)p->lost_events);
	if (p->overwritten_events)
		fprintf(out, "# flight recorder: %llu older events were overwritten; "
			     "these numbers cover what the rings kept\n",
			(unsigned long long)p->overwritten_events);
	report_hooks_line(out, p, "# ");
	if (hooks_share >= HOOKS_SHARE_NOTED)
		fprintf(out, "# the hooks were %.0f %% of the measured run: short functions' "
			     "times depend on that estimate\n", 100 * hooks_share);
	if (hooks_share >= HOOKS_SHARE_DOMINANT)
		fprintf(out, "# times that do not depend on it: record --mode=count "
			     "--time-by=samples (calls counted, time from samples)\n");
	report_waiting_line(out, p, "# ");
	report_unhooked(out, p, "# ");
	report_untimed_calls_line(out, p, "# ");
	fprintf(out, "#\n%7s %12s %12s %10s %12s %12s %12s %12s", "% time", "self",
		"total", "calls", "self/call", "total/call", "min", "max");
	if (o->stats)
		fprintf(out, " %12s %12s %12s %12s", "stddev", "period min", "period avg",
			"period max");
	for (size_t k = 0; k < p->ncounters; k++)
		fprintf(out, " %14.14s %14.14s", p->counter_names[k], "+children");
	fprintf(out, "  %s\n", "function");
	for (size_t i = 0; i < n; i++) {
		const struct func *fn = &p->funcs[order[i]];
		double pct = all ? 100.0 * (double)fn->self_ns / (double)all : 0;
		if (fn->untimed)
			fprintf(out, "%7s %12s %12s %10llu %12s %12s %12s %12s", "-", "-", "-",
				(unsigned long long)fn->calls, "-", "-", "-", "-");
		else if (!fn->calls)
			/* time without calls (a library's code, timed by
			 * samples): nothing per call to say */
			fprintf(out, "%7.2f %12s %12s %10d %12s %12s %12s %12s", pct,
				format_duration(a, (double)fn->self_ns),
				format_duration(b, (double)fn->total_ns), 0, "-", "-", "-", "-");
		else
			fprintf(out, "%7.2f %12s %12s %10llu %12s %12s %12s %12s", pct,
				format_duration(a, (double)fn->self_ns),
				format_duration(b, (double)fn->total_ns),
				(unsigned long long)fn->calls,
				format_duration(c, fn->calls ? (double)(fn->self_ns -
									fn->continued_self_ns) /
								       (double)fn->calls
							     : 0),
				format_duration(d, fn->calls ? (double)fn->sum_call_ns /
								       (double)fn->calls
							     : 0),
				!func_calls_timed(fn) ? "-"
				: format_duration(e, fn->min_ns != UINT64_MAX ? (double)fn->min_ns : 0),
				!func_calls_timed(fn) ? "-" : format_duration(f, (double)fn->max_ns));
		if (o->stats)
			print_stats_columns(out, fn);
		for (size_t k = 0; k < p->ncounters; k++)
			fprintf(out, " %14llu %14llu", (unsigned long long)fn->counter_self[k],
				(unsigned long long)fn->counter_total[k]);
		fprintf(out, "  %s%s%s%s%s\n", fn->name,
			legend_use(&legend, fn->virtual_returns ? TAG_RUNNING
								: exit_tag(fn->unwound, fn->thrown)),
			legend_use(&legend, fn->continued_ns ? TAG_CONTINUED : ""),
			legend_use(&legend, fn->untimed ? TAG_UNTIMED : doubtful_tag(doubtful[order[i]])),
			legend_use(&legend, fn->counters_unreliable ? TAG_COUNTERS : ""));
	}
	legend_print(out, &legend);
	free(doubtful);
	free(order);
}

void report_flat_json_functions(struct json *j, const struct profile *p,
				const struct flat_options *o)
{
	size_t n;
	uint32_t *order = flat_sorted_functions(p, o->sort, &n);
	uint64_t all = sum_self(p);
	double hooks_share;
	unsigned char *doubtful = profile_doubtful_times(p, &hooks_share);

	json_array_begin(j);
	for (size_t i = 0; i < n; i++) {
		const struct func *fn = &p->funcs[order[i]];
		json_object_begin(j);
		json_kv_string(j, "name", fn->name);
		json_kv_string(j, "object", fn->object);
		json_kv_u64(j, "calls", fn->calls);
		json_kv_u64(j, "self_ns", fn->self_ns);
		json_kv_u64(j, "total_ns", fn->total_ns);
		int timed = func_calls_timed(fn);
		json_kv_u64_known(j, "min_ns", fn->min_ns != UINT64_MAX ? fn->min_ns : 0, timed);
		json_kv_u64(j, "avg_ns", avg_ns(fn));
		json_kv_u64_known(j, "max_ns", fn->max_ns, timed);
		/* a sampled-only run has no traced time: its share is the samples' */
		json_kv_double(j, "self_pct", all ? 100.0 * (double)fn->self_ns / (double)all
						  : func_self_sample_pct(p, fn));
		json_kv_u64(j, "virtual_returns", fn->virtual_returns);
		json_kv_u64(j, "unwound", fn->unwound);
		json_kv_u64(j, "thrown", fn->thrown);
		json_kv_u64(j, "continued_ns", fn->continued_ns);
		json_key(j, "self_time_doubtful");
		json_bool(j, (doubtful[order[i]] & DOUBTFUL_SELF) && !fn->untimed);
		json_key(j, "total_time_doubtful");
		json_bool(j, (doubtful[order[i]] & DOUBTFUL_TOTAL) && !fn->untimed);
		json_key(j, "untimed");
		json_bool(j, fn->untimed);
		for (size_t c = 0; c < p->ncounters; c++) {
			json_kv_u64(j, c ? "c2" : "c1", fn->counter_self[c]);
			json_kv_u64(j, c ? "c2_total" : "c1_total", fn->counter_total[c]);
		}
		if (p->ncounters) {
			json_key(j, "counters_possibly_incorrect");
			json_bool(j, fn->counters_unreliable);
		}
		json_kv_u64_known(j, "stddev_ns", (uint64_t)(func_stddev_ns(fn) + 0.5), timed);
		json_kv_u64_known(j, "periods", fn->periods, timed);
		json_kv_u64_known(j, "period_min_ns", fn->periods ? fn->period_min_ns : 0, timed);
		json_kv_u64_known(j, "period_avg_ns", func_period_avg_ns(fn), timed);
		json_kv_u64_known(j, "period_max_ns", fn->period_max_ns, timed);
		if (p->samples) {
			json_kv_u64(j, "samples", fn->samples);
			json_kv_u64(j, "self_samples", fn->self_samples);
			json_kv_double(j, "sample_self_pct", func_self_sample_pct(p, fn));
			json_kv_double(j, "total_pct", func_total_sample_pct(p, fn));
		}
		json_object_end(j);
	}
	json_array_end(j);
	free(doubtful);
	free(order);
}
