/*
 * libslow_perf_open.so: makes a thread of the runtime's own that glibc does
 * not know of (one clone() makes with CLONE_THREAD and no thread-local
 * storage of its own: the openers of the main thread's first perf events)
 * start its work only once the main thread has run
 * CALLSCOPE_SLOW_PERF_OPEN_MS milliseconds of CPU time, as the kernel's
 * wait for an RCU grace period delays the opening of a perf event when the
 * machine had no per-thread event open for a while (often 8–20 ms, not at
 * all when another program holds one).  Those threads make their system
 * calls without libc, so the wait is put before their start.  CPU time,
 * not wall time: on a loaded machine the main thread may hardly run in a
 * wall-clock wait, and the tests count the samples taken meanwhile (at
 * most twenty times as long in wall time, for a main thread that blocks).
 * Preloaded (LD_PRELOAD) into a recorded program after the runtime, whose
 * clone() calls reach it, it lets the tests see the sampler's start-up
 * while that event is still being opened: the timer sampling the main
 * thread, a fork or an exit meanwhile.  Other calls of clone() go through.
 *
 * With CALLSCOPE_SLOW_PERF_OPEN_HOLD set, the wait holds the lowest free
 * descriptor number of a table of the thread's own (as the runtime gives
 * it one before opening), as the kernel reserves the event's number before
 * its wait: a number the program must not find taken, which it would be if
 * the opening thread shared its table.
 *
 * The wait runs on the new thread, on the main thread's thread-local
 * storage: only calls that succeed, which write no errno.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef int (*clone_fn)(int (*)(void *), void *, int, void *, ...);

static double seconds(clockid_t clock)
{
	struct timespec ts;

	return clock_gettime(clock, &ts) == 0 ? (double)ts.tv_sec + ts.tv_nsec / 1e9 : 0;
}

/* Waits until thread TID has run MS milliseconds of CPU, or twenty times
 * that has passed. */
static void wait_for_main_thread_cpu(long tid, long ms)
{
	/* the kernel's CPU-time clock of one thread (CPUCLOCK_SCHED, per thread) */
	clockid_t cpu = (clockid_t)((~(unsigned)tid << 3) | 6);
	double until = seconds(CLOCK_MONOTONIC) + 20 * ms / 1e3;
	struct timespec tick = { 0, 1000000 };

	while (seconds(cpu) < ms / 1e3 && seconds(CLOCK_MONOTONIC) < until)
		nanosleep(&tick, NULL);
}

/* Resolved and read once, as the library loads. */
static clone_fn real;
static long slow_ms;
static int hold_number;

__attribute__((constructor)) static void slow_perf_open_init(void)
{
	const char *ms = getenv("CALLSCOPE_SLOW_PERF_OPEN_MS");

	real = (clone_fn)dlsym(RTLD_NEXT, "clone");
	slow_ms = ms ? atol(ms) : 0;
	hold_number = getenv("CALLSCOPE_SLOW_PERF_OPEN_HOLD") != NULL;
}

/* The delayed threads' work, one slot each (a process starts two). */
static struct delayed {
	int (*fn)(void *);
	void *arg;
} delayed[8];
static int ndelayed;

static int delayed_start(void *p)
{
	struct delayed *d = p;
	int held = -1;

	if (hold_number && syscall(SYS_close_range, 0, ~0u, CLOSE_RANGE_UNSHARE) == 0)
		held = open("/dev/null", O_RDONLY | O_CLOEXEC);
	wait_for_main_thread_cpu(getpid(), slow_ms);
	if (held >= 0)
		close(held);
	return d->fn(d->arg);
}

int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	va_list ap;

	va_start(ap, arg);
	void *parent_tid = va_arg(ap, void *);
	void *tls = va_arg(ap, void *);
	void *child_tid = va_arg(ap, void *);
	va_end(ap);
	int unseen = (flags & CLONE_THREAD) && !(flags & CLONE_SETTLS);
	int slot = unseen && slow_ms ? __atomic_fetch_add(&ndelayed, 1, __ATOMIC_RELAXED) : -1;
	if (slot >= 0 && slot < (int)(sizeof(delayed) / sizeof(delayed[0]))) {
		delayed[slot] = (struct delayed){ fn, arg };
		fn = delayed_start;
		arg = &delayed[slot];
	}
	return real(fn, stack, flags, arg, parent_tid, tls, child_tid);
}
