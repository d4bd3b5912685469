/*
 * libclock_stall.so: a CLOCK_MONOTONIC reading that comes after a quiet
 * stretch (more than a millisecond since the process's last one returned)
 * is held 20 ms before it reads the clock and 20 ms after, as a process
 * preempted or a virtual CPU descheduled around the call would be;
 * readings in quick succession go through at once.  A TSC reading paired
 * with the held one is then 20 ms off it: a launcher that pairs the clocks
 * once at the start and once at the end of a run measures a TSC rate off
 * by about twice that over the run's length.  Other clocks go through.
 * Not thread-safe, nor meant to be: a race only makes a reading slow or
 * fast when it would not have been.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <time.h>

#define QUIET_NS 1000000u	/* a stretch this long makes the next reading slow */
#define HOLD_NS 20000000u	/* how long a slow reading is held, on each side */

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);

static clock_gettime_fn real;

static uint64_t real_ns(void)
{
	struct timespec ts;

	real(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* spins, so that the shim calls nothing but the real clock */
static void hold(void)
{
	uint64_t until = real_ns() + HOLD_NS;

	while (real_ns() < until)
		;
}

int clock_gettime(clockid_t clock, struct timespec *ts)
{
	static uint64_t last_return;

	if (!real)
		real = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
	if (clock != CLOCK_MONOTONIC)
		return real(clock, ts);
	int slow = !last_return || real_ns() - last_return > QUIET_NS;
	if (slow)
		hold();
	int rc = real(clock, ts);
	if (slow)
		hold();
	last_return = real_ns();
	return rc;
}
