/*
 * Prints sysconf(_SC_OPEN_MAX) (the soft RLIMIT_NOFILE), then every
 * descriptor open below it, found as a program looking for its own finds
 * them (CPython's subprocess tests fstat each number), after argv[1] calls
 * on each of argv[2] threads (the main thread and argv[2] - 1 more, still
 * running while it looks); with argv[3] "fork", a child forked then
 * makes its calls and looks instead, and with argv[3] a number N, it also
 * looks N numbers past the limit (a program that lowered its limit below
 * descriptors it holds looks past it, as CPython's subprocess tests do).
 * A profiler that keeps descriptors of its own among the program's shows
 * here.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define THREADS_MAX 100

static long calls;
/* the calls' results, kept so that the compiler keeps the calls */
static volatile long sink;
static pthread_barrier_t looked_up, may_end;

__attribute__((noinline)) long step(long x)
{
	return x * 3 + 1;
}

static void work(void)
{
	long sum = 0;

	for (long i = 0; i < calls; i++)
		sum += step(i);
	sink += sum;
}

static void *thread_main(void *arg)
{
	(void)arg;
	work();
	pthread_barrier_wait(&looked_up);
	pthread_barrier_wait(&may_end);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 2 ? atoi(argv[2]) : 1;
	pthread_t others[THREADS_MAX];
	long open_max = sysconf(_SC_OPEN_MAX);
	long past = argc > 3 ? atol(argv[3]) : 0;
	struct stat st;

	calls = argc > 1 ? atol(argv[1]) : 1000;
	if (threads < 1 || threads > THREADS_MAX)
		threads = 1;
	pthread_barrier_init(&looked_up, NULL, (unsigned)threads);
	pthread_barrier_init(&may_end, NULL, (unsigned)threads);
	for (int i = 1; i < threads; i++)
		pthread_create(&others[i], NULL, thread_main, NULL);
	work();
	pthread_barrier_wait(&looked_up);
	pid_t child = argc > 3 && strcmp(argv[3], "fork") == 0 ? fork() : -1;
	if (child > 0) {
		waitpid(child, NULL, 0);
	} else {
		if (child == 0)
			work();
		printf("open max %ld\n", open_max);
		for (long fd = 0; fd < open_max + past; fd++)
			if (fstat((int)fd, &st) == 0)
				printf("%ld\n", fd);
		fflush(stdout);
		if (child == 0)
			_exit(0);
	}
	pthread_barrier_wait(&may_end);
	for (int i = 1; i < threads; i++)
		pthread_join(others[i], NULL);
	return 0;
}
