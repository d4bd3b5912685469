/*
 * Fuzz harness for the native reader and the loader: parse the file, then
 * load it into a profile as every command does (load/load.c: decoding,
 * clock conversion, the replay with its resets, stops, signal filter and
 * rings, count-mode records), and into a call-path tree, with a sum's
 * samples by PC as the reports of lines take them; and that the loader's
 * quick loop builds the same profile as its general path.  The objects'
 * paths are cleared first, so functions are named by address and no
 * binary named by the input is opened.  Any input must end in a clean
 * error or a profile, never a crash, a hang or a huge allocation.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/native.h"
#include "formats/native_checksum.h"
#include "formats/stream_reader.h"
#include "load/load.h"
#include "model/aggregate.h"
#include "model/cct.h"
#include "model/profile.h"
#include "die.h"
#include "xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The inline decoder must see exactly the events, and the error at the
 * same offset, that the full one does. */
static void check_quick_decoder(const struct data_thread *th)
{
	unsigned n = th->counter_info & THREAD_COUNTERS_MASK;
	struct stream_reader full, quick;
	struct stream_event a, b;
	int ra, rb;

	stream_reader_init(&full, th->stream, th->stream_len, th->start_time, n);
	stream_reader_init(&quick, th->stream, th->stream_len, th->start_time, n);
	do {
		ra = stream_reader_next(&full, &a);
		rb = stream_reader_next_quick(&quick, &b);
		if (ra != rb || full.p != quick.p ||
		    (ra == 1 && (a.kind != b.kind || a.time != b.time || a.addr != b.addr)) ||
		    (ra < 0 && full.error_offset != quick.error_offset))
			abort();
	} while (ra == 1);
	stream_reader_release(&full);
	stream_reader_release(&quick);
}

/* The call-path tree's builder, as 'callscope tree' drives it. */
struct tree_state {
	struct cct *t;
	struct cct_builder *b;
};

static void tree_begin(void *ctx, const struct thread_info *info, double inner, double outer)
{
	struct tree_state *s = ctx;
	s->b = cct_thread_begin(s->t, info->start_ns, inner, outer);
}

static void tree_enter(void *ctx, uint32_t fn, uint64_t t)
{
	cct_enter(((struct tree_state *)ctx)->b, fn, t);
}

static void tree_open(void *ctx, uint32_t fn, uint64_t t)
{
	cct_open_frame(((struct tree_state *)ctx)->b, fn, t);
}

static void tree_exit(void *ctx, uint64_t t, int kind)
{
	cct_exit(((struct tree_state *)ctx)->b, t, (enum exit_kind)kind);
}

static void tree_end(void *ctx, uint64_t t)
{
	cct_thread_end(((struct tree_state *)ctx)->b, t);
}

/*
 * The profile builder driven through a visitor of its own, which the
 * replay does not know for the builder's: it then takes its general path
 * for every event, where load_profile() decodes and builds most entries
 * and exits in its quick loop.  Both must come out the same.
 */
struct general_state {
	struct profile *p;
	struct thread_builder *b;
};

static void general_begin(void *ctx, const struct thread_info *info, double inner, double outer)
{
	struct general_state *s = ctx;
	s->b = profile_thread_begin(s->p, info, inner, outer);
}

static void general_enter(void *ctx, uint32_t fn, uint64_t t)
{
	profile_enter(((struct general_state *)ctx)->b, fn, t);
}

static void general_open(void *ctx, uint32_t fn, uint64_t t)
{
	profile_open_frame(((struct general_state *)ctx)->b, fn, t);
}

static void general_exit(void *ctx, uint64_t t, int kind)
{
	profile_exit(((struct general_state *)ctx)->b, t, (enum exit_kind)kind);
}

static void general_counters(void *ctx, const uint64_t values[CONTRACT_COUNTERS_MAX])
{
	profile_counters(((struct general_state *)ctx)->b, values);
}

static void general_end(void *ctx, uint64_t t)
{
	profile_thread_end(((struct general_state *)ctx)->b, t);
}

/* Samples name their functions as the loader's do, so both profiles
 * number functions alike; their counts are not compared. */
static void general_sample(void *ctx, const struct replay_sample *smp)
{
	(void)ctx, (void)smp;
}

static void general_aggregate(void *ctx, const struct thread_info *info,
			      const struct aggregate_thread *at)
{
	profile_add_aggregate(ctx, info, at);
}

/* Aborts unless the traced threads of DF give the same numbers through
 * the general path as load_profile_into() gives with SKIP_SPREAD. */
static void check_quick_replay(const struct data_file *df, const struct load_filter *f,
			       int skip_spread)
{
	struct load_stats stats;
	struct profile *quick = profile_new(), *general = profile_new();
	struct general_state gs = { general, NULL };
	const struct replay_visitor v = { .ctx = &gs, .thread_begin = general_begin,
					  .enter = general_enter, .open_frame = general_open,
					  .exit = general_exit, .thread_end = general_end,
					  .counters = general_counters, .sample = general_sample };

	quick->skip_spread = general->skip_spread = skip_spread;
	load_profile_into(quick, df, f, &stats);
	general->ncounters = df->ncounters;
	load_replay(df, f, general, &v, &stats);
	load_aggregates(df, f, general, general_aggregate, general, &stats);
	if (quick->nfuncs != general->nfuncs || quick->narcs != general->narcs ||
	    quick->calls != general->calls)
		abort();
	for (size_t i = 0; i < quick->nfuncs; i++) {
		const struct func *a = &quick->funcs[i], *b = &general->funcs[i];
		if (strcmp(a->name, b->name) || a->calls != b->calls || a->self_ns != b->self_ns ||
		    a->total_ns != b->total_ns || a->min_ns != b->min_ns || a->max_ns != b->max_ns ||
		    a->sum_call_ns != b->sum_call_ns || a->continued_ns != b->continued_ns ||
		    a->virtual_returns != b->virtual_returns || a->unwound != b->unwound ||
		    a->periods != b->periods || a->period_sum_ns != b->period_sum_ns ||
		    a->call_dev_sum != b->call_dev_sum ||
		    memcmp(a->counter_self, b->counter_self, sizeof(a->counter_self)) ||
		    memcmp(a->counter_total, b->counter_total, sizeof(a->counter_total)))
			abort();
	}
	for (size_t i = 0; i < quick->narcs; i++) {
		const struct arc *a = &quick->arcs[i], *b = &general->arcs[i];
		if (a->caller != b->caller || a->callee != b->callee || a->count != b->count ||
		    a->self_ns != b->self_ns || a->child_ns != b->child_ns)
			abort();
	}
	profile_free(quick);
	profile_free(general);
}

/* A sum's samples by PC, as report --lines and annotate take them: every
 * function of the stack must be one the profile knows. */
static void sample_check(void *ctx, const struct replay_sample *smp)
{
	const struct profile *p = ctx;

	for (size_t i = 0; i < smp->n; i++)
		if (smp->funcs[i] >= p->nfuncs)
			abort();
}

static void tree_aggregate(void *ctx, const struct thread_info *info,
			   const struct aggregate_thread *at)
{
	(void)info;
	cct_add_aggregate(((struct tree_state *)ctx)->t, at);
}

/*
 * A file ending in an END section gets its checksum taken again: a
 * mutated file would otherwise almost never get past it to the sections'
 * and streams' own checks, which must hold against a file that was made
 * to be read, not only against one damaged by chance.
 */
static uint8_t *with_fresh_checksum(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	const size_t end = SECTION_HEADER_SIZE + 16;

	memcpy(copy, data, size);
	if (size >= DATA_HEADER_SIZE + end && copy[size - end] == SECTION_END &&
	    !copy[size - end + 1] && !copy[size - end + 2] && !copy[size - end + 3]) {
		struct data_checksum sum = data_checksum(copy, size - end);
		for (int i = 0; i < 8; i++) {
			copy[size - 16 + i] = (uint8_t)(sum.sum >> (8 * i));
			copy[size - 8 + i] = (uint8_t)(sum.weighted >> (8 * i));
		}
	}
	return copy;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct data_file df;
	char err[256];
	uint8_t *input = with_fresh_checksum(data, size);

	die_set_quiet(1);	/* the loader's warnings about damage */

	if (data_file_parse(input, size, &df, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < df.nobjects; i++) {
			free(df.objects[i].path);
			df.objects[i].path = xstrdup("");
		}
		/* the input's length picks the signal filter, so each is met */
		struct load_filter f = { -1, -1, 0, 0, (enum signal_filter)(size % 3) };
		struct load_stats stats;
		memset(&stats, 0, sizeof(stats));
		struct profile *p = load_profile(&df, &f, &stats);
		struct tree_state tree = { cct_new(FUNC_NONE), NULL };
		const struct replay_visitor v = { &tree, tree_begin, tree_enter, tree_open,
						  tree_exit, tree_end, NULL, NULL, NULL, 0 };
		load_replay(&df, &f, p, &v, &stats);
		load_aggregates(&df, &f, p, tree_aggregate, &tree, &stats);
		const struct replay_visitor sv = { .ctx = p, .sample = sample_check, .sample_lines = 1 };
		load_sum_samples(&df, &f, p, &sv, &stats);
		for (size_t i = 0; i < df.nthreads; i++)
			if (!(df.threads[i].flags & THREAD_CCT))
				check_quick_decoder(&df.threads[i]);
		check_quick_replay(&df, &f, 0);
		check_quick_replay(&df, &f, 1);
		profile_free(p);
		cct_free(tree.t);
	}
	data_file_release(&df);
	free(input);
	return 0;
}
