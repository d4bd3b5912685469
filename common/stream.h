/*
 * The per-thread event stream: how the runtime encodes function entries
 * and exits, and how the reader decodes them.  Both sides include this
 * header, so the encoding exists in exactly one place.
 *
 * A stream is a sequence of records.  Each record starts with an unsigned
 * LEB128 varint V whose two low bits say what follows:
 *
 *   V & 3 == 0  ENTRY    function id V >> 2, then varint time delta
 *   V & 3 == 1  EXIT     time delta V >> 2 (the innermost open call ends)
 *   V & 3 == 2  SPECIAL  subtype V >> 2, then the subtype's fields
 *
 * Time deltas are in clock units (TSC ticks or nanoseconds, as the thread
 * header says) since the previous record that carried a time.  Function ids
 * are small numbers the runtime hands out per thread in the order functions
 * are first seen; a FUNC_DEF record binds an id to a runtime address before
 * its first use.  A typical call costs 4-5 bytes: ENTRY (1 byte id, 1-2
 * bytes delta) plus EXIT (1-2 bytes).  docs/FORMAT.md documents the same.
 *
 * With counters (the THREAD section says how many, at most two), every
 * ENTRY, EXIT, EXIT_UNWOUND and EXIT_THROWN carry one more varint per counter after
 * its time delta: the counter's increase since the previous such record;
 * a SYNC carries the counters' absolute values after its time.
 */
#ifndef CALLSCOPE_COMMON_STREAM_H
#define CALLSCOPE_COMMON_STREAM_H

#include <stddef.h>
#include <stdint.h>

enum stream_kind {
	STREAM_ENTRY = 0,
	STREAM_EXIT = 1,
	STREAM_SPECIAL = 2,
};

enum stream_special {
	/* varint id, varint address: binds id to a runtime address */
	STREAM_FUNC_DEF = 0,
	/* varint delta: the innermost open call was skipped by longjmp (or
	 * a stack switch); the stack pointer showed its frame gone */
	STREAM_EXIT_UNWOUND = 1,
	/* varint delta: the thread ended; calls still open are closed here */
	STREAM_THREAD_END = 2,
	/* varint address, varint delta: entry of a function that got no id
	 * (the thread's id table was full) */
	STREAM_ENTRY_ADDR = 3,
	/* varint address: a call that was already open when this stream
	 * began (a forked child inherits its parent's open calls); it is
	 * not counted as a call, only closed */
	STREAM_OPEN_FRAME = 4,
	/* varint absolute time, varint n, n x varint address (outermost
	 * first): a synchronization point.  Function ids restart after it,
	 * so decoding can begin here; the addresses are the calls open at
	 * this point (the innermost SYNC_STACK_MAX of them).  A decoder
	 * that is already in step ignores the list. */
	STREAM_SYNC = 5,
	/* varint delta: capture stopped (a --stop-at trigger); open calls
	 * close here and nothing is recorded until the next SYNC */
	STREAM_STOP = 6,
	/* varint delta, varint value: callscope_mark() */
	STREAM_MARK = 7,
	/* varint delta, varint length (at most MARK_STR_MAX), the bytes:
	 * callscope_mark_str() */
	STREAM_MARK_STR = 8,
	/* varint delta, varint id: callscope_task() */
	STREAM_TASK = 9,
	/* varint delta, varint signal number: the process received a fatal
	 * signal; the innermost open call is where it happened */
	STREAM_SIGNAL = 10,
	/* varint delta, varint flags (enum sample_flags of sampling.h),
	 * varint weight (timer periods, >= 1), varint missed (samples the
	 * thread lost before this one), varint PC, varint n (at most
	 * SAMPLING_STACK_MAX), n x varint return address, innermost first:
	 * one sample of the statistical profiler (runtime/sampler.c) */
	STREAM_SAMPLE = 11,
	/* varint delta: callscope_reset() or 'live PID reset'.  Everything
	 * before it is discarded; a SYNC follows at once, from which
	 * decoding starts again.  The thread's header flags say a stream
	 * holds one (THREAD_HAS_RESET), so readers look for the last. */
	STREAM_RESET = 12,
	/* varint delta: as EXIT_UNWOUND, but what left the frame was a C++
	 * exception (or pthread_exit's forced unwind), not a longjmp */
	STREAM_EXIT_THROWN = 13,
};

/*
 * A signal handler the program installed runs as a pseudo-call whose
 * address is SIGNAL_FRAME_BASE + the signal number: never a user-space
 * address, so the analyzer can show it as "<signal N>" or filter it.
 */
#define SIGNAL_FRAME_BASE 0xffffffffffff0000ull
#define SIGNAL_FRAME_MAX 0xffffffffffff0100ull

#define SYNC_STACK_MAX 1024
#define MARK_STR_MAX 255

/*
 * Longest encoded record: SPECIAL tag + two 10-byte varints, and with
 * counters (record -e) one 10-byte delta per counter after the time.
 */
#define STREAM_RECORD_MAX 48

static inline uint8_t *stream_put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/*
 * Decodes one varint from [*pp, end).  Returns 0 and advances *pp, or -1
 * when the input ends inside the varint or it is longer than 64 bits.
 */
static inline int stream_get_varint(const uint8_t **pp, const uint8_t *end,
				    uint64_t *out)
{
	const uint8_t *p = *pp;
	uint64_t v = 0;
	unsigned shift = 0;

	/* one- and two-byte varints are nearly all of a stream */
	if (end - p >= 2) {
		if (p[0] < 0x80) {
			*out = p[0];
			*pp = p + 1;
			return 0;
		}
		if (p[1] < 0x80) {
			*out = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
			*pp = p + 2;
			return 0;
		}
	}
	while (p < end) {
		uint8_t b = *p++;
		if (shift == 63 && b > 1)
			return -1;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*pp = p;
			*out = v;
			return 0;
		}
		shift += 7;
		if (shift > 63)
			return -1;
	}
	return -1;
}

#endif
