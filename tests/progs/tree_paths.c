/*
 * Known call paths, for the call-path tree tests:
 *   main/work_a              3 calls
 *   main/work_a/shared       6 (2 per work_a)
 *   main/work_b              5
 *   main/work_b/shared       5
 *   main/work_b/shared/leaf  5
 *   main/rec, main/rec/rec, main/rec/rec/rec, main/rec/rec/rec/rec   1 each
 *   main/rec/rec/rec/rec/leaf  1 (the innermost rec(1) calls leaf)
 *   main/ping/pong/ping/pong  1 each (ping(3): ping, pong, ping, pong)
 *   worker (a thread's outermost call)  1
 *   worker/shared            10
 * so shared runs 21 times, 21 of them outermost; leaf 6 times.
 */
#include <pthread.h>
#include <stdio.h>

static volatile long sink;

__attribute__((noinline)) void leaf(void) { sink++; }

__attribute__((noinline)) void shared(int with_leaf)
{
	for (int i = 0; i < 200; i++)
		sink += i;
	if (with_leaf)
		leaf();
}

__attribute__((noinline)) void work_a(void)
{
	shared(0);
	shared(0);
}

__attribute__((noinline)) void work_b(void)
{
	shared(1);
}

__attribute__((noinline)) int rec(int n)
{
	sink++;
	if (n <= 1) {
		leaf();
		return 1;
	}
	return 1 + rec(n - 1);
}

int pong(int n);
__attribute__((noinline)) int ping(int n) { sink++; return n <= 0 ? 0 : 1 + pong(n - 1); }
__attribute__((noinline)) int pong(int n) { sink++; return n <= 0 ? 0 : 1 + ping(n - 1); }

__attribute__((noinline)) void *worker(void *arg)
{
	for (int i = 0; i < 10; i++)
		shared(0);
	return arg;
}

int main(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, worker, NULL))
		return 1;
	pthread_join(t, NULL);
	for (int i = 0; i < 3; i++)
		work_a();
	for (int i = 0; i < 5; i++)
		work_b();
	int r = rec(4) + ping(3);
	printf("%d %ld\n", r, sink);
	return 0;
}
