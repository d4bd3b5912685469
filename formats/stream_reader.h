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

enum stream_event_kind {
	EVENT_ENTRY,
	EVENT_EXIT,
	EVENT_EXIT_UNWOUND,
	EVENT_THREAD_END,
	EVENT_OPEN_FRAME,
};

struct stream_event {
	enum stream_event_kind kind;
	uint64_t time;		/* clock units, absolute */
	uint64_t addr;		/* ENTRY and OPEN_FRAME: the runtime address */
	uint32_t id;		/* ENTRY: the stream's small id of addr, 0 if none */
};

struct stream_reader {
	const uint8_t *start, *p, *end;
	uint64_t time;
	uint64_t *addrs;	/* id -> address; owned */
	size_t naddrs, addrs_alloc;
	const char *error;	/* set when next() returned -1 */
	size_t error_offset;	/* from the start of the stream */
};

void stream_reader_init(struct stream_reader *r, const uint8_t *stream,
			size_t len, uint64_t start_time);
/* Returns 1 with *EV filled, 0 at the end, -1 on corrupt input. */
int stream_reader_next(struct stream_reader *r, struct stream_event *ev);
void stream_reader_release(struct stream_reader *r);

#endif
