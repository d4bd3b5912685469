/*
 * The threads whose shadow stacks an unwinder may search.  A frame whose
 * return address was redirected (a -pg return trampoline, a patched
 * function's trampoline) keeps its real return address on its thread's
 * shadow stack, out of reach of the stack's unwind information; the
 * unwind information the runtime makes for its trampolines
 * (patch/unwind_info.c) says where instead: in the shadow stack of one of
 * the threads listed here, the frame whose slot is the one being unwound.
 * The table is read by the DWARF expression that search compiles to, in
 * the process (libgcc's unwinder) or from outside it (gdb), so it is a
 * plain array of pointers to the threads' states, a cleared entry being a
 * thread gone, and a pointer past the last entry ever used.
 */
#include "runtime.h"

HIDDEN struct thread_state *unwind_threads[UNWIND_THREADS_MAX];
HIDDEN struct thread_state **unwind_threads_end = unwind_threads;

void unwind_threads_add(struct thread_state *t)
{
	for (uint32_t i = 0; i < UNWIND_THREADS_MAX; i++) {
		struct thread_state *none = NULL;
		if (__atomic_compare_exchange_n(&unwind_threads[i], &none, t, 0, __ATOMIC_RELEASE,
						__ATOMIC_RELAXED)) {
			struct thread_state **end = __atomic_load_n(&unwind_threads_end,
								    __ATOMIC_RELAXED);
			/* raise the end past this entry; it never comes down */
			while (end < &unwind_threads[i + 1] &&
			       !__atomic_compare_exchange_n(&unwind_threads_end, &end,
							    &unwind_threads[i + 1], 1,
							    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
				;
			return;
		}
	}
	/* more threads at once than the table holds: unwinders stop at the
	 * redirected frames of the ones left out */
}

/* Before T's shadow stack goes away. */
void unwind_threads_remove(struct thread_state *t)
{
	for (uint32_t i = 0; i < UNWIND_THREADS_MAX; i++)
		if (__atomic_load_n(&unwind_threads[i], __ATOMIC_RELAXED) == t) {
			__atomic_store_n(&unwind_threads[i], NULL, __ATOMIC_RELEASE);
			return;
		}
}
