/*
 * libclock_creep.so: each CLOCK_MONOTONIC reading of the process runs one
 * millisecond further ahead of the real clock than the one before it, as
 * the reading paired with a TSC reading comes late when the process is
 * preempted or its virtual CPU descheduled between the two.  Preloaded
 * into `callscope top`, it makes each snapshot measure a TSC rate a little
 * higher than the one before it (live_socket.c pairs the clocks when it
 * seals a snapshot), so the sums of a function idle since long ago grow
 * from one snapshot to the next without any work: the conversion noise a
 * loaded machine gives by chance, every time.  Other clocks go through.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);

int clock_gettime(clockid_t clock, struct timespec *ts)
{
	static clock_gettime_fn real;
	static long creep_ms;

	if (!real)
		real = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
	int rc = real(clock, ts);
	if (rc != 0 || clock != CLOCK_MONOTONIC)
		return rc;
	long ns = ts->tv_nsec + (++creep_ms % 1000) * 1000000L;
	ts->tv_sec += creep_ms / 1000 + ns / 1000000000L;
	ts->tv_nsec = ns % 1000000000L;
	return rc;
}
