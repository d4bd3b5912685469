/* THREADS threads each call work() CALLS times; main calls work() once. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 4
#define CALLS 5000

static volatile long sink;

__attribute__((noinline)) void work(long i)
{
	sink += i;
}

__attribute__((noinline)) void *thread_main(void *arg)
{
	for (long i = 0; i < CALLS; i++)
		work(i);
	return arg;
}

int main(void)
{
	pthread_t t[THREADS];

	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, thread_main, NULL))
			return 1;
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	work(0);
	printf("%ld\n", sink);
	return 0;
}
