/*
 * A main thread that starts threads one after another, joining each
 * before the next: much of its CPU time is pthread_create's (the clone in
 * the kernel), whose samples keep their callers, spawn() and main().
 * Each thread burns a little CPU in work().
 *
 *   spawn_loop N
 */
#include <pthread.h>
#include <stdlib.h>

static volatile double sink;

__attribute__((noinline)) void work(void)
{
	double x = 0;
	for (int i = 0; i < 20000; i++)
		x += (double)i * 0.5;
	sink = x;
}

static void *run(void *arg)
{
	work();
	return arg;
}

__attribute__((noinline)) void spawn(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, run, NULL) == 0)
		pthread_join(t, NULL);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;

	for (int i = 0; i < n; i++)
		spawn();
	return 0;
}
