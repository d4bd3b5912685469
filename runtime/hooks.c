/*
 * The C side of the compiler hooks: -pg / -pg -mfentry (through
 * arch/x86_64/hooks.S; their fast paths, callscope_hook_enter_fast() and
 * callscope_hook_return_fast(), and their full paths,
 * callscope_hook_enter() and callscope_hook_return(), are in trace.c,
 * where the whole of a call's work inlines into one function each) and
 * -finstrument-functions.  Each
 * makes sure the calling thread records (the first hook of a thread
 * starts it: thread.c), then hands over to trace.c.
 */
#include "runtime.h"

#define NO_INSTRUMENT __attribute__((no_instrument_function))

NO_INSTRUMENT void __cyg_profile_func_enter(void *fn, void *site)
{
	struct thread_state *t = trace_current();

	/* a run that only samples leaves its hooks idle (trace.c) */
	if (UNLIKELY(runtime_config.contract.sample_only))
		return;

	/* the frame's place is the caller's stack pointer before it called
	 * here (16 above our frame address), so that a library call the
	 * function makes, whose return slot lies just below, nests in it */
	if (runtime_thread_ready(t))
		trace_enter_named(t, (uint64_t)(uintptr_t)fn,
				  (uintptr_t)__builtin_frame_address(0) + 16, (uintptr_t)site,
				  (uintptr_t)__builtin_return_address(0));
}

NO_INSTRUMENT void __cyg_profile_func_exit(void *fn, void *site)
{
	struct thread_state *t = trace_current();

	(void)site;
	if (LIKELY(t->status == THREAD_RECORDING) && !runtime_config.contract.sample_only)
		trace_exit_named(t, (uint64_t)(uintptr_t)fn);
}

/*
 * A -pg program's start-up code calls __monstartup and registers _mcleanup
 * to write gmon.out.  Under callscope the histogram timer would only add
 * noise and the file would clobber the user's own gmon.out, so both are
 * replaced by no-ops.
 */
NO_INSTRUMENT void __monstartup(unsigned long low, unsigned long high)
{
	(void)low;
	(void)high;
}

NO_INSTRUMENT void _mcleanup(void)
{
}
