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
 */
#include "runtime.h"

/* arch/x86_64/hooks.S: each entry point, where its fast and its full
 * path's calls into C return, where the full path starts, and its end;
 * where the return trampoline's calls are done, and its end */
extern char mcount[], mcount_fast_done[] HIDDEN, mcount_full[] HIDDEN,
	mcount_full_done[] HIDDEN, mcount_end[] HIDDEN;
extern char __fentry__[], __fentry___fast_done[] HIDDEN, __fentry___full[] HIDDEN,
	__fentry___full_done[] HIDDEN, __fentry___end[] HIDDEN;
extern char callscope_return_trampoline[] HIDDEN, callscope_return_trampoline_hooked[] HIDDEN,
	callscope_return_trampoline_end[] HIDDEN;

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

/* Which counter a sample at PC in T's hooks goes to, or NULL: not in
 * the hooks of a call. */
static uint64_t *counter_of(const struct thread_state *t, uintptr_t pc, uintptr_t self_lo,
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
	return in_runtime ? &counts.unsure : NULL;
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
	return now;
}

void hook_samples_after_fork(void)
{
	uint64_t period = counts.period_ns;

	counts = (struct hook_sample_counts){ .period_ns = period };
}
