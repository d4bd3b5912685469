/*
 * The hot path: what every instrumented call pays.  Entry hooks push a
 * shadow frame and append an ENTRY record; exits (a return through the
 * trampoline, or __cyg_profile_func_exit) pop it and append an EXIT record.
 *
 * Rules kept here: no allocation, no lock, no syscall except when the
 * buffer window is full (once per chunk), no call into instrumented code,
 * and a per-thread guard so that a hook interrupted by a signal handler
 * that itself runs instrumented code drops (and counts) the nested events
 * instead of corrupting the stream.
 *
 * Frames skipped by longjmp (or anything else that unwinds without running
 * exits) are found by the stack pointer: a live caller's frame always lies
 * above (at a higher address than) its callees', so when a new frame sits
 * at or above an open one, the open one is gone.  They are closed with
 * EXIT_UNWOUND records.  A tail call is told from them by its return
 * slot: the callee's frame lies where its caller's did, and the slot still
 * leads to the trampoline, as no call instruction wrote it (see
 * frame_reused()).  A function inlined into another, built with
 * -finstrument-functions, calls its hooks from that one's frame: it is
 * told by its call site and its own hook call (see inlined_depth() in
 * runtime.h).
 *
 * The shadow stack is kept whether or not events are being written
 * (capture stopped by a trigger): the trampoline needs it to return.
 */
#include "runtime.h"
#include "aggregate_count.h"
#include "stream.h"

#include <stdlib.h>
#include <unistd.h>

__thread struct thread_state runtime_thread __attribute__((tls_model("initial-exec")));

struct capture_state capture_state = { 0, 1, 0 };

static inline void put_special(struct thread_state *t, unsigned subtype)
{
	t->cur = stream_put_varint(t->cur, ((uint64_t)subtype << 2) | STREAM_SPECIAL);
}

static void ring_sync_due(struct thread_state *t, int pending);

/*
 * stream_put_varint() for the records every call writes: a value under
 * 2^14, nearly every one, is written without a branch on its length (one
 * byte or two varies from call to call, and a mispredicted loop exit cost
 * more than the store).  The second byte is stored even when one
 * suffices: ensure_room() left room past the record, and the next record
 * overwrites it before a commit can cover it.
 */
static inline __attribute__((always_inline)) uint8_t *put_record_varint(uint8_t *p, uint64_t v)
{
	if (UNLIKELY(v >= 0x4000))
		return stream_put_varint(p, v);
	unsigned two = v >= 0x80;
	p[0] = (uint8_t)(v | two << 7);
	p[1] = (uint8_t)(v >> 7);
	return p + 1 + two;
}

/* Whether two more records fit in the window as it is. */
static inline int has_room(const struct thread_state *t)
{
	return (size_t)(t->end - t->cur) >= 2 * STREAM_RECORD_MAX;
}

/*
 * Returns nonzero when at least one more record fits (growing if needed).
 * PENDING says how the shadow stack differs from what the stream has said
 * so far, for a SYNC the flight recorder may write here: +1 when a frame
 * was just popped (it still lies at stack[depth]), -1 when one was just
 * pushed, 0 otherwise.
 */
static inline int ensure_room(struct thread_state *t, int pending)
{
	if (UNLIKELY(t->status != THREAD_RECORDING || !t->capturing))
		return 0;
	if (LIKELY(has_room(t)))
		return 1;
	if (t->ring_bytes) {
		ring_sync_due(t, pending);
		return 1;
	}
	if (t->truncated)
		return 0;
	if (thread_buffer_grow(t) == 0)
		return 1;
	t->truncated = 1;
	t->hdr->flags |= THREAD_TRUNCATED;
	return 0;
}

static inline void count_lost(struct thread_state *t, uint64_t n)
{
	if (t->hdr && t->capturing)
		t->hdr->lost_events += n;
}

/*
 * A hook ran while another hook of the thread was under way: a signal
 * handler's instrumented code.  Its events are dropped and counted, and
 * the interrupted hook's counter readings include the handler's counts,
 * so the thread's counters become "possibly incorrect".
 */
static void __attribute__((noinline)) reentered(struct thread_state *t, uint64_t lost)
{
	count_lost(t, lost);
	if (t->ncounters && t->hdr)
		t->hdr->counter_info |= THREAD_COUNTERS_UNRELIABLE;
}

/* Writes each counter's increase since the stream last said it. */
static void put_counter_deltas(struct thread_state *t)
{
	for (uint32_t i = 0; i < t->ncounters; i++) {
		uint64_t now = t->counter_now[i], last = t->counter_last[i];
		t->cur = stream_put_varint(t->cur, now > last ? now - last : 0);
		if (now > last)
			t->counter_last[i] = now;
	}
}

static inline void read_counters(struct thread_state *t)
{
	if (UNLIKELY(t->ncounters))
		counters_read(t);
}

static inline uint64_t take_delta(struct thread_state *t, uint64_t now)
{
	if (UNLIKELY(now < t->last_time))
		return 0;
	uint64_t d = now - t->last_time;
	t->last_time = now;
	return d;
}

/* Where ADDR's id is looked for first: the hooks name a function by an
 * address a few bytes into it, and functions usually lie 16 bytes apart
 * or more, so below a table's span (512 KiB of code at most) no two share
 * the slot and every one is found at once, by a shift rather than a
 * multiplication. */
static inline uint32_t func_home(const struct thread_state *t, uint64_t addr)
{
	return (uint32_t)(addr >> 4) & t->slot_mask;
}

/* The ENTRY record's first varint for function ID, as func_slot keeps
 * it: ids stay under 2^19, so it is 3 bytes at most, the count in the
 * top byte. */
static inline uint32_t entry_code(uint32_t id)
{
	uint8_t bytes[4] = { 0 };
	uint32_t len = (uint32_t)(stream_put_varint(bytes, (uint64_t)id << 2 | STREAM_ENTRY) - bytes);
	uint32_t code;

	__builtin_memcpy(&code, bytes, sizeof(code));
	return code | len << 24;
}

/* Returns ADDR's entry_code(), defining its id in the stream if new;
 * 0 = no id. */
static inline uint32_t func_id(struct thread_state *t, uint64_t addr)
{
	uint32_t h = func_home(t, addr);

	for (;;) {
		struct func_slot *s = &t->slots[h];
		if (s->gen != t->gen)
			break;
		if (LIKELY(s->addr == addr))
			return s->entry;
		h = (h + 1) & t->slot_mask;
	}
	if (t->next_id >= t->id_limit)
		return 0;
	struct func_slot *s = &t->slots[h];
	s->addr = addr;
	s->gen = t->gen;
	uint32_t id = t->next_id++;
	s->entry = entry_code(id);
	put_special(t, STREAM_FUNC_DEF);
	t->cur = stream_put_varint(t->cur, id);
	t->cur = stream_put_varint(t->cur, addr);
	return s->entry;
}

/* The ENTRY record of a function whose entry_code() is CODE, DELTA
 * after the last: the code's 4 bytes are stored whole, one store where
 * its varint took a dozen instructions; the room past the record
 * (ensure_room()) takes the bytes not kept, which the delta overwrites. */
static inline __attribute__((always_inline)) void put_entry(struct thread_state *t, uint32_t code,
							     uint64_t delta)
{
	__builtin_memcpy(t->cur, &code, sizeof(code));
	t->cur = put_record_varint(t->cur + (code >> 24), delta);
}

/* The EXIT record of a call that returned, DELTA after the last. */
static inline __attribute__((always_inline)) void put_exit(struct thread_state *t, uint64_t delta)
{
	t->cur = put_record_varint(t->cur, delta << 2 | STREAM_EXIT);
}

static inline __attribute__((always_inline)) void emit_entry(struct thread_state *t, uint64_t addr, uint64_t now)
{
	if (UNLIKELY(!ensure_room(t, -1))) {
		count_lost(t, 1);
		return;
	}
	uint32_t code = func_id(t, addr);
	uint64_t delta = take_delta(t, now);
	if (LIKELY(code)) {
		put_entry(t, code, delta);
	} else {
		put_special(t, STREAM_ENTRY_ADDR);
		t->cur = stream_put_varint(t->cur, addr);
		t->cur = put_record_varint(t->cur, delta);
	}
	if (UNLIKELY(t->ncounters))
		put_counter_deltas(t);
	thread_commit(t);
}

/* How a frame ended: the reader tags the last two differently. */
enum frame_end {
	FRAME_RETURNED,
	FRAME_SKIPPED,		/* stack repair found it gone (longjmp, a context switch) */
	FRAME_THROWN,		/* left by an exception (or pthread_exit's forced unwind) */
};

/* How the frames stack repair closes now ended: an exception in flight
 * (exceptions.c set t->unwinding) is what took them, else a longjmp. */
static inline enum frame_end repaired_end(const struct thread_state *t)
{
	return t->unwinding ? FRAME_THROWN : FRAME_SKIPPED;
}

static inline __attribute__((always_inline)) void emit_exit(struct thread_state *t, uint64_t now, enum frame_end end)
{
	if (UNLIKELY(!ensure_room(t, 1))) {
		count_lost(t, 1);
		return;
	}
	uint64_t delta = take_delta(t, now);
	if (LIKELY(end == FRAME_RETURNED)) {
		put_exit(t, delta);
	} else {
		put_special(t, end == FRAME_THROWN ? STREAM_EXIT_THROWN : STREAM_EXIT_UNWOUND);
		t->cur = stream_put_varint(t->cur, delta);
	}
	if (UNLIKELY(t->ncounters))
		put_counter_deltas(t);
	thread_commit(t);
}

/* The frame at stack[depth] (just popped) has ended. */
static inline __attribute__((always_inline)) void record_exit(struct thread_state *t, uint64_t now,
								enum frame_end end)
{
	if (UNLIKELY(t->nodes))
		aggregate_exit(t, &t->stack[t->depth], now, end != FRAME_RETURNED,
			       end == FRAME_THROWN, t->ncounters, 1);
	else
		emit_exit(t, now, end);
}

/*
 * A SYNC record: the absolute time and the calls this thread is inside
 * of, after which function ids start again.  A reader can begin decoding
 * here; the flight recorder writes one every eighth of its ring, and a
 * resumed capture starts with one.
 */
static void emit_sync(struct thread_state *t, uint64_t now, int pending)
{
	uint32_t depth = (uint32_t)((int)t->depth + pending);
	uint32_t first = depth > SYNC_STACK_MAX ? depth - SYNC_STACK_MAX : 0;
	size_t need = (3 + CONTRACT_COUNTERS_MAX) * 10 + (size_t)(depth - first) * 10;

	if (!t->ring_bytes && (size_t)(t->end - t->cur) < need && thread_buffer_grow(t) != 0) {
		count_lost(t, 1);
		return;
	}
	if (t->ring_bytes) {
		struct thread_file_header *h = t->hdr;
		uint64_t at = t->win_file_off + (uint64_t)(t->cur - t->win_base) -
			      THREAD_FILE_DATA_OFFSET;
		h->sync_pos[h->nsync % RING_SYNC_SLOTS] = at;
		__atomic_store_n(&h->nsync, h->nsync + 1, __ATOMIC_RELEASE);
		t->next_sync = at + t->ring_bytes / 8;
		t->end = t->cur + t->ring_bytes / 8;
		thread_buffer_ring_ahead(t);
	}
	t->gen++;
	t->next_id = 1;
	t->last_time = now;
	put_special(t, STREAM_SYNC);
	t->cur = stream_put_varint(t->cur, now);
	for (uint32_t i = 0; i < t->ncounters; i++)
		t->cur = stream_put_varint(t->cur, t->counter_last[i]);
	t->cur = stream_put_varint(t->cur, depth - first);
	for (uint32_t i = first; i < depth; i++)
		t->cur = stream_put_varint(t->cur, t->stack[i].addr);
	thread_commit(t);
}

void trace_emit_sync(struct thread_state *t, uint64_t now)
{
	emit_sync(t, now, 0);
}

/* The flight recorder's window end was reached: time for a SYNC. */
static void ring_sync_due(struct thread_state *t, int pending)
{
	emit_sync(t, t->last_time, pending);
}

/* A mark, task switch, signal or stop: subtype, then the delta, then
 * VALUE (or TEXT for MARK_STR). */
void trace_emit_note(struct thread_state *t, unsigned subtype, uint64_t value,
		     const char *text, size_t len)
{
	/* count mode keeps sums, no history for a note to take its place in:
	 * nothing the run did is lost (a program that aborts, or marks its
	 * phases, was said to have lost events) */
	if (t->nodes)
		return;
	if (!ensure_room(t, 0)) {
		count_lost(t, 1);
		return;
	}
	uint64_t delta = take_delta(t, thread_clock(t));
	put_special(t, subtype);
	t->cur = stream_put_varint(t->cur, delta);
	if (subtype == STREAM_MARK_STR) {
		t->cur = stream_put_varint(t->cur, len);
		for (size_t i = 0; i < len; i++)
			*t->cur++ = (uint8_t)text[i];
	} else if (subtype != STREAM_STOP && subtype != STREAM_RESET) {
		t->cur = stream_put_varint(t->cur, value);
	}
	thread_commit(t);
}

/*
 * A reset forgets the past: readers decode from the thread's last RESET
 * record on, so it must be written even while capture is off, or a
 * stop, reset, snapshot would still show what came before.  While off the
 * RESET goes alone (the SYNC that starts the stream again comes when
 * capture resumes); a flight recorder's ring, read from its SYNCs, takes
 * the reset up only then, as does a thread whose buffer is full.
 */
static void take_reset(struct thread_state *t, uint64_t now)
{
	uint32_t reset = __atomic_load_n(&capture_state.reset_epoch, __ATOMIC_ACQUIRE);

	if (reset == t->reset_epoch)
		return;
	if (t->status != THREAD_RECORDING || t->nodes) {
		t->reset_epoch = reset;
		return;
	}
	if (t->capturing) {
		t->reset_epoch = reset;
		t->hdr->flags |= THREAD_HAS_RESET;
		trace_emit_note(t, STREAM_RESET, 0, NULL, 0);
		if (ensure_room(t, 0))
			trace_emit_sync(t, now);
		return;
	}
	if (t->ring_bytes || (!has_room(t) &&
			      (t->truncated || thread_buffer_grow(t) != 0)))
		return;
	t->reset_epoch = reset;
	t->hdr->flags |= THREAD_HAS_RESET;
	put_special(t, STREAM_RESET);
	t->cur = stream_put_varint(t->cur, take_delta(t, now));
	thread_commit(t);
}

/* The process-wide capture state changed since this thread last looked. */
static void __attribute__((noinline)) capture_changed(struct thread_state *t, uint64_t now)
{
	uint32_t epoch = __atomic_load_n(&capture_state.epoch, __ATOMIC_ACQUIRE);
	int on = __atomic_load_n(&capture_state.on, __ATOMIC_ACQUIRE);

	t->epoch = epoch;
	if (t->nodes) {
		/* count mode has no stream to write a STOP or SYNC into (nor a
		 * RESET: take_reset() only notes it) */
		take_reset(t, now);
		if (on != t->capturing) {
			t->capturing = on;
			aggregate_capture(t, on, now);
		}
		return;
	}
	if (on && !t->capturing) {
		t->capturing = 1;
		if (t->status == THREAD_RECORDING && ensure_room(t, 0))
			trace_emit_sync(t, now);
	}
	take_reset(t, now);
	if (!on && t->capturing) {
		trace_emit_note(t, STREAM_STOP, 0, NULL, 0);
		t->capturing = 0;
	}
}

static inline void check_capture(struct thread_state *t, uint64_t now)
{
	if (UNLIKELY(t->epoch != __atomic_load_n(&capture_state.epoch, __ATOMIC_RELAXED)))
		capture_changed(t, now);
}

void trace_check_capture(struct thread_state *t)
{
	check_capture(t, thread_now(t));
}

static inline int in_range(const struct contract_range *r, uint64_t addr)
{
	return addr - r->addr < r->size;
}

/* --start-at / --stop-at: flips capture when a trigger function is entered. */
static void __attribute__((noinline)) check_triggers(struct thread_state *t, uint64_t addr,
						     uint64_t now)
{
	int on = __atomic_load_n(&capture_state.on, __ATOMIC_ACQUIRE);

	if (!on && capture_state.start_armed && in_range(&runtime_config.contract.start, addr)) {
		__atomic_store_n(&capture_state.on, 1, __ATOMIC_RELEASE);
		__atomic_add_fetch(&capture_state.epoch, 1, __ATOMIC_ACQ_REL);
	} else if (on) {
		for (uint32_t i = 0; i < runtime_config.contract.nstops; i++) {
			if (!in_range(&runtime_config.contract.stops[i], addr))
				continue;
			if (runtime_config.contract.one_pass)
				capture_state.start_armed = 0;
			__atomic_store_n(&capture_state.on, 0, __ATOMIC_RELEASE);
			__atomic_add_fetch(&capture_state.epoch, 1, __ATOMIC_ACQ_REL);
			break;
		}
	}
	check_capture(t, now);
}

/* Closes open frames whose place on the stack is below SP: their
 * functions are gone without an exit. */
static inline void close_frames_below(struct thread_state *t, uintptr_t sp, uint64_t now)
{
	while (t->depth && t->stack[t->depth - 1].sp < sp) {
		t->depth--;
		record_exit(t, now, repaired_end(t));
	}
}

/* Closes open frames whose place on the stack is at or below SP. */
static inline void close_dead_frames(struct thread_state *t, uintptr_t sp, uint64_t now)
{
	while (t->depth && t->stack[t->depth - 1].sp <= sp) {
		t->depth--;
		record_exit(t, now, repaired_end(t));
	}
}

extern char callscope_return_trampoline[] HIDDEN;

/*
 * A new frame at SP lies at or above the innermost open one.  Deeper
 * frames are gone (longjmp).  A frame at SP itself is gone too, unless
 * the new function was reached by a tail call: then no call instruction
 * wrote its return address, and the slot still leads to the trampoline
 * (or to a patched function's, see patch/enter.c),
 * put there for the function that jumped (or for the one that called the
 * first of a chain of jumps).  Returns nonzero for a tail call; the
 * caller stays open, and the callee's frame shares its slot.
 */
static int __attribute__((noinline)) frame_reused(struct thread_state *t, uintptr_t sp,
						  const uintptr_t *ret_slot, uintptr_t site,
						  uintptr_t hook_pc, uint64_t now)
{
	close_frames_below(t, sp, now);
	if (ret_slot && t->depth && t->stack[t->depth - 1].sp == sp &&
	    (*ret_slot == (uintptr_t)callscope_return_trampoline ||
	     patch_is_return_point(*ret_slot)))
		return 1;
	if (site) {
		uint32_t live = inlined_depth(t, sp, site, hook_pc);
		while (t->depth > live) {
			t->depth--;
			record_exit(t, now, repaired_end(t));
		}
		return 0;
	}
	close_dead_frames(t, sp, now);
	return 0;
}

/* Opens the frame of ADDR at SP on the shadow stack, its return not
 * redirected; the caller made sure there is room. */
static inline struct shadow_frame *push_frame(struct thread_state *t, uint64_t addr, uintptr_t sp)
{
	struct shadow_frame *f = &t->stack[t->depth++];

	f->addr = addr;
	f->sp = sp;
	f->ret = 0;
	return f;
}

/* Sends F's return through the trampoline: REAL, the address its return
 * slot RET_SLOT held, is where the trampoline goes on to. */
static inline void redirect_return(struct shadow_frame *f, uintptr_t *ret_slot, uintptr_t real)
{
	f->ret = real;
	*ret_slot = (uintptr_t)callscope_return_trampoline;
}

/* How far back a tail chain is searched for the function it enters
 * again: the longest loop of tail calls folded.  The search runs only at
 * the shadow stack's last slot, and once per turn of the loop. */
#define TAIL_FOLD_SPAN 64

/*
 * A chain of tail calls reached the shadow stack's last slot: a loop of
 * functions that jump to each other (ping -> pong -> ping ...) can go on
 * for ever in a constant real stack.  When ADDR is open in the chain's
 * last few frames, its new call is recorded (so the arc and count stay
 * exact) and closed at once, with the frames the loop went through since
 * that open one: the loop's further time is charged to the open ADDR, as
 * it would be to the new call.  Only the call-path tree's depth and those
 * frames' totals differ from the endless truth.  Returns nonzero if so.
 */
static int __attribute__((noinline)) tail_fold(struct thread_state *t, uint64_t addr,
					       uint64_t now)
{
	uint32_t top = t->depth - 1, k = top;
	uintptr_t sp = t->stack[top].sp;

	while (t->stack[k].addr != addr) {
		if (top - k + 1 == TAIL_FOLD_SPAN || !k || t->stack[k - 1].sp != sp)
			return 0;
		k--;
	}
	struct shadow_frame *f = &t->stack[t->depth++];
	*f = (struct shadow_frame){ .addr = addr, .sp = sp };
	if (UNLIKELY(t->nodes))
		aggregate_enter(t, f, now);
	else
		emit_entry(t, addr, now);
	while (t->depth > k + 1) {
		t->depth--;
		record_exit(t, now, FRAME_RETURNED);
	}
	return 1;
}

/*
 * Entry of ADDR reached by a tail call from the innermost open frame,
 * whose slot SP it shares: its frame keeps ret 0, and the return through
 * the trampoline closes it together with its caller.  Past the shadow
 * stack's capacity it is counted, not recorded; its return still finds
 * the frame that owns the slot.
 */
static void __attribute__((noinline)) tail_enter(struct thread_state *t, uint64_t addr,
						 uintptr_t sp, uint64_t now)
{
	if (t->depth && hook_site_inlined(t, addr, t->stack[t->depth - 1].addr))
		return;
	/* the fold needs the last slot for the new call it closes at once */
	if (t->depth + 1 == t->capacity && tail_fold(t, addr, now))
		return;
	if (t->depth == t->capacity) {
		count_lost(t, 2);
		return;
	}
	struct shadow_frame *f = push_frame(t, addr, sp);
	if (UNLIKELY(t->nodes))
		aggregate_enter(t, f, now);
	else
		emit_entry(t, addr, now);
}

/*
 * Entry of ADDR whose frame is at SP.  RET_SLOT, when not NULL, is where
 * the function's return address lies: it is redirected through the
 * trampoline so the return is seen (mcount and __fentry__).  SITE and
 * HOOK_PC are those of an entry named by -finstrument-functions, else 0.
 */
static inline __attribute__((always_inline)) void enter(struct thread_state *t, uint64_t addr,
							 uintptr_t sp, uintptr_t *ret_slot,
							 uintptr_t site, uintptr_t hook_pc)
{
	if (UNLIKELY(runtime_config.contract.time_by_samples)) {
		sampled_count_enter(t, addr, sp, ret_slot, site, hook_pc);
		return;
	}
	if (t->guard) {
		reentered(t, 2);
		return;
	}
	guard_take(t, GUARD_ENTRY);
	uint64_t now = thread_clock(t);
	hook_clock_read(t, GUARD_ENTRY_CLOCKED);

	read_counters(t);
	if (UNLIKELY(runtime_config.contract.has_start | runtime_config.contract.nstops))
		check_triggers(t, addr, now);
	else
		check_capture(t, now);
	if (UNLIKELY(t->depth && t->stack[t->depth - 1].sp <= sp) &&
	    frame_reused(t, sp, ret_slot, site, hook_pc, now)) {
		tail_enter(t, addr, sp, now);
		guard_restore(t, 0);
		return;
	}
	if (UNLIKELY(t->depth == t->capacity)) {
		/* too deep to track: the call is counted, not recorded */
		count_lost(t, 2);
		if (!ret_slot)
			t->overflow++;
		guard_restore(t, 0);
		return;
	}
	struct shadow_frame *f = push_frame(t, addr, sp);
	if (ret_slot) {
		uintptr_t real = *ret_slot;
		/* a slot led to the trampoline with no frame owning it cannot
		 * be redirected again: it would return into itself */
		if (LIKELY(real != (uintptr_t)callscope_return_trampoline))
			redirect_return(f, ret_slot, real);
	} else {
		f->site = site;
		f->hook_pc = hook_pc;
	}
	if (UNLIKELY(t->nodes))
		aggregate_enter(t, f, now);
	else
		emit_entry(t, addr, now);
	guard_restore(t, 0);
}

void trace_enter(struct thread_state *t, uint64_t addr, uintptr_t sp,
		 uintptr_t *ret_slot)
{
	enter(t, addr, sp, ret_slot, 0, 0);
}

/* Entry named by __cyg_profile_func_enter: SITE is the call site it was
 * given, HOOK_PC where the hook returns to. */
void trace_enter_named(struct thread_state *t, uint64_t addr, uintptr_t sp,
		       uintptr_t site, uintptr_t hook_pc)
{
	enter(t, addr, sp, NULL, site, hook_pc);
}

/*
 * The innermost frames at SLOT are tail callees (ret 0) of the frame that
 * owns the slot: they end with it, innermost first.  Aborts when no frame
 * owns the slot: without the real address the program cannot go on.
 */
static void __attribute__((noinline)) close_tail_callees(struct thread_state *t, uintptr_t slot,
							 uint64_t now)
{
	while (t->depth && t->stack[t->depth - 1].sp == slot && !t->stack[t->depth - 1].ret) {
		t->depth--;
		record_exit(t, now, FRAME_RETURNED);
	}
	if (!t->depth || t->stack[t->depth - 1].sp != slot) {
		rt_warn("return through the trampoline with no matching frame; "
			"the shadow stack is corrupt", "");
		abort();
	}
}

/*
 * The function whose return address lay at SLOT has returned through the
 * trampoline.  Returns where it really returns to.  This cannot fail
 * softly: without the real address the program cannot go on.
 */
static inline __attribute__((always_inline)) uintptr_t leave(struct thread_state *t,
								uintptr_t slot)
{
	int was_guarded = t->guard;

	guard_take(t, GUARD_EXIT);
	/* a return inside a hook (a signal handler's) leaves the waits to
	 * the hook it interrupted */
	uint64_t now = was_guarded ? thread_now(t) : thread_clock(t);
	hook_clock_read(t, GUARD_EXIT_CLOCKED);
	read_counters(t);
	check_capture(t, now);
	if (UNLIKELY(t->depth && t->stack[t->depth - 1].sp < slot))
		close_frames_below(t, slot, now);
	if (UNLIKELY(!t->depth || t->stack[t->depth - 1].sp != slot ||
		     !t->stack[t->depth - 1].ret))
		close_tail_callees(t, slot, now);
	uintptr_t ret = t->stack[--t->depth].ret;
	record_exit(t, now, FRAME_RETURNED);
	guard_restore(t, was_guarded);
	return ret;
}

uintptr_t trace_return(struct thread_state *t, uintptr_t slot)
{
	return leave(t, slot);
}

/*
 * The C side of mcount and __fentry__ (arch/x86_64/hooks.S), given the
 * return-address slot; a thread's first hook starts its recording
 * (thread_start() keeps the vector registers around its calls into
 * libc).  Here rather than in hooks.c so that the whole entry inlines
 * into one function, as the return does into callscope_hook_return().
 */
void callscope_hook_enter(uintptr_t *ret_slot, uint64_t self)
{
	struct thread_state *t = trace_current();

	if (runtime_thread_ready(t))
		enter(t, self, (uintptr_t)ret_slot, ret_slot, 0, 0);
}

/* Called by the trampoline; returns the real return address. */
uintptr_t callscope_hook_return(uintptr_t slot)
{
	return leave(trace_current(), slot);
}

uintptr_t (*callscope_hook_enter_fast_path)(uintptr_t *ret_slot, uint64_t self);
uintptr_t (*callscope_hook_return_fast_path)(uintptr_t slot);

/*
 * Whether a hook of T may take a fast path below (in a process whose
 * settings allow it: trace_fast_paths_choose()): the
 * thread records (events or counts, without counters), with capture on
 * and up to date.  Waits for a CPU to take up send it to the full path
 * too, but only a look after the clock reading tells (clock_fast()).
 */
static inline int hooks_fast(const struct thread_state *t)
{
	return t->status == THREAD_RECORDING && t->capturing && !t->ncounters &&
	       t->epoch == __atomic_load_n(&capture_state.epoch, __ATOMIC_RELAXED);
}

/* A fast path's clock reading, the thread's event clock, into NOW; 0,
 * having changed nothing, when waits for a CPU had ended by then, which
 * the full path takes off first (thread_clock() says why after). */
static inline __attribute__((always_inline)) int clock_fast(struct thread_state *t, uint64_t *now)
{
	uint64_t raw = clock_tsc();

	if (UNLIKELY(thread_waits_pending_open(t)))
		return 0;
	*now = thread_clock_at(t, raw);
	return 1;
}

/* Opens the frame of ADDR whose return address REAL lies at RET_SLOT,
 * and redirects its return through the trampoline; when REAL is the
 * trampoline already, the frame is a tail callee (see entry_fits()) and
 * keeps ret 0, as tail_enter() leaves it.  Writing the slot again then
 * changes nothing, so both cases store it and differ only in a select. */
static inline struct shadow_frame *push_redirected(struct thread_state *t, uint64_t addr,
						   uintptr_t *ret_slot, uintptr_t real)
{
	struct shadow_frame *f = push_frame(t, addr, (uintptr_t)ret_slot);

	f->ret = real != (uintptr_t)callscope_return_trampoline ? real : 0;
	*ret_slot = (uintptr_t)callscope_return_trampoline;
	return f;
}

/*
 * Whether the entry of a frame at SP, whose return slot holds REAL, may
 * take a fast path, DEPTH frames being open: the thread records with
 * nothing for the full path to take up (hooks_fast()), the shadow stack
 * has room for one more frame past it (tail_enter()'s folding is not
 * due), and the frame lies below the innermost open one with its return
 * not yet redirected, or it is a tail call: it lies where the innermost
 * open one does and its slot still leads to the trampoline, as no call
 * wrote it (frame_reused() tells it so).  Tail calls are a few percent of
 * a -O2 program's calls (4.5 % on the Lua benchmark).
 */
static inline __attribute__((always_inline)) int entry_fits(const struct thread_state *t,
							     uint64_t addr, uintptr_t sp,
							     uint32_t depth, uintptr_t real)
{
	int redirected = real == (uintptr_t)callscope_return_trampoline;

	if (UNLIKELY(!hooks_fast(t) || depth + 1 >= t->capacity))
		return 0;
	if (UNLIKELY(depth && t->stack[depth - 1].sp <= sp))
		return t->stack[depth - 1].sp == sp && redirected &&
		       hook_sites_apart(t, addr, t->stack[depth - 1].addr);
	return !redirected;
}

/* The kinds of recording the fast paths are compiled for, one each. */
enum fast_kind {
	FAST_EVENTS,		/* a trace or a flight recording */
	FAST_COUNT,		/* count mode, no function's statistics */
	FAST_COUNT_STATS,	/* count mode with --call-stats */
};

/*
 * The usual entry done by enter()'s steps without a call, in the KIND of
 * recording (a constant: each caller is compiled for one):
 * entry_fits(), and a trace or flight recording's window has room and
 * the function an id (in the first slot looked at), or count mode's
 * cache the call path (not a truncated one).  Returns nonzero, having
 * changed nothing, when the entry needs enter() instead.
 */
static inline __attribute__((always_inline)) uintptr_t enter_fast(struct thread_state *t,
								   uint64_t addr, uintptr_t *ret_slot,
								   enum fast_kind kind)
{
	if (UNLIKELY(t->guard))
		return 1;
	guard_take(t, GUARD_ENTRY);
	uint32_t depth = t->depth;
	uintptr_t real = *ret_slot;
	if (UNLIKELY(!entry_fits(t, addr, (uintptr_t)ret_slot, depth, real)))
		goto full;
	if (kind != FAST_EVENTS) {
		int stats = kind == FAST_COUNT_STATS;
		if (UNLIKELY(!t->nodes))
			goto full;
		uint32_t node = count_cached_child(count_cache_slot(t, t->cur_node, addr),
						   t->cur_node, addr);
		uint64_t now;
		if (UNLIKELY(!node || node == AGGREGATE_TRUNCATED_NODE || !clock_fast(t, &now)))
			goto full;
		hook_clock_read(t, GUARD_ENTRY_CLOCKED);
		struct shadow_frame *f = push_redirected(t, addr, ret_slot, real);
		aggregate_count_open(t, f, node, stats ? t->nodes[node].func_record : 0);
		count_from(t, f, now, 0, 0, stats, 1, 0);
	} else {
		/* a count-mode thread has no window: no room */
		const struct func_slot *s;
		if (UNLIKELY(!has_room(t)))
			goto full;
		s = &t->slots[func_home(t, addr)];
		uint64_t now;
		if (UNLIKELY(s->gen != t->gen || s->addr != addr || !clock_fast(t, &now)))
			goto full;
		hook_clock_read(t, GUARD_ENTRY_CLOCKED);
		push_redirected(t, addr, ret_slot, real);
		put_entry(t, s->entry, take_delta(t, now));
		thread_commit(t);
	}
	return guard_restore_returning(t, 0, 0);
full:
	return guard_restore_returning(t, 0, 1);
}

/* The fast paths' end of frame F, just popped, at NOW; KIND as for
 * enter_fast(). */
static inline __attribute__((always_inline)) void close_fast(struct thread_state *t,
							     struct shadow_frame *f, uint64_t now,
							     enum fast_kind kind)
{
	if (kind != FAST_EVENTS) {
		aggregate_exit(t, f, now, 0, 0, 0, kind == FAST_COUNT_STATS);
	} else {
		put_exit(t, take_delta(t, now));
		thread_commit(t);
	}
}

static uintptr_t leave_count_tail(struct thread_state *t, uintptr_t slot, struct shadow_frame *f,
				  uint32_t depth, enum fast_kind kind);

/*
 * The second half of leave_fast(): F, the innermost of the DEPTH open
 * frames, has SLOT, and the guard is held.  TAIL: F is a tail callee
 * (ret 0), which ends here together with the frame below it if that one
 * owns SLOT.
 */
static inline __attribute__((always_inline)) uintptr_t leave_fast_close(struct thread_state *t,
									 uintptr_t slot,
									 struct shadow_frame *f,
									 uint32_t depth,
									 enum fast_kind kind, int tail)
{
	uint64_t now;
	if (UNLIKELY(tail) && (depth < 2 || f[-1].sp != slot || !f[-1].ret))
		return guard_restore_returning(t, 0, 0);
	if (UNLIKELY(!clock_fast(t, &now)))
		return guard_restore_returning(t, 0, 0);
	hook_clock_read(t, GUARD_EXIT_CLOCKED);
	if (UNLIKELY(tail)) {
		/* the callee first, as close_tail_callees() does */
		t->depth = --depth;
		close_fast(t, f--, now, kind);
	}
	/* read while the guard holds: once the frame is popped and the
	 * guard free, a signal handler's call may take its place */
	uintptr_t ret = f->ret;
	t->depth = depth - 1;
	close_fast(t, f, now, kind);
	return guard_restore_returning(t, 0, ret);
}

/*
 * The usual return done by leave()'s steps without a call, KIND as for
 * enter_fast(): the innermost open frame is the one whose return slot is
 * SLOT, or a tail callee (ret 0) of the one below it, which is, and a
 * trace or flight recording's window has room (for the two records:
 * has_room()), or count mode has its nodes.  TAILS: whether a tail
 * callee's end is written here, else handed to leave_count_tail().
 * Returns the real return address, or 0, having changed nothing, when
 * the return needs leave() instead (a longer chain of tail calls, stack
 * repair).
 */
static inline __attribute__((always_inline)) uintptr_t leave_fast(struct thread_state *t,
								   uintptr_t slot, enum fast_kind kind,
								   int tails)
{
	if (UNLIKELY(t->guard))
		return 0;
	guard_take(t, GUARD_EXIT);
	uint32_t depth = t->depth;
	struct shadow_frame *f = &t->stack[depth - 1];
	if (UNLIKELY(!hooks_fast(t) || !depth || f->sp != slot ||
		     (kind != FAST_EVENTS ? !t->nodes : !has_room(t))))
		return guard_restore_returning(t, 0, 0);
	int tail = !f->ret;
	if (!tails) {
		if (UNLIKELY(tail))
			return leave_count_tail(t, slot, f, depth, kind);
		return leave_fast_close(t, slot, f, depth, kind, 0);
	}
	return leave_fast_close(t, slot, f, depth, kind, tail);
}

/* Count mode's return that ends a tail callee too, out of line, the
 * checks of leave_fast() done: two node updates inline would make every
 * one of its returns save more registers. */
static uintptr_t __attribute__((noinline)) leave_count_tail(struct thread_state *t, uintptr_t slot,
							    struct shadow_frame *f, uint32_t depth,
							    enum fast_kind kind)
{
	if (kind == FAST_COUNT_STATS)
		return leave_fast_close(t, slot, f, depth, FAST_COUNT_STATS, 1);
	return leave_fast_close(t, slot, f, depth, FAST_COUNT, 1);
}

/*
 * The fast paths of mcount and __fentry__, and of the return trampoline
 * (arch/x86_64/hooks.S), tried first: the events' or count mode's, as
 * trace_fast_paths_choose() set them.  They call nothing, so they need
 * none of the registers a call must keep, and save none: the assembly
 * has saved what they may change.  The entries return nonzero when
 * callscope_hook_enter() must do the entry instead (a word, as the
 * returns' are, so that sending held signals is a tail call); the
 * returns return the real return address, or 0 when
 * callscope_hook_return() must do the return instead.
 */
uintptr_t callscope_hook_enter_fast(uintptr_t *ret_slot, uint64_t self)
{
	return enter_fast(trace_current(), self, ret_slot, FAST_EVENTS);
}

uintptr_t callscope_hook_return_fast(uintptr_t slot)
{
	return leave_fast(trace_current(), slot, FAST_EVENTS, 1);
}

uintptr_t callscope_hook_enter_count_fast(uintptr_t *ret_slot, uint64_t self)
{
	return enter_fast(trace_current(), self, ret_slot, FAST_COUNT);
}

uintptr_t callscope_hook_return_count_fast(uintptr_t slot)
{
	return leave_fast(trace_current(), slot, FAST_COUNT, 0);
}

uintptr_t callscope_hook_enter_count_stats_fast(uintptr_t *ret_slot, uint64_t self)
{
	return enter_fast(trace_current(), self, ret_slot, FAST_COUNT_STATS);
}

uintptr_t callscope_hook_return_count_stats_fast(uintptr_t slot)
{
	return leave_fast(trace_current(), slot, FAST_COUNT_STATS, 0);
}

/* The entry of a run that only samples: its hooks are idle (code with
 * hooks that it runs came later, by exec or dlopen, and is sampled as the
 * rest is; record preloads the idle hooks only when the program itself
 * has them). */
static uintptr_t hook_enter_idle(uintptr_t *ret_slot, uint64_t self)
{
	(void)ret_slot, (void)self;
	return 0;
}

/* Each kind of recording has fast paths compiled for it alone, so that
 * a trace's carry none of count mode's work and need no register a call
 * must keep (1.5–2 ns a call less on the Lua benchmark); the assembly calls
 * the chosen pair through a pointer. */
void trace_fast_paths_choose(const struct contract *contract)
{
	if (contract->sample_only) {
		callscope_hook_enter_fast_path = hook_enter_idle;
		return;
	}
	if (contract->time_by_samples) {
		/* entries alone: a -pg function's return is not redirected,
		 * and a -finstrument-functions frame's is (sampled_count_enter()) */
		if (!(contract->hooks & CONTRACT_HOOKS_CYG))
			callscope_hook_enter_fast_path = callscope_hook_enter_sampled;
		return;
	}
	if (contract->clock != CONTRACT_CLOCK_TSC || contract->has_start || contract->nstops)
		return;
	if (!contract->count_nodes) {
		callscope_hook_enter_fast_path = callscope_hook_enter_fast;
		callscope_hook_return_fast_path = callscope_hook_return_fast;
	} else if (!contract->call_stats) {
		callscope_hook_enter_fast_path = callscope_hook_enter_count_fast;
		callscope_hook_return_fast_path = callscope_hook_return_count_fast;
	} else {
		callscope_hook_enter_fast_path = callscope_hook_enter_count_stats_fast;
		callscope_hook_return_fast_path = callscope_hook_return_count_stats_fast;
	}
}

/*
 * Puts the real return address back into every slot that leads to the
 * trampoline (or a patched function's, see patch/enter.c); with FORGET,
 * the frames also stop counting as redirected.
 * Returns nonzero if any slot changed.
 */
static int give_back_returns(struct thread_state *t, int forget)
{
	int was_guarded = t->guard, changed = 0;

	guard_take(t, 1);
	for (uint32_t i = 0; i < t->depth; i++) {
		struct shadow_frame *f = &t->stack[i];
		uintptr_t *slot = (uintptr_t *)f->sp;
		if (f->ret && (*slot == (uintptr_t)callscope_return_trampoline ||
			       patch_is_return_point(*slot))) {
			*slot = f->ret;
			changed = 1;
		}
		if (forget)
			f->ret = 0;
	}
	guard_restore(t, was_guarded);
	return changed;
}

/*
 * An exception is about to be thrown: the unwinder will read every return
 * address on the stack, and must find the real ones, not the trampoline
 * (it has no unwind information for it, so the program would end in
 * std::terminate).  Each redirected slot gets its real address back;
 * trace_exception_caught() redirects the slots of the frames that survive.
 * Whatever frames the exception leaves without their exit (every one under
 * -pg; under -finstrument-functions those whose exit hook runs only on
 * return, as clang builds them, and the library call that threw) are
 * closed as thrown.
 */
void trace_exception_thrown(struct thread_state *t)
{
	give_back_returns(t, 0);
	t->unwinding = 1;
}

/*
 * The thread is about to switch stacks (context.c): the redirected
 * return addresses go back, and are forgotten, so a frame suspended on
 * the old stack returns directly whenever it resumes, and nothing (not a
 * later catch) redirects it again.
 */
void trace_stack_switch(struct thread_state *t)
{
	give_back_returns(t, 1);
}

/*
 * A handler caught the exception; SP is the return-address slot of the
 * call the handler's function made to __cxa_begin_catch.  The frames the
 * exception left are at or below SP: they are closed as unwound.  When
 * LAST (no other exception is still being unwound), the frames above go
 * on, so their returns are redirected again.  A -finstrument-functions
 * frame's SP is its stack pointer after its prologue, above the slot of
 * any call it makes: the catching function's frame (and those inlined into
 * it) is not closed.
 */
void trace_exception_caught(struct thread_state *t, uintptr_t sp, int last)
{
	int was_guarded = t->guard;

	if (!t->unwinding)
		return;
	guard_take(t, 1);
	if (t->depth && t->stack[t->depth - 1].sp <= sp)
		close_dead_frames(t, sp, thread_now(t));
	if (!last) {
		guard_restore(t, was_guarded);
		return;
	}
	t->unwinding = 0;
	/* the survivors whose slots trace_exception_thrown() gave back:
	 * those and only those that were redirected */
	for (uint32_t i = 0; returns_redirected() && i < t->depth; i++) {
		struct shadow_frame *f = &t->stack[i];
		uintptr_t *slot = (uintptr_t *)f->sp;
		if (f->ret && *slot == f->ret)
			*slot = (uintptr_t)callscope_return_trampoline;
	}
	guard_restore(t, was_guarded);
}

/*
 * __cyg_profile_func_exit names the function that ends.  Frames above it
 * (skipped by longjmp) are closed as unwound; an exit whose entry was never
 * recorded (dropped by the guard, or past the stack's capacity) is ignored.
 */
void trace_exit_named(struct thread_state *t, uint64_t addr)
{
	if (UNLIKELY(runtime_config.contract.time_by_samples)) {
		sampled_count_exit_named(t, addr);
		return;
	}
	if (t->guard) {
		reentered(t, 1);
		return;
	}
	if (UNLIKELY(t->overflow)) {
		t->overflow--;
		return;
	}
	guard_take(t, GUARD_EXIT);
	uint64_t now = thread_clock(t);
	uint32_t i = t->depth;

	hook_clock_read(t, GUARD_EXIT_CLOCKED);

	read_counters(t);
	check_capture(t, now);
	while (i && t->stack[i - 1].addr != addr)
		i--;
	if (LIKELY(i)) {
		while (t->depth > i) {
			t->depth--;
			record_exit(t, now, repaired_end(t));
		}
		t->depth--;
		record_exit(t, now, FRAME_RETURNED);
	}
	guard_restore(t, 0);
}
