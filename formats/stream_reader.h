/*
 * Decoding one thread's event stream (common/stream.h) into events with
 * absolute times and addresses.  Hostile input: a record cut short, an id
 * used before it is defined, or ids defined out of order stop the decoder
 * with a message and the offset; what was decoded before stays valid, so a
 * caller can salvage the prefix.
 */
#ifndef CALLSCOPE_FORMATS_STREAM_READER_H
#define CALLSCOPE_FORMATS_STREAM_READER_H

#include <stddef.h>
#include <stdint.h>

#include "stream.h"
#include "contract.h"

enum stream_event_kind {
	EVENT_ENTRY,
	EVENT_EXIT,
	EVENT_EXIT_UNWOUND,	/* left by longjmp: stack repair closed it */
	EVENT_EXIT_THROWN,	/* left by an exception: likewise */
	EVENT_THREAD_END,
	EVENT_OPEN_FRAME,	/* a call open where decoding (re)started */
	EVENT_STOP,		/* capture stopped: open calls end here */
	EVENT_MARK,		/* value */
	EVENT_MARK_STR,		/* text, text_len */
	EVENT_TASK,		/* value */
	EVENT_SIGNAL,		/* value: the signal number */
	EVENT_SAMPLE,		/* addr: the PC; sample_*, frames */
	EVENT_RESET,		/* everything before was discarded (callscope_reset) */
};

struct stream_event {
	enum stream_event_kind kind;
	uint64_t time;		/* clock units, absolute */
	uint64_t addr;		/* ENTRY and OPEN_FRAME: the runtime address */
	uint32_t id;		/* ENTRY: the stream's small id of addr, 0 if none */
	uint64_t value;
	const uint8_t *text;	/* MARK_STR: borrowed from the stream */
	size_t text_len;
	/* the counters' absolute values after ENTRY and each EXIT kind
	 * (and OPEN_FRAME: those of the SYNC) */
	uint64_t counters[CONTRACT_COUNTERS_MAX];
	/* SAMPLE: enum sample_flags (common/sampling.h), the timer periods it
	 * stands for, samples lost before it, and NFRAMES return addresses
	 * (innermost first) as varints borrowed from the stream */
	uint64_t sample_flags;
	uint64_t sample_weight;
	uint64_t sample_missed;
	const uint8_t *frames;
	uint32_t nframes;
	/* SAMPLE with SAMPLE_METHOD_DWARF: the stack pointer, frame pointer
	 * and a copy of the stack from sp (borrowed), else 0 and NULL */
	uint64_t sample_sp, sample_bp;
	const uint8_t *stack_copy;
	size_t stack_copy_len;
};

/* Room for the two longest varints of an ENTRY, which the quick path
 * decodes without checking the end. */
#define STREAM_QUICK_ROOM 20

struct stream_reader {
	const uint8_t *start, *p, *end;
	uint64_t time;
	unsigned ncounters;	/* counter values per entry and exit: 0-2 */
	uint64_t counters[CONTRACT_COUNTERS_MAX];
	uint64_t *addrs;	/* id -> address; owned */
	size_t naddrs, addrs_alloc;
	/* Open calls are reported from a SYNC record only when decoding is
	 * not in step: at the start of a stream, and after a STOP. */
	int need_sync;
	uint32_t id_epoch;	/* bumped whenever ids start again (SYNC) */
	const uint8_t *pending;	/* addresses of a SYNC still to report */
	uint64_t npending;
	uint64_t syncs;		/* SYNC records read: each is one record the
				 * runtime counted, though it yields no event
				 * of its own */
	/* stream_reader_next_quick() decodes while p is at or below this
	 * address: STREAM_QUICK_ROOM bytes are left, and no SYNC addresses
	 * nor counters are due; 0 when it may not (recomputed by every
	 * stream_reader_next(), the only place those change) */
	uintptr_t quick_limit;
	const char *error;	/* set when next() returned -1 */
	size_t error_offset;	/* from the start of the stream */
};

void stream_reader_init(struct stream_reader *r, const uint8_t *stream,
			size_t len, uint64_t start_time, unsigned ncounters);
/* Returns 1 with *EV filled, 0 at the end, -1 on corrupt input. */
int stream_reader_next(struct stream_reader *r, struct stream_event *ev);
void stream_reader_release(struct stream_reader *r);

/*
 * The same as stream_reader_next(), with the two records that make up
 * nearly all of a trace (ENTRY of a defined id, EXIT, without counters)
 * decoded inline.  Anything else, or anything that fails a check, is left
 * to stream_reader_next() from the same place, so both accept and reject
 * exactly the same input.
 */
static inline int stream_reader_next_quick(struct stream_reader *r, struct stream_event *ev)
{
	const uint8_t *p = r->p;
	uint64_t v, delta;

	/* two whole varints fit: the checks below are all that can fail */
	if (__builtin_expect((uintptr_t)p > r->quick_limit, 0) ||
	    stream_get_varint(&p, r->end, &v))
		return stream_reader_next(r, ev);
	if ((v & 3) == STREAM_EXIT) {
		delta = v >> 2;
		ev->kind = EVENT_EXIT;
		ev->addr = 0;
	} else if ((v & 3) == STREAM_ENTRY && (v >> 2) && (v >> 2) < r->naddrs &&
		   !stream_get_varint(&p, r->end, &delta)) {
		ev->kind = EVENT_ENTRY;
		ev->id = (uint32_t)(v >> 2);
		ev->addr = r->addrs[v >> 2];
	} else {
		return stream_reader_next(r, ev);
	}
	if (r->time + delta < r->time)
		return stream_reader_next(r, ev);
	r->time += delta;
	r->p = p;
	ev->time = r->time;
	return 1;
}

#endif
