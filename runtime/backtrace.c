/*
 * backtrace() under tracing.  glibc walks the stack with the unwinder,
 * which cannot pass a frame whose return address leads into the runtime
 * (the -pg return trampoline, or a patched function's trampoline): there
 * is no unwind information for it, and the real return address is on the
 * shadow stack, not on the stack, so the walk would stop there.  The
 * runtime stands in for backtrace(): the real return addresses of the
 * innermost frames are put back for the walk, and the redirections
 * restored after it, so the program sees the backtrace it would without
 * the profiler.
 */
#include "runtime.h"

#include <string.h>

#define NO_INSTRUMENT __attribute__((no_instrument_function))
/* frames given back at most: deeper ones stay redirected (and end the
 * walk), which keeps the stand-in on the stack, without allocating */
#define GIVEN_BACK_MAX 256

extern char callscope_return_trampoline[] HIDDEN;

typedef int (*backtrace_fn)(void **, int);

EXPORT NO_INSTRUMENT int backtrace(void **buffer, int size)
{
	static backtrace_fn next;
	struct thread_state *t = trace_current();
	uintptr_t redirect[GIVEN_BACK_MAX];

	if (!next)
		next = (backtrace_fn)runtime_next_symbol("backtrace");
	if (t->status != THREAD_RECORDING || !t->depth || t->guard)
		return next(buffer, size);
	guard_take(t, 1);
	uint32_t from = t->depth > GIVEN_BACK_MAX ? t->depth - GIVEN_BACK_MAX : 0;
	for (uint32_t i = from; i < t->depth; i++) {
		struct shadow_frame *f = &t->stack[i];
		uintptr_t *slot = (uintptr_t *)f->sp;
		redirect[i - from] = 0;
		if (f->ret && (*slot == (uintptr_t)callscope_return_trampoline ||
			       patch_is_return_point(*slot))) {
			redirect[i - from] = *slot;
			*slot = f->ret;
		}
	}
	/* the walk starts in this stand-in, a frame the program does not
	 * have: it is taken off the front */
	void *own[GIVEN_BACK_MAX + 1];
	int wide = size >= 0 && size <= GIVEN_BACK_MAX;
	int n = next(wide ? own : buffer, wide ? size + 1 : size);
	for (uint32_t i = from; i < t->depth; i++)
		if (redirect[i - from])
			*(uintptr_t *)t->stack[i].sp = redirect[i - from];
	guard_restore(t, 0);
	if (n <= 0)
		return n;
	n--;
	memmove(buffer, (wide ? own : buffer) + 1, (size_t)n * sizeof(*buffer));
	return n;
}
