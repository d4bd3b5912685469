/*
 * libcall_worker_only: the library calls of libcall_loops.c made only by
 * a thread still running when the process exits, so that no thread that
 * ended counted any.  main starts it through a pointer to pthread_create,
 * not the PLT, and makes no library call itself; the worker calls
 * lib_loop(50000) once, then spins until the process is gone.
 */
#include <pthread.h>

int tiny_step(int x);

static volatile int done;
static volatile int sink;

__attribute__((noinline)) int lib_loop(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += tiny_step(i);
	return s;
}

static void *worker(void *arg)
{
	sink = lib_loop(50000);
	done = 1;
	for (;;)
		;
	return arg;
}

int main(void)
{
	int (*volatile create)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
			       void *) = pthread_create;
	pthread_t t;

	if (create(&t, 0, worker, 0) != 0)
		return 1;
	while (!done)
		;
	return 0;
}
