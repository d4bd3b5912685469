/*
 * The hooks' cost measured in place: the samples a trace takes beside it
 * (record's --outside-freq) that land in the hooks of a call, sorted by
 * the side of the hook's clock read they fell on.  Time in an entry hook
 * before its clock read, and in an exit hook after it, lies in the
 * caller's measured interval ("outer"); the rest in the callee's
 * ("inner").  The calibration (calibrate.c) measures the same parts on
 * an empty function at start and at exit, where the hooks' data stays
 * in cache and their branches alone in the predictors; these samples
 * see what a call costs amid the program's own work.  The analyzer
 * turns them into a cost per call (samples x period / calls).
 *
 * The side is told by the thread's guard while the C part of a hook runs
 * (GUARD_* in runtime.h), and by the PC in the assembly entry points and
 * the return trampoline, whose call into C is the boundary.  What is
 * left, the C hooks' prologues and epilogues before the guard is set or
 * after it is cleared, is counted apart, as unsure, and so is the
 * clock read itself (at_clock_read()).
 *
 * A library call's hooks (libcall/, arch/x86_64/libcall.S) cost more than
 * a compiler hook's, so their samples are counted apart, for a cost per
 * call of their own (kind_of_library()): the entry by its own entry point
 * and by the thread's library_entry while its C side runs, the return,
 * through the trampoline the compiler hooks share, by the mark on the
 * frame it closes (frame_is_library()).
 */
#include "runtime.h"
#include "libcall/libcall.h"

/* arch/x86_64/hooks.S: each entry point, where its fast and its full
 * path's calls into C return, where the full path starts, and its end;
 * where the return trampoline's calls are done, and its end */
extern char mcount[], mcount_fast_done[] HIDDEN, mcount_full[] HIDDEN,
	mcount_full_done[] HIDDEN, mcount_end[] HIDDEN;
extern char __fentry__[], __fentry___fast_done[] HIDDEN, __fentry___full[] HIDDEN,
	__fentry___full_done[] HIDDEN, __fentry___end[] HIDDEN;
extern char callscope_return_trampoline[] HIDDEN, callscope_return_trampoline_hooked[] HIDDEN,
	callscope_return_trampoline_end[] HIDDEN;

extern char callscope_libcall_entry_done[] HIDDEN, callscope_libcall_entry_end[] HIDDEN;

static struct hook_sample_counts counts;

static int in(uintptr_t pc, const void *lo, const void *hi)
{
	return pc - (uintptr_t)lo < (uintptr_t)hi - (uintptr_t)lo;
}

/*
 * Whether PC is the instruction right after a clock read (`rdtsc`, 0f 31)
 * in the runtime's code.  Samples pile up there: they stand for the read
 * itself (about 10 ns on a virtual machine), which takes the clock's
 * value somewhere within that time, so they are counted half to each
 * side, as unsure.  The guard is switched just after the read, so
 * without this they would all count on the side before it.
 */
static int at_clock_read(uintptr_t pc, uintptr_t self_lo, uintptr_t self_hi)
{
#if defined(__x86_64__)
	if (pc - 2 - self_lo >= self_hi - self_lo)
		return 0;
	const uint8_t *p = (const uint8_t *)(pc - 2);
	return p[0] == 0x0f && p[1] == 0x31;
#else
	(void)pc, (void)self_lo, (void)self_hi;
	return 0;
#endif
}

/* The frame whose return the trampoline is taking: still open until its
 * exit's clock read (POPPED 0), the one just closed after it. */
static const struct shadow_frame *returning_frame(const struct thread_state *t, int popped)
{
	if (!t->stack)
		return NULL;
	if (!popped)
		return t->depth ? &t->stack[t->depth - 1] : NULL;
	return t->depth < t->capacity ? &t->stack[t->depth] : NULL;
}

/*
 * Whether a sample at PC in T's hooks is in a library call's.  An exit's
 * frame is popped a few instructions after its clock read: a sample
 * between the two is taken for the frame below's, too rare to matter.
 * In the C hooks' prologues and epilogues (UNGUARDED), an open library
 * call on top is the one returning: a compiler hook's entry below it, a
 * callback's (qsort's comparison), is rare; the epilogue of a library
 * call's return, after its frame is gone, is taken for a compiler hook's.
 */
static int kind_of_library(const struct thread_state *t, uintptr_t pc, int unguarded)
{
	const struct shadow_frame *f = NULL;

	if (in(pc, callscope_libcall_entry, callscope_libcall_entry_end) || t->library_entry ||
	    libcall_in_stubs(pc))
		return 1;
	if (t->guard == GUARD_EXIT || unguarded)
		f = returning_frame(t, 0);
	else if (t->guard == GUARD_EXIT_CLOCKED)
		f = returning_frame(t, 1);
	else if (in(pc, (const void *)((uintptr_t)callscope_return_trampoline - 1),
		    callscope_return_trampoline_hooked))
		f = returning_frame(t, 0);
	else if (in(pc, callscope_return_trampoline_hooked, callscope_return_trampoline_end))
		f = returning_frame(t, 1);
	return f && frame_is_library(f);
}

/* The side of a hook's clock read a sample at PC in T's hooks fell on:
 * its counter among the compiler hooks', or NULL: not in the hooks of a
 * call. */
static uint64_t *side_of(const struct thread_state *t, uintptr_t pc, uintptr_t self_lo,
			 uintptr_t self_hi)
{
	int in_runtime = pc - self_lo < self_hi - self_lo;

	/* a hook in libc or the kernel is growing the buffer, a pause the
	 * clock leaves out of every time (thread_buffer_grow()) */
	if (t->guard && !in_runtime)
		return NULL;
	if (t->guard && at_clock_read(pc, self_lo, self_hi))
		return &counts.unsure;
	switch (t->guard) {
	case GUARD_ENTRY:
	case GUARD_EXIT_CLOCKED:
		return &counts.outer;
	case GUARD_ENTRY_CLOCKED:
	case GUARD_EXIT:
		return &counts.inner;
	case 0:
		break;
	default:
		return NULL;	/* the runtime's other work */
	}
	/* an entry point runs the caller's time up to each call into C,
	 * the callee's after it */
	if (in(pc, mcount, mcount_fast_done) || in(pc, mcount_full, mcount_full_done) ||
	    in(pc, __fentry__, __fentry___fast_done) ||
	    in(pc, __fentry___full, __fentry___full_done))
		return &counts.outer;
	if (in(pc, mcount_fast_done, mcount_full) || in(pc, mcount_full_done, mcount_end) ||
	    in(pc, __fentry___fast_done, __fentry___full) ||
	    in(pc, __fentry___full_done, __fentry___end))
		return &counts.inner;
	/* the trampoline the other way round; its label is one byte past
	 * where a return lands (callscope_redirected_return's nop) */
	if (in(pc, (const void *)((uintptr_t)callscope_return_trampoline - 1),
	       callscope_return_trampoline_hooked))
		return &counts.inner;
	if (in(pc, callscope_return_trampoline_hooked, callscope_return_trampoline_end))
		return &counts.outer;
	/* a library call's stub and entry point run the caller's time up to
	 * its call into C, the callee's after it */
	if (in(pc, callscope_libcall_entry, callscope_libcall_entry_done) || libcall_in_stubs(pc))
		return &counts.outer;
	if (in(pc, callscope_libcall_entry_done, callscope_libcall_entry_end))
		return &counts.inner;
	/* a patched entry's trampoline (record --patch), before or after its
	 * call into C: no label tells which */
	return in_runtime || patch_is_own_code(pc) ? &counts.unsure : NULL;
}

/* Which counter a sample at PC in T's hooks goes to, or NULL: not in
 * the hooks of a call. */
static uint64_t *counter_of(const struct thread_state *t, uintptr_t pc, uintptr_t self_lo,
			    uintptr_t self_hi)
{
	uint64_t *c = side_of(t, pc, self_lo, self_hi);

	if (!c || !kind_of_library(t, pc, c == &counts.unsure && !t->guard))
		return c;
	return c == &counts.inner ? &counts.library_inner
	       : c == &counts.outer ? &counts.library_outer
				    : &counts.library_unsure;
}

void hook_samples_note(const struct thread_state *t, uintptr_t pc, uintptr_t self_lo,
		       uintptr_t self_hi, uint64_t weight)
{
	uint64_t *c = counter_of(t, pc, self_lo, self_hi);

	__atomic_fetch_add(&counts.taken, weight, __ATOMIC_RELAXED);
	if (c)
		__atomic_fetch_add(c, weight, __ATOMIC_RELAXED);
}

void hook_samples_set_period(uint64_t period_ns)
{
	counts.period_ns = period_ns;
}

struct hook_sample_counts hook_samples_counts(void)
{
	struct hook_sample_counts now;

	now.taken = __atomic_load_n(&counts.taken, __ATOMIC_RELAXED);
	now.inner = __atomic_load_n(&counts.inner, __ATOMIC_RELAXED);
	now.outer = __atomic_load_n(&counts.outer, __ATOMIC_RELAXED);
	now.unsure = __atomic_load_n(&counts.unsure, __ATOMIC_RELAXED);
	now.period_ns = counts.period_ns;
	now.library_inner = __atomic_load_n(&counts.library_inner, __ATOMIC_RELAXED);
	now.library_outer = __atomic_load_n(&counts.library_outer, __ATOMIC_RELAXED);
	now.library_unsure = __atomic_load_n(&counts.library_unsure, __ATOMIC_RELAXED);
	now.library_calls = __atomic_load_n(&counts.library_calls, __ATOMIC_RELAXED);
	return now;
}

void hook_samples_add_library_calls(struct thread_state *t)
{
	__atomic_fetch_add(&counts.library_calls, t->library_calls, __ATOMIC_RELAXED);
	t->library_calls = 0;
}

void hook_samples_after_fork(void)
{
	uint64_t period = counts.period_ns;

	counts = (struct hook_sample_counts){ .period_ns = period };
}
