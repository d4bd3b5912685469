/*
 * Threads of the runtime's own: the control socket's server, made with
 * libc's pthread_create (not the runtime's stand-in that starts
 * sampling), and the openers of the main thread's first perf events, made
 * by clone() alone, unseen by glibc (runtime_thread_spawn_unseen()).  All
 * start with every signal blocked, so the program's signals stay the
 * program's; they run only runtime and libc code, so no hook fires on
 * them.
 */
#define _GNU_SOURCE
#include "runtime.h"

#include "raw_syscall.h"

#include <dlfcn.h>
#include <linux/close_range.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
				 void *);

int runtime_thread_spawn(void *(*fn)(void *), void *arg)
{
	pthread_create_fn create = (pthread_create_fn)dlsym(RTLD_NEXT, "pthread_create");
	pthread_attr_t attr;
	pthread_t thread;
	sigset_t all, old;
	int rc = -1;

	if (!create || pthread_attr_init(&attr) != 0)
		return -1;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	sigfillset(&all);
	/* the thread inherits this mask: it takes none of the program's signals */
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = create(&thread, &attr, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return rc == 0 ? 0 : -1;
}

typedef int (*clone_fn)(int (*)(void *), void *, int, void *, ...);

/*
 * Made by pthread_create, any thread switches glibc for good to its paths
 * for many threads: every stdio call takes its stream's lock, malloc
 * takes its shared arenas' paths, __libc_single_threaded turns 0 (which
 * libstdc++'s shared_ptr reads).  A putc loop runs five times slower
 * here, and a single-threaded program's profile would show that, not the
 * program.  So the threads the runtime starts in every process (the
 * openers of the main thread's first perf events) are made by clone()
 * alone, which glibc does not see.  Such a thread runs on the main
 * thread's thread-local storage (no CLONE_SETTLS): it calls no function
 * that reads or writes it, errno included, only raw_syscall.h's system
 * calls, atomics and the vDSO's clocks.  It starts with every signal
 * blocked and ends by returning from FN (libc's clone then calls exit,
 * ending that thread alone).  STACK is the thread's for one start in the
 * process image: a second start is refused (-1), as is one in a fork's
 * child while the parent's thread may still be on its copy.
 */
int runtime_thread_spawn_unseen(int (*fn)(void *), void *arg, struct unseen_stack *stack)
{
	clone_fn create = (clone_fn)runtime_next_symbol("clone");
	/* the kernel's mask, 64 bits of signals 1 to 64, set by a raw system
	 * call: pthread_sigmask()'s stand-in keeps the sampler's signal
	 * unblocked, and a sample taken in libc's clone() here (the timer
	 * already runs as the waker starts) was time in libc outside any
	 * call, where it is the runtime's start-up; blocked, the signal
	 * comes as the mask is restored, in the runtime's own code */
	uint64_t all = ~(uint64_t)0, old = 0;

	if (__atomic_exchange_n(&stack->used, 1, __ATOMIC_ACQ_REL))
		return -1;
	if (raw_failed(raw_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, (long)&old,
				    sizeof(all), 0, 0)))
		return -1;
	int tid = create(fn, stack->bytes + sizeof(stack->bytes),
			 CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
				 CLONE_SYSVSEM,
			 arg);
	raw_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, sizeof(old), 0, 0);
	return tid > 0 ? 0 : -1;
}

/*
 * The kernel reserves an event's number when perf_event_open() begins and
 * installs the event at its end, and the first per-thread event opened on
 * a machine that had none for about a second waits in between for an RCU
 * grace period (8-20 ms).  Reserved that long in the program's table, the
 * number fails the program's dup2() onto it with EBUSY (a program that
 * takes 3 at once while a thread of the runtime's opens an event for the
 * main thread).  In a table of the thread's own it is no number the
 * program can see or take.  CLOSE_RANGE_UNSHARE (Linux 5.9) copies none
 * of the program's descriptors into it, so the thread holds none of the
 * program's files open: a pipe whose writer the program closes still
 * ends for its reader.
 */
int runtime_thread_own_descriptors(void)
{
	return raw_failed(raw_syscall3(SYS_close_range, 0, ~0u, CLOSE_RANGE_UNSHARE)) ? -1 : 0;
}

/* /proc/self/status, which runtime_thread_alone() reads */
static struct rt_kept_file status = { -1, { 0, 0 } };

/*
 * glibc ends the process (exit(0)) when the thread that ends is the last
 * one it counts, and it counts the runtime's threads too: a program whose
 * threads all end by pthread_exit, or return after the main thread's
 * pthread_exit, would live on with a thread of the runtime's alone.  That
 * thread returns when this says so, and glibc's exit(0) comes from it.
 * The leader stays a zombie member (State Z) until the process ends, so
 * "alone" is two threads, the leader a zombie.
 * The file is kept open (struct rt_kept_file), opened by
 * runtime_thread_alone_prepare().
 */
int runtime_thread_alone(void)
{
	char text[4096];
	ssize_t n = rt_kept_file_read(&status, text, sizeof(text) - 1, 0);

	if (n < 0)	/* the program closed it: opened again, for a moment */
		n = (ssize_t)rt_read_small_file("/proc/self/status", text, sizeof(text) - 1);
	text[n] = '\0';
	const char *state = strstr(text, "\nState:\t");
	const char *threads = strstr(text, "\nThreads:\t");
	return state && threads && state[8] == 'Z' && threads[10] == '2' && threads[11] == '\n';
}

void runtime_thread_alone_prepare(void)
{
	rt_kept_file_open(&status, "/proc/self/status");
}
