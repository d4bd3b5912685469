/*
 * Three threads burning CPU in the ratio 1:2:3 (by work, not by time, so
 * the ratio holds however the machine shares its cores), for the sampler:
 * each thread's samples must follow its CPU time.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

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
	long units = (long)arg;
	for (long i = 0; i < units * 10; i++)
		burn(2000000);
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
