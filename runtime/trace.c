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
 * EXIT_UNWOUND records.
 */
#include "runtime.h"
#include "stream.h"

#include <stdlib.h>
#include <unistd.h>

static __thread struct thread_state current
	__attribute__((tls_model("initial-exec")));

struct thread_state *trace_current(void)
{
	return &current;
}

/* Returns nonzero when at least one more record fits (growing if needed). */
static inline int ensure_room(struct thread_state *t)
{
	if (UNLIKELY(t->status != THREAD_RECORDING))
		return 0;
	if (LIKELY((size_t)(t->end - t->cur) >= 2 * STREAM_RECORD_MAX))
		return 1;
	if (t->truncated)
		return 0;
	if (thread_buffer_grow(t) == 0)
		return 1;
	t->truncated = 1;
	t->hdr->flags |= THREAD_TRUNCATED;
	return 0;
}

static inline void commit(struct thread_state *t)
{
	__atomic_store_n(&t->hdr->committed_end,
			 t->win_file_off + (uint64_t)(t->cur - t->win_base),
			 __ATOMIC_RELEASE);
}

static inline uint64_t take_delta(struct thread_state *t, uint64_t now)
{
	if (UNLIKELY(now < t->last_time))
		return 0;
	uint64_t d = now - t->last_time;
	t->last_time = now;
	return d;
}

/* Returns the id of ADDR, defining it in the stream if new; 0 = no id. */
static inline uint32_t func_id(struct thread_state *t, uint64_t addr)
{
	uint32_t h = (uint32_t)((addr * 0x9E3779B97F4A7C15ull) >> 40) & t->slot_mask;

	for (;;) {
		struct func_slot *s = &t->slots[h];
		if (LIKELY(s->addr == addr))
			return s->id;
		if (s->addr == 0)
			break;
		h = (h + 1) & t->slot_mask;
	}
	if (t->next_id >= t->id_limit)
		return 0;
	struct func_slot *s = &t->slots[h];
	s->addr = addr;
	s->id = t->next_id++;
	t->cur = stream_put_varint(t->cur, ((uint64_t)STREAM_FUNC_DEF << 2) | STREAM_SPECIAL);
	t->cur = stream_put_varint(t->cur, s->id);
	t->cur = stream_put_varint(t->cur, addr);
	return s->id;
}

static inline void emit_entry(struct thread_state *t, uint64_t addr, uint64_t now)
{
	if (UNLIKELY(!ensure_room(t))) {
		if (t->hdr)
			t->hdr->lost_events++;
		return;
	}
	uint32_t id = func_id(t, addr);
	uint64_t delta = take_delta(t, now);
	if (LIKELY(id)) {
		t->cur = stream_put_varint(t->cur, (uint64_t)id << 2 | STREAM_ENTRY);
	} else {
		t->cur = stream_put_varint(t->cur, ((uint64_t)STREAM_ENTRY_ADDR << 2) | STREAM_SPECIAL);
		t->cur = stream_put_varint(t->cur, addr);
	}
	t->cur = stream_put_varint(t->cur, delta);
	commit(t);
}

static inline void emit_exit(struct thread_state *t, uint64_t now, int unwound)
{
	if (UNLIKELY(!ensure_room(t))) {
		if (t->hdr)
			t->hdr->lost_events++;
		return;
	}
	uint64_t delta = take_delta(t, now);
	if (LIKELY(!unwound)) {
		t->cur = stream_put_varint(t->cur, delta << 2 | STREAM_EXIT);
	} else {
		t->cur = stream_put_varint(t->cur, ((uint64_t)STREAM_EXIT_UNWOUND << 2) | STREAM_SPECIAL);
		t->cur = stream_put_varint(t->cur, delta);
	}
	commit(t);
}

/*
 * Closes open frames whose place on the stack is at or below SP: their
 * functions are gone without an exit.  Returns the real return address of
 * a closed frame that used the very slot SP (a tail call reuses its
 * caller's return slot, which then holds the trampoline), else 0.
 */
static inline uintptr_t close_dead_frames(struct thread_state *t, uintptr_t sp,
					  uint64_t now)
{
	uintptr_t inherited = 0;

	while (t->depth && t->stack[t->depth - 1].sp <= sp) {
		struct shadow_frame *f = &t->stack[--t->depth];
		if (f->sp == sp && f->ret)
			inherited = f->ret;
		emit_exit(t, now, 1);
	}
	return inherited;
}

extern char callscope_return_trampoline[] HIDDEN;

/*
 * Entry of ADDR whose frame is at SP.  RET_SLOT, when not NULL, is where
 * the function's return address lies: it is redirected through the
 * trampoline so the return is seen (mcount and __fentry__).
 */
void trace_enter(struct thread_state *t, uint64_t addr, uintptr_t sp,
		 uintptr_t *ret_slot)
{
	if (t->guard) {
		if (t->hdr)
			t->hdr->lost_events += 2;
		return;
	}
	t->guard = 1;
	uint64_t now = thread_now(t);
	uintptr_t inherited = 0;

	if (UNLIKELY(t->depth && t->stack[t->depth - 1].sp <= sp))
		inherited = close_dead_frames(t, sp, now);
	if (UNLIKELY(t->depth == t->capacity)) {
		/* too deep to track: the call is counted, not recorded */
		if (t->hdr)
			t->hdr->lost_events += 2;
		if (!ret_slot)
			t->overflow++;
		else if (inherited)
			*ret_slot = inherited;
		t->guard = 0;
		return;
	}
	struct shadow_frame *f = &t->stack[t->depth++];
	f->addr = addr;
	f->sp = sp;
	f->ret = 0;
	if (ret_slot) {
		uintptr_t real = *ret_slot;
		if (real == (uintptr_t)callscope_return_trampoline)
			real = inherited;
		f->ret = real;
		if (LIKELY(real))
			*ret_slot = (uintptr_t)callscope_return_trampoline;
	}
	emit_entry(t, addr, now);
	t->guard = 0;
}

/*
 * The function whose return address lay at SLOT has returned through the
 * trampoline.  Returns where it really returns to.  This cannot fail
 * softly: without the real address the program cannot go on.
 */
uintptr_t trace_return(struct thread_state *t, uintptr_t slot)
{
	int was_guarded = t->guard;
	uint64_t now = thread_now(t);

	t->guard = 1;
	while (t->depth && t->stack[t->depth - 1].sp < slot) {
		t->depth--;
		emit_exit(t, now, 1);
	}
	if (UNLIKELY(!t->depth || t->stack[t->depth - 1].sp != slot ||
		     !t->stack[t->depth - 1].ret)) {
		rt_warn("return through the trampoline with no matching frame; "
			"the shadow stack is corrupt", "");
		abort();
	}
	uintptr_t ret = t->stack[--t->depth].ret;
	emit_exit(t, now, 0);
	t->guard = was_guarded;
	return ret;
}

/*
 * __cyg_profile_func_exit names the function that ends.  Frames above it
 * (skipped by longjmp) are closed as unwound; an exit whose entry was never
 * recorded (dropped by the guard, or past the stack's capacity) is ignored.
 */
void trace_exit_named(struct thread_state *t, uint64_t addr)
{
	if (t->guard) {
		if (t->hdr)
			t->hdr->lost_events++;
		return;
	}
	if (UNLIKELY(t->overflow)) {
		t->overflow--;
		return;
	}
	t->guard = 1;
	uint64_t now = thread_now(t);
	uint32_t i = t->depth;

	while (i && t->stack[i - 1].addr != addr)
		i--;
	if (LIKELY(i)) {
		while (t->depth > i) {
			t->depth--;
			emit_exit(t, now, 1);
		}
		t->depth--;
		emit_exit(t, now, 0);
	}
	t->guard = 0;
}
