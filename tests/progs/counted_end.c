/*
 * Calls with known counts, then an end that leaves calls open:
 *
 *   counted_end N return   main returns
 *   counted_end N kill     SIGKILL from inside end_run()
 *   counted_end N thread   a second thread makes the same calls and is
 *                          still running, inside wait_forever(), when
 *                          main calls exit()
 *
 * Each thread that works calls mid() N times, which calls leaf_a() each
 * time and leaf_b() every third time (i % 3 == 0: (N + 2) / 3 times), so
 * the path below mid() changes from call to call; leaf_b() N times more
 * from work() itself; and deep() 10 times 2501 calls deep, each calling
 * leaf_a() too: 25010 calls of each, on 5002 call paths, more than a
 * table of 4096 paths can hold at once.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile unsigned sink;

__attribute__((noinline)) void leaf_a(void)
{
	sink++;
}

__attribute__((noinline)) void leaf_b(void)
{
	sink += 2;
}

__attribute__((noinline)) void mid(int i)
{
	leaf_a();
	if (i % 3 == 0)
		leaf_b();
	sink++;	/* no tail call */
}

__attribute__((noinline)) void deep(int n)
{
	leaf_a();
	if (n)
		deep(n - 1);
	sink++;
}

__attribute__((noinline)) void work(int n)
{
	for (int i = 0; i < n; i++) {
		mid(i);
		leaf_b();
	}
	for (int j = 0; j < 10; j++)
		deep(2500);
}

static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static int done;

__attribute__((noinline)) void wait_forever(void)
{
	pthread_mutex_lock(&done_lock);
	done = 1;
	pthread_cond_signal(&done_cond);
	pthread_mutex_unlock(&done_lock);
	for (;;)
		pause();
}

static void *worker(void *arg)
{
	work(*(int *)arg);
	wait_forever();
	return NULL;
}

__attribute__((noinline)) void end_run(const char *how)
{
	if (!strcmp(how, "kill"))
		kill(getpid(), SIGKILL);
	sink++;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	const char *how = argc > 2 ? argv[2] : "return";
	pthread_t t;

	if (!strcmp(how, "thread")) {
		if (pthread_create(&t, NULL, worker, &n) != 0)
			return 2;
		pthread_mutex_lock(&done_lock);
		while (!done)
			pthread_cond_wait(&done_cond, &done_lock);
		pthread_mutex_unlock(&done_lock);
	}
	work(n);
	end_run(how);
	if (!strcmp(how, "thread"))
		exit(0);
	return 0;
}
