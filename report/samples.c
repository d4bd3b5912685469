#include "report/samples.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "model/samples.h"
#include "sampling.h"
#include "sections.h"
#include "xalloc.h"

char *report_samples_method(const struct profile *p)
{
	static const char *const names[] = {
		[SAMPLE_METHOD_PC] = "PC only",
		[SAMPLE_METHOD_FP] = "frame pointers",
		[SAMPLE_METHOD_DWARF] = "DWARF unwinding",
		[SAMPLE_METHOD_FP_DWARF] = "frame pointers then DWARF",
		[SAMPLE_METHOD_CFI] = "call frame information",
		[SAMPLE_METHOD_CFI_DWARF] = "call frame information then DWARF",
	};
	uint64_t total = 0;
	size_t used = 0, only = 0;

	for (size_t m = 0; m < SAMPLE_METHODS; m++) {
		total += p->samples_by_method[m];
		if (p->samples_by_method[m]) {
			used++;
			only = m;
		}
	}
	if (!used && p->time_sample_period_ns)
		return xstrdup("the shadow stack (exact call paths)");
	if (used <= 1)
		return xstrdup(used ? names[only] : "none");
	/* the methods in their order above, each with its share */
	char *text = xstrdup("");
	for (size_t m = 0; m < SAMPLE_METHODS; m++) {
		if (!p->samples_by_method[m])
			continue;
		char *more = xasprintf("%s%s%s %.0f %%", text, *text ? ", " : "", names[m],
				       100.0 * (double)p->samples_by_method[m] / (double)total);
		free(text);
		text = more;
	}
	return text;
}

/* Whether the timer at the tick took every sample, and some: the trace's
 * samples say it each, the call paths' their threads. */
static int samples_all_by_tick(const struct profile *p)
{
	if (p->samples_tick)
		return p->samples_tick >= p->samples;
	return (p->path_sample_clocks & THREAD_SAMPLES_TICK) &&
	       !(p->path_sample_clocks & THREAD_SAMPLES_EVENT);
}

/* " (timer at the scheduler tick: coarse)" when the timer took every
 * sample, else how many it took (the main thread's start while its event
 * was opened, a thread whose event could not be opened), or that it took
 * some where the call paths' threads do not count them. */
char *report_samples_source_note(const struct profile *p)
{
	if (samples_all_by_tick(p))
		return xstrdup(" (timer at the scheduler tick: coarse)");
	if (p->samples_tick)
		return xasprintf(" (%llu by the timer at the scheduler tick)",
				 (unsigned long long)p->samples_tick);
	if (p->path_sample_clocks & THREAD_SAMPLES_TICK)
		return xstrdup(" (some by the timer at the scheduler tick)");
	return xstrdup("");
}

/* Whether the samples counted wall time: the trace's or the call paths'. */
static int samples_of_wall_time(const struct profile *p)
{
	return p->samples_wall || (p->path_sample_clocks & THREAD_SAMPLES_WALL);
}

enum cpu_time_kind { CPU_TIME_UNSAID, CPU_TIME_USER, CPU_TIME_USER_AND_SYSTEM };

/*
 * What samples of CPU time measure.  The task-clock event counts a
 * thread's time in the kernel on its behalf too (its system calls, its
 * page faults), as perf's cpu-clock and the tick-grained timer do, except
 * where perf_event_paranoid lets it count user time alone, and in
 * recordings made before it could.  Samples summed on call paths
 * (--time-by=samples, a sum) come with their threads' word on which kinds
 * they were; recordings made before threads said leave it unsaid.
 */
static enum cpu_time_kind cpu_time_kind(const struct profile *p)
{
	if (p->samples_user_only || (p->path_sample_clocks & THREAD_SAMPLES_USER_ONLY))
		return CPU_TIME_USER;
	if (p->path_samples_unsaid)
		return CPU_TIME_UNSAID;
	return CPU_TIME_USER_AND_SYSTEM;
}

const char *report_samples_clock(const struct profile *p)
{
	static const char *const names[] = {
		[CPU_TIME_UNSAID] = "CPU time",
		[CPU_TIME_USER] = "user CPU time",
		[CPU_TIME_USER_AND_SYSTEM] = "CPU time, user and system",
	};

	return samples_of_wall_time(p) ? "wall time" : names[cpu_time_kind(p)];
}

void report_samples_summary(FILE *out, const struct profile *p)
{
	char *method = report_samples_method(p);
	char *source = report_samples_source_note(p);

	fprintf(out, "# samples: %llu of %s%s; stacks by %s, %llu truncated\n",
		(unsigned long long)p->samples, report_samples_clock(p), source, method,
		(unsigned long long)p->samples_truncated);
	free(source);
	free(method);
	fprintf(out, "# lost samples: %llu; outside any known object: %llu\n",
		(unsigned long long)p->samples_lost, (unsigned long long)p->samples_outside);
	if (p->samples && p->samples_in_hooks)
		fprintf(out, "# in the hooks: %llu samples (%.1f %% of all), their cost, left out\n",
			(unsigned long long)p->samples_in_hooks,
			100.0 * (double)p->samples_in_hooks /
				(double)(p->samples_in_hooks + p->samples));
	if (!p->samples && !p->calls)
		fprintf(out, "# no sample was taken: the program ran for less than a sampling "
			     "period; run it longer, or raise record's --freq\n");
}

/* A qsort_r() comparator of function numbers; the context is the profile. */
static int by_self_samples(const void *a, const void *b, void *profile)
{
	const struct profile *order_profile = profile;
	const struct func *fa = &order_profile->funcs[*(const uint32_t *)a];
	const struct func *fb = &order_profile->funcs[*(const uint32_t *)b];

	if (fa->self_samples != fb->self_samples)
		return fa->self_samples < fb->self_samples ? 1 : -1;
	if (fa->samples != fb->samples)
		return fa->samples < fb->samples ? 1 : -1;
	return strcmp(fa->name, fb->name);
}

void report_samples(FILE *out, const struct profile *p)
{
	uint32_t *order = xmalloc((p->nfuncs + 1) * sizeof(*order));
	size_t n = 0;
	int traced = p->calls != 0;

	report_samples_summary(out, p);
	for (size_t i = 0; i < p->nfuncs; i++)
		if (p->funcs[i].samples)
			order[n++] = (uint32_t)i;
	qsort_r(order, n, sizeof(*order), by_self_samples, (void *)p);
	fprintf(out, "%7s %7s %9s %9s%s  %s\n", "self%", "total%", "self", "total",
		traced ? "      calls" : "", "function");
	for (size_t i = 0; i < n; i++) {
		const struct func *f = &p->funcs[order[i]];
		fprintf(out, "%7.2f %7.2f %9llu %9llu", func_self_sample_pct(p, f),
			func_total_sample_pct(p, f), (unsigned long long)f->self_samples,
			(unsigned long long)f->samples);
		if (traced)
			fprintf(out, " %10llu", (unsigned long long)f->calls);
		fprintf(out, "  %s\n", f->name);
	}
	free(order);
}

void report_samples_json_fields(struct json *j, const struct profile *p)
{
	json_kv_u64(j, "samples", p->samples);
	json_kv_u64(j, "lost_samples", p->samples_lost);
	json_kv_u64(j, "outside_samples", p->samples_outside);
	json_kv_u64(j, "hook_samples", p->samples ? p->samples_in_hooks : 0);
	json_kv_u64(j, "truncated_stacks", p->samples_truncated);
	int wall = samples_of_wall_time(p);
	json_kv_string(j, "sample_clock", wall ? "wall" : "cpu");
	enum cpu_time_kind kind = cpu_time_kind(p);
	if (!wall && kind != CPU_TIME_UNSAID)
		json_kv_string(j, "sample_cpu_time", kind == CPU_TIME_USER ? "user" : "user+system");
	json_kv_string(j, "sample_source", wall ? "timer"
					   : samples_all_by_tick(p) ? "tick-timer" : "task-clock");
	if (!wall)
		json_kv_u64(j, "tick_timer_samples", p->samples_tick);
	char *method = report_samples_method(p);
	json_kv_string(j, "stack_method", method);
	free(method);
}
