/*
 * The C side of a library call's stub (arch/x86_64/libcall.S): the call
 * enters the shadow stack as a compiler hook's would, named by the
 * function's symbol, its return address slot being the one the caller's
 * call pushed.  A callback from the library into code with hooks lies
 * deeper on the stack and so nests under the library function.
 */
#include "libcall.h"

#include <dlfcn.h>
#include <errno.h>

#define NO_INSTRUMENT __attribute__((no_instrument_function))

/*
 * A function that must keep its real return address was reached by a
 * tail call (`jmp setjmp@plt`): the slot is the jumping function's, and
 * holds the trampoline (or a patched function's own).  That frame gets its real address back and stops
 * counting as redirected; it is closed as the callee enters.
 */
static void give_back_slot(struct thread_state *t, uintptr_t *ret_slot)
{
	if (*ret_slot != (uintptr_t)callscope_return_trampoline &&
	    !patch_is_return_point(*ret_slot))
		return;
	for (uint32_t i = t->depth; i--;) {
		struct shadow_frame *f = &t->stack[i];
		if (f->sp == (uintptr_t)ret_slot && f->ret) {
			*ret_slot = f->ret;
			f->ret = 0;
			return;
		}
		if (f->sp > (uintptr_t)ret_slot)
			return;
	}
}

static inline void enter(struct thread_state *t, uintptr_t *ret_slot,
			 const struct libcall_target *lt)
{
	switch (lt->kind) {
	case LIBCALL_RETURNS:
		trace_enter(t, lt->id, (uintptr_t)ret_slot, ret_slot);
		return;
	case LIBCALL_LOADS:
		/* its return hooks what it loaded: where the entry redirected
		 * it (or a tail call's owner did), and also where returns are
		 * not redirected (--time-by=samples of -pg code), when the
		 * frame it opened keeps the real address */
		trace_enter(t, lt->id, (uintptr_t)ret_slot, ret_slot);
		if (*ret_slot == (uintptr_t)callscope_return_trampoline ||
		    (t->depth && t->stack[t->depth - 1].sp == (uintptr_t)ret_slot &&
		     t->stack[t->depth - 1].ret))
			*ret_slot = (uintptr_t)callscope_libcall_load_return;
		return;
	case LIBCALL_NEVER_RETURNS:
		give_back_slot(t, ret_slot);
		trace_enter(t, lt->id, (uintptr_t)ret_slot, NULL);
		return;
	case LIBCALL_RETURNS_TWICE:
		give_back_slot(t, ret_slot);
		trace_enter(t, lt->id, (uintptr_t)ret_slot, NULL);
		trace_exit_named(t, lt->id);
		return;
	}
}

/*
 * A library call's hooks cost more than a compiler hook's (the stub, the
 * saved registers, this function), so the samples that fall in them
 * (hook_samples.c) are told apart: by library_entry while this runs, and
 * by a mark on the frame (frame_mark_library()) while its return goes
 * through the trampoline the compiler hooks share.  The calls are counted
 * too, for the samples' cost per call.
 */
HIDDEN NO_INSTRUMENT void callscope_libcall_enter(uintptr_t *ret_slot,
						  const struct libcall_target *lt)
{
	struct thread_state *t = trace_current();

	t->library_entry = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (runtime_thread_ready(t)) {
		/* marked before the entry's clock read, so that the callee's
		 * time holds no more of this than the compiler hooks' does: the
		 * frame is pushed into the next slot (a mark left there when
		 * stack repair pushes it elsewhere names this function and
		 * matches no other) */
		if (t->depth < t->capacity)
			frame_mark_library(&t->stack[t->depth], lt->id);
		t->library_calls++;
		enter(t, ret_slot, lt);
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->library_entry = 0;
}

/* dlopen returned HANDLE (callscope_libcall_load_return): the call ends,
 * and the objects it loaded are hooked before the program can reach them.
 * Hooking looks names up (dlsym), and every lookup replaces the thread's
 * dlerror() state, which the program reads next (libuv's uv_dlopen): a
 * dlopen that failed loaded nothing and keeps its message untouched, and
 * after one that loaded, no error of the runtime's lookups stays behind
 * (the first dlerror() returns it, the second forgets it). */
HIDDEN NO_INSTRUMENT uintptr_t callscope_libcall_loaded(uintptr_t slot, const void *handle)
{
	uintptr_t ret = trace_return(trace_current(), slot);
	int saved = errno;

	if (handle) {
		patch_loaded();
		libcall_install();
		process_objects_refresh();
		while (dlerror())
			;
	}
	errno = saved;
	return ret;
}
