/*
 * Coroutines: swapcontext and setcontext move a thread to another stack.
 * Under -pg and -pg -mfentry the functions left suspended on the old
 * stack have their return addresses redirected through the trampoline,
 * and the shadow stack, one per thread, cannot follow them: its frames
 * are judged by the stack pointer, which means nothing across stacks.
 * A suspended frame that later returned through the trampoline would
 * find no frame of its own and the program would have to abort.
 *
 * So before a switch, every redirected return address of the thread is
 * given back (as for an exception, see exceptions.c) and forgotten: those
 * functions return directly, unseen, and are closed as unwound by stack
 * repair or at the end.  Calls stay counted exactly; the times of calls
 * that span a switch end at the next event the repair sees.  Frames
 * entered after the switch are redirected as usual.
 */
#include "runtime.h"

#include <ucontext.h>

#define NO_INSTRUMENT __attribute__((no_instrument_function))

typedef int (*swapcontext_fn)(ucontext_t *, const ucontext_t *);
typedef int (*setcontext_fn)(const ucontext_t *);

static void before_switch(void)
{
	struct thread_state *t = trace_current();

	if (t->status == THREAD_RECORDING && t->depth)
		trace_stack_switch(t);
}

EXPORT NO_INSTRUMENT int swapcontext(ucontext_t *save, const ucontext_t *to)
{
	static swapcontext_fn next;

	if (!next)
		next = (swapcontext_fn)runtime_next_symbol("swapcontext");
	before_switch();
	return next(save, to);
}

EXPORT NO_INSTRUMENT int setcontext(const ucontext_t *to)
{
	static setcontext_fn next;

	if (!next)
		next = (setcontext_fn)runtime_next_symbol("setcontext");
	before_switch();
	return next(to);
}
