/*
 * The durations come from the profile builder itself (its call observer),
 * so they are exactly the inclusive times whose min, average and maximum
 * the flat profile shows; a count-mode recording's come bucketed by its
 * runtime, in clock units.  Function numbers are only known once the
 * replay has met a function, so every function the spec might name gets
 * a histogram; the spec is resolved over the finished profile.
 */
#include "cli/histogram.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/find_function.h"
#include "model/aggregate.h"
#include "model/histogram.h"
#include "model/symspec.h"
#include "report/histogram.h"
#include "xalloc.h"

struct hist_state {
	struct profile *p;
	struct thread_builder *b;
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
static void hist_aggregate(void *ctx, const struct thread_info *info,
			   const struct aggregate_thread *at)
{
	struct hist_state *s = ctx;

	if (profile_add_aggregate(s->p, info, at) != 0)
		return;
	for (size_t i = 0; i < at->nfuncs; i++) {
		struct log2_hist *h = hist_of(s, at->funcs[i].func);
		if (h)
			aggregate_histogram(at, at->funcs[i].func, h);
	}
}

static void hist_begin(void *ctx, const struct thread_info *info, double inner, double outer)
{
	struct hist_state *s = ctx;
	s->b = profile_thread_begin(s->p, info, inner, outer);
}

static void hist_enter(void *ctx, uint32_t fn, uint64_t t)
{
	profile_enter(((struct hist_state *)ctx)->b, fn, t);
}

static void hist_open(void *ctx, uint32_t fn, uint64_t t)
{
	profile_open_frame(((struct hist_state *)ctx)->b, fn, t);
}

static void hist_exit(void *ctx, uint64_t t, int kind)
{
	profile_exit(((struct hist_state *)ctx)->b, t, (enum exit_kind)kind);
}

static void hist_note(void *ctx, const struct replay_note *n)
{
	if (n->kind == NOTE_OVERWRITTEN)
		profile_thread_overwritten(((struct hist_state *)ctx)->b, n->value);
}

static void hist_end(void *ctx, uint64_t t)
{
	struct hist_state *s = ctx;
	profile_thread_end(s->b, t);
	s->b = NULL;
}

int histogram_report(const struct data_file *df, const struct load_filter *f,
		     const char *spec, int json, const char *input)
{
	struct hist_state s = { profile_new(), NULL, spec, NULL, NULL, 0 };
	const struct replay_visitor v = {
		.ctx = &s,
		.thread_begin = hist_begin,
		.enter = hist_enter,
		.open_frame = hist_open,
		.exit = hist_exit,
		.thread_end = hist_end,
		.note = hist_note,
	};
	struct load_stats stats;
	struct log2_hist none;

	s.p->call_observer = observe;
	s.p->call_observer_ctx = &s;
	load_replay(df, f, s.p, &v, &stats);
	load_aggregates(df, f, s.p, hist_aggregate, &s, &stats);

	uint32_t fn = find_function(s.p, spec, "--histogram", input);
	memset(&none, 0, sizeof(none));
	report_histogram(stdout, s.p, fn, fn < s.n && s.hist[fn] ? s.hist[fn] : &none, json);
	for (size_t i = 0; i < s.n; i++)
		free(s.hist[i]);
	free(s.hist);
	free(s.may);
	profile_free(s.p);
	return stats.salvaged ? EXIT_SALVAGED : 0;
}
