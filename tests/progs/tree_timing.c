/*
 * Known durations and periods, for the per-function statistics:
 *   nap(us) sleeps: 6 naps of 1 ms and 2 of 20 ms, so 2 calls take at
 *     least 20 ms and 6 take far less than 8 ms
 *   tick() runs 10 times on the main thread, 2 ms apart (a 2 ms nap
 *     between), and 5 times on each of 2 worker threads: 9 + 4 + 4 = 17
 *     periods, each at least 2 ms on the main thread
 *   once() runs once: no spread, no period
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static volatile long sink;

__attribute__((noinline)) void nap(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
	while (nanosleep(&ts, &ts))
		;
}

__attribute__((noinline)) void tick(void) { sink++; }

__attribute__((noinline)) void once(void) { sink++; }

__attribute__((noinline)) void *worker(void *arg)
{
	for (int i = 0; i < 5; i++)
		tick();
	return arg;
}

int main(void)
{
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker, NULL))
			return 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	once();
	for (int i = 0; i < 6; i++)
		nap(1000);
	for (int i = 0; i < 2; i++)
		nap(20000);
	for (int i = 0; i < 10; i++) {
		tick();
		struct timespec ts = { 0, 2000000 };
		while (nanosleep(&ts, &ts))
			;
	}
	printf("%ld\n", sink);
	return 0;
}
