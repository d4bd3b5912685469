/*
 * Times one dlopen (RTLD_NOW) of the library named by argv[1] while
 * another thread keeps calling into a library loaded at start
 * (libbusy_a, tests/progs/patch_busy_lib.c): prints the loading thread's
 * CPU time and the wall time of the call, in microseconds, then calls
 * gen_0 of the library to show it works.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

long a_work(long n);

static volatile int stop;
static volatile long rounds;

static void *busy(void *arg)
{
	while (!stop) {
		a_work(10);
		rounds++;
	}
	return arg;
}

static double us(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc < 2)
		return 2;
	pthread_create(&t, NULL, busy, NULL);
	while (rounds < 1000)
		usleep(100);
	double cpu = us(CLOCK_THREAD_CPUTIME_ID), wall = us(CLOCK_MONOTONIC);
	void *h = dlopen(argv[1], RTLD_NOW);
	cpu = us(CLOCK_THREAD_CPUTIME_ID) - cpu;
	wall = us(CLOCK_MONOTONIC) - wall;
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	long (*gen_0)(long) = (long (*)(long))dlsym(h, "gen_0");
	stop = 1;
	pthread_join(t, NULL);
	printf("dlopen_cpu_us %.1f wall_us %.1f gen_0 %ld\n", cpu, wall, gen_0(3));
	return 0;
}
