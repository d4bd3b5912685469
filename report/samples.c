#include "report/samples.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "model/samples.h"
#include "sampling.h"
#include "xalloc.h"

const char *report_samples_method(const struct profile *p)
{
	int fp = (p->sample_methods >> SAMPLE_METHOD_FP) & 1;
	int pc = (p->sample_methods >> SAMPLE_METHOD_PC) & 1;
	int dwarf = (p->sample_methods >> SAMPLE_METHOD_DWARF) & 1;

	if (dwarf)
		return fp || pc ? "DWARF unwinding (some threads: frame pointers or PC only)"
				: "DWARF unwinding";

	if (fp && pc)
		return "frame pointers (some threads: PC only)";
	if (fp)
		return "frame pointers";
	if (pc)
		return "PC only";
	return "none";
}

void report_samples_summary(FILE *out, const struct profile *p)
{
	fprintf(out, "# samples: %llu of %s time%s; stacks by %s, %llu truncated\n",
		(unsigned long long)p->samples, p->samples_wall ? "wall" : "CPU",
		p->samples_tick ? " (timer at the scheduler tick: coarse)" : "",
		report_samples_method(p), (unsigned long long)p->samples_truncated);
	fprintf(out, "# lost samples: %llu; outside any known object: %llu\n",
		(unsigned long long)p->samples_lost, (unsigned long long)p->samples_outside);
}

static const struct profile *order_profile;

static int by_self_samples(const void *a, const void *b)
{
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
	order_profile = p;
	qsort(order, n, sizeof(*order), by_self_samples);
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
	json_kv_u64(j, "truncated_stacks", p->samples_truncated);
	json_kv_string(j, "sample_clock", p->samples_wall ? "wall" : "cpu");
	json_kv_string(j, "sample_source", p->samples_wall ? "timer"
					   : p->samples_tick ? "tick-timer" : "task-clock");
	json_kv_string(j, "stack_method", report_samples_method(p));
}
