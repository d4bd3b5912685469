/*
 * A thread that mostly waits: main sleeps about 0.4 s in nanosleep (going
 * back to sleep when a signal cuts it short) while a worker burns a
 * little CPU.  Sampled by CPU time, main barely shows; by wall time, its
 * sleep is most of its samples.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static volatile double sink;

__attribute__((noinline)) void burn(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	sink = x;
}

static void *worker(void *arg)
{
	(void)arg;
	burn(50000000);
	return NULL;
}

__attribute__((noinline)) void wait_a_while(void)
{
	struct timespec left = { 0, 400000000 };
	while (nanosleep(&left, &left) != 0 && errno == EINTR)
		;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, worker, NULL);
	wait_a_while();
	pthread_join(t, NULL);
	printf("done\n");
	return 0;
}
