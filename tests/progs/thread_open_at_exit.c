/*
 * A thread still inside a call when the process exits: the thread makes N
 * calls of a leaf (its buffer grows meanwhile, pauses its clock leaves
 * out), then spins in hold() until the process ends.  main waits until
 * the thread is in hold(), lets it spin for MS milliseconds and calls
 * exit(); it prints how long hold() ran up to just before the exit, in
 * microseconds: of the thread's CPU time (which leaves out waits for a
 * CPU, as the thread's clock does) and of the real clock.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile long sink;
static long calls;
static long hold_began_ns;	/* 0 until the thread is in hold() */
static long hold_began_real_ns;

/* CLOCK's time: the worker's CPU time by its own or main's name for it,
 * or the real clock */
static long cpu_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec + 1;
}

__attribute__((noinline)) void leaf(long i)
{
	sink += i;
}

__attribute__((noinline)) void hold(void)
{
	hold_began_real_ns = cpu_ns(CLOCK_MONOTONIC);
	__atomic_store_n(&hold_began_ns, cpu_ns(CLOCK_THREAD_CPUTIME_ID), __ATOMIC_RELEASE);
	for (;;)
		sink++;
}

static void *worker(void *arg)
{
	(void)arg;
	for (long i = 0; i < calls; i++)
		leaf(i);
	hold();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th;
	long ms = argc > 2 ? atol(argv[2]) : 30;
	long began;

	calls = argc > 1 ? atol(argv[1]) : 1000;
	clockid_t worker_cpu;
	pthread_create(&th, NULL, worker, NULL);
	pthread_getcpuclockid(th, &worker_cpu);
	while (!(began = __atomic_load_n(&hold_began_ns, __ATOMIC_ACQUIRE)))
		;
	struct timespec pause = { ms / 1000, ms % 1000 * 1000000L };
	nanosleep(&pause, NULL);
	printf("%ld %ld\n", (cpu_ns(worker_cpu) - began) / 1000,
	       (cpu_ns(CLOCK_MONOTONIC) - hold_began_real_ns) / 1000);
	fflush(stdout);
	exit(0);
}
