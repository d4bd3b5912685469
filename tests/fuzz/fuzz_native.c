/*
 * Fuzz harness for the native reader and the loader: parse the file, then
 * load it into a profile as every command does (load/load.c: decoding,
 * clock conversion, the replay with its resets, stops, signal filter and
 * rings, count-mode records), and into a call-path tree, with a sum's
 * samples by PC as the reports of lines take them.  The objects'
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
		profile_free(p);
		cct_free(tree.t);
	}
	data_file_release(&df);
	free(input);
	return 0;
}
