/*
 * libslow_perf_open.so: makes the opening of a perf event for the main
 * thread by another thread of its process wait until the main thread has
 * run CALLSCOPE_SLOW_PERF_OPEN_MS milliseconds of CPU time, as the
 * kernel's wait for an RCU grace period delays it when the machine had no
 * per-thread event open for a while (often 8–20 ms, not at all when
 * another program holds one).  CPU time, not wall time: on a loaded
 * machine the main thread may hardly run in a wall-clock wait, and the
 * tests count the samples taken meanwhile (at most twenty times as long
 * in wall time, for a main thread that blocks).  Preloaded (LD_PRELOAD) into a
 * recorded program, it lets the tests see the sampler's start-up while
 * that event is still being opened: the timer sampling the main thread,
 * a fork or an exit meanwhile.  Other calls of syscall() go through.
 *
 * With CALLSCOPE_SLOW_PERF_OPEN_HOLD set, the wait holds the lowest free
 * descriptor number of the calling thread's table, as the kernel reserves
 * the event's number before its wait: a number the program must not find
 * taken, which it would be if the opening thread shared its table.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef long (*syscall_fn)(long, ...);

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

/* Resolved and read once, as the library loads: syscall() is called
 * from the runtime's hooks, where a lazy dlsym() would run inside the
 * first hook, and while a program (tests/progs/sample_frames.c) has
 * overwritten the stack its environment lives on. */
static syscall_fn real;
static long slow_ms;
static int hold_number;

__attribute__((constructor)) static void slow_perf_open_init(void)
{
	const char *ms = getenv("CALLSCOPE_SLOW_PERF_OPEN_MS");

	real = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
	slow_ms = ms ? atol(ms) : 0;
	hold_number = getenv("CALLSCOPE_SLOW_PERF_OPEN_HOLD") != NULL;
}

long syscall(long number, ...)
{
	va_list ap;
	long a[6];

	va_start(ap, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	/* pid: the main thread's (the process's), from another thread */
	if (number == SYS_perf_event_open && slow_ms && a[1] == getpid() && gettid() != getpid()) {
		int held = hold_number ? open("/dev/null", O_RDONLY | O_CLOEXEC) : -1;
		wait_for_main_thread_cpu(a[1], slow_ms);
		if (held >= 0)
			close(held);
	}
	return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
