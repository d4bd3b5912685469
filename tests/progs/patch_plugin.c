/*
 * A library for tests/progs/patch_dlopen.c, built without hooks: its
 * constructor starts a thread that calls into it until told to stop, so
 * its code is running when the loader returns and it gets patched.
 */
#include <pthread.h>

static volatile int stop;
static volatile long spun;
static pthread_t spinner;

__attribute__((noinline)) long plugin_leaf(long i)
{
	return i * 3 + 1;
}

__attribute__((noinline)) long plugin_work(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += plugin_leaf(i);
	return s;
}

/* Called by the program only: its count is exact. */
__attribute__((noinline)) long plugin_once(long n)
{
	return plugin_work(n) + 1;
}

static volatile long rounds;

static void *spin(void *arg)
{
	while (!stop) {
		spun += plugin_work(50);
		rounds++;
	}
	return arg;
}

/* How many rounds the library's thread has made. */
long plugin_rounds(void)
{
	return rounds;
}

__attribute__((constructor)) static void plugin_start(void)
{
	pthread_create(&spinner, NULL, spin, NULL);
}

void plugin_stop(void)
{
	stop = 1;
	pthread_join(spinner, NULL);
}
