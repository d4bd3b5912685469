/*
 * libslow_perf_open.so: makes the opening of a perf event for the main
 * thread by another thread of its process take CALLSCOPE_SLOW_PERF_OPEN_MS
 * milliseconds, as the kernel's wait for an RCU grace period does when the
 * machine had no per-thread event open for a while (often 8–20 ms, not at
 * all when another program holds one).  Preloaded (LD_PRELOAD) into a
 * recorded program, it lets the tests see the sampler's start-up while
 * that event is still being opened: the timer sampling the main thread,
 * a fork or an exit meanwhile.  Other calls of syscall() go through.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef long (*syscall_fn)(long, ...);

long syscall(long number, ...)
{
	static syscall_fn real;
	va_list ap;
	long a[6];

	if (!real)
		real = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
	va_start(ap, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	const char *ms = getenv("CALLSCOPE_SLOW_PERF_OPEN_MS");
	/* pid: the main thread's (the process's), from another thread */
	if (number == SYS_perf_event_open && ms && a[1] == getpid() && gettid() != getpid()) {
		long n = atol(ms);
		struct timespec ts = { n / 1000, (n % 1000) * 1000000 };
		nanosleep(&ts, NULL);
	}
	return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
