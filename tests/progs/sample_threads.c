/*
 * Three threads burning CPU in the ratio 1:2:3 (by work, not by time, so
 * the ratio holds however the machine shares its cores), for the sampler:
 * each thread's samples must follow its CPU time.  On a loaded machine the
 * CPU time a unit of work costs varies from thread to thread, so each
 * worker prints the CPU time its work really used, "cpu TID NANOSECONDS", and
 * the tests compare the samples with that rather than with the work.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;

__attribute__((noinline)) void burn(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	sink = x;
}

static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* Prints the CPU time of the work alone: what a profiler's start-up costs
 * the thread before its first instruction is not the program's. */
static void *worker(void *arg)
{
	long units = (long)arg;
	long long start = cpu_ns();

	for (long i = 0; i < units * 10; i++)
		burn(2000000);
	printf("cpu %ld %lld\n", (long)syscall(SYS_gettid), cpu_ns() - start);
	return NULL;
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	pthread_t t[3];

	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)((i + 1) * scale));
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("done\n");
	return 0;
}
