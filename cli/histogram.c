/*
 * The durations come from the profile builder itself (its observers, on
 * the same load as every report's), so they are exactly the inclusive
 * times whose min, average and maximum the flat profile shows; a
 * count-mode recording's come bucketed by its runtime, in clock units.  Function numbers are only known once the
 * replay has met a function, so every function the spec might name gets
 * a histogram; the spec is resolved over the finished profile.
 */
#include "cli/histogram.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/find_function.h"
#include "die.h"
#include "model/aggregate.h"
#include "model/histogram.h"
#include "model/symspec.h"
#include "report/histogram.h"
#include "xalloc.h"

struct hist_state {
	struct profile *p;
	const char *spec;
	signed char *may;		/* per function: 0 not known yet, 1 the
					 * spec may name it, -1 it does not */
	struct log2_hist **hist;	/* per function the spec may name */
	size_t n;
};

/* FUNC's histogram, or NULL when the spec cannot name it. */
static struct log2_hist *hist_of(struct hist_state *s, uint32_t func)
{
	if (func >= s->n) {
		size_t n = s->n ? s->n : 64;
		while (n <= func)
			n *= 2;
		s->may = xrealloc(s->may, n * sizeof(*s->may));
		s->hist = xrealloc(s->hist, n * sizeof(*s->hist));
		memset(s->may + s->n, 0, (n - s->n) * sizeof(*s->may));
		memset(s->hist + s->n, 0, (n - s->n) * sizeof(*s->hist));
		s->n = n;
	}
	if (!s->may[func])
		s->may[func] = symspec_may_name(&s->p->funcs[func], s->spec) ? 1 : -1;
	if (s->may[func] < 0)
		return NULL;
	if (!s->hist[func])
		s->hist[func] = xcalloc(1, sizeof(**s->hist));
	return s->hist[func];
}

static void observe(void *ctx, uint32_t func, uint64_t total_ns)
{
	struct log2_hist *h = hist_of(ctx, func);

	if (h)
		log2_hist_add(h, total_ns);
}

/* A count-mode thread: the runtime bucketed each function's calls. */
static void observe_aggregate(void *ctx, const struct aggregate_thread *at)
{
	for (size_t i = 0; i < at->nfuncs; i++) {
		struct log2_hist *h = hist_of(ctx, at->funcs[i].func);
		if (h)
			aggregate_histogram(at, &at->funcs[i], h);
	}
}

int histogram_report(const struct data_file *df, const struct load_filter *f,
		     const char *spec, int json, const char *input)
{
	struct hist_state s = { profile_new(), spec, NULL, NULL, 0 };
	struct load_stats stats;
	struct log2_hist none;

	s.p->call_observer = observe;
	s.p->aggregate_observer = observe_aggregate;
	s.p->call_observer_ctx = &s;
	load_profile_into(s.p, df, f, &stats);

	uint32_t fn = find_function(s.p, spec, "--histogram", input);
	if (!func_calls_timed(&s.p->funcs[fn]))
		die("the durations of %s's calls were not recorded: %s", s.p->funcs[fn].name,
		    s.p->time_sample_period_ns
			    ? "a run timed by samples has none; record it with --time-by=clock"
			    : "record with --mode=count --call-stats, or trace it");
	memset(&none, 0, sizeof(none));
	report_histogram(stdout, s.p, fn, fn < s.n && s.hist[fn] ? s.hist[fn] : &none, json);
	for (size_t i = 0; i < s.n; i++)
		free(s.hist[i]);
	free(s.hist);
	free(s.may);
	profile_free(s.p);
	return stats.salvaged ? EXIT_SALVAGED : 0;
}
