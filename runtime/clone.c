/*
 * The runtime's stand-in for clone().  A child that clone() makes without
 * CLONE_VM is a process of its own, as fork's is, but libc runs no fork
 * handlers for it: it would go on recording into its copies of the
 * parent's buffers and read the parent's ring of switch records, which a
 * child does not inherit (its first hook died of SIGSEGV).  googletest's
 * thread-safe death tests make their children this way, on a stack of
 * two pages.  So the child starts on a stack of the runtime's own, where
 * it runs the fork handlers' child half (runtime_cloned(): all but the
 * control socket's thread, as libc is not ready for threads in such a
 * child; `callscope live` reaches it again once it execs), and then runs
 * the program's function on the program's stack.  A child sharing the
 * parent's memory (CLONE_VM: a thread, or a vfork as posix_spawn makes)
 * borrows the parent's state as a vfork child does, and goes as it is.
 */
#define _GNU_SOURCE
#include "runtime.h"

#include <sched.h>
#include <stdarg.h>
#include <sys/types.h>

typedef int (*clone_fn)(int (*)(void *), void *, int, void *, ...);

/* arch/x86_64/call_on_stack.S */
HIDDEN int callscope_call_on_stack(int (*fn)(void *), void *arg, void *top);

#define CHILD_STACK_BYTES (64 * 1024)

/* Each child has its own copy (no CLONE_VM); the parent never uses it. */
static char child_stack[CHILD_STACK_BYTES] __attribute__((aligned(16)));

struct clone_start {
	int (*fn)(void *);
	void *arg;
	void *stack;	/* the program's */
};

/* In the child, on child_stack: START lies in its copy of the parent's
 * memory, where the parent's frame left it. */
static int cloned(void *start)
{
	struct clone_start s = *(struct clone_start *)start;

	runtime_cloned();
	return callscope_call_on_stack(s.fn, s.arg, s.stack);
}

EXPORT int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	static clone_fn real;
	va_list ap;

	if (!real)
		real = (clone_fn)runtime_next_symbol("clone");
	/* the optional arguments, passed on whether or not FLAGS uses them,
	 * as libc's clone reads them */
	va_start(ap, arg);
	pid_t *parent_tid = va_arg(ap, pid_t *);
	void *tls = va_arg(ap, void *);
	pid_t *child_tid = va_arg(ap, pid_t *);
	va_end(ap);
	if ((flags & CLONE_VM) || !fn || !stack || !runtime_config.active)
		return real(fn, stack, flags, arg, parent_tid, tls, child_tid);
	struct clone_start start = { fn, arg, stack };
	return real(cloned, child_stack + sizeof(child_stack), flags, &start, parent_tid, tls,
		    child_tid);
}
