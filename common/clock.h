/*
 * The event clock: the TSC where it is constant and non-stop (converted to
 * nanoseconds offline from (tsc, CLOCK_MONOTONIC) pairs taken at the start
 * and the end of the run, so no calibration delays start-up), else
 * CLOCK_MONOTONIC in nanoseconds.
 */
#ifndef CALLSCOPE_COMMON_CLOCK_H
#define CALLSCOPE_COMMON_CLOCK_H

#include <stdint.h>
#include <time.h>

#include "contract.h"

static inline uint64_t clock_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t clock_tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	return clock_mono_ns();
#endif
}

static inline uint64_t clock_now(enum contract_clock kind)
{
	return kind == CONTRACT_CLOCK_TSC ? clock_tsc() : clock_mono_ns();
}

/* One instant read on both clocks: CLOCK the event clock of the kind
 * asked for, MONO_NS CLOCK_MONOTONIC. */
struct clock_pair {
	uint64_t clock, mono_ns;
};

enum { CLOCK_PAIR_TRIES = 4 };

/*
 * The TSC rate of a run is the ratio of two such pairs' spans, so a pair
 * read a few microseconds apart (the process preempted, or its virtual
 * CPU descheduled, between the two readings) puts every converted time
 * off by parts in a million.  Each try reads the TSC on both sides of
 * CLOCK_MONOTONIC; the try whose two TSC readings are closest was held up
 * least, and its TSC is taken as their midpoint.  Libc-only and
 * async-signal-safe (clock_gettime is), for the runtime's use as well.
 */
static inline struct clock_pair clock_pair_read(enum contract_clock kind)
{
	struct clock_pair best = { 0, 0 };
	uint64_t best_gap = UINT64_MAX;

	if (kind != CONTRACT_CLOCK_TSC) {
		best.clock = best.mono_ns = clock_mono_ns();
		return best;
	}
	for (int i = 0; i < CLOCK_PAIR_TRIES; i++) {
		uint64_t before = clock_tsc();
		uint64_t mono = clock_mono_ns();
		uint64_t gap = clock_tsc() - before;

		if (gap < best_gap) {
			best_gap = gap;
			best.clock = before + gap / 2;
			best.mono_ns = mono;
		}
	}
	return best;
}

#endif
