/*
 * C++ exceptions under -pg and -pg -mfentry.  The entry hooks redirect
 * each function's return address through the trampoline; an unwinder that
 * walked such a stack would find no unwind information for the trampoline
 * and end the program in std::terminate.  So the runtime stands in for the
 * calls that start an unwind (_Unwind_RaiseException for throw,
 * _Unwind_Resume_or_Rethrow for `throw;`) and puts the real return
 * addresses back first, and for __cxa_begin_catch, where a handler takes
 * the exception: the frames the exception left are closed as unwound and
 * the survivors redirected again.  -finstrument-functions needs none of
 * this (its exit hooks run as cleanups), and nothing changes for it: it
 * redirects no return address.
 *
 * pthread_exit unwinds the thread too (a forced unwind that runs C++
 * destructors), but glibc reaches libgcc through dlopen, past any
 * stand-in: the runtime stands in for pthread_exit itself.  Thread
 * cancellation, which starts that unwind inside libc, meets the
 * trampolines: their unwind information (patch/unwind_info.c) leads the
 * unwinder on to the real return addresses.
 */
#include "runtime.h"

#include <pthread.h>

#define NO_INSTRUMENT __attribute__((no_instrument_function))

typedef int (*unwind_fn)(struct _Unwind_Exception *);
typedef void *(*begin_catch_fn)(void *);
typedef void (*pthread_exit_fn)(void *);

static void before_unwind(void)
{
	struct thread_state *t = trace_current();

	if (t->status == THREAD_RECORDING && t->depth)
		trace_exception_thrown(t);
}

/* Starts the unwind with *NEXT, the unwinder's NAME, once the real
 * return addresses are back. */
static int unwind(unwind_fn *next, const char *name, struct _Unwind_Exception *e)
{
	if (!*next)
		*next = (unwind_fn)runtime_next_symbol(name);
	before_unwind();
	return (*next)(e);
}

EXPORT NO_INSTRUMENT int _Unwind_RaiseException(struct _Unwind_Exception *e)
{
	static unwind_fn next;
	return unwind(&next, "_Unwind_RaiseException", e);
}

EXPORT NO_INSTRUMENT int _Unwind_Resume_or_Rethrow(struct _Unwind_Exception *e)
{
	static unwind_fn next;
	return unwind(&next, "_Unwind_Resume_or_Rethrow", e);
}

/* The C++ ABI's per-thread exception state (libstdc++'s unwind-cxx.h). */
struct cxa_eh_globals {
	void *caught_exceptions;
	unsigned int uncaught_exceptions;
};
typedef struct cxa_eh_globals *(*get_globals_fn)(void);

/*
 * A handler takes an exception.  If another one is still being unwound
 * (this one was thrown and caught inside a destructor run by it), the
 * outer frames must keep their real return addresses until that one is
 * caught too.
 */
EXPORT NO_INSTRUMENT void *__cxa_begin_catch(void *e)
{
	static begin_catch_fn next;
	static get_globals_fn globals;
	struct thread_state *t = trace_current();

	if (!next) {
		next = (begin_catch_fn)runtime_next_symbol("__cxa_begin_catch");
		globals = (get_globals_fn)runtime_next_symbol("__cxa_get_globals");
	}
	void *thrown = next(e);
	if (t->status == THREAD_RECORDING && t->depth)
		trace_exception_caught(t, (uintptr_t)__builtin_frame_address(0) + sizeof(void *),
				       globals()->uncaught_exceptions == 0);
	return thrown;
}

/* The thread's calls never return now: the addresses go back for good,
 * and the open calls are closed when the thread ends. */
EXPORT NO_INSTRUMENT void pthread_exit(void *value)
{
	static pthread_exit_fn next;

	if (!next)
		next = (pthread_exit_fn)runtime_next_symbol("pthread_exit");
	before_unwind();
	next(value);
	__builtin_unreachable();
}
