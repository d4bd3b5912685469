/*
 * fault_threads THREADS CALLS: THREADS threads each call work() CALLS
 * times, so that the recording's size is known and can be made larger
 * than a file size limit or a small disk.
 */
#include <pthread.h>
#include <stdlib.h>

static volatile long sink;
static long calls;

__attribute__((noinline)) void work(long i)
{
	sink += i;
}

static void *thread_main(void *arg)
{
	for (long i = 0; i < calls; i++)
		work(i);
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	pthread_t t[64];

	calls = argc > 2 ? atol(argv[2]) : 100000;
	if (n < 1 || n > 64)
		return 2;
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, thread_main, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
