/*
 * The main thread calls burn() ROUNDS times, each spinning through LOOPS
 * million iterations that call nothing (no hook runs until it returns),
 * while a second thread spins beside it on the same CPU (both pinned to
 * the first CPU the process may use), so the scheduler preempts each in
 * turn.  Prints the CPU time and the wall time burn's calls took, in ns:
 * "cpu wall".  A third argument, MS, makes it sleep MS ms first: built
 * with -finstrument-functions (main has no hooks), its first hook comes
 * after that.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile int done;

static uint64_t ns_of(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__attribute__((noinline)) void burn(long loops)
{
	for (volatile long i = 0; i < loops; i++)
		;
}

static void *rival(void *arg)
{
	(void)arg;
	while (!done)
		;
	return NULL;
}

__attribute__((no_instrument_function)) int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 10;
	long loops = (argc > 2 ? atol(argv[2]) : 10) * 1000000;
	long pause_ms = argc > 3 ? atol(argv[3]) : 0;
	struct timespec pause = { pause_ms / 1000, pause_ms % 1000 * 1000000 };
	cpu_set_t set;
	pthread_t other;

	nanosleep(&pause, NULL);
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 1;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set)) {
			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			break;
		}
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		return 1;
	pthread_create(&other, NULL, rival, NULL);
	uint64_t cpu0 = ns_of(CLOCK_THREAD_CPUTIME_ID), wall0 = ns_of(CLOCK_MONOTONIC);
	for (int i = 0; i < rounds; i++)
		burn(loops);
	uint64_t cpu = ns_of(CLOCK_THREAD_CPUTIME_ID) - cpu0, wall = ns_of(CLOCK_MONOTONIC) - wall0;
	done = 1;
	pthread_join(other, NULL);
	printf("%llu %llu\n", (unsigned long long)cpu, (unsigned long long)wall);
	return 0;
}
