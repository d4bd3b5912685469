/*
 * Fuzz harness for the native reader: parse the file, then decode and
 * replay every thread's stream, or read its count-mode records, into a
 * profile and a call-path tree (functions named by address, as no binary
 * is at hand).  Any input must end in a clean
 * error or a profile, never a crash, a hang or a huge allocation.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/cct_read.h"
#include "formats/native.h"
#include "formats/native_checksum.h"
#include "formats/stream_reader.h"
#include "model/aggregate.h"
#include "model/cct.h"
#include "model/profile.h"

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

static uint32_t func_of(void *ctx, uint64_t addr)
{
	struct profile *p = ctx;
	char name[32];

	snprintf(name, sizeof(name), "%llx", (unsigned long long)(addr & 0xff));
	return profile_intern_func(p, name, "", 0, 0, NULL, 0);
}

/* A count-mode thread, as the loader takes it in. */
static void add_aggregate(struct profile *p, struct cct *tree, const struct data_thread *th)
{
	struct cct_thread ct;
	struct aggregate_thread at;
	struct thread_info info = { .pid = th->pid, .tid = th->tid,
				    .counter_info = th->counter_info };
	const char *why;

	if (cct_thread_parse(th->stream, th->stream_len, th->counter_info & THREAD_COUNTERS_MASK,
			     th->start_time + 1000, &ct, &why) != 0) {
		if (!why)
			abort();
		return;
	}
	cct_thread_to_aggregate(&ct, 1, 1, 1, p, func_of, p, &at);
	at.nnodes = aggregate_filter_signals(at.nodes, at.nnodes, th->tid & 1);
	if (profile_add_aggregate(p, &info, &at) == 0)
		cct_add_aggregate(tree, &at);
	free(at.nodes);
	free(at.funcs);
	cct_thread_release(&ct);
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

	if (data_file_parse(input, size, &df, err, sizeof(err)) == 0) {
		struct profile *p = profile_new();
		struct cct *tree = cct_new(FUNC_NONE);
		p->ncounters = df.ncounters;
		tree->metrics |= df.ncounters ? 1u << CCT_C1 : 0;
		for (size_t i = 0; i < df.nthreads; i++) {
			if (df.threads[i].flags & THREAD_CCT) {
				add_aggregate(p, tree, &df.threads[i]);
				continue;
			}
			struct thread_info info = { .pid = df.threads[i].pid, .tid = df.threads[i].tid };
			struct thread_builder *b = profile_thread_begin(p, &info, 1, 1);
			struct stream_reader r;
			struct stream_event ev;
			uint64_t t = 0;
			stream_reader_init(&r, df.threads[i].stream, df.threads[i].stream_len,
					   df.threads[i].start_time,
					   df.threads[i].counter_info & THREAD_COUNTERS_MASK);
			while (stream_reader_next(&r, &ev) == 1) {
				char name[32];
				t = ev.time;
				snprintf(name, sizeof(name), "%llx", (unsigned long long)(ev.addr & 0xff));
				if (ev.kind == EVENT_ENTRY)
					profile_enter(b, profile_intern_func(p, name, "", 0, 0, NULL, 0), t);
				else if (ev.kind == EVENT_OPEN_FRAME)
					profile_open_frame(b, profile_intern_func(p, name, "", 0, 0, NULL, 0), t);
				else if (ev.kind == EVENT_EXIT)
					profile_exit(b, t, EXIT_RETURN);
				else if (ev.kind == EVENT_EXIT_UNWOUND)
					profile_exit(b, t, EXIT_UNWOUND);
				else if (ev.kind == EVENT_EXIT_THROWN)
					profile_exit(b, t, EXIT_THROWN);
			}
			stream_reader_release(&r);
			profile_thread_end(b, t);
			check_quick_decoder(&df.threads[i]);
		}
		profile_find_cycles(p);
		profile_free(p);
		cct_free(tree);
	}
	data_file_release(&df);
	free(input);
	return 0;
}
