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

#endif
