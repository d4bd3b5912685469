/*
 * libstalled_timer.so: makes the periodic timers the main thread arms
 * signal once, then never again, as the kernel's CPU-time timers of a
 * thread on a loaded machine may (they are checked at the scheduler's
 * tick; on Linux 6.18 with other busy processes on every CPU, a thread
 * ran 200 ms of CPU time without one signal of its 1 ms timer).  Preloaded
 * (LD_PRELOAD) into a recorded program with CALLSCOPE_STALLED_TIMER set, it
 * lets the tests see that the sampler's start does not depend on its timer's
 * signals: the main thread's task-clock event must take over all the same,
 * and the CPU time the timer left unsampled must be counted.  Other
 * threads' timers, and every timer without that variable, are left alone.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

typedef int (*timer_settime_fn)(timer_t, int, const struct itimerspec *, struct itimerspec *);

int timer_settime(timer_t timer, int flags, const struct itimerspec *value, struct itimerspec *old)
{
	static timer_settime_fn real;

	if (!real)
		real = (timer_settime_fn)dlsym(RTLD_NEXT, "timer_settime");
	if (!getenv("CALLSCOPE_STALLED_TIMER") || gettid() != getpid())
		return real(timer, flags, value, old);
	/* the first expiry only */
	struct itimerspec once = *value;
	once.it_interval = (struct timespec){ 0, 0 };
	return real(timer, flags, &once, old);
}
