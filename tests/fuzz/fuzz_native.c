/*
 * Fuzz harness for the native reader: parse the file, then decode and
 * replay every thread's stream into a profile (functions named by
 * address, as no binary is at hand).  Any input must end in a clean
 * error or a profile, never a crash, a hang or a huge allocation.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/native.h"
#include "formats/stream_reader.h"
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct data_file df;
	char err[256];

	if (data_file_parse(data, size, &df, err, sizeof(err)) == 0) {
		struct profile *p = profile_new();
		for (size_t i = 0; i < df.nthreads; i++) {
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
				else if (ev.kind == EVENT_EXIT || ev.kind == EVENT_EXIT_UNWOUND)
					profile_exit(b, t, ev.kind == EVENT_EXIT_UNWOUND);
			}
			stream_reader_release(&r);
			profile_thread_end(b, t);
			check_quick_decoder(&df.threads[i]);
		}
		profile_find_cycles(p);
		profile_free(p);
	}
	data_file_release(&df);
	return 0;
}
