#include "formats/stream_reader.h"

#include <stdlib.h>
#include <string.h>

#include "sampling.h"
#include "stream.h"
#include "xalloc.h"

static void set_quick_limit(struct stream_reader *r);

void stream_reader_init(struct stream_reader *r, const uint8_t *stream,
			size_t len, uint64_t start_time, unsigned ncounters)
{
	memset(r, 0, sizeof(*r));
	r->start = r->p = stream;
	r->end = stream + len;
	r->time = start_time;
	r->ncounters = ncounters > CONTRACT_COUNTERS_MAX ? CONTRACT_COUNTERS_MAX : ncounters;
	r->need_sync = 1;
	/* id 0 is never handed out */
	ALLOC_GROW(r->addrs, 1, r->addrs_alloc);
	r->addrs[0] = 0;
	r->naddrs = 1;
	set_quick_limit(r);
}

void stream_reader_release(struct stream_reader *r)
{
	free(r->addrs);
	r->addrs = NULL;
}

static int fail(struct stream_reader *r, const uint8_t *at, const char *why)
{
	r->error = why;
	r->error_offset = (size_t)(at - r->start);
	return -1;
}

/* Reads the counter increases that follow an entry's or exit's time. */
static inline int read_counters(struct stream_reader *r, struct stream_event *ev)
{
	/* without counters the event's values are not looked at */
	if (!r->ncounters)
		return 0;
	for (unsigned i = 0; i < r->ncounters; i++) {
		uint64_t d;
		if (stream_get_varint(&r->p, r->end, &d))
			return -1;
		r->counters[i] += d;
	}
	memcpy(ev->counters, r->counters, sizeof(ev->counters));
	return 0;
}

static int add_delta(struct stream_reader *r, uint64_t delta)
{
	if (r->time + delta < r->time)
		return -1;
	r->time += delta;
	return 0;
}

/* Reports the next open call of the SYNC being replayed. */
static int next_pending(struct stream_reader *r, struct stream_event *ev)
{
	const uint8_t *at = r->pending;
	uint64_t a;

	if (stream_get_varint(&r->pending, r->end, &a))
		return fail(r, at, "sync record cut short");
	r->npending--;
	memcpy(ev->counters, r->counters, sizeof(ev->counters));
	ev->kind = EVENT_OPEN_FRAME;
	ev->id = 0;
	ev->addr = a;
	ev->time = r->time;
	return 1;
}

/* Reads a SYNC record's body at r->p: time, stack, and a new id table. */
static int read_sync(struct stream_reader *r, const uint8_t *at)
{
	uint64_t t, n, a;

	if (stream_get_varint(&r->p, r->end, &t))
		return fail(r, at, "sync record cut short");
	for (unsigned i = 0; i < r->ncounters; i++)
		if (stream_get_varint(&r->p, r->end, &r->counters[i]))
			return fail(r, at, "sync record cut short");
	if (stream_get_varint(&r->p, r->end, &n))
		return fail(r, at, "sync record cut short");
	if (n > SYNC_STACK_MAX || n > (uint64_t)(r->end - r->p))
		return fail(r, at, "sync record with an impossible depth");
	const uint8_t *stack = r->p;
	for (uint64_t i = 0; i < n; i++)
		if (stream_get_varint(&r->p, r->end, &a))
			return fail(r, at, "sync record cut short");
	r->time = t;
	r->naddrs = 1;
	r->id_epoch++;
	if (r->need_sync) {
		r->pending = stack;
		r->npending = n;
		r->need_sync = 0;
	}
	return 0;
}

/* The value-carrying notes: STOP, MARK, MARK_STR, TASK, SIGNAL. */
static int read_note(struct stream_reader *r, const uint8_t *at, uint64_t subtype,
		     struct stream_event *ev)
{
	uint64_t delta, v = 0;

	if (stream_get_varint(&r->p, r->end, &delta))
		return fail(r, at, "record cut short");
	if (subtype != STREAM_STOP && subtype != STREAM_RESET &&
	    stream_get_varint(&r->p, r->end, &v))
		return fail(r, at, "record cut short");
	if (add_delta(r, delta))
		return fail(r, at, "time overflow");
	ev->time = r->time;
	ev->value = v;
	ev->addr = 0;
	ev->id = 0;
	switch (subtype) {
	case STREAM_STOP:
		ev->kind = EVENT_STOP;
		r->need_sync = 1;
		break;
	case STREAM_RESET: ev->kind = EVENT_RESET; break;
	case STREAM_MARK: ev->kind = EVENT_MARK; break;
	case STREAM_TASK: ev->kind = EVENT_TASK; break;
	case STREAM_SIGNAL: ev->kind = EVENT_SIGNAL; break;
	case STREAM_MARK_STR:
		if (v > MARK_STR_MAX || v > (uint64_t)(r->end - r->p))
			return fail(r, at, "mark text longer than the stream");
		ev->kind = EVENT_MARK_STR;
		ev->text = r->p;
		ev->text_len = (size_t)v;
		r->p += v;
		break;
	}
	return 1;
}

/* A SAMPLE record: delta, flags, weight, missed, PC, n, n return addresses. */
static int read_sample(struct stream_reader *r, const uint8_t *at, struct stream_event *ev)
{
	uint64_t delta, flags, weight, missed, pc, n, a;

	if (stream_get_varint(&r->p, r->end, &delta) ||
	    stream_get_varint(&r->p, r->end, &flags) ||
	    stream_get_varint(&r->p, r->end, &weight) ||
	    stream_get_varint(&r->p, r->end, &missed) ||
	    stream_get_varint(&r->p, r->end, &pc) ||
	    stream_get_varint(&r->p, r->end, &n))
		return fail(r, at, "sample cut short");
	if (n > SAMPLING_STACK_MAX || n > (uint64_t)(r->end - r->p))
		return fail(r, at, "sample with an impossible stack depth");
	if (weight == 0 || weight > UINT32_MAX)
		return fail(r, at, "sample with an impossible weight");
	ev->frames = r->p;
	for (uint64_t i = 0; i < n; i++)
		if (stream_get_varint(&r->p, r->end, &a))
			return fail(r, at, "sample cut short");
	ev->sample_sp = ev->sample_bp = 0;
	ev->stack_copy = NULL;
	ev->stack_copy_len = 0;
	uint64_t method = (flags & SAMPLE_METHOD_MASK) >> SAMPLE_METHOD_SHIFT;
	if (method == SAMPLE_METHOD_FP_DWARF && n == 0)
		return fail(r, at, "sample to unwind from a frame it does not have");
	if (method == SAMPLE_METHOD_DWARF || method == SAMPLE_METHOD_FP_DWARF) {
		uint64_t sp, bp, len;
		if (stream_get_varint(&r->p, r->end, &sp) ||
		    stream_get_varint(&r->p, r->end, &bp) ||
		    stream_get_varint(&r->p, r->end, &len))
			return fail(r, at, "sample cut short");
		if (len > SAMPLING_COPY_MAX || len > (uint64_t)(r->end - r->p))
			return fail(r, at, "sample with an impossible stack copy");
		ev->sample_sp = sp;
		ev->sample_bp = bp;
		ev->stack_copy = r->p;
		ev->stack_copy_len = (size_t)len;
		r->p += len;
	}
	if (add_delta(r, delta))
		return fail(r, at, "time overflow");
	ev->kind = EVENT_SAMPLE;
	ev->time = r->time;
	ev->addr = pc;
	ev->id = 0;
	ev->value = 0;
	ev->sample_flags = flags;
	ev->sample_weight = weight;
	ev->sample_missed = missed;
	ev->nframes = (uint32_t)n;
	return 1;
}

/* Where stream_reader_next_quick() may decode (see quick_limit). */
static void set_quick_limit(struct stream_reader *r)
{
	r->quick_limit = r->npending || r->ncounters || r->end - r->p < STREAM_QUICK_ROOM
				 ? 0 : (uintptr_t)(r->end - STREAM_QUICK_ROOM);
}

static int next_event(struct stream_reader *r, struct stream_event *ev);

int stream_reader_next(struct stream_reader *r, struct stream_event *ev)
{
	int rc = next_event(r, ev);

	set_quick_limit(r);
	return rc;
}

static int next_event(struct stream_reader *r, struct stream_event *ev)
{
	if (r->npending)
		return next_pending(r, ev);
	for (;;) {
		const uint8_t *at = r->p;
		uint64_t v, a, b;

		if (r->p == r->end)
			return 0;
		if (stream_get_varint(&r->p, r->end, &v))
			return fail(r, at, "record cut short");
		switch (v & 3) {
		case STREAM_ENTRY:
			if (stream_get_varint(&r->p, r->end, &a))
				return fail(r, at, "entry cut short");
			if ((v >> 2) == 0 || (v >> 2) >= r->naddrs)
				return fail(r, at, "entry of an undefined function id");
			if (add_delta(r, a))
				return fail(r, at, "time overflow");
			if (read_counters(r, ev))
				return fail(r, at, "entry cut short");
			ev->kind = EVENT_ENTRY;
			ev->id = (uint32_t)(v >> 2);
			ev->addr = r->addrs[v >> 2];
			ev->time = r->time;
			return 1;
		case STREAM_EXIT:
			if (add_delta(r, v >> 2))
				return fail(r, at, "time overflow");
			if (read_counters(r, ev))
				return fail(r, at, "exit cut short");
			ev->kind = EVENT_EXIT;
			ev->addr = 0;
			ev->time = r->time;
			return 1;
		case STREAM_SPECIAL:
			break;
		default:
			return fail(r, at, "unknown record kind");
		}
		switch (v >> 2) {
		case STREAM_FUNC_DEF:
			if (stream_get_varint(&r->p, r->end, &a) ||
			    stream_get_varint(&r->p, r->end, &b))
				return fail(r, at, "function definition cut short");
			if (a != r->naddrs)
				return fail(r, at, "function ids defined out of order");
			ALLOC_GROW(r->addrs, r->naddrs + 1, r->addrs_alloc);
			r->addrs[r->naddrs++] = b;
			continue;
		case STREAM_EXIT_UNWOUND:
		case STREAM_EXIT_THROWN:
		case STREAM_THREAD_END:
			if (stream_get_varint(&r->p, r->end, &a))
				return fail(r, at, "record cut short");
			if (add_delta(r, a))
				return fail(r, at, "time overflow");
			if ((v >> 2) != STREAM_THREAD_END && read_counters(r, ev))
				return fail(r, at, "record cut short");
			ev->kind = (v >> 2) == STREAM_EXIT_UNWOUND ? EVENT_EXIT_UNWOUND
				   : (v >> 2) == STREAM_EXIT_THROWN ? EVENT_EXIT_THROWN
								     : EVENT_THREAD_END;
			ev->addr = 0;
			ev->time = r->time;
			return 1;
		case STREAM_ENTRY_ADDR:
			if (stream_get_varint(&r->p, r->end, &a) ||
			    stream_get_varint(&r->p, r->end, &b))
				return fail(r, at, "entry cut short");
			if (add_delta(r, b))
				return fail(r, at, "time overflow");
			if (read_counters(r, ev))
				return fail(r, at, "entry cut short");
			ev->kind = EVENT_ENTRY;
			ev->id = 0;
			ev->addr = a;
			ev->time = r->time;
			return 1;
		case STREAM_OPEN_FRAME:
			if (stream_get_varint(&r->p, r->end, &a))
				return fail(r, at, "open frame cut short");
			ev->kind = EVENT_OPEN_FRAME;
			ev->id = 0;
			ev->addr = a;
			ev->time = r->time;
			return 1;
		case STREAM_SYNC:
			if (read_sync(r, at))
				return -1;
			r->syncs++;
			if (r->npending)
				return next_pending(r, ev);
			continue;
		case STREAM_STOP:
		case STREAM_RESET:
		case STREAM_MARK:
		case STREAM_MARK_STR:
		case STREAM_TASK:
		case STREAM_SIGNAL:
			return read_note(r, at, v >> 2, ev);
		case STREAM_SAMPLE:
			return read_sample(r, at, ev);
		default:
			return fail(r, at, "unknown special record");
		}
	}
}
